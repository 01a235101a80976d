// The catalog Pi uses by default: pi-ai's built-in models and its models.json
// rules. Until pi-ai exports its catalog functions this module holds a small
// equivalent of the models.json rules (documented in the reference's
// docs/models.md) so custom providers work.
import type { Api, Model, ModelCompat, ModelCost } from "@pi/ai";
import { isPlainObject } from "./json-file.js";
import type { AppliedModels, ModelCatalog } from "./model-catalog.js";

const DEFAULTS = { contextWindow: 128_000, maxTokens: 16_384 };
const ZERO_COST: ModelCost = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };

function strings(value: unknown): Record<string, string> | undefined {
	if (!isPlainObject(value)) return undefined;
	return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === "string"));
}

function modelFields(raw: Record<string, unknown>, base: Model): Model {
	const m: Model = { ...base };
	if (typeof raw.name === "string") m.name = raw.name;
	if (typeof raw.api === "string") m.api = raw.api as Api;
	if (typeof raw.baseUrl === "string") m.baseUrl = raw.baseUrl;
	if (typeof raw.reasoning === "boolean") m.reasoning = raw.reasoning;
	if (Array.isArray(raw.input)) m.input = raw.input.filter((x): x is "text" | "image" => x === "text" || x === "image");
	if (typeof raw.contextWindow === "number") m.contextWindow = raw.contextWindow;
	if (typeof raw.maxTokens === "number") m.maxTokens = raw.maxTokens;
	if (isPlainObject(raw.cost)) m.cost = { ...m.cost, ...(raw.cost as Partial<ModelCost>) };
	if (isPlainObject(raw.thinkingLevelMap)) m.thinkingLevelMap = raw.thinkingLevelMap as Model["thinkingLevelMap"];
	if (isPlainObject(raw.compat)) m.compat = { ...m.compat, ...(raw.compat as ModelCompat) };
	const headers = strings(raw.headers);
	if (headers) m.headers = { ...m.headers, ...headers };
	return m;
}

/** Applies models.json rules: new providers, rerouted built-ins, upserted and overridden models. */
export function applyModelsConfigLocal(builtins: Model[], config: unknown, options: { source: string }): AppliedModels {
	const errors: string[] = [];
	if (!isPlainObject(config)) return { models: builtins, errors: [`${options.source}: expected a JSON object`] };
	if (config.providers === undefined) return { models: builtins, errors };
	if (!isPlainObject(config.providers)) {
		return { models: builtins, errors: [`${options.source}: "providers" must be an object`] };
	}
	let models = [...builtins];
	for (const [provider, raw] of Object.entries(config.providers)) {
		if (!isPlainObject(raw)) {
			errors.push(`${options.source}: provider "${provider}" must be an object`);
			continue;
		}
		const baseUrl = typeof raw.baseUrl === "string" ? raw.baseUrl : undefined;
		const api = typeof raw.api === "string" ? (raw.api as Api) : undefined;
		const headers = strings(raw.headers);
		const compat = isPlainObject(raw.compat) ? (raw.compat as ModelCompat) : undefined;
		// Provider-level settings reroute the provider's existing models.
		models = models.map((m) => {
			if (m.provider !== provider) return m;
			const out = { ...m };
			if (baseUrl) out.baseUrl = baseUrl;
			if (headers) out.headers = { ...m.headers, ...headers };
			if (compat) out.compat = { ...m.compat, ...compat };
			return out;
		});
		const overrides = isPlainObject(raw.modelOverrides) ? raw.modelOverrides : {};
		for (const [id, o] of Object.entries(overrides)) {
			const i = models.findIndex((m) => m.provider === provider && m.id === id);
			if (i < 0 || !isPlainObject(o)) {
				errors.push(`${options.source}: modelOverrides "${provider}/${id}" matches no built-in model`);
				continue;
			}
			models[i] = modelFields(o, models[i]);
		}
		if (raw.models === undefined) continue;
		if (!Array.isArray(raw.models)) {
			errors.push(`${options.source}: "models" of provider "${provider}" must be an array`);
			continue;
		}
		for (const [index, rm] of raw.models.entries()) {
			if (!isPlainObject(rm) || typeof rm.id !== "string" || rm.id === "") {
				errors.push(`${options.source}: model #${index + 1} of provider "${provider}" needs a string "id"`);
				continue;
			}
			const existing = models.find((m) => m.provider === provider);
			const modelApi = (typeof rm.api === "string" ? rm.api : undefined) ?? api ?? existing?.api;
			const modelBaseUrl = (typeof rm.baseUrl === "string" ? rm.baseUrl : undefined) ?? baseUrl ?? existing?.baseUrl;
			if (!modelApi || !modelBaseUrl) {
				errors.push(
					`${options.source}: model "${rm.id}" of provider "${provider}" needs "${modelApi ? "baseUrl" : "api"}" (on the provider or the model)`,
				);
				continue;
			}
			const base: Model = {
				id: rm.id,
				name: rm.id,
				api: modelApi,
				provider,
				baseUrl: modelBaseUrl,
				reasoning: false,
				input: ["text"],
				cost: { ...ZERO_COST },
				contextWindow: DEFAULTS.contextWindow,
				maxTokens: DEFAULTS.maxTokens,
			};
			if (headers) base.headers = { ...headers };
			if (compat) base.compat = { ...compat };
			const model = modelFields(rm, base);
			const i = models.findIndex((m) => m.provider === provider && m.id === model.id);
			if (i >= 0) models[i] = model;
			else models.push(model);
		}
	}
	return { models, errors };
}

/** Built-in models come from pi-ai once its catalog is exported; until then none. */
export const defaultModelCatalog: ModelCatalog = {
	builtins: () => [],
	applyModelsConfig: applyModelsConfigLocal,
};
