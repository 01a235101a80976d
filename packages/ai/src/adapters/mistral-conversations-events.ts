import type { AssistantStreamWriter } from "../stream-writer.js";

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
	private text = -1;
	private thinking = -1;
	private readonly toolBlocks = new Map<number, number>();
	private finishReason: string | undefined;

	constructor(private readonly writer: AssistantStreamWriter) {}

	handle(chunk: MistralChunk): void {
		const writer = this.writer;
		if (!writer.hasStarted) {
			writer.start();
			writer.setResponseId(chunk.id);
			writer.setResponseModel(chunk.model);
		}
		if (chunk.usage) {
			const prompt = chunk.usage.prompt_tokens ?? 0;
			const cached = chunk.usage.prompt_tokens_details?.cached_tokens ?? chunk.usage.num_cached_tokens ?? 0;
			writer.setUsage({
				input: Math.max(0, prompt - cached),
				output: chunk.usage.completion_tokens ?? 0,
				cacheRead: cached,
				cacheWrite: 0,
			});
		}
		const choice = chunk.choices?.[0];
		if (!choice) return;
		const content = choice.delta?.content;
		if (typeof content === "string") this.appendText(content);
		else if (Array.isArray(content)) {
			for (const part of content) {
				if (part.type === "text" && typeof part.text === "string") this.appendText(part.text);
				else if (part.type === "thinking" && Array.isArray(part.thinking))
					this.appendThinking(part.thinking.map((t) => (typeof t.text === "string" ? t.text : "")).join(""));
			}
		}
		for (const call of choice.delta?.tool_calls ?? []) this.toolCall(call);
		if (choice.finish_reason) {
			this.finishReason = choice.finish_reason;
			writer.setRawStopReason(choice.finish_reason);
		}
	}

	private appendText(delta: string): void {
		if (delta === "") return;
		if (this.text < 0) {
			this.closeThinking();
			this.text = this.writer.beginText();
		}
		this.writer.appendText(this.text, delta);
	}

	private appendThinking(delta: string): void {
		if (delta === "") return;
		if (this.thinking < 0) {
			this.closeText();
			this.thinking = this.writer.beginThinking();
		}
		this.writer.appendThinking(this.thinking, delta);
	}

	private toolCall(call: WireToolCall): void {
		const wireIndex = call.index ?? this.toolBlocks.size;
		let block = this.toolBlocks.get(wireIndex);
		if (block === undefined) {
			this.closeText();
			this.closeThinking();
			block = this.writer.beginToolCall(call.id || `call_${wireIndex}`, call.function?.name ?? "");
			this.toolBlocks.set(wireIndex, block);
		} else if (call.id || call.function?.name) {
			this.writer.updateToolCall(block, { id: call.id, name: call.function?.name });
		}
		const args = call.function?.arguments;
		if (typeof args === "string" && args !== "") this.writer.appendToolArguments(block, args);
		else if (args && typeof args === "object") this.writer.appendToolArguments(block, JSON.stringify(args));
	}

	private closeText(): void {
		if (this.text >= 0) this.writer.endBlock(this.text);
		this.text = -1;
	}

	private closeThinking(): void {
		if (this.thinking >= 0) this.writer.endBlock(this.thinking);
		this.thinking = -1;
	}

	/** The wire stream ended (`[DONE]` or the body's end): only a reported finish reason is a success. */
	end(): void {
		const reason = this.finishReason;
		if (reason === undefined) {
			this.writer.fail("The stream ended without a finish reason", { kind: "stream_cut", retryable: true });
			return;
		}
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
				this.writer.finish(this.toolBlocks.size > 0 ? "toolUse" : "stop");
		}
	}
}
