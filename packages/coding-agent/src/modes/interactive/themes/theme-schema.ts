// The theme file format (compatible with the reference's theme JSON):
//   { "name": "…", "vars": { "blue": "#0066cc", "gray": 242 }, "colors": { <51 tokens> }, "export": {…} }
// A colour value is "#rrggbb" (or "#rgb"), a 256-colour index 0–255, the name
// of a `vars` entry (vars may refer to other vars), or "" for the terminal's
// default colour. Every token is required; unknown tokens are ignored so
// files written for newer builds (extra optional tokens) still load.
import type { ThemeBg, ThemeColor } from "../theme-fallback.js";

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

export type ColorValue = string | number;

/** A theme file as written. */
export interface ThemeJson {
	$schema?: string;
	name: string;
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
	fg: Record<ThemeColor, ResolvedColor>;
	bg: Record<ThemeBg, ResolvedColor>;
	export: { pageBg?: ResolvedColor; cardBg?: ResolvedColor; infoBg?: ResolvedColor };
}

export class ThemeError extends Error {
	constructor(message: string) {
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
	if (typeof value !== "string" && typeof value !== "number") {
		throw new ThemeError(`${where}: expected a colour ("#rrggbb", 0-255, a vars name or ""), got ${describe(value)}`);
	}
	const literal = parseColorLiteral(value);
	if (literal) return literal;
	if (typeof value === "number") throw new ThemeError(`${where}: ${value} is not a 256-colour index (0-255)`);
	if (value.startsWith("#")) throw new ThemeError(`${where}: ${describe(value)} is not a "#rrggbb" colour`);
	if (!(value in vars)) throw new ThemeError(`${where}: unknown variable ${describe(value)} (not in "vars")`);
	if (seen.includes(value)) {
		throw new ThemeError(`${where}: circular variable reference ${[...seen, value].join(" -> ")}`);
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
		const name = raw.name;
		if (typeof name !== "string" || name.trim() === "") throw new ThemeError('"name" must be a non-empty string');
		const vars = raw.vars === undefined ? {} : raw.vars;
		if (!isObject(vars)) throw new ThemeError('"vars" must be an object');
		const colors = raw.colors;
		if (!isObject(colors)) throw new ThemeError('"colors" must be an object with every colour token');
		const missing = ALL_TOKENS.filter((t) => !(t in colors));
		if (missing.length > 0) {
			throw new ThemeError(`missing colour tokens (${missing.length}): ${missing.join(", ")}`);
		}
		const fg = {} as Record<ThemeColor, ResolvedColor>;
		for (const t of FG_TOKENS) fg[t] = resolveValue(`colors.${t}`, colors[t], vars);
		const bg = {} as Record<ThemeBg, ResolvedColor>;
		for (const t of BG_TOKENS) bg[t] = resolveValue(`colors.${t}`, colors[t], vars);
		const exp: ThemeDefinition["export"] = {};
		if (raw.export !== undefined) {
			if (!isObject(raw.export)) throw new ThemeError('"export" must be an object');
			for (const key of ["pageBg", "cardBg", "infoBg"] as const) {
				if (raw.export[key] !== undefined) exp[key] = resolveValue(`export.${key}`, raw.export[key], vars);
			}
		}
		return { name, fg, bg, export: exp };
	} catch (error) {
		if (error instanceof ThemeError) throw new ThemeError(prefix + error.message);
		throw error;
	}
}
