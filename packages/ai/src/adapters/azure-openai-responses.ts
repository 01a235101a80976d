import { AzureOpenAI } from "openai";
import type { ResponseCreateParamsStreaming } from "openai/resources/responses/responses";
import { type AdapterOptions, type ApiAdapter, runAdapterStream } from "../adapter.js";
import type { NormalizedContext } from "../context.js";
import { providerFetchFor } from "../provider-fetch.js";
import type { Model } from "../types.js";
import { resolveAzureConfig } from "./azure-openai-config.js";
import { ResponsesEventMapper } from "./openai-responses-events.js";
import { buildResponsesRequest } from "./openai-responses-request.js";
import { mapTypedEventResponse } from "./sse-body.js";

/**
 * The `azure-openai-responses` wire adapter: OpenAI models deployed on Azure,
 * spoken to through the Responses API with the official SDK's `AzureOpenAI`
 * client (the `api-key` header and the `api-version` query parameter). The
 * body and stream events are OpenAI's, so the request builder and event mapper
 * are shared with `openai-responses`; only the endpoint, the deployment name
 * (sent as `model`) and the credentials differ. See azure-openai-config.ts for
 * where the resource URL, deployment and api-version come from.
 */
export const adapter: ApiAdapter = {
	stream(model: Model, context: NormalizedContext, options: AdapterOptions) {
		return runAdapterStream(model, options, async ({ writer, signal, touch }) => {
			const config = resolveAzureConfig(model);
			if (!config.ok) {
				writer.fail(config.message, { kind: "auth", code: "missing_azure_endpoint", retryable: false });
				return;
			}
			const request = buildResponsesRequest(model, context, options);
			let params: ResponseCreateParamsStreaming = { ...request.params, model: config.deployment };
			if (options.onPayload) {
				const replaced = await options.onPayload(params, model);
				if (replaced !== undefined) params = replaced as ResponseCreateParamsStreaming;
			}
			const client = new AzureOpenAI({
				apiKey: options.apiKey,
				baseURL: config.baseUrl,
				apiVersion: config.apiVersion,
				maxRetries: 0,
				defaultHeaders: request.headers,
				fetch: providerFetchFor(options, model),
			});
			const response = await client.responses.create(params, { signal }).asResponse();
			await mapTypedEventResponse(response, new ResponsesEventMapper(writer), { writer, touch }, options, model);
		});
	},
};
