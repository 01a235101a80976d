/**
 * OpenAI Responses wire format for the fake provider: `event: <type>` +
 * `data: {...}` frames as api.openai.com streams them (response.created,
 * output items with their deltas, response.completed / incomplete / failed),
 * and OpenAI's error bodies.
 */
import { type JsonScript, json, type SseFrame, type SseScript, sse } from "./server.js";

export interface ResponsesUsage {
	input_tokens: number;
	output_tokens: number;
	total_tokens?: number;
	input_tokens_details?: { cached_tokens: number };
	output_tokens_details?: { reasoning_tokens: number };
}

export class ResponsesStream {
	private readonly frames: SseFrame[] = [];
	private sequence = 0;
	private outputIndex = 0;
	private readonly output: object[] = [];

	constructor(private readonly options: { id?: string; model?: string } = {}) {}

	private event(data: { type: string } & Record<string, unknown>): this {
		this.frames.push({ event: data.type, data: { ...data, sequence_number: this.sequence++ } });
		return this;
	}

	private response(status: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
		return {
			id: this.options.id ?? "resp_fake_1",
			object: "response",
			created_at: 1_770_000_000,
			status,
			error: null,
			incomplete_details: null,
			model: this.options.model ?? "gpt-fake",
			output: status === "in_progress" ? [] : this.output,
			...extra,
		};
	}

	created(): this {
		this.event({ type: "response.created", response: this.response("in_progress") });
		return this.event({ type: "response.in_progress", response: this.response("in_progress") });
	}

	reasoning(id: string, summaries: string[][], encrypted: string): this {
		const output_index = this.outputIndex++;
		this.event({
			type: "response.output_item.added",
			output_index,
			item: { id, type: "reasoning", encrypted_content: encrypted, summary: [] },
		});
		summaries.forEach((deltas, summary_index) => {
			this.event({
				type: "response.reasoning_summary_part.added",
				item_id: id,
				output_index,
				summary_index,
				part: { type: "summary_text", text: "" },
			});
			for (const delta of deltas)
				this.event({ type: "response.reasoning_summary_text.delta", item_id: id, output_index, summary_index, delta });
			this.event({
				type: "response.reasoning_summary_text.done",
				item_id: id,
				output_index,
				summary_index,
				text: deltas.join(""),
			});
		});
		const item = {
			id,
			type: "reasoning",
			encrypted_content: encrypted,
			summary: summaries.map((deltas) => ({ type: "summary_text", text: deltas.join("") })),
		};
		this.output.push(item);
		return this.event({ type: "response.output_item.done", output_index, item });
	}

	message(id: string, deltas: string[], phase?: string): this {
		const output_index = this.outputIndex++;
		const phaseField = phase ? { phase } : {};
		this.event({
			type: "response.output_item.added",
			output_index,
			item: { id, type: "message", status: "in_progress", content: [], role: "assistant", ...phaseField },
		});
		this.event({
			type: "response.content_part.added",
			item_id: id,
			output_index,
			content_index: 0,
			part: { type: "output_text", annotations: [], text: "" },
		});
		for (const delta of deltas)
			this.event({
				type: "response.output_text.delta",
				item_id: id,
				output_index,
				content_index: 0,
				delta,
				logprobs: [],
			});
		const text = deltas.join("");
		this.event({ type: "response.output_text.done", item_id: id, output_index, content_index: 0, text, logprobs: [] });
		const item = {
			id,
			type: "message",
			status: "completed",
			role: "assistant",
			content: [{ type: "output_text", annotations: [], text }],
			...phaseField,
		};
		this.output.push(item);
		return this.event({ type: "response.output_item.done", output_index, item });
	}

	functionCall(id: string, callId: string, name: string, pieces: string[]): this {
		const output_index = this.outputIndex++;
		this.event({
			type: "response.output_item.added",
			output_index,
			item: { id, type: "function_call", status: "in_progress", arguments: "", call_id: callId, name },
		});
		for (const delta of pieces)
			this.event({ type: "response.function_call_arguments.delta", item_id: id, output_index, delta });
		const args = pieces.join("");
		this.event({ type: "response.function_call_arguments.done", item_id: id, output_index, arguments: args });
		const item = { id, type: "function_call", status: "completed", arguments: args, call_id: callId, name };
		this.output.push(item);
		return this.event({ type: "response.output_item.done", output_index, item });
	}

	/** Opens a message item and streams text without finishing it (cut-stream tests). */
	openMessage(id: string, ...deltas: string[]): this {
		const output_index = this.outputIndex++;
		this.event({
			type: "response.output_item.added",
			output_index,
			item: { id, type: "message", status: "in_progress", content: [], role: "assistant" },
		});
		for (const delta of deltas)
			this.event({
				type: "response.output_text.delta",
				item_id: id,
				output_index,
				content_index: 0,
				delta,
				logprobs: [],
			});
		return this;
	}

	completed(usage: ResponsesUsage = { input_tokens: 10, output_tokens: 5, total_tokens: 15 }): this {
		return this.event({ type: "response.completed", response: this.response("completed", { usage }) });
	}

	incomplete(reason: string, usage: ResponsesUsage = { input_tokens: 10, output_tokens: 5, total_tokens: 15 }): this {
		return this.event({
			type: "response.incomplete",
			response: this.response("incomplete", { usage, incomplete_details: { reason } }),
		});
	}

	failed(code: string, message: string): this {
		return this.event({ type: "response.failed", response: this.response("failed", { error: { code, message } }) });
	}

	/** The `error` event inside the 200 stream. */
	error(code: string, message: string): this {
		return this.event({ type: "error", error: { type: code, code, message, param: null } });
	}

	unknown(): this {
		return this.event({ type: "response.future_event.delta", item_id: "x", output_index: 0, delta: "?" });
	}

	get sseFrames(): SseFrame[] {
		return [...this.frames];
	}

	script(options: Omit<SseScript, "kind" | "bytes"> = {}): SseScript {
		return sse(this.frames, options);
	}
}

/** OpenAI's JSON error body: `{error: {message, type, param, code}}`. */
export function openaiError(
	status: number,
	code: string,
	message: string,
	headers?: Record<string, string>,
): JsonScript {
	return json(status, { error: { message, type: "invalid_request_error", param: null, code } }, headers);
}

export const OPENAI_OVERFLOW_MESSAGE =
	"Your input exceeds the context window of this model. Please adjust your input and try again.";
