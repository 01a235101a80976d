// One kit per wire protocol: how the fake provider answers with a text reply,
// a context-overflow error, a rate limit, and a reply cut mid-stream — in that
// provider's own format, so AgentSession runs the real adapter for each.
import type { Api } from "@pi/ai";
import {
	ANTHROPIC_OVERFLOW_MESSAGE,
	AnthropicStream,
	anthropicError,
} from "../../../ai/test/support/fake-provider/anthropic.js";
import { GOOGLE_OVERFLOW_MESSAGE, GoogleStream, googleError } from "../../../ai/test/support/fake-provider/google.js";
import { ChatStream, chatError } from "../../../ai/test/support/fake-provider/openai-chat.js";
import {
	OPENAI_OVERFLOW_MESSAGE,
	openaiError,
	ResponsesStream,
} from "../../../ai/test/support/fake-provider/openai-responses.js";
import type { Script, SseScript } from "../../../ai/test/support/fake-provider/server.js";

export interface ProviderKit {
	api: Api;
	/** A complete streamed text reply reporting `inputTokens` of context. */
	reply(text: string, inputTokens?: number): SseScript;
	overflow(): Script;
	rateLimit(seconds: number): Script;
	serverError(): Script;
	/** A text reply whose connection is reset after `partial` was streamed. */
	cut(partial: string): SseScript;
	/** A text reply that streams `partial` and then ends cleanly without the terminal event. */
	noTerminal(partial: string): SseScript;
	/** One tool call with complete arguments. */
	toolCall(id: string, name: string, args: Record<string, unknown>): SseScript;
}

let n = 0;

export const kits: ProviderKit[] = [
	{
		api: "openai-completions",
		reply: (text, input = 50) =>
			new ChatStream()
				.role()
				.text(text)
				.finish("stop")
				.usage({ prompt_tokens: input, completion_tokens: 5 })
				.done()
				.script(),
		overflow: () =>
			chatError(400, "This model's maximum context length is 10000 tokens. However, you requested 12000 tokens.", {
				code: "context_length_exceeded",
			}),
		rateLimit: (s) =>
			chatError(429, "Rate limit reached", { type: "rate_limit_error", headers: { "retry-after": String(s) } }),
		serverError: () => chatError(503, "Service unavailable", { type: "server_error" }),
		cut: (partial) =>
			cutAfter(new ChatStream().role().text(partial, " and more").finish("stop").done().script(), partial),
		noTerminal: (partial) => new ChatStream().role().text(partial).script(),
		toolCall: (id, name, args) =>
			new ChatStream()
				.role()
				.toolCall(0, id, name, [JSON.stringify(args)])
				.finish("tool_calls")
				.usage({ prompt_tokens: 50, completion_tokens: 5 })
				.done()
				.script(),
	},
	{
		api: "openai-responses",
		reply: (text, input = 50) =>
			new ResponsesStream()
				.created()
				.message(`msg_${++n}`, [text])
				.completed({ input_tokens: input, output_tokens: 5, total_tokens: input + 5 })
				.script(),
		overflow: () => openaiError(400, "context_length_exceeded", OPENAI_OVERFLOW_MESSAGE),
		rateLimit: (s) => openaiError(429, "rate_limit_exceeded", "Rate limit reached", { "retry-after": String(s) }),
		serverError: () => openaiError(503, "server_error", "Service unavailable"),
		cut: (partial) =>
			cutAfter(
				new ResponsesStream().created().message(`msg_${++n}`, [partial, " and more"]).completed().script(),
				partial,
			),
		noTerminal: (partial) => new ResponsesStream().created().openMessage(`msg_${++n}`, partial).script(),
		toolCall: (id, name, args) =>
			new ResponsesStream()
				.created()
				.functionCall(`fc_${id}`, id, name, [JSON.stringify(args)])
				.completed()
				.script(),
	},
	{
		api: "anthropic-messages",
		reply: (text, input = 50) =>
			new AnthropicStream()
				.start({ input_tokens: input, output_tokens: 1 })
				.text(text)
				.delta("end_turn")
				.stop()
				.script(),
		overflow: () => anthropicError(400, "invalid_request_error", ANTHROPIC_OVERFLOW_MESSAGE),
		rateLimit: (s) => anthropicError(429, "rate_limit_error", "Rate limited", { "retry-after": String(s) }),
		serverError: () => anthropicError(529, "overloaded_error", "Overloaded"),
		cut: (partial) =>
			cutAfter(new AnthropicStream().start().text(partial, " and more").delta("end_turn").stop().script(), partial),
		noTerminal: (partial) => new AnthropicStream().start().text(partial).delta("end_turn").script(),
		toolCall: (id, name, args) =>
			new AnthropicStream()
				.start()
				.toolUse(id, name, [JSON.stringify(args)])
				.delta("tool_use")
				.stop()
				.script(),
	},
	{
		api: "google-generative-ai",
		reply: (text, input = 50) =>
			new GoogleStream()
				.text(text)
				.finish("STOP", { promptTokenCount: input, candidatesTokenCount: 5, totalTokenCount: input + 5 })
				.script(),
		overflow: () => googleError(400, "INVALID_ARGUMENT", GOOGLE_OVERFLOW_MESSAGE),
		rateLimit: (s) =>
			googleError(429, "RESOURCE_EXHAUSTED", "Resource has been exhausted", [
				{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: `${s}s` },
			]),
		serverError: () => googleError(503, "UNAVAILABLE", "The model is overloaded"),
		cut: (partial) => cutAfter(new GoogleStream().text(partial, " and more").finish("STOP").script(), partial),
		noTerminal: (partial) => new GoogleStream().text(partial).script(),
		toolCall: (_id, name, args) => new GoogleStream().call(name, args).finish("STOP").script(),
	},
];

/** Resets the connection right after the frame holding `partial` was written. */
function cutAfter(script: SseScript, partial: string): SseScript {
	const at = script.bytes.indexOf(partial);
	const end = script.bytes.indexOf("\n\n", at) + 2;
	return { ...script, cutAfterBytes: end };
}

/**
 * Tool calls and tool results of a request body in any of the four formats,
 * as keys (the call id, or the function name for Gemini, which has no ids).
 */
export function toolPairs(body: unknown): { calls: string[]; results: string[] } {
	const calls: string[] = [];
	const results: string[] = [];
	const walk = (v: unknown): void => {
		if (Array.isArray(v)) {
			for (const x of v) walk(x);
			return;
		}
		if (!v || typeof v !== "object") return;
		const o = v as Record<string, unknown>;
		if (o.type === "tool_use") calls.push(String(o.id));
		if (o.type === "tool_result") results.push(String(o.tool_use_id));
		if (o.type === "function_call") calls.push(String(o.call_id));
		if (o.type === "function_call_output") results.push(String(o.call_id));
		if (o.role === "tool") results.push(String(o.tool_call_id));
		if (Array.isArray(o.tool_calls)) for (const c of o.tool_calls) calls.push(String((c as { id: unknown }).id));
		if (o.functionCall) calls.push(String((o.functionCall as { name: unknown }).name));
		if (o.functionResponse) results.push(String((o.functionResponse as { name: unknown }).name));
		for (const [k, x] of Object.entries(o)) if (k !== "tool_calls") walk(x);
	};
	walk(body);
	return { calls, results };
}
