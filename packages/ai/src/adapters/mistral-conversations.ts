import { MistralCore } from "@mistralai/mistralai/core.js";
import { chatStream } from "@mistralai/mistralai/funcs/chatStream.js";
import { HTTPClient } from "@mistralai/mistralai/lib/http.js";
import type { ChatCompletionStreamRequest } from "@mistralai/mistralai/models/components";
import { type AdapterOptions, type ApiAdapter, runAdapterStream } from "../adapter.js";
import type { NormalizedContext } from "../context.js";
import { errorFromHttpStatus, ProviderFault, providerStreamError } from "../errors.js";
import { providerFetchFor } from "../provider-fetch.js";
import type { Model } from "../types.js";
import { type MistralChunk, MistralEventMapper } from "./mistral-conversations-events.js";
import { buildMistralRequest } from "./mistral-conversations-request.js";
import { failMalformed, readSseBody, streamObserver } from "./sse-body.js";

/**
 * The `mistral-conversations` wire adapter (the name the reference pi gives
 * Mistral's API) over the official `@mistralai/mistralai` SDK, loaded lazily
 * by the registry. The SDK validates and serialises the request and sends it
 * (`POST /v1/chat/completions`, bearer key) through our fetch; the response
 * is taken over in that fetch: an error status is classified from its body
 * here (the SDK's error classes carry no retry-after), and a 2xx body is read
 * with pi-ai's SSE parser while the SDK gets an empty stream, so its per-event
 * schema validation does not run on every chunk.
 */
export const adapter: ApiAdapter = {
	stream(model: Model, context: NormalizedContext, options: AdapterOptions) {
		return runAdapterStream(model, options, async ({ writer, signal, touch }) => {
			let request: ChatCompletionStreamRequest = buildMistralRequest(model, context, options);
			if (options.onPayload) {
				const replaced = await options.onPayload(request, model);
				if (replaced !== undefined) request = replaced as ChatCompletionStreamRequest;
			}
			const send = providerFetchFor(options, model);
			let body: ReadableStream<Uint8Array> | null = null;
			/** What our fetch threw or classified: the SDK wraps fetch errors in its own, losing the facts. */
			let failure: unknown;
			const httpClient = new HTTPClient({
				fetcher: async (input, init) => {
					try {
						const response = await send(input instanceof Request ? input : String(input), init);
						options.onResponse?.({ status: response.status, headers: Object.fromEntries(response.headers) }, model);
						if (!response.ok) {
							const mapped = errorFromHttpStatus(response.status, await response.text(), response.headers);
							throw new ProviderFault(mapped.message, mapped.info);
						}
						body = response.body;
						return new Response("", { status: response.status, headers: response.headers });
					} catch (error) {
						failure = error;
						throw error;
					}
				},
			});
			// The core client and the one standalone function: importing the whole SDK class loads
			// every endpoint's schemas (seconds of cold start).
			const client = new MistralCore({
				apiKey: options.apiKey,
				serverURL: serverUrlOf(model.baseUrl),
				httpClient,
				retryConfig: { strategy: "none" },
			});
			const headers = { ...model.headers, ...options.headers };
			try {
				const result = await chatStream(client, request, { fetchOptions: { signal, headers } });
				if (!result.ok) throw result.error;
				// The SDK got an empty body: this ends at once.
				for await (const _ of result.value);
			} catch (error) {
				throw failure ?? error;
			}
			const stream = body as ReadableStream<Uint8Array> | null;
			if (!stream) throw new Error("The response has no body");
			const mapper = new MistralEventMapper(writer);
			let sawDone = false;
			const ended = await readSseBody(
				stream as unknown as AsyncIterable<Uint8Array>,
				writer,
				touch,
				(data) => {
					if (sawDone) return;
					if (data.startsWith("[DONE]")) {
						sawDone = true;
						return;
					}
					const chunk = parseChunk(data);
					if (!chunk) failMalformed(writer, "chunk", data);
					else if (chunk.error) {
						const mapped = providerStreamError(chunk.error, [options.apiKey]);
						writer.fail(mapped.message, mapped.info);
					} else mapper.handle(chunk);
				},
				streamObserver(options, model),
			);
			if (ended && !signal.aborted) mapper.end();
		});
	},
};

/** The SDK appends `/v1/chat/completions` itself: the catalog's `…/v1` base loses its version. */
export function serverUrlOf(baseUrl: string): string {
	return baseUrl.replace(/\/+$/, "").replace(/\/v1$/, "");
}

function parseChunk(data: string): (MistralChunk & { error?: Record<string, unknown> }) | undefined {
	try {
		const value: unknown = JSON.parse(data);
		return typeof value === "object" && value !== null ? (value as MistralChunk) : undefined;
	} catch {
		return undefined;
	}
}
