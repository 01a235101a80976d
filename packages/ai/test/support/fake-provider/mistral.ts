/**
 * Mistral chat-completions streaming wire format for the fake provider, as
 * Mistral's API reference documents it (`POST /v1/chat/completions` with
 * `stream: true`): `chat.completion.chunk` objects whose `delta.content` is a
 * string or a list of chunks (reasoning as `{type: "thinking", thinking:
 * [{type: "text", text}]}`), tool calls with nine-character ids and whole
 * arguments, usage on the last chunk, then `data: [DONE]`. Errors are JSON
 * bodies `{object: "error", message, type, code}`.
 */
import { type JsonScript, json, type SseFrame, type SseScript, sse } from "./server.js";

export interface MistralUsage {
	prompt_tokens: number;
	completion_tokens: number;
	total_tokens: number;
	prompt_tokens_details?: { cached_tokens: number };
}

export class MistralStream {
	private readonly frames: SseFrame[] = [];
	constructor(private readonly model = "mistral-fake") {}

	chunk(delta: Record<string, unknown>, finishReason: string | null = null, extra: object = {}): this {
		this.frames.push({
			data: {
				id: "cmpl-fake-1",
				object: "chat.completion.chunk",
				created: 1_770_000_000,
				model: this.model,
				choices: [{ index: 0, delta, finish_reason: finishReason }],
				...extra,
			},
		});
		return this;
	}

	role(): this {
		return this.chunk({ role: "assistant", content: "" });
	}

	text(...deltas: string[]): this {
		for (const content of deltas) this.chunk({ content });
		return this;
	}

	/** Text as a content-chunk list, as reasoning models send it. */
	textChunks(...deltas: string[]): this {
		for (const text of deltas) this.chunk({ content: [{ type: "text", text }] });
		return this;
	}

	thinking(...deltas: string[]): this {
		for (const text of deltas) this.chunk({ content: [{ type: "thinking", thinking: [{ type: "text", text }] }] });
		return this;
	}

	/** A whole tool call in one chunk (Mistral does not split arguments). */
	toolCall(id: string, name: string, args: string | Record<string, unknown>, index = 0): this {
		return this.chunk({ tool_calls: [{ id, function: { name, arguments: args }, index }] });
	}

	finish(reason: string, usage: MistralUsage = { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 }): this {
		return this.chunk({ content: "" }, reason, { usage });
	}

	done(): this {
		this.frames.push({ data: "[DONE]" });
		return this;
	}

	getFrames(): SseFrame[] {
		return [...this.frames];
	}

	script(options: Omit<SseScript, "kind" | "bytes"> = {}): SseScript {
		return sse(this.frames, options);
	}
}

/** Mistral's JSON error body. */
export function mistralError(
	status: number,
	message: string,
	type: string,
	headers?: Record<string, string>,
): JsonScript {
	return json(status, { object: "error", message, type, param: null, code: null }, headers);
}
