// Message builders for compaction and retry tests.
import type { AssistantMessage, ToolResultMessage, Usage, UserMessage } from "@pi/ai";

export function usage(input: number, output = 0): Usage {
	return {
		input,
		output,
		cacheRead: 0,
		cacheWrite: 0,
		totalTokens: input + output,
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
	};
}

export function user(text: string): UserMessage {
	return { role: "user", content: [{ type: "text", text }], timestamp: 1 };
}

export function assistant(
	text: string,
	options: { input?: number; calls?: { id: string; name: string; args: Record<string, unknown> }[] } = {},
): AssistantMessage {
	const content: AssistantMessage["content"] = [];
	if (text) content.push({ type: "text", text });
	for (const c of options.calls ?? []) content.push({ type: "toolCall", id: c.id, name: c.name, arguments: c.args });
	return {
		role: "assistant",
		content,
		api: "openai-completions",
		provider: "fakeprov",
		model: "fake-model",
		usage: usage(options.input ?? 0, 10),
		stopReason: options.calls?.length ? "toolUse" : "stop",
		timestamp: 2,
	};
}

export function toolResult(toolCallId: string, text: string, toolName = "read"): ToolResultMessage {
	return { role: "toolResult", toolCallId, toolName, content: [{ type: "text", text }], isError: false, timestamp: 3 };
}

/** Text of exactly `tokens` estimated tokens (4 chars each). */
export function tokens(n: number, fill = "x"): string {
	return fill.repeat(n * 4);
}
