// An extension provider's `refreshModels` as one of the registry's model
// refreshers: it gets the stored credential, the persisted snapshot and a
// generation-checked `publish`, and the list it returns (the legacy form; the
// object form's getModels() after it published) replaces the models of that
// registration. A failure or a result that is not a list names the extension.
import type { ModelRefresher } from "../config/model-refresh.js";
import type { ModelRegistry } from "../config/model-registry.js";
import { checkModelType, checkThinkingLevelMap } from "../extensions/provider-shape.js";
import type {
	ProviderApiKeyCredential,
	ProviderConfig,
	ProviderModelConfig,
	ProviderOAuthCredential,
} from "../extensions/provider-types.js";

function describe(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

export function modelRefresher(
	registry: ModelRegistry,
	provider: string,
	config: ProviderConfig,
	/** Replaces the registration's models (every type) with the list. */
	apply: (list: ProviderModelConfig[]) => void,
	extensionPath: string,
): ModelRefresher {
	const refreshModels = config.refreshModels;
	if (!refreshModels) throw new Error(`provider "${provider}" has no refreshModels`);
	return async (run) => {
		let list: ProviderModelConfig[] | undefined;
		try {
			list = await refreshModels({
				credential: registry.auth.get(provider) as ProviderApiKeyCredential | ProviderOAuthCredential | undefined,
				stored: run.stored,
				publish: async ({ persist, update }) => {
					if (!run.isCurrent()) return false;
					if (persist !== undefined) run.persist(persist);
					update?.();
					return true;
				},
				allowNetwork: run.allowNetwork,
				force: run.force,
				signal: run.signal,
				baseUrl: config.baseUrl,
			});
		} catch (error) {
			throw new Error(`refreshModels of provider "${provider}" failed: ${describe(error)} (${extensionPath})`);
		}
		if (list === undefined || !run.isCurrent()) return;
		if (!Array.isArray(list)) {
			throw new Error(
				`refreshModels of provider "${provider}" returned ${typeof list}, not a model list (${extensionPath})`,
			);
		}
		const bad = list.find((m) => !m || typeof m.id !== "string" || !m.id);
		if (bad !== undefined) {
			throw new Error(`refreshModels of provider "${provider}" returned a model without an id (${extensionPath})`);
		}
		for (const m of list) {
			checkThinkingLevelMap(m, provider, extensionPath);
			checkModelType(config, m, provider, extensionPath);
		}
		apply(list.map((m) => ({ ...m, name: m.name ?? m.id, input: m.input ?? ["text"] })));
	};
}
