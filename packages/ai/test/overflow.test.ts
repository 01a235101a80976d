import { describe, expect, it } from "vitest";
import { emptyUsage } from "../src/cost.js";
import { isContextOverflow, isOverflowErrorText, OVERFLOW_PATTERNS } from "../src/overflow.js";
import type { AssistantMessage, ProviderErrorInfo } from "../src/types.js";

function failed(errorMessage: string, errorInfo?: ProviderErrorInfo): AssistantMessage {
	return {
		role: "assistant",
		content: [],
		api: "x",
		provider: "x",
		model: "x",
		usage: emptyUsage(),
		stopReason: "error",
		errorMessage,
		errorInfo,
		timestamp: 0,
	};
}

const providerForms: [string, string][] = [
	["Anthropic", "400 prompt is too long: 213462 tokens > 200000 maximum"],
	[
		"Anthropic 413",
		'413 {"type":"error","error":{"type":"request_too_large","message":"Request exceeds the maximum allowed number of bytes."}}',
	],
	["Bedrock", "Input is too long for requested model."],
	["OpenAI Responses", "Your input exceeds the context window of this model. Please adjust your input and try again."],
	[
		"OpenAI Chat",
		"400 This model's maximum context length is 128000 tokens. However, your messages resulted in 130532 tokens.",
	],
	["OpenAI code", "400 context_length_exceeded"],
	["Google", "The input token count (1196265) exceeds the maximum number of tokens allowed (1048575)."],
	["xAI", "This model's maximum prompt length is 131072 but the request contains 537812 tokens."],
	["Groq", "Please reduce the length of the messages or completion."],
	[
		"OpenRouter",
		"This endpoint's maximum context length is 200000 tokens. However, you requested about 250000 tokens.",
	],
	["GitHub Copilot", "prompt token count of 130000 exceeds the limit of 128000"],
	["llama.cpp", "the request exceeds the available context size, try increasing it"],
	["LM Studio", "The number of tokens to keep from the initial prompt is greater than the context length"],
	["Ollama", "prompt too long; exceeded max context length by 1200 tokens"],
	[
		"vLLM",
		"This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4000 in the messages, 1000 in the completion).",
	],
	["MiniMax", "invalid params, context window exceeds limit (2013)"],
	["Kimi", "Invalid request: Your request exceeded model token limit: 262144"],
	["Mistral", "Prompt contains 140000 tokens, too large for model with 131072 maximum context length"],
	["z.ai", "model_context_window_exceeded"],
	["Cerebras bare 400", "400 status code (no body)"],
	["bare 413", "413 (no body)"],
];

describe("isContextOverflow", () => {
	it.each(providerForms)("recognises the %s form", (_provider, text) => {
		expect(isContextOverflow(failed(text))).toBe(true);
	});

	it.each([
		"429 Rate limit reached for gpt-4o: Limit 30000, Used 29000, Requested 5000 tokens per min (TPM)",
		"Too many tokens per minute, please slow down",
		"You exceeded your current quota, please check your plan",
		"Request was throttled; too many tokens",
		"500 Internal server error",
		"401 Incorrect API key provided",
	])("does not mistake %j for overflow", (text) => {
		expect(isContextOverflow(failed(text))).toBe(false);
	});

	it("prefers structured facts from the adapter", () => {
		expect(isContextOverflow(failed("opaque", { kind: "overflow", retryable: false }))).toBe(true);
		expect(isContextOverflow(failed("prompt is too long", { kind: "rate_limit", retryable: true }))).toBe(false);
	});

	it("detects silent overflow from usage above the window", () => {
		const message: AssistantMessage = { ...failed(""), stopReason: "stop", errorMessage: undefined };
		message.usage = { ...emptyUsage(), input: 90_000, cacheRead: 40_000 };
		expect(isContextOverflow(message, 128_000)).toBe(true);
		expect(isContextOverflow(message, 200_000)).toBe(false);
		expect(isContextOverflow(message)).toBe(false);
	});

	it("never calls an abort an overflow", () => {
		const aborted = { ...failed("prompt is too long"), stopReason: "aborted" as const };
		expect(isContextOverflow(aborted, 1)).toBe(false);
	});

	it("exports its patterns, each exercised by a provider form", () => {
		for (const pattern of OVERFLOW_PATTERNS) {
			const generic =
				pattern.source === "too many tokens" ||
				pattern.source === "token limit exceeded" ||
				pattern.source.startsWith("exceeds?");
			if (generic) continue;
			expect(
				providerForms.some(([, text]) => pattern.test(text)),
				pattern.source,
			).toBe(true);
		}
		expect(isOverflowErrorText("")).toBe(false);
	});
});
