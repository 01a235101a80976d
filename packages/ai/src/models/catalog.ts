// The built-in model catalog: lookups over the generated data module. The data
// stays a JSON string until the first lookup, so importing pi-ai does not pay
// for building several hundred model objects nobody may ask for.
import type { Api, Model, ModelCompat, ModelPromptCache, ThinkingLevel } from "../types.js";
import { CATALOG_JSON, type KnownModels, type KnownProviderApis } from "./catalog.generated.js";

export type { KnownModels, KnownProviderApis };

/** A provider id of the built-in catalog. */
export type KnownProvider = keyof KnownModels;
/** A built-in model id of `provider`. */
export type KnownModelId<P extends KnownProvider> = KnownModels[P];

interface CatalogRow {
	id: string;
	name: string;
	reasoning: boolean;
	input: ("text" | "image")[];
	contextWindow: number;
	maxTokens: number;
	cost: [number, number, number, number];
	thinkingLevelMap?: Partial<Record<ThinkingLevel, string | null>>;
	compat?: ModelCompat;
	promptCache?: ModelPromptCache;
	api?: Api;
	baseUrl?: string;
}

interface CatalogProvider {
	provider: string;
	api: Api;
	baseUrl: string;
	compat?: ModelCompat;
	models: CatalogRow[];
}

let registry: Map<string, Map<string, Model>> | undefined;

function load(): Map<string, Map<string, Model>> {
	if (registry) return registry;
	const byProvider = new Map<string, Map<string, Model>>();
	// This loop runs once per process over ~700 rows, cold (interpreted) on a CLI start-up: indexed
	// reads (no array destructuring, which goes through the iterator protocol) and one shared
	// compat object per provider where a row adds no flags of its own (rows are never changed).
	for (const p of JSON.parse(CATALOG_JSON) as CatalogProvider[]) {
		const models = new Map<string, Model>();
		const rows = p.models;
		for (let i = 0; i < rows.length; i++) {
			const row = rows[i];
			const cost = row.cost;
			const model: Model = {
				id: row.id,
				name: row.name,
				api: row.api ?? p.api,
				provider: p.provider,
				baseUrl: row.baseUrl ?? p.baseUrl,
				reasoning: row.reasoning,
				input: row.input,
				cost: { input: cost[0], output: cost[1], cacheRead: cost[2], cacheWrite: cost[3] },
				contextWindow: row.contextWindow,
				maxTokens: row.maxTokens,
			};
			if (row.thinkingLevelMap) model.thinkingLevelMap = row.thinkingLevelMap;
			// Provider-wide dialect flags first, the model's own flags over them.
			if (row.compat) model.compat = { ...p.compat, ...row.compat };
			else if (p.compat) model.compat = p.compat;
			if (row.promptCache) model.promptCache = row.promptCache;
			models.set(row.id, model);
		}
		byProvider.set(p.provider, models);
	}
	registry = byProvider;
	return byProvider;
}

/** A copy the caller may change without touching the catalog. */
function copy<TApi extends Api>(model: Model): Model<TApi> {
	const out = { ...model, input: [...model.input], cost: { ...model.cost } } as Model<TApi>;
	if (model.thinkingLevelMap) out.thinkingLevelMap = { ...model.thinkingLevelMap };
	if (model.compat) out.compat = structuredClone(model.compat);
	if (model.headers) out.headers = { ...model.headers };
	if (model.promptCache) out.promptCache = { ...model.promptCache };
	return out;
}

/**
 * A built-in model. Known provider/id pairs are typed (and autocomplete) and
 * always return a model; any other pair returns undefined when not in the
 * catalog. Each call returns a fresh copy.
 */
export function getModel<P extends KnownProvider, I extends KnownModelId<P>>(
	provider: P,
	id: I,
): Model<KnownProviderApis[P]>;
export function getModel(provider: string, id: string): Model | undefined;
export function getModel(provider: string, id: string): Model | undefined {
	const model = load().get(provider)?.get(id);
	return model ? copy(model) : undefined;
}

/** The built-in models of a provider, in catalog order (empty for an unknown provider). */
export function getModels<P extends KnownProvider>(provider: P): Model<KnownProviderApis[P]>[];
export function getModels(provider: string): Model[];
export function getModels(provider: string): Model[] {
	const models = load().get(provider);
	return models ? [...models.values()].map((m) => copy(m)) : [];
}

/** The providers of the built-in catalog. */
export function getProviders(): KnownProvider[] {
	return [...load().keys()] as KnownProvider[];
}

/** Every built-in model, provider by provider. */
export function getAllModels(): Model[] {
	const out: Model[] = [];
	for (const models of load().values()) for (const m of models.values()) out.push(copy(m));
	return out;
}

let shared: readonly Model[] | undefined;

/**
 * Every built-in model, provider by provider, as the catalog's own objects:
 * the same array and objects on every call, for callers that only read them
 * (a registry that replaces a model instead of changing it). Copying the
 * whole catalog, as getAllModels() does, is several ms of a CLI start-up
 * that looks up one model. Never mutate what this returns.
 */
export function builtinModels(): readonly Model[] {
	if (!shared) {
		const out: Model[] = [];
		for (const models of load().values()) for (const m of models.values()) out.push(m);
		shared = out;
	}
	return shared;
}

/**
 * Finds a model by reference in `models` (default: the built-in catalog).
 * Tried in order: `provider/id` (the id may itself contain slashes, as
 * OpenRouter's do), an exact id, then a case-insensitive id, then a
 * case-insensitive name. The first match in list order wins.
 */
export function findModel(ref: string, models: readonly Model[] = getAllModels()): Model | undefined {
	const slash = ref.indexOf("/");
	if (slash > 0) {
		const provider = ref.slice(0, slash);
		const id = ref.slice(slash + 1);
		const hit = models.find((m) => m.provider === provider && m.id === id);
		if (hit) return hit;
	}
	const exact = models.find((m) => m.id === ref);
	if (exact) return exact;
	const lower = ref.toLowerCase();
	return models.find((m) => m.id.toLowerCase() === lower) ?? models.find((m) => m.name.toLowerCase() === lower);
}

/** True when both are the same model of the same provider. */
export function modelsAreEqual(
	a: Pick<Model, "id" | "provider"> | undefined,
	b: Pick<Model, "id" | "provider"> | undefined,
): boolean {
	return !!a && !!b && a.id === b.id && a.provider === b.provider;
}
