import type { AssistantMessage, Message, Model, ProviderErrorInfo, ToolResultMessage, Usage } from "@pi/ai";
import type { AgentMessage, AgentToolResult } from "./types.js";

const LLM_ROLES = new Set<string>(["system", "user", "assistant", "toolResult"]);

/** The default `convertToLlm`: keeps pi-ai's message roles and drops app-specific ones. */
export function defaultConvertToLlm(messages: AgentMessage[]): Message[] {
	return messages.filter((message): message is Message => LLM_ROLES.has((message as { role?: string }).role ?? ""));
}

function zeroUsage(): Usage {
	return {
		input: 0,
		output: 0,
		cacheRead: 0,
		cacheWrite: 0,
		totalTokens: 0,
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
	};
}

/**
 * An assistant message that records a failure the loop itself detected (a
 * throwing hook or stream function, an abort before the request was sent).
 */
export function failedAssistantMessage(
	model: Model,
	stopReason: "error" | "aborted",
	errorMessage: string,
	errorInfo: ProviderErrorInfo,
): AssistantMessage {
	return {
		role: "assistant",
		content: [],
		api: model.api,
		provider: model.provider,
		model: model.id,
		usage: zeroUsage(),
		stopReason,
		errorMessage,
		errorInfo,
		timestamp: Date.now(),
	};
}

export const ABORTED_INFO: ProviderErrorInfo = { kind: "aborted", retryable: false };

/** A text-only tool result. */
export function textToolResult(text: string, details: unknown = {}): AgentToolResult {
	return { content: [{ type: "text", text }], details };
}

export function toolResultMessage(
	toolCallId: string,
	toolName: string,
	result: AgentToolResult,
	isError: boolean,
): ToolResultMessage {
	return {
		role: "toolResult",
		toolCallId,
		toolName,
		content: result.content,
		details: result.details,
		isError,
		timestamp: Date.now(),
		...(result.usage ? { usage: result.usage } : {}),
	};
}

export function errorText(error: unknown): string {
	if (error instanceof Error) return error.message || error.name;
	return typeof error === "string" ? error : String(error);
}
