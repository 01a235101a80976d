// Assistant messages for tests that render or store them without a provider:
// pi-ai's test transcript turn (zero usage), from a fixed provider/model, a
// plain stop at time 0.
import type { AssistantMessage } from "@pi/ai";
import { assistantTurn } from "../../../ai/test/support/stream-helpers.js";

/** An assistant message with `content` (and `extra` over the defaults): usage all zero, stop "stop", timestamp 0. */
export function assistantMessage(
	content: AssistantMessage["content"],
	extra: Partial<AssistantMessage> = {},
): AssistantMessage {
	const origin = { api: "openai-completions", provider: "p", model: "m" } as const;
	return assistantTurn(origin, content, { stopReason: "stop", timestamp: 0, ...extra });
}
