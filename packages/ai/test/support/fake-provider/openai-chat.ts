/**
 * OpenAI Chat Completions wire format for the fake provider: chunk builders
 * matching what api.openai.com and compatible servers stream
 * (`chat.completion.chunk` objects, a usage chunk with empty `choices`, `[DONE]`).
 */
import { type JsonScript, json, type SseFrame, type SseScript, sse } from "./server.js";

export type ChatFinishReason = "stop" | "length" | "tool_calls" | "content_filter" | "function_call";

export interface ChatUsage {
	prompt_tokens: number;
	completion_tokens: number;
	total_tokens?: number;
	prompt_tokens_details?: { cached_tokens?: number };
	completion_tokens_details?: { reasoning_tokens?: number };
}

/** Builds one streamed chat completion chunk by chunk. */
export class ChatStream {
	private readonly frames: SseFrame[] = [];
	private readonly id: string;
	private readonly model: string;
	private readonly created = 1_770_000_000;

	constructor(options: { id?: string; model?: string } = {}) {
		this.id = options.id ?? "chatcmpl-fake-1";
		this.model = options.model ?? "fake-model";
	}

	/** A raw chunk with the given delta and finish reason. */
	chunk(delta: Record<string, unknown>, finishReason: ChatFinishReason | null = null, extra: object = {}): this {
		this.frames.push({
			data: {
				id: this.id,
				object: "chat.completion.chunk",
				created: this.created,
				model: this.model,
				choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
				...extra,
			},
		});
		return this;
	}

	/** The opening chunk real servers send: role and empty content. */
	role(): this {
		return this.chunk({ role: "assistant", content: "", refusal: null });
	}

	text(...deltas: string[]): this {
		for (const content of deltas) this.chunk({ content });
		return this;
	}

	/** Reasoning deltas under the field a dialect uses. */
	reasoning(field: "reasoning_content" | "reasoning" | "reasoning_details", ...deltas: string[]): this {
		for (const delta of deltas) {
			if (field === "reasoning_details") this.chunk({ reasoning_details: [{ type: "reasoning.text", text: delta }] });
			else this.chunk({ [field]: delta });
		}
		return this;
	}

	/**
	 * A tool call: the first chunk carries id, name and the first argument piece;
	 * later chunks carry only `index` and more argument text, as OpenAI sends them.
	 */
	toolCall(index: number, id: string, name: string, argumentPieces: string[]): this {
		const [first = "", ...rest] = argumentPieces;
		this.chunk({
			tool_calls: [{ index, id, type: "function", function: { name, arguments: first } }],
		});
		for (const piece of rest) this.chunk({ tool_calls: [{ index, function: { arguments: piece } }] });
		return this;
	}

	/** One argument piece for an already started tool call (for interleaving calls). */
	toolArgs(index: number, piece: string): this {
		return this.chunk({ tool_calls: [{ index, function: { arguments: piece } }] });
	}

	finish(reason: ChatFinishReason): this {
		return this.chunk({}, reason);
	}

	/** The trailing usage chunk (`stream_options.include_usage`): no choices. */
	usage(usage: ChatUsage): this {
		this.frames.push({
			data: {
				id: this.id,
				object: "chat.completion.chunk",
				created: this.created,
				model: this.model,
				choices: [],
				usage: { total_tokens: usage.prompt_tokens + usage.completion_tokens, ...usage },
			},
		});
		return this;
	}

	/** An error object inside a 200 stream (OpenRouter and others do this). */
	error(message: string, code?: string | number): this {
		this.frames.push({ data: { error: { message, code } } });
		return this;
	}

	done(): this {
		this.frames.push({ data: "[DONE]" });
		return this;
	}

	build(): SseFrame[] {
		return [...this.frames];
	}

	script(options: Omit<SseScript, "kind" | "bytes"> = {}): SseScript {
		return sse(this.frames, options);
	}
}

/** An OpenAI-style error response. */
export function chatError(
	status: number,
	message: string,
	options: { type?: string; code?: string | null; headers?: Record<string, string> } = {},
): JsonScript {
	return json(
		status,
		{ error: { message, type: options.type ?? "invalid_request_error", param: null, code: options.code ?? null } },
		options.headers,
	);
}
