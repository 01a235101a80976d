import type { AssistantMessage } from "./types.js";

/**
 * Error texts providers use when a prompt does not fit the context window.
 * Each entry notes who sends it; tests keep one case per form.
 */
export const OVERFLOW_PATTERNS: readonly RegExp[] = [
	/prompt is too long/i, // Anthropic: "prompt is too long: 213462 tokens > 200000 maximum"
	/request_too_large/i, // Anthropic 413 error type
	/request exceeds the maximum (?:allowed )?(?:size|number of bytes)/i, // Anthropic 413 message
	/input is too long for requested model/i, // Amazon Bedrock
	/exceeds the context window/i, // OpenAI Responses: "Your input exceeds the context window of this model"
	/input token count.*exceeds the maximum/i, // Google Gemini
	/maximum prompt length is \d+/i, // xAI Grok
	/reduce the length of the messages/i, // Groq, Cerebras
	/maximum context length is \d+ tokens/i, // OpenAI Chat, OpenRouter, vLLM, DeepSeek
	/context[_ ]length[_ ]exceeded/i, // OpenAI error code, several compatibles
	/exceeds the limit of \d+/i, // GitHub Copilot
	/exceeds the available context size/i, // llama.cpp server
	/greater than the context length/i, // LM Studio
	/exceeds? (?:the )?(?:model'?s? )?(?:maximum )?context length/i, // Ollama (newer), misc
	/prompt too long; exceeded (?:max )?context length/i, // Ollama
	/context window exceeds limit/i, // MiniMax
	/exceeded model token limit/i, // Kimi
	/too large for model with \d+ maximum context length/i, // Mistral
	/model_context_window_exceeded/i, // z.ai
	/too many tokens/i, // generic
	/token limit exceeded/i, // generic
	/^4(?:00|13)\s*(?:status code)?\s*\(no body\)/i, // Cerebras / Mistral send a bare 400/413
];

/** Texts that look like overflow but are about rate limits or quotas. */
export const NON_OVERFLOW_PATTERNS: readonly RegExp[] = [
	/rate[_ ]?limit/i,
	/too many requests/i,
	/tokens per (?:min|minute|day)/i,
	/\b[TR]P[MD]\b/,
	/requests per/i,
	/quota/i,
	/throttl/i,
];

/** True when an error text is one of the known context-overflow forms. */
export function isOverflowErrorText(text: string): boolean {
	if (text === "") return false;
	if (NON_OVERFLOW_PATTERNS.some((p) => p.test(text))) return false;
	return OVERFLOW_PATTERNS.some((p) => p.test(text));
}

/**
 * Whether a response failed (or silently degraded) because the context was too
 * large. Structured facts from the adapter win; text matching covers errors the
 * adapter could not classify. Silent overflow: some servers truncate instead of
 * failing, which shows as input tokens above the window.
 */
export function isContextOverflow(message: AssistantMessage, contextWindow?: number): boolean {
	if (message.stopReason === "error") {
		const kind = message.errorInfo?.kind;
		if (kind === "overflow") return true;
		if (kind === "rate_limit" || kind === "overloaded" || kind === "auth" || kind === "aborted") return false;
		return isOverflowErrorText(message.errorMessage ?? "");
	}
	if (message.stopReason === "aborted") return false;
	if (contextWindow !== undefined && contextWindow > 0) {
		return message.usage.input + message.usage.cacheRead > contextWindow;
	}
	return false;
}
