import type { AssistantStreamWriter } from "../stream-writer.js";
import { ChatStreamBlocks } from "./chat-stream-blocks.js";

/** One content chunk of a streamed delta: text, or reasoning as a list of text parts. */
type WireContentChunk =
	| { type: "text"; text?: string }
	| { type: "thinking"; thinking?: { type?: string; text?: string }[] }
	| { type: string; [key: string]: unknown };

interface WireToolCall {
	id?: string;
	index?: number;
	function?: { name?: string; arguments?: string | Record<string, unknown> };
}

/** A Mistral chat-completion chunk as it is on the wire (snake_case; only the fields read here). */
export interface MistralChunk {
	id?: string;
	model?: string;
	choices?: {
		delta?: { content?: string | WireContentChunk[] | null; tool_calls?: WireToolCall[] | null } | null;
		finish_reason?: string | null;
	}[];
	usage?: {
		prompt_tokens?: number;
		completion_tokens?: number;
		total_tokens?: number;
		num_cached_tokens?: number;
		prompt_tokens_details?: { cached_tokens?: number } | null;
	} | null;
}

/**
 * Maps Mistral's streamed chunks onto the writer. Differences from OpenAI's
 * chunks: `delta.content` may be a list of chunks, where reasoning arrives as
 * `{type: "thinking", thinking: [{type: "text", text}]}`; tool arguments may
 * come whole (even as an object) in one chunk; `finish_reason` may be
 * `model_length` (read as length) or `error` (a transient server failure).
 */
export class MistralEventMapper {
	private readonly blocks: ChatStreamBlocks;

	constructor(private readonly writer: AssistantStreamWriter) {
		this.blocks = new ChatStreamBlocks(writer);
	}

	handle(chunk: MistralChunk): void {
		const blocks = this.blocks;
		blocks.startWith(chunk);
		if (chunk.usage) {
			const prompt = chunk.usage.prompt_tokens ?? 0;
			const cached = chunk.usage.prompt_tokens_details?.cached_tokens ?? chunk.usage.num_cached_tokens ?? 0;
			this.writer.setUsage({
				input: Math.max(0, prompt - cached),
				output: chunk.usage.completion_tokens ?? 0,
				cacheRead: cached,
				cacheWrite: 0,
			});
		}
		const choice = chunk.choices?.[0];
		if (!choice) return;
		const content = choice.delta?.content;
		if (typeof content === "string") blocks.appendText(content);
		else if (Array.isArray(content)) {
			for (const part of content) {
				if (part.type === "text" && typeof part.text === "string") blocks.appendText(part.text);
				else if (part.type === "thinking" && Array.isArray(part.thinking))
					blocks.appendThinking(part.thinking.map((t) => (typeof t.text === "string" ? t.text : "")).join(""));
			}
		}
		for (const call of choice.delta?.tool_calls ?? []) {
			// Arguments may come whole, even as an object.
			const args = call.function?.arguments;
			blocks.toolCall(
				{ index: call.index, id: call.id, name: call.function?.name },
				typeof args === "string" ? args : args && typeof args === "object" ? JSON.stringify(args) : undefined,
			);
		}
		blocks.setFinishReason(choice.finish_reason);
	}

	/** The wire stream ended (`[DONE]` or the body's end): only a reported finish reason is a success. */
	end(): void {
		const reason = this.blocks.finishReasonOrFail();
		if (reason === undefined) return;
		switch (reason) {
			case "length":
			case "model_length": // the model's own length limit, as the reference reads it
				this.writer.finish("length");
				return;
			case "error":
				this.writer.fail("The provider ended the response with an error (server error)", {
					kind: "server",
					code: "error",
					retryable: true,
				});
				return;
			case "tool_calls":
				this.writer.finish("toolUse");
				return;
			default:
				this.writer.finish(this.blocks.toolCallCount > 0 ? "toolUse" : "stop");
		}
	}
}
