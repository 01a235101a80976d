import type { ResponseStreamEvent } from "openai/resources/responses/responses";
import { isOverflowErrorText } from "../overflow.js";
import type { AssistantStreamWriter } from "../stream-writer.js";
import type { ProviderErrorInfo } from "../types.js";

/** What the Responses API streams, plus event types this adapter predates. */
export type ResponsesWireEvent = ResponseStreamEvent | { type: string; [key: string]: unknown };

type TrackedItem =
	| { kind: "reasoning"; index: number; parts: number }
	| { kind: "message"; index: number }
	| { kind: "function_call"; index: number; args: string }
	| { kind: "custom_tool_call"; index: number; input: string };

/** Text signature carrying the output message id (and phase) so a follow-up request can replay the item. */
export function encodeTextSignature(id: string, phase?: string | null): string {
	return JSON.stringify(phase ? { v: 1, id, phase } : { v: 1, id });
}

/** Reads a text signature; plain strings are legacy bare message ids. */
export function parseTextSignature(
	signature: string | undefined,
): { id: string; phase?: "commentary" | "final_answer" } | undefined {
	if (!signature) return undefined;
	if (signature.startsWith("{")) {
		try {
			const parsed = JSON.parse(signature) as { v?: unknown; id?: unknown; phase?: unknown };
			if (parsed.v === 1 && typeof parsed.id === "string") {
				return parsed.phase === "commentary" || parsed.phase === "final_answer"
					? { id: parsed.id, phase: parsed.phase }
					: { id: parsed.id };
			}
		} catch {
			// not JSON: a bare id
		}
	}
	return { id: signature };
}

/**
 * Maps Responses API stream events onto the writer. Output items become
 * blocks: reasoning → thinking (the whole item, with its encrypted content, is
 * the signature), message → text (id and phase in the signature), function
 * and custom tool calls → tool calls with id `call_id|item_id`. Only
 * `response.completed` / `response.incomplete` end with `done`.
 */
export class ResponsesEventMapper {
	private readonly items = new Map<string, TrackedItem>();
	private readonly byOutputIndex = new Map<number, string>();

	constructor(private readonly writer: AssistantStreamWriter) {}

	handle(event: ResponsesWireEvent): void {
		const writer = this.writer;
		if (writer.isDone) return;
		const e = event as ResponseStreamEvent;
		switch (e.type) {
			case "response.created":
			case "response.in_progress":
				writer.start();
				writer.setResponseId(e.response.id);
				writer.setResponseModel(e.response.model);
				return;
			case "response.output_item.added":
				this.itemAdded(e.item as unknown as Record<string, unknown>, e.output_index);
				return;
			case "response.reasoning_summary_part.added": {
				const item = this.item(e.item_id, e.output_index);
				if (item?.kind !== "reasoning") return;
				// Separate summary parts the way they read: as paragraphs.
				if (item.parts > 0) writer.appendThinking(item.index, "\n\n");
				item.parts++;
				return;
			}
			case "response.reasoning_summary_text.delta":
			case "response.reasoning_text.delta": {
				const item = this.item(e.item_id, e.output_index);
				if (item?.kind === "reasoning") writer.appendThinking(item.index, e.delta);
				return;
			}
			case "response.output_text.delta":
			case "response.refusal.delta": {
				const item = this.item(e.item_id, e.output_index);
				if (item?.kind === "message") writer.appendText(item.index, e.delta);
				return;
			}
			case "response.function_call_arguments.delta": {
				const item = this.item(e.item_id, e.output_index);
				if (item?.kind !== "function_call" || e.delta === "") return;
				item.args += e.delta;
				writer.appendToolArguments(item.index, e.delta);
				return;
			}
			case "response.function_call_arguments.done": {
				const item = this.item(e.item_id, e.output_index);
				if (item?.kind === "function_call") this.completeArguments(item, e.arguments);
				return;
			}
			case "response.custom_tool_call_input.delta": {
				const item = this.item(e.item_id, e.output_index);
				if (item?.kind === "custom_tool_call") item.input += e.delta;
				return;
			}
			case "response.output_item.done":
				this.itemDone(e.item as unknown as Record<string, unknown>, e.output_index);
				return;
			case "response.completed":
				this.applyUsage(e.response.usage);
				writer.setResponseId(e.response.id);
				writer.setRawStopReason(e.response.status ?? "completed");
				writer.finish(writer.message.content.some((block) => block.type === "toolCall") ? "toolUse" : "stop");
				return;
			case "response.incomplete": {
				this.applyUsage(e.response.usage);
				const reason = e.response.incomplete_details?.reason;
				writer.setRawStopReason(reason ? `incomplete.${reason}` : "incomplete");
				if (reason === "content_filter") {
					writer.fail("The response was stopped by the content filter", {
						kind: "provider",
						code: "content_filter",
						retryable: false,
					});
				} else {
					writer.finish("length");
				}
				return;
			}
			case "response.failed": {
				this.applyUsage(e.response.usage);
				const error = e.response.error;
				writer.setRawStopReason(e.response.status ?? "failed");
				const { message, info } = responsesErrorInfo(error?.code, error?.message ?? "The response failed");
				writer.fail(message, info);
				return;
			}
			case "error": {
				// Documented as `{type, code, message}`; also seen with the fields nested under `error`.
				const nested = (e as { error?: { code?: string | null; type?: string; message?: string } }).error;
				const code = e.code ?? nested?.code ?? nested?.type ?? undefined;
				const { message, info } = responsesErrorInfo(
					code,
					e.message ?? nested?.message ?? "The stream reported an error",
				);
				writer.fail(message, info);
				return;
			}
			default:
				return;
		}
	}

	/** The wire stream ended; without a terminal response event that is a cut stream. */
	end(): void {
		if (this.writer.isDone) return;
		this.writer.fail("The stream ended before response.completed", { kind: "stream_cut", retryable: true });
	}

	private item(itemId: string | undefined, outputIndex: number | undefined): TrackedItem | undefined {
		if (itemId !== undefined) {
			const found = this.items.get(itemId);
			if (found) return found;
		}
		if (outputIndex === undefined) return undefined;
		const id = this.byOutputIndex.get(outputIndex);
		return id === undefined ? undefined : this.items.get(id);
	}

	private track(id: string, outputIndex: number, item: TrackedItem): void {
		this.items.set(id, item);
		this.byOutputIndex.set(outputIndex, id);
	}

	private itemAdded(item: Record<string, unknown>, outputIndex: number): void {
		const writer = this.writer;
		const id = typeof item.id === "string" ? item.id : `item_${outputIndex}`;
		switch (item.type) {
			case "reasoning":
				this.track(id, outputIndex, { kind: "reasoning", index: writer.beginThinking(), parts: 0 });
				return;
			case "message": {
				const index = writer.beginText(encodeTextSignature(id, item.phase as string | undefined));
				this.track(id, outputIndex, { kind: "message", index });
				return;
			}
			case "function_call": {
				const index = writer.beginToolCall(`${String(item.call_id)}|${id}`, String(item.name));
				this.track(id, outputIndex, { kind: "function_call", index, args: "" });
				return;
			}
			case "custom_tool_call": {
				const index = writer.beginToolCall(`${String(item.call_id)}|${id}`, String(item.name));
				this.track(id, outputIndex, { kind: "custom_tool_call", index, input: "" });
				return;
			}
			default:
				// Hosted tools (web search, code interpreter, …) are not part of the unified model.
				return;
		}
	}

	private itemDone(item: Record<string, unknown>, outputIndex: number): void {
		const writer = this.writer;
		const id = typeof item.id === "string" ? item.id : undefined;
		const tracked = this.item(id, outputIndex);
		if (!tracked) return;
		if (tracked.kind === "reasoning") {
			const summary = Array.isArray(item.summary) ? (item.summary as { text?: string }[]) : [];
			this.completeText(tracked.index, summary.map((part) => part.text ?? "").join("\n\n"));
			writer.setSignature(tracked.index, JSON.stringify(item));
		} else if (tracked.kind === "message") {
			if (Array.isArray(item.content)) {
				const parts = item.content as { type?: string; text?: string; refusal?: string }[];
				this.completeText(
					tracked.index,
					parts.map((part) => (part.type === "refusal" ? (part.refusal ?? "") : (part.text ?? ""))).join(""),
				);
			}
			if (id) writer.setSignature(tracked.index, encodeTextSignature(id, item.phase as string | undefined));
		} else if (tracked.kind === "function_call") {
			if (typeof item.arguments === "string") this.completeArguments(tracked, item.arguments);
		} else {
			const input = typeof item.input === "string" ? item.input : tracked.input;
			// Free-form input has no JSON shape of its own; it travels as `{ input }`.
			writer.appendToolArguments(tracked.index, JSON.stringify({ input }));
		}
		writer.endBlock(tracked.index);
	}

	/**
	 * The `.done` events repeat the whole text: when the deltas fell short of it
	 * (a lost or trimmed delta), the rest is emitted so the final text matches.
	 */
	private completeText(index: number, full: string): void {
		const block = this.writer.message.content[index];
		const sofar = block?.type === "thinking" ? block.thinking : block?.type === "text" ? block.text : undefined;
		if (sofar === undefined || full.length <= sofar.length || !full.startsWith(sofar)) return;
		const rest = full.slice(sofar.length);
		if (block?.type === "thinking") this.writer.appendThinking(index, rest);
		else this.writer.appendText(index, rest);
	}

	private completeArguments(item: { index: number; args: string }, full: string | undefined): void {
		if (!full || full.length <= item.args.length || !full.startsWith(item.args)) return;
		const rest = full.slice(item.args.length);
		item.args = full;
		this.writer.appendToolArguments(item.index, rest);
	}

	private applyUsage(
		usage:
			| {
					input_tokens?: number;
					output_tokens?: number;
					total_tokens?: number;
					input_tokens_details?: { cached_tokens?: number };
			  }
			| null
			| undefined,
	): void {
		if (!usage) return;
		const cached = usage.input_tokens_details?.cached_tokens ?? 0;
		const patch: Parameters<AssistantStreamWriter["setUsage"]>[0] = {
			input: Math.max(0, (usage.input_tokens ?? 0) - cached),
			output: usage.output_tokens ?? 0,
			cacheRead: cached,
			cacheWrite: 0,
		};
		if (usage.total_tokens !== undefined) patch.totalTokens = usage.total_tokens;
		this.writer.setUsage(patch);
	}
}

/** Structured facts for an error reported inside a Responses stream (`error` event or `response.failed`). */
export function responsesErrorInfo(
	code: string | null | undefined,
	text: string,
): { message: string; info: ProviderErrorInfo } {
	const message = code ? `${code}: ${text}` : text;
	const base = code ? { code } : {};
	if (code === "context_length_exceeded" || isOverflowErrorText(text))
		return { message, info: { kind: "overflow", ...base, retryable: false } };
	if (code === "insufficient_quota") return { message, info: { kind: "rate_limit", ...base, retryable: false } };
	if (code === "rate_limit_exceeded") return { message, info: { kind: "rate_limit", ...base, retryable: true } };
	if (code === "server_is_overloaded" || code === "slow_down")
		return { message, info: { kind: "overloaded", ...base, retryable: true } };
	if (code === "server_error" || code === "internal_error")
		return { message, info: { kind: "server", ...base, retryable: true } };
	return { message, info: { kind: "provider", ...base, retryable: false } };
}
