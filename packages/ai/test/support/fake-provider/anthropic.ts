/**
 * Anthropic Messages wire format for the fake provider: `event: <type>` +
 * `data: {...}` frames exactly as api.anthropic.com streams them
 * (message_start … content blocks … message_delta, message_stop), pings, and
 * the error bodies the API returns.
 */
import { type JsonScript, json, type SseFrame, type SseScript, sse } from "./server.js";

export interface AnthropicUsage {
	input_tokens?: number;
	output_tokens?: number;
	cache_read_input_tokens?: number;
	cache_creation_input_tokens?: number;
}

export class AnthropicStream {
	private readonly frames: SseFrame[] = [];
	private index = 0;

	constructor(private readonly options: { id?: string; model?: string } = {}) {}

	private event(data: { type: string } & Record<string, unknown>): this {
		this.frames.push({ event: data.type, data });
		return this;
	}

	start(usage: AnthropicUsage = { input_tokens: 10, output_tokens: 1 }): this {
		return this.event({
			type: "message_start",
			message: {
				id: this.options.id ?? "msg_fake_1",
				type: "message",
				role: "assistant",
				model: this.options.model ?? "claude-fake",
				content: [],
				stop_reason: null,
				stop_sequence: null,
				usage: { cache_creation_input_tokens: 0, cache_read_input_tokens: 0, ...usage },
			},
		});
	}

	ping(): this {
		return this.event({ type: "ping" });
	}

	text(...deltas: string[]): this {
		const index = this.index++;
		this.event({ type: "content_block_start", index, content_block: { type: "text", text: "" } });
		for (const text of deltas) this.event({ type: "content_block_delta", index, delta: { type: "text_delta", text } });
		return this.event({ type: "content_block_stop", index });
	}

	thinking(deltas: string[], signature: string): this {
		const index = this.index++;
		this.event({
			type: "content_block_start",
			index,
			content_block: { type: "thinking", thinking: "", signature: "" },
		});
		for (const thinking of deltas)
			this.event({ type: "content_block_delta", index, delta: { type: "thinking_delta", thinking } });
		this.event({ type: "content_block_delta", index, delta: { type: "signature_delta", signature } });
		return this.event({ type: "content_block_stop", index });
	}

	redactedThinking(data: string): this {
		const index = this.index++;
		this.event({ type: "content_block_start", index, content_block: { type: "redacted_thinking", data } });
		return this.event({ type: "content_block_stop", index });
	}

	/** A tool_use block whose input arrives as `input_json_delta` pieces. */
	toolUse(id: string, name: string, pieces: string[]): this {
		const index = this.index++;
		this.event({ type: "content_block_start", index, content_block: { type: "tool_use", id, name, input: {} } });
		for (const partial_json of pieces)
			this.event({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json } });
		return this.event({ type: "content_block_stop", index });
	}

	/** Opens a block without closing it (for cut-stream tests). */
	openText(...deltas: string[]): this {
		const index = this.index++;
		this.event({ type: "content_block_start", index, content_block: { type: "text", text: "" } });
		for (const text of deltas) this.event({ type: "content_block_delta", index, delta: { type: "text_delta", text } });
		return this;
	}

	delta(stopReason: string, usage: AnthropicUsage = { output_tokens: 5 }): this {
		return this.event({ type: "message_delta", delta: { stop_reason: stopReason, stop_sequence: null }, usage });
	}

	stop(): this {
		return this.event({ type: "message_stop" });
	}

	/** `event: error` inside the 200 stream. */
	error(type: string, message: string): this {
		return this.event({ type: "error", error: { type, message } });
	}

	/** A frame of a type no adapter knows. */
	unknown(): this {
		return this.event({ type: "content_block_future_thing", index: 99, payload: { x: 1 } });
	}

	get sseFrames(): SseFrame[] {
		return [...this.frames];
	}

	script(options: Omit<SseScript, "kind" | "bytes"> = {}): SseScript {
		return sse(this.frames, options);
	}
}

/** The JSON error body Anthropic answers with (`{type:"error", error:{type, message}}`). */
export function anthropicError(
	status: number,
	type: string,
	message: string,
	headers?: Record<string, string>,
): JsonScript {
	return json(status, { type: "error", error: { type, message }, request_id: "req_fake" }, headers);
}

export const ANTHROPIC_OVERFLOW_MESSAGE = "prompt is too long: 213462 tokens > 200000 maximum";
