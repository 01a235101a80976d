// Field-by-field validation of models.json values. Each reader records a
// problem under the JSON path of the offending value and returns undefined,
// so one bad field never hides the others.
import type { Api, ModelCompat, ModelCost, ModelPromptCache, ThinkingLevel } from "../types.js";
import { THINKING_LEVELS } from "../types.js";

/** A problem in a models.json file. `line`/`column` are set for syntax errors. */
export interface ModelsConfigIssue {
	/** File name or label the config came from. */
	source: string;
	/** JSON path of the value, e.g. `providers.ollama.models[0].contextWindow`; "" for the whole file. */
	path: string;
	message: string;
	line?: number;
	column?: number;
}

export type Obj = Record<string, unknown>;

export function isPlainObject(value: unknown): value is Obj {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `base.key`, or `base["key"]` when the key is not a plain identifier (ids with dots, slashes, colons). */
export function childPath(base: string, key: string): string {
	if (/^[A-Za-z_$][\w$-]*$/.test(key)) return base ? `${base}.${key}` : key;
	return `${base}[${JSON.stringify(key)}]`;
}

export class Issues {
	readonly errors: ModelsConfigIssue[] = [];
	readonly warnings: ModelsConfigIssue[] = [];
	constructor(readonly source: string) {}
	error(path: string, message: string): void {
		this.errors.push({ source: this.source, path, message });
	}
	warn(path: string, message: string): void {
		this.warnings.push({ source: this.source, path, message });
	}
}

/** What a `models` entry or a `modelOverrides` entry may set. */
export interface ModelFields {
	id?: string;
	name?: string;
	api?: Api;
	baseUrl?: string;
	reasoning?: boolean;
	thinkingLevelMap?: Partial<Record<ThinkingLevel, string | null>>;
	input?: ("text" | "image")[];
	contextWindow?: number;
	maxTokens?: number;
	cost?: Partial<ModelCost>;
	headers?: Record<string, string>;
	compat?: ModelCompat;
	/** Prompt cache lifetimes (seconds) per retention tier. */
	promptCache?: ModelPromptCache;
	/** `llama-cpp` models: the GGUF file. */
	path?: string;
	/** `llama-cpp` models: GPU layers (a count, "auto" or "max"). */
	gpuLayers?: number | "auto" | "max";
}

const BOOLEAN_COMPAT = new Set([
	"supportsStore",
	"supportsDeveloperRole",
	"supportsReasoningEffort",
	"supportsUsageInStreaming",
	"requiresToolResultName",
	"requiresAssistantAfterToolResult",
	"requiresThinkingAsText",
	"requiresReasoningContentOnAssistantMessages",
	"supportsStrictMode",
	"supportsLongCacheRetention",
	"supportsEagerToolInputStreaming",
	"sendSessionIdHeader",
	"sendSessionAffinityHeaders",
	"zaiToolStream",
]);
const ENUM_COMPAT: Record<string, readonly string[]> = {
	maxTokensField: ["max_completion_tokens", "max_tokens"],
	thinkingFormat: ["openai", "openrouter", "deepseek", "zai", "qwen", "qwen-chat-template"],
	cacheControlFormat: ["anthropic"],
};
const OBJECT_COMPAT = new Set(["openRouterRouting", "vercelGatewayRouting"]);

// Fields of the later (1.x) models.json format that this version accepts and ignores.
const IGNORED_MODEL_FIELDS = new Set(["inputLimits", "samplingParams", "samplingParamsByThinkingLevel"]);

/** Records an error and returns false, for `ok = fail(…)` in the readers below. */
function fail(issues: Issues, path: string, message: string): false {
	issues.error(path, message);
	return false;
}

export function readString(v: unknown, path: string, issues: Issues): string | undefined {
	if (typeof v === "string" && v !== "") return v;
	issues.error(path, typeof v === "string" ? "expected a non-empty string" : "expected a string");
	return undefined;
}

export function readBoolean(v: unknown, path: string, issues: Issues): boolean | undefined {
	if (typeof v === "boolean") return v;
	issues.error(path, "expected true or false");
	return undefined;
}

export function readUrl(v: unknown, path: string, issues: Issues): string | undefined {
	const s = readString(v, path, issues);
	if (s === undefined) return undefined;
	let url: URL;
	try {
		url = new URL(s);
	} catch {
		issues.error(path, `expected a URL such as "http://localhost:11434/v1", got ${JSON.stringify(s)}`);
		return undefined;
	}
	if (url.protocol !== "http:" && url.protocol !== "https:") {
		issues.error(path, `expected an http or https URL, got ${JSON.stringify(s)}`);
		return undefined;
	}
	return s;
}

function readPositiveInt(v: unknown, path: string, issues: Issues): number | undefined {
	if (typeof v !== "number") {
		issues.error(path, "expected a number");
		return undefined;
	}
	if (!Number.isInteger(v) || v <= 0) {
		issues.error(path, "expected a positive whole number of tokens");
		return undefined;
	}
	return v;
}

export function readHeaders(v: unknown, path: string, issues: Issues): Record<string, string> | undefined {
	if (!isPlainObject(v)) {
		issues.error(path, "expected an object of header names to values");
		return undefined;
	}
	const out: Record<string, string> = {};
	let ok = true;
	for (const [name, value] of Object.entries(v)) {
		if (typeof value === "string") out[name] = value;
		else {
			issues.error(childPath(path, name), "expected a string");
			ok = false;
		}
	}
	return ok ? out : undefined;
}

export function readCompat(v: unknown, path: string, issues: Issues): ModelCompat | undefined {
	if (!isPlainObject(v)) {
		issues.error(path, "expected an object");
		return undefined;
	}
	let ok = true;
	for (const [key, value] of Object.entries(v)) {
		const p = childPath(path, key);
		const choices = ENUM_COMPAT[key];
		if (BOOLEAN_COMPAT.has(key)) {
			if (typeof value !== "boolean") ok = fail(issues, p, "expected true or false");
		} else if (choices) {
			if (!choices.includes(value as string)) ok = fail(issues, p, `expected one of ${choices.join(", ")}`);
		} else if (OBJECT_COMPAT.has(key)) {
			if (!isPlainObject(value)) ok = fail(issues, p, "expected an object");
		} else {
			// Unknown flags are passed through: a newer adapter may understand them.
			issues.warn(p, "unknown compat flag; passed through unchecked");
		}
	}
	return ok ? (structuredClone(v) as ModelCompat) : undefined;
}

function readThinkingLevelMap(v: unknown, path: string, issues: Issues): ModelFields["thinkingLevelMap"] {
	if (!isPlainObject(v)) {
		issues.error(path, "expected an object of thinking levels");
		return undefined;
	}
	const out: Partial<Record<ThinkingLevel, string | null>> = {};
	let ok = true;
	for (const [level, value] of Object.entries(v)) {
		const p = childPath(path, level);
		if (!(THINKING_LEVELS as readonly string[]).includes(level)) {
			issues.warn(p, `unknown thinking level; expected one of ${THINKING_LEVELS.join(", ")}; ignored`);
		} else if (value !== null && typeof value !== "string") {
			ok = fail(issues, p, "expected a string or null");
		} else out[level as ThinkingLevel] = value;
	}
	return ok ? out : undefined;
}

function readInput(v: unknown, path: string, issues: Issues): ("text" | "image")[] | undefined {
	if (!Array.isArray(v) || v.length === 0 || v.some((x) => x !== "text" && x !== "image")) {
		issues.error(path, 'expected an array of "text" and "image", e.g. ["text", "image"]');
		return undefined;
	}
	return [...new Set(v as ("text" | "image")[])];
}

function readCost(v: unknown, path: string, issues: Issues): Partial<ModelCost> | undefined {
	if (!isPlainObject(v)) {
		issues.error(path, "expected an object with input, output, cacheRead, cacheWrite ($ per million tokens)");
		return undefined;
	}
	const out: Partial<ModelCost> = {};
	let ok = true;
	for (const [key, value] of Object.entries(v)) {
		const p = childPath(path, key);
		if (key !== "input" && key !== "output" && key !== "cacheRead" && key !== "cacheWrite") {
			if (key !== "tiers") issues.warn(p, "unknown cost field; ignored");
		} else if (typeof value !== "number") ok = fail(issues, p, "expected a number");
		else if (!(value >= 0) || !Number.isFinite(value)) ok = fail(issues, p, "expected a price of 0 or more");
		else out[key] = value;
	}
	return ok ? out : undefined;
}

function readPromptCache(v: unknown, path: string, issues: Issues): ModelPromptCache | undefined {
	if (!isPlainObject(v)) {
		issues.error(path, 'expected an object of retention tiers to seconds, e.g. { "short": 300, "long": 3600 }');
		return undefined;
	}
	const out: ModelPromptCache = {};
	let ok = true;
	for (const [tier, seconds] of Object.entries(v)) {
		const p = childPath(path, tier);
		if (tier !== "short" && tier !== "long") issues.warn(p, "unknown retention tier; expected short or long; ignored");
		else if (typeof seconds !== "number" || !Number.isFinite(seconds) || seconds <= 0)
			ok = fail(issues, p, "expected a cache lifetime in seconds, greater than 0");
		else out[tier] = seconds;
	}
	return ok ? out : undefined;
}

const MODEL_FIELDS = [
	"id",
	"name",
	"api",
	"baseUrl",
	"reasoning",
	"thinkingLevelMap",
	"input",
	"contextWindow",
	"maxTokens",
	"cost",
	"headers",
	"compat",
	"promptCache",
	"path",
	"gpuLayers",
];
const OVERRIDE_FIELDS = new Set(MODEL_FIELDS.filter((f) => f !== "id" && f !== "api" && f !== "baseUrl"));

/**
 * Reads a `models` entry (`kind: "model"`) or a `modelOverrides` entry. Returns
 * the fields, or undefined when any field is invalid (all problems recorded).
 */
export function readModelFields(
	raw: unknown,
	path: string,
	issues: Issues,
	kind: "model" | "override",
): ModelFields | undefined {
	if (!isPlainObject(raw)) {
		issues.error(path, "expected an object");
		return undefined;
	}
	const before = issues.errors.length;
	const out: ModelFields = {};
	for (const [key, value] of Object.entries(raw)) {
		const p = childPath(path, key);
		const allowed = kind === "model" ? MODEL_FIELDS.includes(key) : OVERRIDE_FIELDS.has(key);
		if (!allowed) {
			if (IGNORED_MODEL_FIELDS.has(key)) continue;
			issues.warn(
				p,
				kind === "override" && MODEL_FIELDS.includes(key) ? "cannot be overridden; ignored" : "unknown field; ignored",
			);
			continue;
		}
		switch (key) {
			case "id":
			case "name":
			case "api":
				out[key] = readString(value, p, issues);
				break;
			case "baseUrl":
				out.baseUrl = readUrl(value, p, issues);
				break;
			case "reasoning":
				out.reasoning = readBoolean(value, p, issues);
				break;
			case "thinkingLevelMap":
				out.thinkingLevelMap = readThinkingLevelMap(value, p, issues);
				break;
			case "input":
				out.input = readInput(value, p, issues);
				break;
			case "contextWindow":
			case "maxTokens":
				out[key] = readPositiveInt(value, p, issues);
				break;
			case "cost":
				out.cost = readCost(value, p, issues);
				break;
			case "headers":
				out.headers = readHeaders(value, p, issues);
				break;
			case "compat":
				out.compat = readCompat(value, p, issues);
				break;
			case "promptCache":
				out.promptCache = readPromptCache(value, p, issues);
				break;
			case "path":
				out.path = readString(value, p, issues);
				break;
			case "gpuLayers":
				if (value === "auto" || value === "max") out.gpuLayers = value;
				else if (typeof value === "number" && Number.isInteger(value) && value >= 0) out.gpuLayers = value;
				else issues.error(p, 'expected a whole number of layers, "auto" or "max"');
				break;
		}
	}
	if (kind === "model" && raw.id === undefined)
		issues.error(childPath(path, "id"), "required: the model id sent to the API");
	return issues.errors.length === before ? out : undefined;
}
