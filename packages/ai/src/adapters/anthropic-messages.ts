import Anthropic from "@anthropic-ai/sdk";
import type { MessageCreateParamsStreaming } from "@anthropic-ai/sdk/resources/messages/messages";
import { type AdapterOptions, type ApiAdapter, runAdapterStream } from "../adapter.js";
import type { NormalizedContext } from "../context.js";
import type { Model } from "../types.js";
import { AnthropicEventMapper, anthropicStreamErrorInfo } from "./anthropic-messages-events.js";
import { buildAnthropicRequest } from "./anthropic-messages-request.js";

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
			});
			let params: MessageCreateParamsStreaming = request.params;
			if (options.onPayload) {
				const replaced = options.onPayload(params, model);
				if (replaced !== undefined) params = replaced as MessageCreateParamsStreaming;
			}
			const { data: events, response } = await client.messages.create(params, { signal }).withResponse();
			options.onResponse?.({ status: response.status, headers: Object.fromEntries(response.headers) }, model);

			const mapper = new AnthropicEventMapper(writer, request.toolNameFromWire);
			try {
				for await (const event of events) {
					touch();
					mapper.handle(event);
					if (writer.isDone) break;
				}
			} catch (error) {
				// `event: error` inside a 200 stream surfaces as an APIError without status.
				const status = (error as { status?: unknown }).status;
				const body = (error as { error?: unknown }).error;
				if (status === undefined && body && typeof body === "object" && "error" in body && !signal.aborted) {
					const { message, info } = anthropicStreamErrorInfo((body as { error: unknown }).error);
					writer.fail(message, info);
					return;
				}
				throw error;
			}
			// The SDK ends iteration quietly when aborted: report the abort, not a cut.
			signal.throwIfAborted();
			mapper.end();
		});
	},
};
