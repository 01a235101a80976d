// The two shapes `pi.registerProvider` takes, checked where the extension
// calls it (so a mistake names the extension file) and reduced to one:
// a provider name plus a `ProviderConfig`.
import type { ProviderConfig, ProviderDefinition, ProviderStreamFunction } from "./types.js";

const UNSUPPORTED = ["auth", "refreshModels", "filterModels", "images", "classifiers"] as const;

function fail(what: string, path: string): never {
	throw new Error(`pi.registerProvider: ${what} (${path})`);
}

/** Checks the legacy `(name, config)` form's function-valued fields. */
export function checkProviderConfig(config: ProviderConfig | undefined, name: string, path: string): ProviderConfig {
	if (!name.trim()) fail("the provider name is empty", path);
	if (config === null || typeof config !== "object") fail(`provider "${name}" needs a config object`, path);
	if (config.streamSimple !== undefined && typeof config.streamSimple !== "function") {
		fail(`streamSimple of provider "${name}" must be a function`, path);
	}
	const oauth = config.oauth;
	if (oauth !== undefined) {
		if (oauth === null || typeof oauth !== "object") fail(`oauth of provider "${name}" must be an object`, path);
		for (const member of ["login", "refreshToken", "getApiKey"] as const) {
			if (typeof oauth[member] !== "function") fail(`oauth.${member} of provider "${name}" must be a function`, path);
		}
		if (typeof oauth.name !== "string" || !oauth.name) fail(`oauth.name of provider "${name}" must be a string`, path);
	}
	for (const model of Array.isArray(config.models) ? config.models : []) {
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

/** The object form (`registerProvider(provider)`) as a name and a config. */
export function providerFromDefinition(provider: ProviderDefinition, path: string): [string, ProviderConfig] {
	if (provider === null || typeof provider !== "object" || typeof provider.id !== "string") {
		fail("a provider object needs a string id", path);
	}
	const name = provider.id;
	const unsupported = UNSUPPORTED.filter((member) => (provider as unknown as Record<string, unknown>)[member]);
	if (unsupported.length > 0) {
		fail(
			`provider "${name}": ${unsupported.join(", ")} ${unsupported.length > 1 ? "are" : "is"} not supported by this build; use apiKey/oauth and models`,
			path,
		);
	}
	const { id: _id, api, getModels, stream, ...rest } = provider;
	let streamSimple: ProviderStreamFunction | undefined = provider.streamSimple ?? stream;
	let apiName: string | undefined;
	if (typeof api === "string") apiName = api;
	else if (api && typeof api === "object") {
		const impl = api.streamSimple ?? api.stream;
		if (typeof impl !== "function") fail(`provider "${name}": api needs a streamSimple function`, path);
		streamSimple ??= impl.bind(api);
	}
	const models = provider.models ?? (typeof getModels === "function" ? getModels.call(provider) : undefined);
	const config: ProviderConfig = { ...rest, ...(apiName ? { api: apiName } : {}), ...(models ? { models } : {}) };
	if (streamSimple) config.streamSimple = streamSimple;
	return [name, checkProviderConfig(config, name, path)];
}
