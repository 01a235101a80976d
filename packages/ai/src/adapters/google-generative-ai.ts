import { type GenerateContentParameters, GoogleGenAI } from "@google/genai";
import { type AdapterOptions, type ApiAdapter, runAdapterStream } from "../adapter.js";
import type { NormalizedContext } from "../context.js";
import type { Model } from "../types.js";
import { GoogleEventMapper } from "./google-generative-ai-events.js";
import { buildGoogleRequest } from "./google-generative-ai-request.js";

/** The `google-generative-ai` wire adapter over `@google/genai` (loaded lazily by the registry). */
export const adapter: ApiAdapter = {
	stream(model: Model, context: NormalizedContext, options: AdapterOptions) {
		return runAdapterStream(model, options, async ({ writer, signal, touch }) => {
			let params: GenerateContentParameters = buildGoogleRequest(model, context, options);
			if (options.onPayload) {
				const replaced = options.onPayload(params, model);
				if (replaced !== undefined) params = replaced as GenerateContentParameters;
			}
			const onResponse = options.onResponse;
			const client = new GoogleGenAI({
				apiKey: options.apiKey,
				vertexai: false,
				httpOptions: {
					// The model's baseUrl already names the API version (…/v1beta).
					baseUrl: model.baseUrl,
					apiVersion: "",
					headers: { ...model.headers, ...options.headers },
					// No retryOptions: the SDK then makes exactly one attempt; retries belong to the caller.
					...(onResponse
						? {
								fetch: async (input: string | URL | Request, init?: RequestInit) => {
									const response = await fetch(input, init);
									onResponse({ status: response.status, headers: Object.fromEntries(response.headers) }, model);
									return response;
								},
							}
						: {}),
				},
			});
			const chunks = await client.models.generateContentStream({
				...params,
				config: { ...params.config, abortSignal: signal },
			});
			const mapper = new GoogleEventMapper(writer);
			for await (const chunk of chunks) {
				touch();
				mapper.handle(chunk);
				if (writer.isDone) break;
			}
			signal.throwIfAborted();
			mapper.end();
		});
	},
};
