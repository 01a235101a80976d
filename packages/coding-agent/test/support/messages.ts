// Assistant messages for tests that render or store them without a provider:
// no usage, no cost, a fixed provider/model and time.
import type { AssistantMessage } from "@pi/ai";
import { emptyUsage } from "@pi/ai/internal";

/** An assistant message with `content` (and `extra` over the defaults): usage all zero, stop "stop", timestamp 0. */
export function assistantMessage(
	content: AssistantMessage["content"],
	extra: Partial<AssistantMessage> = {},
): AssistantMessage {
	return {
		role: "assistant",
		content,
		api: "openai-completions",
		provider: "p",
		model: "m",
		usage: emptyUsage(),
		stopReason: "stop",
		timestamp: 0,
		...extra,
	};
}
