// The two shapes `pi.registerProvider` takes, checked where the extension
// calls it (so a mistake names the extension file) and reduced to one:
// a provider name plus a `ProviderConfig`.
import type { ProviderConfig, ProviderDefinition, ProviderModelConfig, ProviderStreamFunction } from "./types.js";

function fail(what: string, path: string): never {
	throw new Error(`pi.registerProvider: ${what} (${path})`);
}

/** Checks the legacy `(name, config)` form's function-valued fields. */
export function checkProviderConfig(config: ProviderConfig | undefined, name: string, path: string): ProviderConfig {
	if (!name.trim()) fail("the provider name is empty", path);
	if (config === null || typeof config !== "object") fail(`provider "${name}" needs a config object`, path);
	for (const member of ["streamSimple", "refreshModels", "filterModels", "filterAllModels"] as const) {
		if (config[member] !== undefined && typeof config[member] !== "function") {
			fail(`${member} of provider "${name}" must be a function`, path);
		}
	}
	const auth = config.auth;
	if (auth !== undefined) {
		if (auth === null || typeof auth !== "object" || (!auth.apiKey && !auth.oauth)) {
			fail(`auth of provider "${name}" needs apiKey or oauth`, path);
		}
		if (auth.apiKey && typeof auth.apiKey.resolve !== "function") {
			fail(`auth.apiKey.resolve of provider "${name}" must be a function`, path);
		}
		if (auth.apiKey?.login !== undefined && typeof auth.apiKey.login !== "function") {
			fail(`auth.apiKey.login of provider "${name}" must be a function`, path);
		}
		if (auth.oauth) {
			for (const member of ["login", "refresh", "toAuth"] as const) {
				if (typeof auth.oauth[member] !== "function") {
					fail(`auth.oauth.${member} of provider "${name}" must be a function`, path);
				}
			}
		}
		if (config.oauth) fail(`provider "${name}" has both auth and oauth; use one`, path);
	}
	const oauth = config.oauth;
	if (oauth !== undefined) {
		if (oauth === null || typeof oauth !== "object") fail(`oauth of provider "${name}" must be an object`, path);
		for (const member of ["login", "refreshToken", "getApiKey"] as const) {
			if (typeof oauth[member] !== "function") fail(`oauth.${member} of provider "${name}" must be a function`, path);
		}
		if (typeof oauth.name !== "string" || !oauth.name) fail(`oauth.name of provider "${name}" must be a string`, path);
	}
	checkOperations(config, name, path);
	for (const model of Array.isArray(config.models) ? config.models : []) {
		checkModelType(config, model, name, path);
		checkThinkingLevelMap(model, name, path);
		const cache: unknown = model?.promptCache;
		if (cache === undefined) continue;
		const ok =
			cache !== null &&
			typeof cache === "object" &&
			Object.entries(cache).every(
				([tier, s]) => (tier === "short" || tier === "long") && typeof s === "number" && Number.isFinite(s) && s > 0,
			);
		if (!ok) {
			fail(
				`promptCache of model "${model.id}" (provider "${name}") must be { short?, long? } in seconds, greater than 0`,
				path,
			);
		}
	}
	return config;
}

/** `images` / `classifiers`: maps from an api name to an object with the operation's function. */
function checkOperations(config: ProviderConfig, name: string, path: string): void {
	for (const [field, method] of [
		["images", "generateImages"],
		["classifiers", "classify"],
	] as const) {
		const map: unknown = config[field];
		if (map === undefined) continue;
		if (map === null || typeof map !== "object" || Array.isArray(map)) {
			fail(`${field} of provider "${name}" must map api names to { ${method}() }`, path);
		}
		for (const [api, impl] of Object.entries(map as Record<string, unknown>)) {
			if (typeof (impl as Record<string, unknown> | null)?.[method] !== "function") {
				fail(`${field}["${api}"] of provider "${name}" needs a ${method} function`, path);
			}
		}
	}
}

/**
 * A model's `type`: chat (default), image or classifier. Image and
 * classifier models need an api with an implementation (the provider's
 * `images` / `classifiers` entry, or the object form's method).
 */
export function checkModelType(
	config: ProviderConfig & { generateImages?: unknown; classify?: unknown },
	model: ProviderModelConfig | undefined,
	name: string,
	path: string,
): void {
	const type = model?.type;
	if (type === undefined || type === "chat") return;
	if (type !== "image" && type !== "classifier") {
		fail(`type of model "${model?.id}" (provider "${name}") must be "chat", "image" or "classifier"`, path);
	}
	const api = model?.api ?? config.api;
	const hasImpl =
		type === "image"
			? (api !== undefined && config.images?.[api] !== undefined) || typeof config.generateImages === "function"
			: (api !== undefined && config.classifiers?.[api] !== undefined) || typeof config.classify === "function";
	if (!hasImpl) {
		const field = type === "image" ? "images" : "classifiers";
		fail(
			`${type} model "${model?.id}" (provider "${name}") has no implementation: add ${field}["${api ?? "<api>"}"]`,
			path,
		);
	}
}

const LEVELS = new Set(["off", "minimal", "low", "medium", "high", "xhigh", "max"]);

/** `thinkingLevelMap`: thinking level -> provider value (a string) or null (unsupported). */
export function checkThinkingLevelMap(model: ProviderModelConfig | undefined, name: string, path: string): void {
	const map: unknown = model?.thinkingLevelMap;
	if (map === undefined) return;
	const ok =
		map !== null &&
		typeof map === "object" &&
		!Array.isArray(map) &&
		Object.entries(map).every(([level, v]) => LEVELS.has(level) && (v === null || typeof v === "string"));
	if (!ok) {
		fail(
			`thinkingLevelMap of model "${model?.id}" (provider "${name}") must map thinking levels (${[...LEVELS].join(", ")}) to a string or null`,
			path,
		);
	}
}

/** The object form (`registerProvider(provider)`) as a name and a config. */
export function providerFromDefinition(provider: ProviderDefinition, path: string): [string, ProviderConfig] {
	if (provider === null || typeof provider !== "object" || typeof provider.id !== "string") {
		fail("a provider object needs a string id", path);
	}
	const name = provider.id;
	const { id: _id, api, getModels, getAllModels, stream, refreshModels, ...rest } = provider;
	// Methods keep the provider as `this` (a pi-ai Provider is often a class instance).
	for (const member of ["generateImages", "classify", "filterModels", "filterAllModels"] as const) {
		const fn = provider[member];
		if (typeof fn === "function") (rest as Record<string, unknown>)[member] = fn.bind(provider);
	}
	const listed = () =>
		typeof getAllModels === "function"
			? getAllModels.call(provider)
			: typeof getModels === "function"
				? getModels.call(provider)
				: undefined;
	let streamSimple: ProviderStreamFunction | undefined = provider.streamSimple ?? stream;
	let apiName: string | undefined;
	if (typeof api === "string") apiName = api;
	else if (api && typeof api === "object") {
		const impl = api.streamSimple ?? api.stream;
		if (typeof impl !== "function") fail(`provider "${name}": api needs a streamSimple function`, path);
		streamSimple ??= impl.bind(api);
	}
	const models = provider.models ?? listed();
	const config: ProviderConfig = { ...rest, ...(apiName ? { api: apiName } : {}), ...(models ? { models } : {}) };
	if (typeof refreshModels === "function") {
		// The object form publishes its list (`publish({ update })`); getModels() then answers with it.
		config.refreshModels = async (context) => {
			await refreshModels.call(provider, context);
			return listed();
		};
	}
	if (streamSimple) config.streamSimple = streamSimple;
	return [name, checkProviderConfig(config, name, path)];
}
