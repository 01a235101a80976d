/**
 * Keyboard input decoding: legacy terminal sequences, xterm modifyOtherKeys
 * and the Kitty keyboard protocol (CSI u, with event types and alternate keys).
 *
 * One input chunk (as split by StdinBuffer) may stand for several key names:
 * "\x1f" is ctrl+_ , ctrl+- and ctrl+/ depending on the terminal; matching
 * accepts any of them, while `parseKey` returns the first.
 */
import { formatKeyId, type KeyCombo, type KeyId, parseKeyId } from "./key-ids.js";

export type KeyEventType = "press" | "repeat" | "release";

/** A decoded key press. */
export interface KeyEvent extends KeyCombo {
	eventType: KeyEventType;
}

let kittyActive = false;

/** Record whether the Kitty keyboard protocol is active (set by ProcessTerminal). */
export function setKittyProtocolActive(active: boolean): void {
	kittyActive = active;
}

/** Whether the Kitty keyboard protocol is active. */
export function isKittyProtocolActive(): boolean {
	return kittyActive;
}

function ev(key: string, mods: Partial<KeyCombo> = {}, eventType: KeyEventType = "press"): KeyEvent {
	return {
		key,
		ctrl: mods.ctrl ?? false,
		shift: mods.shift ?? false,
		alt: mods.alt ?? false,
		super: mods.super ?? false,
		eventType,
	};
}

/** Decode a modifier parameter (1 + bit mask) of CSI sequences. */
function decodeMods(param: number): Partial<KeyCombo> {
	const m = Math.max(0, param - 1);
	return { shift: (m & 1) !== 0, alt: (m & 2) !== 0, ctrl: (m & 4) !== 0, super: (m & 8) !== 0 };
}

function decodeEventType(s: string | undefined): KeyEventType {
	if (s === "2") return "repeat";
	if (s === "3") return "release";
	return "press";
}

const TILDE_KEYS: Record<number, string> = {
	1: "home",
	2: "insert",
	3: "delete",
	4: "end",
	5: "pageUp",
	6: "pageDown",
	7: "home",
	8: "end",
	11: "f1",
	12: "f2",
	13: "f3",
	14: "f4",
	15: "f5",
	17: "f6",
	18: "f7",
	19: "f8",
	20: "f9",
	21: "f10",
	23: "f11",
	24: "f12",
};

const LETTER_KEYS: Record<string, string> = {
	A: "up",
	B: "down",
	C: "right",
	D: "left",
	E: "clear",
	H: "home",
	F: "end",
	P: "f1",
	Q: "f2",
	R: "f3",
	S: "f4",
};

/** Kitty functional key codes (private use area) and C0 codes used by CSI u. */
const KITTY_CODES: Record<number, string> = {
	27: "escape",
	13: "enter",
	9: "tab",
	127: "backspace",
	8: "backspace",
	32: "space",
	57399: "0",
	57400: "1",
	57401: "2",
	57402: "3",
	57403: "4",
	57404: "5",
	57405: "6",
	57406: "7",
	57407: "8",
	57408: "9",
	57409: ".",
	57410: "/",
	57411: "*",
	57412: "-",
	57413: "+",
	57414: "enter",
	57415: "=",
	57417: "left",
	57418: "right",
	57419: "up",
	57420: "down",
	57421: "pageUp",
	57422: "pageDown",
	57423: "home",
	57424: "end",
	57425: "insert",
	57426: "delete",
	57427: "clear",
};

function codepointKey(cp: number): string | undefined {
	const named = KITTY_CODES[cp];
	if (named) return named;
	if (cp >= 57344 && cp <= 63743) return undefined; // other functional keys (modifiers, media)
	if (cp < 32) return undefined;
	return String.fromCodePoint(cp).toLowerCase();
}

/** Interpretations of a single non-escape character. */
function parseChar(ch: string): KeyEvent[] {
	const c = ch.codePointAt(0) ?? 0;
	switch (c) {
		case 0x0d:
			return [ev("enter")];
		case 0x0a:
			return [ev("j", { ctrl: true }), ev("enter", { shift: true })];
		case 0x09:
			return [ev("tab"), ev("i", { ctrl: true })];
		case 0x7f:
			return [ev("backspace")];
		case 0x08:
			return [ev("backspace", { ctrl: true }), ev("h", { ctrl: true }), ev("backspace")];
		case 0x1b:
			return [ev("escape")];
		case 0x20:
			return [ev("space")];
		case 0x00:
			return [ev("space", { ctrl: true }), ev("@", { ctrl: true })];
		case 0x1c:
			return [ev("\\", { ctrl: true })];
		case 0x1d:
			return [ev("]", { ctrl: true })];
		case 0x1e:
			return [ev("^", { ctrl: true }), ev("6", { ctrl: true })];
		case 0x1f:
			return [ev("-", { ctrl: true }), ev("_", { ctrl: true }), ev("/", { ctrl: true })];
	}
	if (c >= 0x01 && c <= 0x1a) return [ev(String.fromCharCode(c + 0x60), { ctrl: true })];
	if (c < 0x20) return [];
	if (ch >= "A" && ch <= "Z") return [ev(ch.toLowerCase(), { shift: true })];
	return [ev(ch)];
}

const CSI_RE = /^\x1b\[([0-9:;<=>?]*)([ -/]*)([@-~])$/;
const SS3_RE = /^\x1bO([0-9;]*)([A-Za-z])$/;

function parseCsi(params: string, final: string): KeyEvent[] {
	const fields = params.split(";");
	if (final === "u") {
		// CSI code[:shifted[:base]] ; mods[:event] ; text u
		const [codes = "", modField = "1"] = fields;
		const [code, shifted, base] = codes.split(":").map((s) => (s === "" ? undefined : Number.parseInt(s, 10)));
		const [modStr, evStr] = modField.split(":");
		const mods = decodeMods(Number.parseInt(modStr || "1", 10));
		const type = decodeEventType(evStr);
		const out: KeyEvent[] = [];
		const key = code === undefined ? undefined : codepointKey(code);
		if (key) out.push(ev(key, mods, type));
		if (shifted !== undefined && mods.shift) {
			const sk = codepointKey(shifted);
			if (sk && sk !== key) out.push(ev(sk, { ...mods, shift: false }, type));
		}
		if (base !== undefined) {
			const bk = codepointKey(base);
			if (bk && bk !== key) out.push(ev(bk, mods, type));
		}
		return out;
	}
	if (final === "~") {
		const num = Number.parseInt(fields[0] || "0", 10);
		if (num === 27 && fields.length >= 3) {
			// xterm modifyOtherKeys: CSI 27 ; mods ; code ~
			const key = codepointKey(Number.parseInt(fields[2], 10));
			return key ? [ev(key, decodeMods(Number.parseInt(fields[1], 10)))] : [];
		}
		const key = TILDE_KEYS[num];
		if (!key) return [];
		const [modStr, evStr] = (fields[1] ?? "1").split(":");
		return [ev(key, decodeMods(Number.parseInt(modStr || "1", 10)), decodeEventType(evStr))];
	}
	if (final === "Z") return [ev("tab", { shift: true })];
	const key = LETTER_KEYS[final];
	if (!key || (fields[0] !== "" && fields[0] !== "1")) return [];
	const [modStr, evStr] = (fields[1] ?? "1").split(":");
	return [ev(key, decodeMods(Number.parseInt(modStr || "1", 10)), decodeEventType(evStr))];
}

const cache = new Map<string, KeyEvent[]>();

/** All key interpretations of one input chunk, best first. */
export function parseKeyEvents(data: string): KeyEvent[] {
	const hit = cache.get(data);
	if (hit) return hit;
	const result = parseUncached(data);
	if (cache.size > 512) cache.clear();
	cache.set(data, result);
	return result;
}

function parseUncached(data: string): KeyEvent[] {
	if (data.length === 0) return [];
	if (data[0] !== "\x1b") {
		const first = String.fromCodePoint(data.codePointAt(0) ?? 0);
		return first.length === data.length ? parseChar(data) : [];
	}
	if (data.length === 1) return [ev("escape")];
	let m = CSI_RE.exec(data);
	if (m) return m[2] === "" ? parseCsi(m[1], m[3]) : [];
	m = SS3_RE.exec(data);
	if (m) {
		if (m[2] === "M") return [ev("enter")];
		const key = LETTER_KEYS[m[2]];
		if (!key) return [];
		return [ev(key, m[1] ? decodeMods(Number.parseInt(m[1].split(";").pop() ?? "1", 10)) : {})];
	}
	// ESC followed by a key: the legacy Alt prefix.
	const rest = data.slice(1);
	const inner = parseUncached(rest);
	const out = inner.filter((e) => !e.alt).map((e) => ({ ...e, alt: true }));
	// macOS terminals send ESC b / ESC f for Option+Left / Option+Right.
	if (rest === "b") out.push(ev("left", { alt: true }));
	if (rest === "f") out.push(ev("right", { alt: true }));
	return out;
}

/** The key id of an input chunk (`"ctrl+c"`, `"shift+enter"`, `"a"`), or undefined. */
export function parseKey(data: string): string | undefined {
	const first = parseKeyEvents(data)[0];
	return first ? formatKeyId(first) : undefined;
}

const idCache = new Map<string, KeyCombo | undefined>();

function comboOf(id: string): KeyCombo | undefined {
	if (idCache.has(id)) return idCache.get(id);
	const combo = parseKeyId(id);
	idCache.set(id, combo);
	return combo;
}

/**
 * Whether an input chunk is the given key, e.g. `matchesKey(data, "ctrl+c")`.
 * Key release events never match (see `isKeyRelease`).
 */
export function matchesKey(data: string, keyId: KeyId | string): boolean {
	const target = comboOf(keyId);
	if (!target) return false;
	for (const e of parseKeyEvents(data)) {
		if (e.eventType === "release") continue;
		if (
			e.key === target.key &&
			e.ctrl === target.ctrl &&
			e.shift === target.shift &&
			e.alt === target.alt &&
			e.super === target.super
		)
			return true;
	}
	return false;
}

/** Whether the chunk is a Kitty key release event. */
export function isKeyRelease(data: string): boolean {
	const first = parseKeyEvents(data)[0];
	return first?.eventType === "release";
}

/** Whether the chunk is a Kitty key repeat event. */
export function isKeyRepeat(data: string): boolean {
	const first = parseKeyEvents(data)[0];
	return first?.eventType === "repeat";
}

const KITTY_U_RE = /^\x1b\[(\d+)(?::(\d*))?(?::\d*)?(?:;(\d*)(?::(\d))?)?(?:;([\d:]+))?u$/;

/**
 * The printable text of a Kitty CSI u key event without Ctrl/Alt/Super
 * (plain or shifted keys), or undefined.
 */
export function decodeKittyPrintable(data: string): string | undefined {
	const m = KITTY_U_RE.exec(data);
	if (!m) return undefined;
	if (m[4] === "3") return undefined;
	const mods = decodeMods(Number.parseInt(m[3] || "1", 10));
	if (mods.ctrl || mods.alt || mods.super) return undefined;
	if (m[5]) return String.fromCodePoint(...m[5].split(":").map((s) => Number.parseInt(s, 10)));
	const code = Number.parseInt(m[1], 10);
	if (mods.shift && m[2]) return String.fromCodePoint(Number.parseInt(m[2], 10));
	if (code < 32 || code === 127 || (code >= 57344 && code <= 63743)) {
		const named = KITTY_CODES[code];
		if (named && named.length === 1) return named;
		return code === 32 ? " " : undefined;
	}
	const ch = String.fromCodePoint(code);
	return mods.shift ? ch.toUpperCase() : ch;
}

/**
 * The text a key chunk inserts: the chunk itself when it is printable, or the
 * decoded character of a Kitty event. Undefined for control keys.
 */
export function decodePrintableKey(data: string): string | undefined {
	if (data.length === 0) return undefined;
	if (data.charCodeAt(0) === 0x1b) return decodeKittyPrintable(data);
	for (const ch of data) {
		const c = ch.codePointAt(0) ?? 0;
		if (c < 0x20 || c === 0x7f || (c >= 0x80 && c < 0xa0)) return undefined;
	}
	return data;
}
