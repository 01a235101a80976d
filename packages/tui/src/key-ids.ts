/**
 * Key identifiers: `"ctrl+c"`, `"shift+enter"`, `"alt+left"`, `"ctrl+shift+p"`.
 * Modifiers may come in any order; the key name comes last.
 */

type Letter =
	| "a"
	| "b"
	| "c"
	| "d"
	| "e"
	| "f"
	| "g"
	| "h"
	| "i"
	| "j"
	| "k"
	| "l"
	| "m"
	| "n"
	| "o"
	| "p"
	| "q"
	| "r"
	| "s"
	| "t"
	| "u"
	| "v"
	| "w"
	| "x"
	| "y"
	| "z";
type Digit = "0" | "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9";
type SymbolKey =
	| "`"
	| "-"
	| "="
	| "["
	| "]"
	| "\\"
	| ";"
	| "'"
	| ","
	| "."
	| "/"
	| "!"
	| "@"
	| "#"
	| "$"
	| "%"
	| "^"
	| "&"
	| "*"
	| "("
	| ")"
	| "_"
	| "+"
	| "|"
	| "~"
	| "{"
	| "}"
	| ":"
	| "<"
	| ">"
	| "?";
type SpecialKey =
	| "escape"
	| "esc"
	| "enter"
	| "return"
	| "tab"
	| "space"
	| "backspace"
	| "delete"
	| "insert"
	| "clear"
	| "home"
	| "end"
	| "pageUp"
	| "pageDown"
	| "up"
	| "down"
	| "left"
	| "right"
	| "f1"
	| "f2"
	| "f3"
	| "f4"
	| "f5"
	| "f6"
	| "f7"
	| "f8"
	| "f9"
	| "f10"
	| "f11"
	| "f12";
export type BaseKey = Letter | Digit | SymbolKey | SpecialKey;
type ModifierName = "ctrl" | "shift" | "alt" | "super";
type ModifiedKeyId<K extends string, M extends ModifierName = ModifierName> = {
	[X in M]: `${X}+${K}` | `${X}+${ModifiedKeyId<K, Exclude<M, X>>}`;
}[M];

/** Every valid key identifier (typo-checked at compile time). */
export type KeyId = BaseKey | ModifiedKeyId<BaseKey>;

/** Helpers that build typed key identifiers: `Key.ctrl("c")`, `Key.enter`. */
export const Key = {
	escape: "escape",
	esc: "esc",
	enter: "enter",
	return: "return",
	tab: "tab",
	space: "space",
	backspace: "backspace",
	delete: "delete",
	insert: "insert",
	clear: "clear",
	home: "home",
	end: "end",
	pageUp: "pageUp",
	pageDown: "pageDown",
	up: "up",
	down: "down",
	left: "left",
	right: "right",
	f1: "f1",
	f2: "f2",
	f3: "f3",
	f4: "f4",
	f5: "f5",
	f6: "f6",
	f7: "f7",
	f8: "f8",
	f9: "f9",
	f10: "f10",
	f11: "f11",
	f12: "f12",
	backtick: "`",
	hyphen: "-",
	equals: "=",
	leftbracket: "[",
	rightbracket: "]",
	backslash: "\\",
	semicolon: ";",
	quote: "'",
	comma: ",",
	period: ".",
	slash: "/",
	exclamation: "!",
	at: "@",
	hash: "#",
	dollar: "$",
	percent: "%",
	caret: "^",
	ampersand: "&",
	asterisk: "*",
	leftparen: "(",
	rightparen: ")",
	underscore: "_",
	plus: "+",
	pipe: "|",
	tilde: "~",
	leftbrace: "{",
	rightbrace: "}",
	colon: ":",
	lessthan: "<",
	greaterthan: ">",
	question: "?",
	ctrl: <K extends BaseKey>(key: K) => `ctrl+${key}` as const,
	shift: <K extends BaseKey>(key: K) => `shift+${key}` as const,
	alt: <K extends BaseKey>(key: K) => `alt+${key}` as const,
	super: <K extends BaseKey>(key: K) => `super+${key}` as const,
	ctrlShift: <K extends BaseKey>(key: K) => `ctrl+shift+${key}` as const,
	shiftCtrl: <K extends BaseKey>(key: K) => `shift+ctrl+${key}` as const,
	ctrlAlt: <K extends BaseKey>(key: K) => `ctrl+alt+${key}` as const,
	altCtrl: <K extends BaseKey>(key: K) => `alt+ctrl+${key}` as const,
	shiftAlt: <K extends BaseKey>(key: K) => `shift+alt+${key}` as const,
	altShift: <K extends BaseKey>(key: K) => `alt+shift+${key}` as const,
	ctrlSuper: <K extends BaseKey>(key: K) => `ctrl+super+${key}` as const,
	superCtrl: <K extends BaseKey>(key: K) => `super+ctrl+${key}` as const,
	shiftSuper: <K extends BaseKey>(key: K) => `shift+super+${key}` as const,
	superShift: <K extends BaseKey>(key: K) => `super+shift+${key}` as const,
	altSuper: <K extends BaseKey>(key: K) => `alt+super+${key}` as const,
	superAlt: <K extends BaseKey>(key: K) => `super+alt+${key}` as const,
	ctrlShiftAlt: <K extends BaseKey>(key: K) => `ctrl+shift+alt+${key}` as const,
	ctrlShiftSuper: <K extends BaseKey>(key: K) => `ctrl+shift+super+${key}` as const,
} as const;

/** A key with its modifiers, as parsed from input or from a key identifier. */
export interface KeyCombo {
	key: string;
	ctrl: boolean;
	shift: boolean;
	alt: boolean;
	super: boolean;
}

const ALIASES: Record<string, string> = { esc: "escape", return: "enter", pageup: "pageUp", pagedown: "pageDown" };

/** Parse `"shift+ctrl+p"` into a combo; returns undefined for an empty id. */
export function parseKeyId(id: string): KeyCombo | undefined {
	if (!id) return undefined;
	const combo: KeyCombo = { key: "", ctrl: false, shift: false, alt: false, super: false };
	let rest = id;
	for (;;) {
		const plus = rest.indexOf("+");
		// A trailing "+" (as in "ctrl++") is the key itself.
		if (plus <= 0 || plus === rest.length - 1) break;
		const mod = rest.slice(0, plus).toLowerCase();
		if (mod === "ctrl" || mod === "shift" || mod === "alt" || mod === "super") combo[mod] = true;
		else if (mod === "meta" || mod === "option") combo.alt = true;
		else if (mod === "cmd") combo.super = true;
		else break;
		rest = rest.slice(plus + 1);
	}
	let key = rest;
	if (key.length > 1) key = ALIASES[key.toLowerCase()] ?? key.toLowerCase();
	else if (key >= "A" && key <= "Z") {
		key = key.toLowerCase();
		combo.shift = true;
	}
	combo.key = key;
	return combo;
}

/** Canonical id of a combo: modifiers in the order ctrl, shift, alt, super. */
export function formatKeyId(c: KeyCombo): string {
	let out = "";
	if (c.ctrl) out += "ctrl+";
	if (c.shift) out += "shift+";
	if (c.alt) out += "alt+";
	if (c.super) out += "super+";
	return out + c.key;
}
