import type { RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages/messages";
import { isOverflowErrorText } from "../overflow.js";
import type { AssistantStreamWriter } from "../stream-writer.js";
import type { ProviderErrorInfo, StopReason } from "../types.js";

/** What Anthropic streams, plus the shapes the SDK does not type (errors, pings, future events). */
export type AnthropicWireEvent = RawMessageStreamEvent | { type: string; [key: string]: unknown };

/** Shown in place of thinking the provider redacted; the payload rides in the signature. */
export const REDACTED_THINKING_PLACEHOLDER = "[Reasoning redacted]";

interface UsageFields {
	input_tokens?: number | null;
	output_tokens?: number | null;
	cache_read_input_tokens?: number | null;
	cache_creation_input_tokens?: number | null;
}

/**
 * Maps the Messages API's stream events onto the writer. `message_stop` is the
 * only success terminal: `end()` without it is a cut stream. A `refusal` stop
 * ends with `error` (kind "provider", code "refusal") because the turn carries
 * no usable answer and a retry with the same prompt will not help.
 */
export class AnthropicEventMapper {
	/** Wire block index → writer content index. */
	private readonly blocks = new Map<number, number>();
	private stopReason: string | undefined;
	private stopDetails: unknown;

	constructor(
		private readonly writer: AssistantStreamWriter,
		/** Maps a tool name as sent on the wire back to the caller's name (OAuth renames tools). */
		private readonly toolName: (wireName: string) => string = (name) => name,
	) {}

	handle(event: AnthropicWireEvent): void {
		const writer = this.writer;
		if (writer.isDone) return;
		switch (event.type) {
			case "message_start": {
				const message = (event as Extract<RawMessageStreamEvent, { type: "message_start" }>).message;
				writer.start();
				writer.setResponseId(message.id);
				writer.setResponseModel(message.model);
				this.applyUsage(message.usage as UsageFields);
				return;
			}
			case "content_block_start": {
				const { index, content_block: block } = event as Extract<
					RawMessageStreamEvent,
					{ type: "content_block_start" }
				>;
				if (block.type === "text") {
					const at = writer.beginText();
					this.blocks.set(index, at);
					if (block.text) writer.appendText(at, block.text);
				} else if (block.type === "thinking") {
					const at = writer.beginThinking(block.signature || undefined);
					this.blocks.set(index, at);
					if (block.thinking) writer.appendThinking(at, block.thinking);
				} else if (block.type === "redacted_thinking") {
					const at = writer.beginThinking(block.data, true);
					this.blocks.set(index, at);
					writer.appendThinking(at, REDACTED_THINKING_PLACEHOLDER);
				} else if (block.type === "tool_use") {
					const at = writer.beginToolCall(block.id, this.toolName(block.name));
					this.blocks.set(index, at);
					const input = block.input as Record<string, unknown> | undefined;
					if (input && typeof input === "object" && Object.keys(input).length > 0) {
						writer.appendToolArguments(at, JSON.stringify(input));
					}
				}
				// Server tools (web search, code execution…) are not part of the unified model: ignored.
				return;
			}
			case "content_block_delta": {
				const { index, delta } = event as Extract<RawMessageStreamEvent, { type: "content_block_delta" }>;
				const at = this.blocks.get(index);
				if (at === undefined) return;
				if (delta.type === "text_delta") writer.appendText(at, delta.text);
				else if (delta.type === "thinking_delta") writer.appendThinking(at, delta.thinking);
				else if (delta.type === "signature_delta") writer.setSignature(at, delta.signature, true);
				else if (delta.type === "input_json_delta" && delta.partial_json !== "")
					writer.appendToolArguments(at, delta.partial_json);
				return;
			}
			case "content_block_stop": {
				const { index } = event as Extract<RawMessageStreamEvent, { type: "content_block_stop" }>;
				const at = this.blocks.get(index);
				if (at !== undefined) writer.endBlock(at);
				this.blocks.delete(index);
				return;
			}
			case "message_delta": {
				const { delta, usage } = event as Extract<RawMessageStreamEvent, { type: "message_delta" }>;
				if (delta.stop_reason) {
					this.stopReason = delta.stop_reason;
					this.writer.setRawStopReason(delta.stop_reason);
				}
				const details = (delta as { stop_details?: unknown }).stop_details;
				if (details) this.stopDetails = details;
				this.applyUsage(usage as UsageFields);
				return;
			}
			case "message_stop":
				this.finish();
				return;
			case "error":
				this.failFromErrorEvent(event as { type: string; error?: unknown });
				return;
			default:
				// ping and event types added after this adapter was written
				return;
		}
	}

	/** The wire stream ended; without `message_stop` that is a cut stream. */
	end(): void {
		if (this.writer.isDone) return;
		this.writer.fail("The stream ended before message_stop", { kind: "stream_cut", retryable: true });
	}

	private finish(): void {
		const reason = this.stopReason;
		const mapped = mapStopReason(reason);
		if (mapped === "error") {
			const explanation = readString(this.stopDetails, "explanation");
			const message =
				reason === "refusal"
					? `The model refused to respond${explanation ? `: ${explanation}` : ""}`
					: `Anthropic stopped with reason ${reason ?? "(none)"}`;
			this.writer.fail(message, { kind: "provider", code: reason ?? "missing_stop_reason", retryable: false });
			return;
		}
		this.writer.finish(mapped);
	}

	private failFromErrorEvent(event: { error?: unknown }): void {
		const { message, info } = anthropicStreamErrorInfo(event.error);
		this.writer.fail(message, info);
	}

	private applyUsage(usage: UsageFields | undefined): void {
		if (!usage) return;
		const patch: Parameters<AssistantStreamWriter["setUsage"]>[0] = {};
		if (typeof usage.input_tokens === "number") patch.input = usage.input_tokens;
		if (typeof usage.output_tokens === "number") patch.output = usage.output_tokens;
		if (typeof usage.cache_read_input_tokens === "number") patch.cacheRead = usage.cache_read_input_tokens;
		if (typeof usage.cache_creation_input_tokens === "number") patch.cacheWrite = usage.cache_creation_input_tokens;
		this.writer.setUsage(patch);
	}
}

function mapStopReason(reason: string | undefined): Exclude<StopReason, "aborted" | "pending"> {
	switch (reason) {
		case "end_turn":
		case "stop_sequence":
		case "pause_turn": // a server-tool loop paused: the turn is usable, the caller may continue it
			return "stop";
		case "max_tokens":
		case "model_context_window_exceeded":
			return "length";
		case "tool_use":
			return "toolUse";
		default:
			// refusal, sensitive, or a reason this adapter does not know: never a silent success
			return "error";
	}
}

/**
 * Structured facts for an in-stream `event: error` payload (`{type, message}`),
 * whether it arrives raw or wrapped in the SDK's APIError.
 */
export function anthropicStreamErrorInfo(error: unknown): { message: string; info: ProviderErrorInfo } {
	const type = readString(error, "type") ?? "error";
	const text = readString(error, "message") ?? type;
	const message = `${type}: ${text}`;
	// No HTTP status here: the request itself succeeded (200) before the stream failed.
	let info: ProviderErrorInfo;
	if (type === "overloaded_error") info = { kind: "overloaded", code: type, retryable: true };
	else if (type === "rate_limit_error") info = { kind: "rate_limit", code: type, retryable: true };
	else if (type === "api_error") info = { kind: "server", code: type, retryable: true };
	else if (type === "request_too_large" || isOverflowErrorText(text))
		info = { kind: "overflow", code: type, retryable: false };
	else info = { kind: "provider", code: type, retryable: false };
	return { message, info };
}

function readString(value: unknown, key: string): string | undefined {
	if (typeof value !== "object" || value === null) return undefined;
	const field = (value as Record<string, unknown>)[key];
	return typeof field === "string" ? field : undefined;
}
