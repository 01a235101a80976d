import type { ApiAdapter } from "./adapter.js";
import type { Api } from "./types.js";

export type { AdapterOptions, ApiAdapter } from "./adapter.js";

/** Loads an adapter module on first use, so importing pi-ai loads no SDK. */
export type AdapterLoader = () => Promise<ApiAdapter>;

const loaders = new Map<string, AdapterLoader>();
const loaded = new Map<string, Promise<ApiAdapter>>();
const ready = new Map<string, ApiAdapter>();

/** Registers (or replaces) the adapter for an api. */
export function registerApi(api: Api, load: AdapterLoader): void {
	loaders.set(api, load);
	loaded.delete(api);
	ready.delete(api);
}

export function unregisterApi(api: Api): void {
	loaders.delete(api);
	loaded.delete(api);
	ready.delete(api);
}

/** The loader registered for an api (to put back a built-in an extension replaced). */
export function apiLoader(api: Api): AdapterLoader | undefined {
	return loaders.get(api);
}

export function hasApi(api: Api): boolean {
	return loaders.has(api);
}

export function registeredApis(): Api[] {
	return [...loaders.keys()];
}

/** The adapter for an api, loading its module once; undefined when none is registered. */
export function loadAdapter(api: Api): Promise<ApiAdapter> | undefined {
	const cached = loaded.get(api);
	if (cached) return cached;
	const load = loaders.get(api);
	if (!load) return undefined;
	const promise = load();
	loaded.set(api, promise);
	promise.then(
		(adapter) => {
			if (loaded.get(api) === promise) ready.set(api, adapter);
		},
		// A failed load may succeed later (e.g. a missing optional dependency installed).
		() => loaded.delete(api),
	);
	return promise;
}

/** The adapter if its module has already loaded (lets `stream()` skip a relay). */
export function loadedAdapter(api: Api): ApiAdapter | undefined {
	return ready.get(api);
}

// Built-in adapters: each its own module, imported on the first request for its api.
registerApi("openai-completions", async () => (await import("./adapters/openai-completions.js")).adapter);
registerApi("openai-responses", async () => (await import("./adapters/openai-responses.js")).adapter);
registerApi("anthropic-messages", async () => (await import("./adapters/anthropic-messages.js")).adapter);
registerApi("google-generative-ai", async () => (await import("./adapters/google-generative-ai.js")).adapter);
registerApi("openai-codex-responses", async () => (await import("./adapters/openai-codex-responses.js")).adapter);
registerApi("llama-cpp", async () => (await import("./adapters/llama-cpp.js")).adapter);
registerApi("azure-openai-responses", async () => (await import("./adapters/azure-openai-responses.js")).adapter);
registerApi("mistral-conversations", async () => (await import("./adapters/mistral-conversations.js")).adapter);
registerApi("bedrock-converse-stream", async () => (await import("./adapters/bedrock-converse-stream.js")).adapter);
registerApi("google-vertex", async () => (await import("./adapters/google-vertex.js")).adapter);
