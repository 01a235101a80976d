import { SDK_METADATA } from "@mistralai/mistralai/lib/config.js";
import type { ChatCompletionStreamRequest } from "@mistralai/mistralai/models/components";
import { type AdapterOptions, type ApiAdapter, runAdapterStream } from "../adapter.js";
import type { NormalizedContext } from "../context.js";
import { errorFromHttpStatus, ProviderFault, providerStreamError } from "../errors.js";
import { bodyChunks } from "../http-fetch.js";
import { providerRequestFor } from "../provider-fetch.js";
import type { Model } from "../types.js";
import { type MistralChunk, MistralEventMapper } from "./mistral-conversations-events.js";
import { buildMistralRequest } from "./mistral-conversations-request.js";
import { mistralWireBody } from "./mistral-conversations-wire.js";
import { failMalformed, readSseBody, streamObserver } from "./sse-body.js";

/**
 * The `mistral-conversations` wire adapter (the name the reference pi gives
 * Mistral's API): `POST /v1/chat/completions` with the bearer key, streamed.
 * The request is the official `@mistralai/mistralai` SDK's
 * `ChatCompletionStreamRequest`, written to the wire as the SDK's outbound
 * schema writes it (mistral-conversations-wire.ts, held to the SDK's own
 * output by a test) and sent with the SDK's user agent. The SDK's zod schemas
 * are loaded only to check and write a payload replaced by `onPayload`:
 * importing them cost more than the rest of a cold first request (762 ms
 * against 1.6.0's 205 ms when the SDK's chatStream sent every request). It is sent through
 * providerRequest (plain http over node:http, no undici: a local or proxied Mistral endpoint)
 * and the response is read with pi-ai's SSE parser; an error status is classified from its body.
 */
export const adapter: ApiAdapter = {
	stream(model: Model, context: NormalizedContext, options: AdapterOptions) {
		return runAdapterStream(model, options, async ({ writer, signal, touch }) => {
			const built = buildMistralRequest(model, context, options);
			const replaced = (await options.onPayload?.(built, model)) as ChatCompletionStreamRequest | undefined;
			// What the builder made is written without the SDK's schemas; a replaced payload is the SDK's to check.
			const body =
				replaced === undefined ? (mistralWireBody(built) ?? (await sdkWireBody(built))) : await sdkWireBody(replaced);
			const send = providerRequestFor(options, model);
			const response = await send(`${serverUrlOf(model.baseUrl)}/v1/chat/completions`, {
				method: "POST",
				headers: {
					"content-type": "application/json",
					accept: "text/event-stream",
					authorization: `Bearer ${options.apiKey}`,
					...model.headers,
					...options.headers,
					"user-agent": SDK_METADATA.userAgent,
				},
				body: JSON.stringify(body),
				signal,
			});
			options.onResponse?.({ status: response.status, headers: Object.fromEntries(response.headers) }, model);
			if (!response.ok) {
				const mapped = errorFromHttpStatus(response.status, await response.text(), response.headers);
				throw new ProviderFault(mapped.message, mapped.info);
			}
			const responseBody = bodyChunks(response);
			if (!responseBody) throw new Error("The response has no body");
			const mapper = new MistralEventMapper(writer);
			let sawDone = false;
			const ended = await readSseBody(
				responseBody,
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

/** A request the wire converter does not know: the SDK's own schema validates and writes it. */
async function sdkWireBody(request: ChatCompletionStreamRequest): Promise<unknown> {
	const { ChatCompletionStreamRequest$outboundSchema: schema } = await import(
		"@mistralai/mistralai/models/components/chatcompletionstreamrequest.js"
	);
	const parsed = schema.safeParse(request);
	if (!parsed.success)
		throw new ProviderFault(`The Mistral request is not valid: ${parsed.error.message}`, {
			kind: "bad_request",
			code: "invalid_request",
			retryable: false,
		});
	return parsed.data;
}

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
