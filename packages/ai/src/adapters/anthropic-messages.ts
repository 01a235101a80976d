import Anthropic from "@anthropic-ai/sdk";
import type { MessageCreateParamsStreaming } from "@anthropic-ai/sdk/resources/messages/messages";
import { type AdapterOptions, type ApiAdapter, runAdapterStream } from "../adapter.js";
import type { NormalizedContext } from "../context.js";
import { providerFetchFor } from "../provider-fetch.js";
import type { Model } from "../types.js";
import { AnthropicEventMapper, type AnthropicWireEvent } from "./anthropic-messages-events.js";
import { buildAnthropicRequest } from "./anthropic-messages-request.js";
import { failMalformed, readSseBody, streamObserver } from "./sse-body.js";

/** The `anthropic-messages` wire adapter over the official SDK (loaded lazily by the registry). */
export const adapter: ApiAdapter = {
	stream(model: Model, context: NormalizedContext, options: AdapterOptions) {
		return runAdapterStream(model, options, async ({ writer, signal, touch }) => {
			const request = buildAnthropicRequest(model, context, options);
			const client = new Anthropic({
				// OAuth tokens go as Bearer tokens. API keys go as this SDK sends them (Bearer) and
				// also as `x-api-key`, which Anthropic-compatible servers and proxies expect.
				...(request.oauth ? { authToken: options.apiKey } : { apiKey: options.apiKey }),
				baseURL: model.baseUrl,
				maxRetries: 0,
				defaultHeaders: request.oauth ? request.headers : { "x-api-key": options.apiKey, ...request.headers },
				fetch: providerFetchFor(options, model),
			});
			let params: MessageCreateParamsStreaming = request.params;
			if (options.onPayload) {
				const replaced = await options.onPayload(params, model);
				if (replaced !== undefined) params = replaced as MessageCreateParamsStreaming;
			}
			// The SDK sends the request and maps HTTP errors; the body is read raw, which is faster
			// than the SDK's SSE decoder and keeps `event: error` frames as ordinary events.
			const response = await client.messages.create(params, { signal }).asResponse();
			options.onResponse?.({ status: response.status, headers: Object.fromEntries(response.headers) }, model);
			if (!response.body) throw new Error("The response has no body");

			const mapper = new AnthropicEventMapper(writer, request.toolNameFromWire);
			const body = response.body as unknown as AsyncIterable<Uint8Array>;
			const ended = await readSseBody(
				body,
				writer,
				touch,
				(data) => {
					const payload = parseEventData(data);
					if (payload) mapper.handle(payload);
					else failMalformed(writer, "event", data);
				},
				streamObserver(options, model),
			);
			if (ended) mapper.end();
		});
	},
};

function parseEventData(data: string): AnthropicWireEvent | undefined {
	try {
		const value: unknown = JSON.parse(data);
		return typeof value === "object" && value !== null && typeof (value as { type?: unknown }).type === "string"
			? (value as AnthropicWireEvent)
			: undefined;
	} catch {
		return undefined;
	}
}
