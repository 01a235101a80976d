import {
	BedrockRuntimeClient,
	type BedrockRuntimeClientConfig,
	ConverseStreamCommand,
	type ConverseStreamRequest,
} from "@aws-sdk/client-bedrock-runtime";
import { type AdapterOptions, type ApiAdapter, runAdapterStream } from "../adapter.js";
import { cloudCredentialsHint } from "../cloud-credentials.js";
import type { NormalizedContext } from "../context.js";
import { ProviderFault } from "../errors.js";
import { providerFetchFor } from "../provider-fetch.js";
import type { Model } from "../types.js";
import { type BedrockTarget, resolveBedrockTarget } from "./bedrock-converse-config.js";
import { BedrockEventMapper, bedrockError, exceptionName } from "./bedrock-converse-events.js";
import { buildBedrockRequest } from "./bedrock-converse-request.js";
import { observeEvent } from "./sse-body.js";

/** The SDK's request as its HTTP handler receives it (smithy's HttpRequest, the fields used here). */
interface SdkHttpRequest {
	method: string;
	protocol: string;
	hostname: string;
	port?: number;
	path: string;
	query?: Record<string, string | string[] | null>;
	headers: Record<string, string>;
	body?: unknown;
}

/**
 * The `bedrock-converse-stream` wire adapter: Amazon Bedrock's Converse API,
 * streaming, over the official `@aws-sdk/client-bedrock-runtime` (loaded
 * lazily by the registry). The SDK builds the request, signs it (SigV4 from
 * its default credential chain, or a Bedrock bearer token) and decodes the
 * binary `application/vnd.amazon.eventstream` response (prelude and message
 * CRCs checked) into typed events. It sends through pi-ai's fetch instead of
 * its own HTTP/2 handler, so redirects, the response checks, the idle timer
 * and the byte cap are the same as for every other adapter; HTTP errors are
 * classified there from the exception name Bedrock puts in `x-amzn-errortype`.
 * See bedrock-converse-config.ts for where region, endpoint and credentials come from.
 */
export const adapter: ApiAdapter = {
	stream(model: Model, context: NormalizedContext, options: AdapterOptions) {
		return runAdapterStream(model, options, async ({ writer, signal, touch }) => {
			let request: ConverseStreamRequest = buildBedrockRequest(model, context, options);
			if (options.onPayload) {
				const replaced = await options.onPayload(request, model);
				if (replaced !== undefined) request = replaced as ConverseStreamRequest;
			}
			const target = resolveBedrockTarget(model, options.apiKey);
			const send = providerFetchFor(options, model);
			const extraHeaders = { ...model.headers, ...options.headers };
			const requestHandler = {
				async handle(req: SdkHttpRequest, handlerOptions?: { abortSignal?: AbortSignal }) {
					const response = await send(urlOf(req), {
						method: req.method,
						// Added after signing: SigV4 covers only the headers it signed.
						headers: { ...req.headers, ...extraHeaders },
						body: req.body as RequestInit["body"],
						signal: (handlerOptions?.abortSignal as AbortSignal | undefined) ?? signal,
					});
					options.onResponse?.({ status: response.status, headers: Object.fromEntries(response.headers) }, model);
					if (!response.ok) {
						const text = await response.text();
						const name = exceptionName(response.headers.get("x-amzn-errortype")) ?? nameInBody(text);
						const mapped = bedrockError(name, response.status, messageInBody(text), response.headers);
						throw new ProviderFault(mapped.message, mapped.info);
					}
					return {
						response: {
							statusCode: response.status,
							headers: Object.fromEntries(response.headers),
							body: counted(response.body, touch),
						},
					};
				},
				updateHttpClientConfig() {},
				httpHandlerConfigs: () => ({}),
			};
			const client = await clientFor(target, requestHandler as unknown as BedrockRuntimeClientConfig["requestHandler"]);
			const mapper = new BedrockEventMapper(writer);
			try {
				const response = await client.send(new ConverseStreamCommand(request), { abortSignal: signal });
				for await (const event of response.stream ?? []) {
					if (options.onStreamEvent) await observeEvent((data) => options.onStreamEvent?.(data, model), event);
					mapper.handle(event);
					if (writer.isDone) return;
				}
			} catch (error) {
				if (signal.aborted) throw error;
				const known = failureOf(error, model);
				if (!known) throw error;
				writer.fail(known.message, known.info);
				return;
			} finally {
				client.destroy();
			}
			if (!signal.aborted) mapper.end();
		});
	},
};

/**
 * The client for this request. The region: the environment's, else the AWS
 * profile's (the SDK's own lookup), else the model's standard endpoint region.
 */
async function clientFor(
	target: BedrockTarget,
	requestHandler: BedrockRuntimeClientConfig["requestHandler"],
): Promise<BedrockRuntimeClient> {
	// The SDK warns on stderr, once per process, that its releases from 2027 need Node 22: nothing a
	// pi user can act on mid-session, and it would land in the middle of the terminal UI.
	process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
	const config: BedrockRuntimeClientConfig = {
		requestHandler,
		// One attempt: retries belong to the caller, who knows what a retry costs.
		maxAttempts: 1,
	};
	if (target.endpoint) config.endpoint = target.endpoint;
	if (target.bearerToken) {
		config.token = { token: target.bearerToken };
		config.authSchemePreference = ["httpBearerAuth"];
	}
	if (target.envRegion) return new BedrockRuntimeClient({ ...config, region: target.envRegion });
	const client = new BedrockRuntimeClient(config);
	try {
		await client.config.region();
		return client;
	} catch {
		client.destroy();
		return new BedrockRuntimeClient({ ...config, region: target.fallbackRegion });
	}
}

function urlOf(req: SdkHttpRequest): string {
	const port = req.port ? `:${req.port}` : "";
	const query = new URLSearchParams();
	for (const [key, value] of Object.entries(req.query ?? {})) {
		if (value === null) query.append(key, "");
		else for (const one of Array.isArray(value) ? value : [value]) query.append(key, one);
	}
	const search = query.toString();
	return `${req.protocol}//${req.hostname}${port}${req.path}${search ? `?${search}` : ""}`;
}

/** The body as the SDK's event-stream decoder reads it, each chunk counted for the idle timer and byte cap. */
async function* counted(
	body: ReadableStream<Uint8Array> | null,
	touch: (bytes: number) => void,
): AsyncGenerator<Uint8Array> {
	if (!body) return;
	for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
		touch(chunk.length);
		yield chunk;
	}
}

/** A failure the SDK raised that is Bedrock's own (a mid-stream exception event, missing credentials). */
function failureOf(
	error: unknown,
	model: Model,
): { message: string; info: ConstructorParameters<typeof ProviderFault>[1] } | undefined {
	if (!(error instanceof Error)) return undefined;
	if (findFault(error)) return undefined;
	if (error.name === "CredentialsProviderError" || /could not load credentials/i.test(error.message)) {
		const hint = cloudCredentialsHint(model.provider) ?? "";
		return {
			message: `${error.message}${hint ? `. ${hint}` : ""}`,
			info: { kind: "auth", code: "missing_credentials", retryable: false },
		};
	}
	const name = exceptionName(error.name);
	if (!name || !/Exception$/.test(name) || name === "ProviderFault") return undefined;
	const mapped = bedrockError(name, undefined, error.message);
	return mapped;
}

function findFault(error: unknown): boolean {
	for (let e: unknown = error, depth = 0; e && depth < 5; depth++) {
		if (e instanceof ProviderFault) return true;
		e = (e as { cause?: unknown }).cause;
	}
	return false;
}

function parseBody(text: string): Record<string, unknown> | undefined {
	try {
		const value: unknown = JSON.parse(text);
		return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined;
	} catch {
		return undefined;
	}
}

/** Bedrock error bodies are `{"message": …}` (some services write `Message`). */
function messageInBody(text: string): string {
	const body = parseBody(text);
	const message = body?.message ?? body?.Message;
	return typeof message === "string" ? message : text.trim().slice(0, 500);
}

function nameInBody(text: string): string | undefined {
	const type = parseBody(text)?.__type;
	return typeof type === "string" ? exceptionName(type.split("#").pop()) : undefined;
}
