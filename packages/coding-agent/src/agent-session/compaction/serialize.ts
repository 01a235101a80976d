// The conversation as plain text for a summarizer. Written as a transcript
// with role labels rather than replayed as messages, so the summarizing model
// reports on it instead of continuing it. Thinking is left out (providers
// return condensed reasoning, and replaying it can outgrow the context it
// summarizes); long tool results are cut, since read/bash output dominates
// context size and the summary needs what happened, not every byte.
import type { Message } from "@pi/ai";

export const TOOL_RESULT_MAX_CHARS = 2000;

function textOf(content: Message["content"]): string {
	if (typeof content === "string") return content;
	// One text block is the common case: no intermediate arrays.
	if (content.length === 1 && content[0].type === "text") return content[0].text;
	let out = "";
	for (const block of content) {
		const part = block.type === "text" ? block.text : block.type === "image" ? "[image]" : "";
		if (!part) continue;
		out = out ? `${out}\n${part}` : part;
	}
	return out;
}

function formatArgs(args: Record<string, unknown> | undefined): string {
	if (!args) return "";
	return Object.entries(args)
		.map(([k, v]) => `${k}=${JSON.stringify(v)}`)
		.join(", ");
}

function truncate(text: string, max: number): string {
	if (text.length <= max) return text;
	return `${text.slice(0, max)}\n[... ${text.length - max} more characters cut for the summary]`;
}

/** One block of text per message (blocks are joined with blank lines). */
export function serializeMessage(message: Message): string {
	switch (message.role) {
		case "user": {
			const text = textOf(message.content);
			return text ? `[User]: ${text}` : "";
		}
		case "assistant": {
			let text = "";
			let calls = "";
			for (const block of message.content) {
				if (block.type === "text") text = text ? `${text}\n${block.text}` : block.text;
				else if (block.type === "toolCall") {
					const call = `${block.name}(${formatArgs(block.arguments)})`;
					calls = calls ? `${calls}; ${call}` : call;
				}
			}
			let out = text ? `[Assistant]: ${text}` : "";
			if (calls) out = out ? `${out}\n\n[Assistant tool calls]: ${calls}` : `[Assistant tool calls]: ${calls}`;
			if (message.stopReason === "error" && message.errorMessage) {
				out = out ? `${out}\n\n[Error]: ${message.errorMessage}` : `[Error]: ${message.errorMessage}`;
			}
			return out;
		}
		case "toolResult": {
			const text = truncate(textOf(message.content), TOOL_RESULT_MAX_CHARS);
			const label = message.isError ? "[Tool error]" : "[Tool result]";
			return text ? `${label}: ${text}` : `${label}: (empty)`;
		}
		default:
			// System messages are carried by the compaction checkpoint, not the summary.
			return "";
	}
}

/**
 * Serializes messages (already through convertToLlm). With `maxChars`, the
 * oldest blocks are dropped first so the newest fit, and a note says how many
 * were left out (the previous summary still covers them).
 */
export function serializeConversation(messages: readonly Message[], maxChars = Number.POSITIVE_INFINITY): string {
	const blocks: string[] = [];
	let total = 0;
	let dropped = 0;
	for (let i = messages.length - 1; i >= 0; i--) {
		const block = serializeMessage(messages[i]);
		if (!block) continue;
		if (total + block.length + 2 > maxChars) {
			dropped = i + 1;
			break;
		}
		blocks.push(block);
		total += block.length + 2;
	}
	blocks.reverse();
	if (dropped > 0) blocks.unshift(`[${dropped} earlier messages left out to fit the summarizer's context]`);
	return blocks.join("\n\n");
}
