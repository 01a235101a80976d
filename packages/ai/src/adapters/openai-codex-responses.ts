import OpenAI from "openai";
import type { ResponseCreateParamsStreaming } from "openai/resources/responses/responses";
import { type AdapterOptions, type ApiAdapter, runAdapterStream } from "../adapter.js";
import type { NormalizedContext } from "../context.js";
import { providerFetchFor } from "../provider-fetch.js";
import type { AssistantStreamWriter } from "../stream-writer.js";
import type { Model } from "../types.js";
import { ResponsesEventMapper, type ResponsesWireEvent } from "./openai-responses-events.js";
import { buildResponsesRequest } from "./openai-responses-request.js";
import { mapTypedEventResponse } from "./sse-body.js";

/**
 * The `openai-codex-responses` wire adapter: the Responses API as ChatGPT's
 * Codex backend serves it to "Sign in with ChatGPT" accounts. Same request
 * body and stream events as `openai-responses` (shared builder and mapper),
 * with these differences, as OpenAI's open-source Codex CLI sends them:
 * - endpoint `<baseUrl>/codex/responses` (baseUrl https://chatgpt.com/backend-api);
 * - the bearer is the login's access token, and `chatgpt-account-id` names the
 *   account (read from the token's claims); `OpenAI-Beta: responses=experimental`,
 *   `originator: pi`, and `session-id` for prompt caching;
 * - always stateless and streamed (`store: false`), reasoning replayed encrypted;
 * - the backend may end with `response.done` instead of `response.completed`.
 */
export const adapter: ApiAdapter = {
	stream(model: Model, context: NormalizedContext, options: AdapterOptions) {
		return runAdapterStream(model, options, async ({ writer, signal, touch }) => {
			const accountId = chatgptAccountIdOf(options.apiKey);
			if (!accountId) {
				writer.fail(
					`The ${model.provider} token is not a ChatGPT login token (it names no account); log in with /login ${model.provider}`,
					{ kind: "auth", code: "no_chatgpt_account", retryable: false },
				);
				return;
			}
			const request = buildResponsesRequest(model, context, options);
			let params: ResponseCreateParamsStreaming = {
				...request.params,
				store: false,
				stream: true,
				include: ["reasoning.encrypted_content"],
				tool_choice: "auto",
				parallel_tool_calls: true,
			};
			if (options.onPayload) {
				const replaced = options.onPayload(params, model);
				if (replaced !== undefined) params = replaced as ResponseCreateParamsStreaming;
			}
			const headers: Record<string, string> = {
				"OpenAI-Beta": "responses=experimental",
				originator: "pi",
				accept: "text/event-stream",
				...request.headers,
				"chatgpt-account-id": accountId,
			};
			if (options.sessionId && options.cacheRetention !== "none") {
				headers["session-id"] = options.sessionId;
				headers["x-client-request-id"] = options.sessionId;
			}
			const client = new OpenAI({
				apiKey: options.apiKey,
				baseURL: codexBase(model.baseUrl),
				maxRetries: 0,
				defaultHeaders: headers,
				fetch: providerFetchFor(options, model),
			});
			const response = await client.responses.create(params, { signal }).asResponse();
			await mapTypedEventResponse(response, new CodexEventMapper(writer), { writer, touch }, options, model);
		});
	},
};

/** The Responses mapper, with the Codex backend's `response.done` read as `response.completed`. */
export class CodexEventMapper {
	private readonly inner: ResponsesEventMapper;
	constructor(writer: AssistantStreamWriter) {
		this.inner = new ResponsesEventMapper(writer);
	}
	handle(event: ResponsesWireEvent): void {
		this.inner.handle(
			event.type === "response.done" ? ({ ...event, type: "response.completed" } as ResponsesWireEvent) : event,
		);
	}
	end(): void {
		this.inner.end();
	}
}

/** `<base>/codex`, so the SDK's `/responses` lands on `/codex/responses` (a base already ending so is kept). */
export function codexBase(baseUrl: string): string {
	const base = baseUrl.replace(/\/+$/, "");
	if (base.endsWith("/codex/responses")) return base.slice(0, -"/responses".length);
	return base.endsWith("/codex") ? base : `${base}/codex`;
}

/** The ChatGPT account id from the access token's claims (a JWT), or undefined. */
export function chatgptAccountIdOf(token: string): string | undefined {
	const parts = token.split(".");
	if (parts.length !== 3) return undefined;
	try {
		const claims = JSON.parse(Buffer.from(parts[1], "base64url").toString("utf8")) as Record<string, unknown>;
		const auth = claims["https://api.openai.com/auth"] as { chatgpt_account_id?: unknown } | undefined;
		return typeof auth?.chatgpt_account_id === "string" && auth.chatgpt_account_id !== ""
			? auth.chatgpt_account_id
			: undefined;
	} catch {
		return undefined;
	}
}
