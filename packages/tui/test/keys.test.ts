import { afterEach, describe, expect, it } from "vitest";
import { Key } from "../src/key-ids.js";
import {
	decodeKittyPrintable,
	decodePrintableKey,
	isKeyRelease,
	isKeyRepeat,
	matchesKey,
	parseKey,
	setKittyProtocolActive,
} from "../src/keys.js";

afterEach(() => setKittyProtocolActive(false));

// Byte sequences as real terminals send them (xterm, iTerm2, kitty, Windows Terminal, tmux).
const TABLE: [string, string, string][] = [
	// legacy
	["\r", "enter", "Enter"],
	["\t", "tab", "Tab"],
	["\x1b[Z", "shift+tab", "Shift+Tab"],
	["\x7f", "backspace", "Backspace (xterm)"],
	["\x08", "ctrl+backspace", "Ctrl+Backspace (xterm)"],
	["\x1b", "escape", "lone Escape"],
	["\x03", "ctrl+c", "Ctrl+C"],
	["\x01", "ctrl+a", "Ctrl+A"],
	["\x1a", "ctrl+z", "Ctrl+Z"],
	["\x1d", "ctrl+]", "Ctrl+]"],
	["\x1f", "ctrl+-", "Ctrl+- (sends US)"],
	["\x00", "ctrl+space", "Ctrl+Space"],
	[" ", "space", "Space"],
	["a", "a", "letter"],
	["A", "shift+a", "capital letter"],
	["?", "?", "symbol"],
	["é", "é", "non-ASCII letter"],
	["\x1b[A", "up", "Up"],
	["\x1bOB", "down", "Down (application mode)"],
	["\x1b[C", "right", "Right"],
	["\x1b[D", "left", "Left"],
	["\x1b[1;3D", "alt+left", "Alt+Left (xterm)"],
	["\x1b[1;5C", "ctrl+right", "Ctrl+Right"],
	["\x1b[1;2A", "shift+up", "Shift+Up"],
	["\x1b[1;6D", "ctrl+shift+left", "Ctrl+Shift+Left"],
	["\x1b[H", "home", "Home"],
	["\x1b[F", "end", "End"],
	["\x1bOH", "home", "Home (application mode)"],
	["\x1b[1~", "home", "Home (rxvt/tmux)"],
	["\x1b[4~", "end", "End (rxvt/tmux)"],
	["\x1b[3~", "delete", "Delete"],
	["\x1b[3;3~", "alt+delete", "Alt+Delete"],
	["\x1b[2~", "insert", "Insert"],
	["\x1b[5~", "pageUp", "Page Up"],
	["\x1b[6~", "pageDown", "Page Down"],
	["\x1bOP", "f1", "F1"],
	["\x1b[15~", "f5", "F5"],
	["\x1b[24~", "f12", "F12"],
	["\x1b[1;5P", "ctrl+f1", "Ctrl+F1"],
	["\x1b\r", "alt+enter", "Alt+Enter"],
	["\x1b\x7f", "alt+backspace", "Alt+Backspace"],
	["\x1bb", "alt+b", "Alt+B"],
	["\x1bd", "alt+d", "Alt+D"],
	["\x1bB", "shift+alt+b", "Alt+Shift+B"],
	["\x1b\x1d", "ctrl+alt+]", "Ctrl+Alt+]"],
	["\x1b\x1b[A", "alt+up", "Alt+Up (ESC-prefixed)"],
	// xterm modifyOtherKeys
	["\x1b[27;2;13~", "shift+enter", "Shift+Enter (modifyOtherKeys)"],
	["\x1b[27;5;99~", "ctrl+c", "Ctrl+C (modifyOtherKeys)"],
	// Kitty keyboard protocol (CSI u)
	["\x1b[13;2u", "shift+enter", "Shift+Enter (kitty)"],
	["\x1b[13;5u", "ctrl+enter", "Ctrl+Enter (kitty)"],
	["\x1b[13;3u", "alt+enter", "Alt+Enter (kitty)"],
	["\x1b[99;5u", "ctrl+c", "Ctrl+C (kitty)"],
	["\x1b[112;6u", "ctrl+shift+p", "Ctrl+Shift+P (kitty)"],
	["\x1b[27u", "escape", "Escape (kitty)"],
	["\x1b[9;2u", "shift+tab", "Shift+Tab (kitty)"],
	["\x1b[127;3u", "alt+backspace", "Alt+Backspace (kitty)"],
	["\x1b[127;5u", "ctrl+backspace", "Ctrl+Backspace (kitty)"],
	["\x1b[45;5u", "ctrl+-", "Ctrl+- (kitty)"],
	["\x1b[93;7u", "ctrl+alt+]", "Ctrl+Alt+] (kitty)"],
	["\x1b[57414u", "enter", "keypad Enter (kitty)"],
	["\x1b[98;9u", "super+b", "Super+B (kitty)"],
	["\x1b[1;3:1A", "alt+up", "Alt+Up press with event type"],
	["\x1b[97;5:2u", "ctrl+a", "Ctrl+A repeat"],
];

describe("key decoding table", () => {
	it.each(TABLE)("%j → %s (%s)", (data, id) => {
		expect(parseKey(data)).toBe(id);
		expect(matchesKey(data, id)).toBe(true);
	});
});

describe("matchesKey", () => {
	it("accepts modifiers in any order and aliases", () => {
		expect(matchesKey("\x1b[112;6u", "shift+ctrl+p")).toBe(true);
		expect(matchesKey("\x1b[112;6u", Key.ctrlShift("p"))).toBe(true);
		expect(matchesKey("\x1b", "esc")).toBe(true);
		expect(matchesKey("\r", "return")).toBe(true);
	});
	it("does not confuse neighbours", () => {
		expect(matchesKey("\r", "shift+enter")).toBe(false);
		expect(matchesKey("\x1b[13;2u", "enter")).toBe(false);
		expect(matchesKey("\x03", "c")).toBe(false);
		expect(matchesKey("c", "ctrl+c")).toBe(false);
		expect(matchesKey("\x1b[1;5C", "right")).toBe(false);
	});
	it("accepts each meaning of an ambiguous byte", () => {
		expect(matchesKey("\x1f", "ctrl+_")).toBe(true);
		expect(matchesKey("\x1f", "ctrl+/")).toBe(true);
		expect(matchesKey("\t", "ctrl+i")).toBe(true);
		expect(matchesKey("\x1bf", "alt+right")).toBe(true); // macOS Option+Right
		expect(matchesKey("\n", "ctrl+j")).toBe(true);
	});
	it("matches the base-layout key of non-Latin layouts", () => {
		// Russian layout: Ctrl+С reports code 1089 with base key 'c'.
		expect(matchesKey("\x1b[1089::99;5u", "ctrl+c")).toBe(true);
	});
	it("never matches a key release", () => {
		expect(matchesKey("\x1b[99;5:3u", "ctrl+c")).toBe(false);
	});
});

describe("event types", () => {
	it("detects release and repeat", () => {
		expect(isKeyRelease("\x1b[99;5:3u")).toBe(true);
		expect(isKeyRelease("\x1b[1;1:3A")).toBe(true);
		expect(isKeyRelease("\x1b[99;5u")).toBe(false);
		expect(isKeyRepeat("\x1b[97;1:2u")).toBe(true);
		expect(isKeyRelease("a")).toBe(false);
	});
});

describe("printable decoding", () => {
	it("decodes Kitty printable keys", () => {
		expect(decodeKittyPrintable("\x1b[97u")).toBe("a");
		expect(decodeKittyPrintable("\x1b[97;2u")).toBe("A");
		expect(decodeKittyPrintable("\x1b[49:33;2u")).toBe("!");
		expect(decodeKittyPrintable("\x1b[97;5u")).toBeUndefined();
		expect(decodeKittyPrintable("\x1b[97;1:3u")).toBeUndefined();
		expect(decodeKittyPrintable("\x1b[97;1;228u")).toBe("ä");
	});
	it("treats plain text as printable and control keys as not", () => {
		expect(decodePrintableKey("x")).toBe("x");
		expect(decodePrintableKey("日本")).toBe("日本");
		expect(decodePrintableKey("\r")).toBeUndefined();
		expect(decodePrintableKey("\x1b[A")).toBeUndefined();
	});
});
