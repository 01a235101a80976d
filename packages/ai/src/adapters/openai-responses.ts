import OpenAI from "openai";
import type { ResponseCreateParamsStreaming } from "openai/resources/responses/responses";
import { type AdapterOptions, type ApiAdapter, runAdapterStream } from "../adapter.js";
import type { NormalizedContext } from "../context.js";
import type { Model } from "../types.js";
import { ResponsesEventMapper, responsesErrorInfo } from "./openai-responses-events.js";
import { buildResponsesRequest } from "./openai-responses-request.js";

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
			});
			let params: ResponseCreateParamsStreaming = request.params;
			if (options.onPayload) {
				const replaced = options.onPayload(params, model);
				if (replaced !== undefined) params = replaced as ResponseCreateParamsStreaming;
			}
			const { data: events, response } = await client.responses.create(params, { signal }).withResponse();
			options.onResponse?.({ status: response.status, headers: Object.fromEntries(response.headers) }, model);

			const mapper = new ResponsesEventMapper(writer);
			try {
				for await (const event of events) {
					touch();
					mapper.handle(event);
					if (writer.isDone) break;
				}
			} catch (error) {
				// An `error` event inside the 200 stream surfaces as an APIError without status.
				const status = (error as { status?: unknown }).status;
				const body = (error as { error?: unknown }).error as { code?: string | null; message?: string } | undefined;
				if (status === undefined && body && typeof body === "object" && !signal.aborted) {
					const { message, info } = responsesErrorInfo(body.code, body.message ?? "The stream reported an error");
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
