import OpenAI from "openai";
import type { ResponseCreateParamsStreaming } from "openai/resources/responses/responses";
import { type AdapterOptions, type ApiAdapter, runAdapterStream } from "../adapter.js";
import type { NormalizedContext } from "../context.js";
import { providerFetchFor } from "../provider-fetch.js";
import type { Model } from "../types.js";
import { ResponsesEventMapper, type ResponsesWireEvent } from "./openai-responses-events.js";
import { buildResponsesRequest } from "./openai-responses-request.js";
import { failMalformed, readSseBody, streamObserver } from "./sse-body.js";

/** The `openai-responses` wire adapter over the official `openai` SDK (loaded lazily by the registry). */
export const adapter: ApiAdapter = {
	stream(model: Model, context: NormalizedContext, options: AdapterOptions) {
		return runAdapterStream(model, options, async ({ writer, signal, touch }) => {
			const request = buildResponsesRequest(model, context, options);
			const client = new OpenAI({
				apiKey: options.apiKey,
				baseURL: model.baseUrl,
				maxRetries: 0,
				defaultHeaders: request.headers,
				fetch: providerFetchFor(options, model),
			});
			let params: ResponseCreateParamsStreaming = request.params;
			if (options.onPayload) {
				const replaced = await options.onPayload(params, model);
				if (replaced !== undefined) params = replaced as ResponseCreateParamsStreaming;
			}
			// The SDK sends the request and maps HTTP errors; the body is read raw: the SDK's SSE
			// decoder rescans a growing event line per chunk, which the `.done` events (whole text
			// repeated) make quadratic on long answers.
			const response = await client.responses.create(params, { signal }).asResponse();
			options.onResponse?.({ status: response.status, headers: Object.fromEntries(response.headers) }, model);
			if (!response.body) throw new Error("The response has no body");

			const mapper = new ResponsesEventMapper(writer);
			const body = response.body as unknown as AsyncIterable<Uint8Array>;
			const ended = await readSseBody(
				body,
				writer,
				touch,
				(data) => {
					if (data.startsWith("[DONE]")) return;
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

function parseEventData(data: string): ResponsesWireEvent | undefined {
	try {
		const value: unknown = JSON.parse(data);
		return typeof value === "object" && value !== null && typeof (value as { type?: unknown }).type === "string"
			? (value as ResponsesWireEvent)
			: undefined;
	} catch {
		return undefined;
	}
}
