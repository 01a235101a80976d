// pi.registerVirtualModel / pi.unregisterVirtualModel carried out on a model
// registry. The router an extension wrote takes `(request, ctx)`; the
// registry's takes the request alone, so the extension context is made per
// request (a fresh one, like a handler's) — which also lets a model registered
// while loading, before any session exists, route once the session runs.
import type { ModelRegistry } from "../config/model-registry.js";
import type { ExtensionHost } from "../extensions/extension.js";
import type { ExtensionRunner } from "../extensions/runner.js";
import type { ExtensionError } from "../extensions/types.js";
import { applyLoadedProviders } from "./extension-providers.js";

export type VirtualModelRegistrar = Pick<ExtensionHost, "registerVirtualModel" | "unregisterVirtualModel">;

export function createVirtualModelRegistrar(registry: ModelRegistry, runner: ExtensionRunner): VirtualModelRegistrar {
	return {
		registerVirtualModel: (model) =>
			void registry.registerVirtualModel({
				...model,
				route: (request) => model.route(request, runner.createContext()),
			}),
		unregisterVirtualModel: (provider, id) => registry.unregisterVirtualModel(provider, id),
	};
}

/**
 * Applies what the factories registered while loading — providers, then
 * virtual models — before any session exists, so `--model`, `--list-models`,
 * a saved default model and a restored session's model see them (1.6.0 lists
 * both in `/model`, `--model` and settings like any model).
 */
export async function applyLoadedRegistrations(
	runner: ExtensionRunner,
	registry: ModelRegistry,
	reportError: (error: ExtensionError) => void,
): Promise<void> {
	const dynamic = runner.runtime.pendingProviders.filter((p) => p.config?.refreshModels).map((p) => p.name);
	await applyLoadedProviders(runner.runtime, registry, reportError);
	runner.runtime.flushVirtualModels(createVirtualModelRegistrar(registry, runner));
	// Dynamic providers list their models before the starting model is chosen (bounded: a
	// discovery that hangs must not hold start-up).
	const providers = dynamic.filter((name) => registry.refreshers.has(name));
	if (providers.length > 0) await refreshExtensionModels(registry, providers, reportError);
}

/** Time a start-up model discovery may take before pi goes on without its answer. */
export const STARTUP_REFRESH_MS = 10_000;

/** Runs the refreshers of `providers`; each failure (it names the extension) is reported. */
export async function refreshExtensionModels(
	registry: ModelRegistry,
	providers: readonly string[],
	reportError: (error: ExtensionError) => void,
	timeoutMs = STARTUP_REFRESH_MS,
): Promise<void> {
	const result = await registry.refresh({ providers, signal: AbortSignal.timeout(timeoutMs) });
	for (const [provider, error] of result.errors) {
		reportError({ extensionPath: `provider ${provider}`, event: "refreshModels", error: error.message });
	}
	if (result.aborted) {
		reportError({
			extensionPath: `provider ${providers.join(", ")}`,
			event: "refreshModels",
			error: `model discovery did not finish within ${timeoutMs / 1000} s; going on with the models known so far`,
		});
	}
}
