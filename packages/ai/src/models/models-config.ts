// models.json (the reference's format): custom providers and models, and
// overrides of built-in ones, applied as a pure function over parsed data.
// Reading the file and resolving `apiKey`/header values (literal, environment
// variable name or `!command`) are the application's job; the raw strings are
// handed back in `providers`.
import type { Api, Model, ModelCompat } from "../types.js";
import { parseJsonc } from "./jsonc.js";
import { localServerCompat } from "./local-compat.js";
import {
	childPath,
	Issues,
	isPlainObject,
	type ModelFields,
	type ModelsConfigIssue,
	readBoolean,
	readCompat,
	readHeaders,
	readModelFields,
	readString,
	readUrl,
} from "./models-config-fields.js";

export type { ModelsConfigIssue };

/** Values a `models` entry gets for the fields it leaves out. */
export const CUSTOM_MODEL_DEFAULTS = Object.freeze({
	reasoning: false,
	input: Object.freeze(["text"] as const),
	contextWindow: 128_000,
	/** Capped at the model's context window when `maxTokens` is not given. */
	maxTokens: 16_384,
	cost: Object.freeze({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }),
});

/** What models.json says about a provider's requests; values are raw, unresolved config strings. */
export interface ModelsConfigProvider {
	name: string;
	/** True when the provider already had models in the list given to `applyModelsConfig`. */
	builtin: boolean;
	baseUrl?: string;
	api?: Api;
	/** Raw: a literal key, an environment variable name, or `!command` whose output is the key. */
	apiKey?: string;
	/** Raw header values, resolved like `apiKey`. */
	headers?: Record<string, string>;
	/** Send `Authorization: Bearer <resolved apiKey>`. */
	authHeader: boolean;
	/** Raw per-model headers (from `models[].headers` and `modelOverrides[id].headers`), by model id. */
	modelHeaders: Record<string, Record<string, string>>;
}

export interface ModelsConfigResult {
	/** The given models with the config applied: changed ones replaced in place, new ones appended. */
	models: Model[];
	/** Every provider the config names and that was applied. */
	providers: Record<string, ModelsConfigProvider>;
	/** Problems that made a provider, model or override be skipped (everything else still applies). */
	errors: ModelsConfigIssue[];
	/** Ignored or passed-through settings (unknown fields, override of a missing model, …). */
	warnings: ModelsConfigIssue[];
}

export interface ModelsConfigOptions {
	/** Names the config in issues, e.g. the file path. */
	source: string;
}

// Keys of the later (1.x) format that are accepted and ignored.
const IGNORED_PROVIDER_FIELDS = new Set(["name", "oauth"]);
const PROVIDER_FIELDS = new Set([
	"baseUrl",
	"api",
	"apiKey",
	"headers",
	"authHeader",
	"compat",
	"models",
	"modelOverrides",
]);

/** obj[key] = value, but "__proto__" becomes an own property instead of replacing the prototype. */
function setOwn<T>(obj: Record<string, T>, key: string, value: T): void {
	Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Shallow merge, later parts win; routing objects merge one level deeper. Undefined when empty. */
function mergeCompat(...parts: (ModelCompat | undefined)[]): ModelCompat | undefined {
	let out: Record<string, unknown> | undefined;
	for (const part of parts) {
		if (!part) continue;
		out ??= {};
		for (const [key, value] of Object.entries(part)) {
			const prev = out[key];
			setOwn(out, key, isPlainObject(prev) && isPlainObject(value) ? { ...prev, ...value } : value);
		}
	}
	return out && Object.keys(out).length > 0 ? (out as ModelCompat) : undefined;
}

/** The compat flags every given model shares (same key, same value), for new models of a built-in provider. */
function sharedCompat(models: readonly Model[]): ModelCompat | undefined {
	const [first, ...rest] = models;
	if (!first?.compat) return undefined;
	const shared: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(first.compat)) {
		const same = rest.every(
			(m) => JSON.stringify((m.compat as Record<string, unknown> | undefined)?.[key]) === JSON.stringify(value),
		);
		if (same) shared[key] = value;
	}
	return mergeCompat(shared);
}

function applyOverride(model: Model, o: ModelFields): Model {
	const out: Model = { ...model };
	if (o.name !== undefined) out.name = o.name;
	if (o.reasoning !== undefined) out.reasoning = o.reasoning;
	if (o.thinkingLevelMap) out.thinkingLevelMap = { ...model.thinkingLevelMap, ...o.thinkingLevelMap };
	if (o.input) out.input = o.input;
	if (o.contextWindow !== undefined) out.contextWindow = o.contextWindow;
	if (o.maxTokens !== undefined) out.maxTokens = o.maxTokens;
	if (o.cost) out.cost = { ...model.cost, ...o.cost };
	const compat = mergeCompat(model.compat, o.compat);
	if (compat) out.compat = compat;
	// An object field merges tier by tier (as cost does).
	if (o.promptCache) out.promptCache = { ...model.promptCache, ...o.promptCache };
	return out;
}

/** Applies a parsed models.json to `builtins` (never mutated). See docs in the reference's models.md. */
export function applyModelsConfig(
	builtins: readonly Model[],
	config: unknown,
	options: ModelsConfigOptions,
): ModelsConfigResult {
	const issues = new Issues(options.source);
	const result: ModelsConfigResult = {
		models: [...builtins],
		providers: {},
		errors: issues.errors,
		warnings: issues.warnings,
	};
	if (!isPlainObject(config)) {
		issues.error("", 'expected a JSON object with a "providers" object');
		return result;
	}
	for (const key of Object.keys(config)) {
		if (key !== "providers" && key !== "$schema") issues.warn(childPath("", key), "unknown top-level key; ignored");
	}
	if (config.providers === undefined) return result;
	if (!isPlainObject(config.providers)) {
		issues.error("providers", "expected an object of provider names to provider settings");
		return result;
	}
	for (const [name, raw] of Object.entries(config.providers)) {
		const provider = applyProvider(name, raw, result.models, issues);
		if (provider) setOwn(result.providers, name, provider);
	}
	return result;
}

function applyProvider(name: string, raw: unknown, models: Model[], issues: Issues): ModelsConfigProvider | undefined {
	const path = childPath("providers", name);
	if (!isPlainObject(raw)) {
		issues.error(path, "expected an object");
		return undefined;
	}
	const before = issues.errors.length;
	const existing = models.filter((m) => m.provider === name);
	const builtin = existing.length > 0;
	const at = (key: string) => childPath(path, key);

	for (const key of Object.keys(raw)) {
		if (!PROVIDER_FIELDS.has(key) && !IGNORED_PROVIDER_FIELDS.has(key)) issues.warn(at(key), "unknown field; ignored");
	}
	const provider: ModelsConfigProvider = { name, builtin, authHeader: false, modelHeaders: {} };
	if (raw.baseUrl !== undefined) provider.baseUrl = readUrl(raw.baseUrl, at("baseUrl"), issues);
	if (raw.api !== undefined) provider.api = readString(raw.api, at("api"), issues);
	if (raw.apiKey !== undefined) provider.apiKey = readString(raw.apiKey, at("apiKey"), issues);
	if (raw.headers !== undefined) provider.headers = readHeaders(raw.headers, at("headers"), issues);
	if (raw.authHeader !== undefined)
		provider.authHeader = readBoolean(raw.authHeader, at("authHeader"), issues) ?? false;
	const compat = raw.compat === undefined ? undefined : readCompat(raw.compat, at("compat"), issues);

	let defs: unknown[] = [];
	if (raw.models !== undefined) {
		if (Array.isArray(raw.models)) defs = raw.models;
		else issues.error(at("models"), "expected an array of models");
	}
	let overrides: Record<string, unknown> = {};
	if (raw.modelOverrides !== undefined) {
		if (isPlainObject(raw.modelOverrides)) overrides = raw.modelOverrides;
		else issues.error(at("modelOverrides"), "expected an object of model ids to overrides");
	}
	if (!builtin && raw.models === undefined) {
		issues.error(at("models"), 'required: a provider that is not built in needs a "models" array');
	}
	// An embedded (llama-cpp) model runs from its file: it has no server to point at.
	const needsUrl = (d: unknown) => (isPlainObject(d) ? (d.api ?? raw.api) : raw.api) !== "llama-cpp";
	if (
		!builtin &&
		!provider.baseUrl &&
		raw.baseUrl === undefined &&
		defs.some((d) => needsUrl(d) && (!isPlainObject(d) || !d.baseUrl))
	) {
		issues.error(at("baseUrl"), "required: a provider that is not built in needs the server's base URL");
	}
	const providerOk = issues.errors.length === before;

	// Validate every entry even when the provider is skipped, so one run reports all problems.
	const overrideFields: [string, ModelFields][] = [];
	for (const [id, o] of Object.entries(overrides)) {
		const fields = readModelFields(o, childPath(at("modelOverrides"), id), issues, "override");
		if (fields) overrideFields.push([id, fields]);
	}
	const modelFields: [number, ModelFields][] = [];
	for (const [i, def] of defs.entries()) {
		const fields = readModelFields(def, `${at("models")}[${i}]`, issues, "model");
		if (!fields) continue;
		if (!fields.api && !provider.api && !builtin) {
			issues.error(`${at("models")}[${i}].api`, 'no API: set "api" on the provider or on this model');
			continue;
		}
		modelFields.push([i, fields]);
	}
	if (!providerOk) return undefined;

	// 1. Reroute and re-flag the provider's existing models (a provider that is not built in has
	// none: the list is ~700 built-in models, and this runs on every start-up).
	if (builtin && (provider.baseUrl || compat)) {
		for (const [i, m] of models.entries()) {
			if (m.provider !== name) continue;
			const next: Model = { ...m, baseUrl: provider.baseUrl ?? m.baseUrl };
			const merged = mergeCompat(m.compat, compat);
			if (merged) next.compat = merged;
			models[i] = next;
		}
	}
	// 2. Per-model overrides of existing models.
	for (const [id, fields] of overrideFields) {
		const i = models.findIndex((m) => m.provider === name && m.id === id);
		if (i < 0) {
			issues.warn(childPath(at("modelOverrides"), id), `no model "${id}" in provider "${name}"; ignored`);
			continue;
		}
		models[i] = applyOverride(models[i], fields);
		if (fields.headers) setOwn(provider.modelHeaders, id, fields.headers);
	}
	// 3. Custom models: upsert by id.
	const first = existing[0];
	const inherited = builtin ? sharedCompat(existing) : undefined;
	const seen = new Set<string>();
	// Where an earlier entry of this provider can be: anywhere for a built-in one, else only among
	// the models this loop appends.
	const from = builtin ? 0 : models.length;
	for (const [i, f] of modelFields) {
		const id = f.id as string;
		const path = `${at("models")}[${i}]`;
		if (seen.has(id)) issues.warn(childPath(path, "id"), `duplicate id "${id}"; the later entry wins`);
		seen.add(id);
		const api = (f.api ?? provider.api ?? first?.api) as Api;
		const baseUrl = (f.baseUrl ?? provider.baseUrl ?? first?.baseUrl ?? "") as string;
		if (api === "llama-cpp" && !f.path) {
			issues.error(childPath(path, "path"), 'required: a "llama-cpp" model runs from a GGUF file; give its path');
			continue;
		}
		const local = !builtin && api === "openai-completions" ? localServerCompat(baseUrl) : undefined;
		const contextWindow = f.contextWindow ?? CUSTOM_MODEL_DEFAULTS.contextWindow;
		const maxTokens = f.maxTokens ?? Math.min(CUSTOM_MODEL_DEFAULTS.maxTokens, contextWindow);
		if (maxTokens > contextWindow) issues.warn(childPath(path, "maxTokens"), "larger than contextWindow");
		const model: Model = {
			id,
			name: f.name ?? id,
			api,
			provider: name,
			baseUrl,
			reasoning: f.reasoning ?? CUSTOM_MODEL_DEFAULTS.reasoning,
			input: f.input ?? [...CUSTOM_MODEL_DEFAULTS.input],
			cost: { ...CUSTOM_MODEL_DEFAULTS.cost, ...f.cost },
			contextWindow,
			maxTokens,
		};
		if (f.thinkingLevelMap) model.thinkingLevelMap = f.thinkingLevelMap;
		if (f.promptCache) model.promptCache = f.promptCache;
		if (f.path) model.path = f.path;
		if (f.gpuLayers !== undefined) model.gpuLayers = f.gpuLayers;
		const merged = mergeCompat(local, inherited, compat, f.compat);
		if (merged) model.compat = merged;
		if (f.headers) setOwn(provider.modelHeaders, id, f.headers);
		let j = -1;
		for (let k = from; k < models.length; k++) {
			if (models[k].provider === name && models[k].id === id) {
				j = k;
				break;
			}
		}
		if (j >= 0) models[j] = model;
		else models.push(model);
	}
	return provider;
}

/** Parses models.json text (JSONC: comments and trailing commas allowed). */
export function parseModelsJson(
	text: string,
	options: ModelsConfigOptions,
): { ok: true; config: unknown } | { ok: false; error: ModelsConfigIssue } {
	const parsed = parseJsonc(text);
	if (parsed.ok) return { ok: true, config: parsed.value };
	const { message, line, column } = parsed.error;
	return { ok: false, error: { source: options.source, path: "", message, line, column } };
}

/** parseModelsJson + applyModelsConfig; a syntax error leaves `builtins` unchanged and is the only error. */
export function loadModelsJson(
	text: string,
	builtins: readonly Model[],
	options: ModelsConfigOptions,
): ModelsConfigResult {
	const parsed = parseModelsJson(text, options);
	if (!parsed.ok) return { models: [...builtins], providers: {}, errors: [parsed.error], warnings: [] };
	return applyModelsConfig(builtins, parsed.config, options);
}

/** One line for a person: `file:3:7: message` or `file: providers.x.baseUrl: message`. */
export function formatModelsConfigIssue(issue: ModelsConfigIssue): string {
	if (issue.line !== undefined) return `${issue.source}:${issue.line}:${issue.column ?? 1}: ${issue.message}`;
	return issue.path ? `${issue.source}: ${issue.path}: ${issue.message}` : `${issue.source}: ${issue.message}`;
}
