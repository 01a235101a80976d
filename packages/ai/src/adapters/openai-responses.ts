import OpenAI from "openai";
import type { ResponseCreateParamsStreaming } from "openai/resources/responses/responses";
import { type AdapterOptions, type ApiAdapter, runAdapterStream } from "../adapter.js";
import type { NormalizedContext } from "../context.js";
import { providerFetchFor } from "../provider-fetch.js";
import type { Model } from "../types.js";
import { ResponsesEventMapper } from "./openai-responses-events.js";
import { buildResponsesRequest } from "./openai-responses-request.js";
import { mapTypedEventResponse } from "./sse-body.js";

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
			const response = await client.responses.create(params, { signal }).asResponse();
			await mapTypedEventResponse(response, new ResponsesEventMapper(writer), { writer, touch }, options, model);
		});
	},
};
