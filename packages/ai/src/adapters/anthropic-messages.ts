import Anthropic from "@anthropic-ai/sdk";
import type { MessageCreateParamsStreaming } from "@anthropic-ai/sdk/resources/messages/messages";
import { type AdapterOptions, type ApiAdapter, runAdapterStream } from "../adapter.js";
import type { NormalizedContext } from "../context.js";
import { providerFetchFor } from "../provider-fetch.js";
import type { Model } from "../types.js";
import { AnthropicEventMapper, type AnthropicWireEvent } from "./anthropic-messages-events.js";
import { buildAnthropicRequest } from "./anthropic-messages-request.js";
import { noteSdkWarnings } from "./anthropic-sdk-notes.js";
import { mapTypedEventResponse } from "./sse-body.js";

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
			// Not client.messages.create(): it console.warn()s about deprecated models straight to
			// stderr. The same POST (create() moves these two fields to headers too); the warnings
			// become diagnostics on the message instead.
			noteSdkWarnings(writer, params);
			const { user_profile_id, workspace_id, ...body } = params;
			const headers = {
				...(user_profile_id != null ? { "anthropic-user-profile-id": user_profile_id } : {}),
				...(workspace_id != null ? { "anthropic-workspace-id": workspace_id } : {}),
			};
			const response = await client.post("/v1/messages", { body, stream: true, signal, headers }).asResponse();
			const mapper = new AnthropicEventMapper(writer, request.toolNameFromWire);
			await mapTypedEventResponse<AnthropicWireEvent>(response, mapper, { writer, touch }, options, model);
		});
	},
};
