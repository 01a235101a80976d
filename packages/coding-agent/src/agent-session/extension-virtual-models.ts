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
	await applyLoadedProviders(runner.runtime, registry, reportError);
	runner.runtime.flushVirtualModels(createVirtualModelRegistrar(registry, runner));
}
