// Live light/dark reports (DEC mode 2031): the TUI asks for them only while
// someone listens and it runs, turns them off when it stops, and a report
// reaches the listeners instead of the focused component — even when the
// terminal sends it in pieces or next to a key press.
import { describe, expect, it } from "vitest";
import type { Component } from "../src/component.js";
import { StdinBuffer } from "../src/stdin-buffer.js";
import { MemoryTerminal } from "../src/terminal.js";
import { COLOR_SCHEME_NOTIFY_OFF, COLOR_SCHEME_NOTIFY_ON, parseColorSchemeReport } from "../src/terminal-background.js";
import { TUI } from "../src/tui.js";

class KeySink implements Component {
	keys: string[] = [];
	render(): string[] {
		return ["sink"];
	}
	handleInput(data: string): void {
		this.keys.push(data);
	}
	invalidate(): void {}
}

describe("colour-scheme reports", () => {
	it("parses dark (1) and light (2); several in one chunk count as the last; other input is not a report", () => {
		expect(parseColorSchemeReport("\x1b[?997;1n")).toBe("dark");
		expect(parseColorSchemeReport("\x1b[?997;2n")).toBe("light");
		expect(parseColorSchemeReport("\x1b[?997;1n\x1b[?997;2n")).toBe("light");
		expect(parseColorSchemeReport("\x1b[?997;3n")).toBeUndefined();
		expect(parseColorSchemeReport("a\x1b[?997;1n")).toBeUndefined();
		expect(parseColorSchemeReport("\x1b[A")).toBeUndefined();
	});

	it("the TUI turns notifications on while listened to and running, off at stop; reports go to listeners, keys to the focus", () => {
		const terminal = new MemoryTerminal(40, 10);
		const tui = new TUI(terminal);
		const sink = new KeySink();
		tui.addChild(sink);
		tui.setFocus(sink);
		tui.start();
		expect(terminal.takeOutput()).not.toContain(COLOR_SCHEME_NOTIFY_ON);
		// Without a listener a report is ordinary input.
		terminal.sendInput("\x1b[?997;2n");
		expect(sink.keys).toEqual(["\x1b[?997;2n"]);
		const seen: string[] = [];
		const off = tui.onColorSchemeChange((a) => seen.push(a));
		expect(terminal.takeOutput()).toContain(COLOR_SCHEME_NOTIFY_ON);
		terminal.sendInput("\x1b[?997;2n");
		terminal.sendInput("x");
		terminal.sendInput("\x1b[?997;1n");
		expect(seen).toEqual(["light", "dark"]);
		expect(sink.keys).toEqual(["\x1b[?997;2n", "x"]);
		tui.stop();
		expect(terminal.takeOutput()).toContain(COLOR_SCHEME_NOTIFY_OFF);
		// Started again (after an external editor): asked again.
		tui.start();
		expect(terminal.takeOutput()).toContain(COLOR_SCHEME_NOTIFY_ON);
		off();
		expect(terminal.takeOutput()).toContain(COLOR_SCHEME_NOTIFY_OFF);
		tui.stop();
		expect(terminal.takeOutput()).not.toContain(COLOR_SCHEME_NOTIFY_OFF);
	});

	it("the input buffer delivers a report split across reads, or glued to a key, as one chunk of its own", () => {
		const buf = new StdinBuffer({ timeout: 10 });
		const chunks: string[] = [];
		buf.on("data", (d) => chunks.push(d));
		buf.process("\x1b[?99");
		buf.process("7;2n");
		buf.process("q\x1b[?997;1n");
		expect(chunks).toEqual(["\x1b[?997;2n", "q", "\x1b[?997;1n"]);
		buf.destroy?.();
	});
});
