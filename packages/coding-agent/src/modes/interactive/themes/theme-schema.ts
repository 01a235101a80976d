// The theme file format (1.x theme JSON):
//   { "name": "…", "appearance": "dark", "vars": { "blue": "okhsl(232 54% 67%)", "gray": 242 },
//     "colors": { <51 tokens, 5 optional> }, "export": {…} }
// A colour value is "#rrggbb" (or "#rgb"), `oklch(L C H)`, `okhsl(H S% L%)`,
// a 256-colour index 0–255, the name of a `vars` entry (vars may refer to
// other vars), or "" for the terminal's default colour. Objects are strict,
// as in 1.x: an unknown top-level field, colour token or export key is an
// error naming it (ThemeError.field), so typos do not pass silently.
import type { ThemeBg, ThemeColor } from "../theme-fallback.js";
import { parseOkhsl, parseOklch } from "./oklab.js";

export const FG_TOKENS = [
	"accent",
	"border",
	"borderAccent",
	"borderMuted",
	"success",
	"error",
	"warning",
	"muted",
	"dim",
	"text",
	"thinkingText",
	"userMessageText",
	"customMessageText",
	"customMessageLabel",
	"toolTitle",
	"toolOutput",
	"mdHeading",
	"mdLink",
	"mdLinkUrl",
	"mdCode",
	"mdCodeBlock",
	"mdCodeBlockBorder",
	"mdQuote",
	"mdQuoteBorder",
	"mdHr",
	"mdListBullet",
	"toolDiffAdded",
	"toolDiffRemoved",
	"toolDiffContext",
	"syntaxComment",
	"syntaxKeyword",
	"syntaxFunction",
	"syntaxVariable",
	"syntaxString",
	"syntaxNumber",
	"syntaxType",
	"syntaxOperator",
	"syntaxPunctuation",
	"thinkingOff",
	"thinkingMinimal",
	"thinkingLow",
	"thinkingMedium",
	"thinkingHigh",
	"thinkingXhigh",
	"bashMode",
] as const satisfies readonly ThemeColor[];

export const BG_TOKENS = [
	"selectedBg",
	"userMessageBg",
	"customMessageBg",
	"toolPendingBg",
	"toolSuccessBg",
	"toolErrorBg",
] as const satisfies readonly ThemeBg[];

/** All 51 tokens a theme file must define. */
export const ALL_TOKENS: readonly string[] = [...FG_TOKENS, ...BG_TOKENS];

/** Tokens a file may leave out (1.x inherits them from another token); validated when present. */
export const OPTIONAL_TOKENS: readonly string[] = [
	"scrollbarTrack",
	"scrollbarThumb",
	"searchMatchBg",
	"searchMatchText",
	"thinkingMax",
];

const TOP_LEVEL = new Set(["$schema", "name", "appearance", "vars", "colors", "export"]);
const EXPORT_KEYS = ["pageBg", "cardBg", "infoBg"] as const;

/** Names a theme file may not take: `system` is the terminal-derived theme, `/` separates a light/dark pair. */
export const RESERVED_THEME_NAME = "system";

export type ColorValue = string | number;

/** A theme file as written. */
export interface ThemeJson {
	$schema?: string;
	name: string;
	appearance?: "dark" | "light";
	vars?: Record<string, ColorValue>;
	colors: Record<string, ColorValue>;
	export?: { pageBg?: ColorValue; cardBg?: ColorValue; infoBg?: ColorValue };
}

/** A colour after `vars` are resolved. */
export type ResolvedColor =
	| { kind: "default" }
	| { kind: "rgb"; r: number; g: number; b: number }
	| { kind: "index"; n: number };

/** A validated theme: every token resolved. */
export interface ThemeDefinition {
	name: string;
	/** The background the theme is made for, when the file says. */
	appearance?: "dark" | "light";
	fg: Record<ThemeColor, ResolvedColor>;
	bg: Record<ThemeBg, ResolvedColor>;
	export: { pageBg?: ResolvedColor; cardBg?: ResolvedColor; infoBg?: ResolvedColor };
}

export class ThemeError extends Error {
	constructor(
		message: string,
		/** The JSON field at fault (`colors.accent`, `vars.blue`, `name` …), for locating it in the file. */
		readonly field?: string,
	) {
		super(message);
		this.name = "ThemeError";
	}
}

const HEX6 = /^#([0-9a-f]{6})$/i;
const HEX3 = /^#([0-9a-f]{3})$/i;

/** Parses a literal colour (no variables); undefined when it is not one. */
export function parseColorLiteral(value: ColorValue): ResolvedColor | undefined {
	if (typeof value === "number") {
		return Number.isInteger(value) && value >= 0 && value <= 255 ? { kind: "index", n: value } : undefined;
	}
	if (value === "") return { kind: "default" };
	const six = HEX6.exec(value);
	if (six) {
		const n = Number.parseInt(six[1], 16);
		return { kind: "rgb", r: (n >> 16) & 255, g: (n >> 8) & 255, b: n & 255 };
	}
	const three = HEX3.exec(value);
	if (three) {
		const [r, g, b] = [...three[1]].map((c) => Number.parseInt(c + c, 16));
		return { kind: "rgb", r, g, b };
	}
	const ok = /^okhsl\(/i.test(value) ? parseOkhsl(value) : /^oklch\(/i.test(value) ? parseOklch(value) : undefined;
	if (ok) return { kind: "rgb", r: ok[0], g: ok[1], b: ok[2] };
	return undefined;
}

function describe(value: unknown): string {
	return typeof value === "string" ? JSON.stringify(value) : String(value);
}

function resolveValue(
	where: string,
	value: unknown,
	vars: Record<string, unknown>,
	seen: readonly string[] = [],
): ResolvedColor {
	const fail = (message: string) => new ThemeError(`${where}: ${message}`, where);
	if (typeof value !== "string" && typeof value !== "number") {
		throw fail(`expected a colour ("#rrggbb", okhsl(), oklch(), 0-255, a vars name or ""), got ${describe(value)}`);
	}
	const literal = parseColorLiteral(value);
	if (literal) return literal;
	if (typeof value === "number") throw fail(`${value} is not a 256-colour index (0-255)`);
	if (value.startsWith("#")) throw fail(`${describe(value)} is not a "#rrggbb" colour`);
	if (/^ok(hsl|lch)\(/i.test(value)) {
		throw fail(`${describe(value)} is not a valid colour (okhsl(H S% L%) or oklch(L C H) in range)`);
	}
	if (!(value in vars)) throw fail(`unknown variable ${describe(value)} (not in "vars")`);
	if (seen.includes(value)) {
		throw fail(`circular variable reference ${[...seen, value].join(" -> ")}`);
	}
	return resolveValue(where, vars[value], vars, [...seen, value]);
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Validates a parsed theme file and resolves its colours. Throws ThemeError
 * naming the field (and the source, when given) for anything wrong.
 */
export function resolveThemeJson(raw: unknown, source?: string): ThemeDefinition {
	const prefix = source ? `${source}: ` : "";
	try {
		if (!isObject(raw)) throw new ThemeError("a theme must be a JSON object");
		for (const key of Object.keys(raw)) {
			if (!TOP_LEVEL.has(key)) throw new ThemeError(`unknown field "${key}" (custom colours go under "vars")`, key);
		}
		const name = raw.name;
		if (typeof name !== "string" || name.trim() === "")
			throw new ThemeError('"name" must be a non-empty string', "name");
		if (name.includes("/"))
			throw new ThemeError(`"name" must not contain "/" (it separates a light/dark pair)`, "name");
		if (name === RESERVED_THEME_NAME)
			throw new ThemeError(`"name" must not be "${RESERVED_THEME_NAME}" (reserved)`, "name");
		const appearance = raw.appearance;
		if (appearance !== undefined && appearance !== "dark" && appearance !== "light") {
			throw new ThemeError('"appearance" must be "dark" or "light"', "appearance");
		}
		const vars = raw.vars === undefined ? {} : raw.vars;
		if (!isObject(vars)) throw new ThemeError('"vars" must be an object', "vars");
		const colors = raw.colors;
		if (!isObject(colors)) throw new ThemeError('"colors" must be an object with every colour token', "colors");
		for (const key of Object.keys(colors)) {
			if (!ALL_TOKENS.includes(key) && !OPTIONAL_TOKENS.includes(key)) {
				throw new ThemeError(`colors.${key}: unknown colour token (custom colours go under "vars")`, `colors.${key}`);
			}
		}
		const missing = ALL_TOKENS.filter((t) => !(t in colors));
		if (missing.length > 0) {
			throw new ThemeError(`missing colour tokens (${missing.length}): ${missing.join(", ")}`, "colors");
		}
		const fg = {} as Record<ThemeColor, ResolvedColor>;
		for (const t of FG_TOKENS) fg[t] = resolveValue(`colors.${t}`, colors[t], vars);
		const bg = {} as Record<ThemeBg, ResolvedColor>;
		for (const t of BG_TOKENS) bg[t] = resolveValue(`colors.${t}`, colors[t], vars);
		for (const t of OPTIONAL_TOKENS) if (t in colors) resolveValue(`colors.${t}`, colors[t], vars);
		for (const [key, value] of Object.entries(vars)) resolveValue(`vars.${key}`, value, vars, [key]);
		const exp: ThemeDefinition["export"] = {};
		if (raw.export !== undefined) {
			if (!isObject(raw.export)) throw new ThemeError('"export" must be an object', "export");
			for (const key of Object.keys(raw.export)) {
				if (!(EXPORT_KEYS as readonly string[]).includes(key)) {
					throw new ThemeError(`export.${key}: unknown export colour`, `export.${key}`);
				}
			}
			for (const key of EXPORT_KEYS) {
				if (raw.export[key] !== undefined) exp[key] = resolveValue(`export.${key}`, raw.export[key], vars);
			}
		}
		const definition: ThemeDefinition = { name, fg, bg, export: exp };
		if (appearance) definition.appearance = appearance;
		return definition;
	} catch (error) {
		if (error instanceof ThemeError) throw new ThemeError(prefix + error.message, error.field);
		throw error;
	}
}
