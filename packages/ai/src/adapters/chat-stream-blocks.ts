import type { AssistantStreamWriter } from "../stream-writer.js";

/**
 * The writer side of a Chat Completions-style stream (OpenAI's chunks and
 * Mistral's, which differ in how a delta carries its parts, not in how the
 * message is built from them): at most one open text or thinking block at a
 * time, a new one closing the other; tool calls by their wire index, each
 * closing the open text and thinking; the finish reason as reported.
 */
export class ChatStreamBlocks {
	private text = -1;
	private thinking = -1;
	private readonly toolBlocks = new Map<number, number>();
	private reason: string | undefined;

	constructor(private readonly writer: AssistantStreamWriter) {}

	/** The first chunk starts the message and names the response. */
	startWith(chunk: { id?: string; model?: string }): void {
		const writer = this.writer;
		if (writer.hasStarted) return;
		writer.start();
		writer.setResponseId(chunk.id);
		writer.setResponseModel(chunk.model);
	}

	appendText(delta: string): void {
		if (delta === "") return;
		if (this.text < 0) {
			this.closeThinking();
			this.text = this.writer.beginText();
		}
		this.writer.appendText(this.text, delta);
	}

	/** `signature`: what a new thinking block records as its signature (the wire field it came in). */
	appendThinking(delta: string, signature?: string): void {
		if (delta === "") return;
		if (this.thinking < 0) {
			this.closeText();
			this.thinking = this.writer.beginThinking(signature);
		}
		this.writer.appendThinking(this.thinking, delta);
	}

	/**
	 * One tool-call delta: the first of a wire index opens the call (id
	 * `call_<index>` until one is sent), later ones may rename it; non-empty
	 * `args` text is appended. Returns the call's block.
	 */
	toolCall(
		call: { index?: number; id?: string | null; name?: string | null },
		args: string | null | undefined,
	): number {
		const wireIndex = call.index ?? this.toolBlocks.size;
		let block = this.toolBlocks.get(wireIndex);
		if (block === undefined) {
			this.closeText();
			this.closeThinking();
			block = this.writer.beginToolCall(call.id || `call_${wireIndex}`, call.name ?? "");
			this.toolBlocks.set(wireIndex, block);
		} else if (call.id || call.name) {
			this.writer.updateToolCall(block, { id: call.id ?? undefined, name: call.name ?? undefined });
		}
		if (args) this.writer.appendToolArguments(block, args);
		return block;
	}

	get toolCallCount(): number {
		return this.toolBlocks.size;
	}

	/** A chunk's `finish_reason`, when it has one. */
	setFinishReason(reason: string | null | undefined): void {
		if (!reason) return;
		this.reason = reason;
		this.writer.setRawStopReason(reason);
	}

	/**
	 * At the end of the wire stream: the reported finish reason, or, when none
	 * came (a cut stream), undefined with the writer failed (retryable).
	 */
	finishReasonOrFail(): string | undefined {
		if (this.reason === undefined)
			this.writer.fail("The stream ended without a finish reason", { kind: "stream_cut", retryable: true });
		return this.reason;
	}

	private closeText(): void {
		if (this.text >= 0) this.writer.endBlock(this.text);
		this.text = -1;
	}

	private closeThinking(): void {
		if (this.thinking >= 0) this.writer.endBlock(this.thinking);
		this.thinking = -1;
	}
}
