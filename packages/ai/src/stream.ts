import { type AdapterOptions, type ApiAdapter, failedStream } from "./adapter.js";
import { cloudCredentialsHint, cloudProviderOf } from "./cloud-credentials.js";
import { type NormalizedContext, normalizeContext } from "./context.js";
import { envKeyNames, getEnvApiKey } from "./env-keys.js";
import "./fetch-origin.js"; // pins which global fetch is Node's own: the one present at first import
import { AssistantMessageEventStream } from "./event-stream.js";
import { registerHeaderSecrets, registerSecret, registerUrlCredentials } from "./redaction.js";
import { loadAdapter, loadedAdapter } from "./registry.js";
import type { AssistantMessage, Context, Model, StreamOptions } from "./types.js";

/** Key sent to local servers that need none (most ignore the Authorization header). */
export const LOCAL_PLACEHOLDER_KEY = "local";

/**
 * Streams one response. Returns at once; every failure (missing key, unknown
 * api, adapter load error, HTTP or network error, abort) arrives as the
 * stream's `error` event, never as a throw.
 */
export function stream(model: Model, context: Context, options: StreamOptions = {}): AssistantMessageEventStream {
	const apiKey = resolveApiKey(model, options);
	// Before anything is sent: every failure text from here on is redacted with these.
	registerSecret(apiKey === LOCAL_PLACEHOLDER_KEY ? undefined : apiKey);
	registerHeaderSecrets(model.headers);
	registerHeaderSecrets(options.headers);
	registerUrlCredentials(model.baseUrl);
	if (apiKey === undefined) {
		const names = envKeyNames(model.provider);
		const cloudProvider = cloudProviderOf(model);
		const cloud = cloudProvider ? cloudCredentialsHint(cloudProvider) : undefined;
		return failedStream(
			model,
			cloud ?? `No API key for provider "${model.provider}": set ${names.join(" or ")}, or pass apiKey`,
			{ kind: "auth", code: cloud ? "missing_credentials" : "missing_api_key", retryable: false },
		);
	}
	const normalized = normalizeContext(context);
	const adapterOptions = { ...options, apiKey };
	const ready = loadedAdapter(model.api);
	if (ready) return startAdapter(ready, model, normalized, adapterOptions);
	const adapterPromise = loadAdapter(model.api);
	if (!adapterPromise) {
		return failedStream(model, `No adapter registered for api "${model.api}"`, {
			kind: "bad_request",
			code: "unknown_api",
			retryable: false,
		});
	}
	// First request for this api: relay events until the module has loaded.
	const out = new AssistantMessageEventStream();
	void adapterPromise.then(
		async (adapter) => {
			const inner = startAdapter(adapter, model, normalized, adapterOptions);
			for await (const event of inner) out.push(event);
			if (!out.isFinished) out.end(await inner.result());
		},
		(error: unknown) => {
			const failed = failedStream(model, `Could not load the "${model.api}" adapter: ${describe(error)}`, {
				kind: "unknown",
				retryable: false,
			});
			void failed.result().then((message) => out.push({ type: "error", reason: "error", error: message }));
		},
	);
	return out;
}

function startAdapter(
	adapter: ApiAdapter,
	model: Model,
	context: NormalizedContext,
	options: AdapterOptions,
): AssistantMessageEventStream {
	try {
		return adapter.stream(model, context, options);
	} catch (error) {
		// Adapters must not throw; if one does, it is still an event.
		return failedStream(model, `Adapter "${model.api}" failed: ${describe(error)}`, {
			kind: "unknown",
			retryable: false,
		});
	}
}

/** Streams and resolves the final message (also on error/abort: check `stopReason`). */
export function complete(model: Model, context: Context, options?: StreamOptions): Promise<AssistantMessage> {
	return stream(model, context, options).result();
}

/**
 * The key for a request: the option, else the provider's env variable, else a
 * placeholder for servers on this machine (Ollama, llama.cpp, LM Studio, vLLM).
 */
export function resolveApiKey(model: Model, options: StreamOptions = {}): string | undefined {
	if (options.apiKey) return options.apiKey;
	// An embedded model runs in this process: there is nobody to authenticate to.
	if (model.api === "llama-cpp") return LOCAL_PLACEHOLDER_KEY;
	const fromEnv = getEnvApiKey(model.provider);
	if (fromEnv) return fromEnv;
	// Cloud apis sign with the cloud's credentials, wherever the endpoint is (a VPC endpoint, a proxy).
	const cloud = cloudProviderOf(model);
	if (cloud) return getEnvApiKey(cloud);
	return isLoopbackUrl(model.baseUrl) ? LOCAL_PLACEHOLDER_KEY : undefined;
}

export function isLoopbackUrl(url: string): boolean {
	try {
		const host = new URL(url).hostname.replace(/^\[|\]$/g, "");
		return host === "localhost" || host === "::1" || /^127\./.test(host) || host === "0.0.0.0";
	} catch {
		return false;
	}
}

function describe(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}
