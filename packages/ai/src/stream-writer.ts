import { parse as parsePartialJson } from "partial-json";
import { calculateCost, emptyUsage } from "./cost.js";
import { AssistantMessageEventStream } from "./event-stream.js";
import { IncrementalJsonParser } from "./partial-json.js";
import { redact } from "./redaction.js";
import type {
	AssistantMessage,
	Model,
	ProviderErrorInfo,
	StopReason,
	TextContent,
	ThinkingContent,
	ToolCall,
	Usage,
} from "./types.js";

type OpenBlock =
	| { kind: "text"; block: TextContent }
	| { kind: "thinking"; block: ThinkingContent }
	| { kind: "toolCall"; block: ToolCall; json: string; parser: IncrementalJsonParser };

/**
 * Builds one streamed assistant message and emits the unified events for it.
 * Every adapter maps its wire events onto these calls, so the event contract
 * (start first, block start/delta/end, exactly one terminal event, partial
 * message on every event) lives in one place.
 *
 * There is no default success: `finish()` needs the stop reason the protocol
 * reported; a wire stream that ends without one must call `fail()` with kind
 * "stream_cut".
 */
export class AssistantStreamWriter {
	readonly stream = new AssistantMessageEventStream();
	readonly message: AssistantMessage;
	private readonly open = new Map<number, OpenBlock>();
	private started = false;
	/**
	 * Monotonic start, for `durationMs` on the final message. process.hrtime, not performance.now():
	 * the first use of Node's `performance` global loads its perf_hooks modules (~6M instructions),
	 * and a CLI's first request would be that first use.
	 */
	private readonly startedAt = process.hrtime.bigint();

	constructor(private readonly model: Model) {
		this.message = {
			role: "assistant",
			content: [],
			api: model.api,
			provider: model.provider,
			model: model.id,
			usage: emptyUsage(),
			// In flight: no stop reason yet. finish(reason) or fail() sets the terminal one; neither
			// success nor failure is assumed before the protocol says which.
			stopReason: "pending",
			timestamp: Date.now(),
		};
	}

	/** True once `start` was emitted (the provider began answering). */
	get hasStarted(): boolean {
		return this.started;
	}

	get isDone(): boolean {
		return this.stream.isFinished;
	}

	/** Emits `start` once; block methods call it implicitly. */
	start(): void {
		if (this.started || this.isDone) return;
		this.started = true;
		this.stream.push({ type: "start", partial: this.message });
	}

	beginText(signature?: string): number {
		if (this.isDone) return -1; // the message is final: no block is added
		this.start();
		const block: TextContent = { type: "text", text: "" };
		if (signature !== undefined) block.textSignature = signature;
		const index = this.message.content.push(block) - 1;
		this.open.set(index, { kind: "text", block });
		this.stream.push({ type: "text_start", contentIndex: index, partial: this.message });
		return index;
	}

	appendText(index: number, delta: string): void {
		const open = this.open.get(index);
		if (open?.kind !== "text" || delta === "") return;
		open.block.text += delta;
		this.stream.push({ type: "text_delta", contentIndex: index, delta, partial: this.message });
	}

	beginThinking(signature?: string, redacted?: boolean): number {
		if (this.isDone) return -1; // the message is final: no block is added
		this.start();
		const block: ThinkingContent = { type: "thinking", thinking: "" };
		if (signature !== undefined) block.thinkingSignature = signature;
		if (redacted) block.redacted = true;
		const index = this.message.content.push(block) - 1;
		this.open.set(index, { kind: "thinking", block });
		this.stream.push({ type: "thinking_start", contentIndex: index, partial: this.message });
		return index;
	}

	appendThinking(index: number, delta: string): void {
		const open = this.open.get(index);
		if (open?.kind !== "thinking" || delta === "") return;
		open.block.thinking += delta;
		this.stream.push({ type: "thinking_delta", contentIndex: index, delta, partial: this.message });
	}

	/** Sets or extends the signature of an open thinking or text block. */
	setSignature(index: number, signature: string, append = false): void {
		const open = this.open.get(index);
		if (open?.kind === "thinking")
			open.block.thinkingSignature = append ? (open.block.thinkingSignature ?? "") + signature : signature;
		else if (open?.kind === "text") open.block.textSignature = signature;
	}

	beginToolCall(id: string, name: string, thoughtSignature?: string): number {
		if (this.isDone) return -1; // the message is final: no block is added
		this.start();
		const block: ToolCall = { type: "toolCall", id, name, arguments: {} };
		if (thoughtSignature !== undefined) block.thoughtSignature = thoughtSignature;
		const index = this.message.content.push(block) - 1;
		this.open.set(index, { kind: "toolCall", block, json: "", parser: new IncrementalJsonParser() });
		this.stream.push({ type: "toolcall_start", contentIndex: index, partial: this.message });
		return index;
	}

	/** Appends raw argument JSON text; the partial arguments are re-parsed best-effort. */
	appendToolArguments(index: number, delta: string): void {
		const open = this.open.get(index);
		if (open?.kind !== "toolCall") return;
		open.json += delta;
		// Incremental parse keeps 10k-delta calls linear; whole-text parse is the fallback.
		open.parser.feed(delta);
		open.block.arguments = open.parser.failed ? parseArgumentsLeniently(open.json) : open.parser.value;
		this.stream.push({ type: "toolcall_delta", contentIndex: index, delta, partial: this.message });
	}

	/** Replaces a tool call's id or name (some protocols send them after the first chunk). */
	updateToolCall(index: number, patch: { id?: string; name?: string; thoughtSignature?: string }): void {
		const open = this.open.get(index);
		if (open?.kind !== "toolCall") return;
		if (patch.id) open.block.id = patch.id;
		if (patch.name) open.block.name = patch.name;
		if (patch.thoughtSignature) open.block.thoughtSignature = patch.thoughtSignature;
	}

	/** Closes a block and emits its `*_end`. Closing an unknown or closed index is a no-op. */
	endBlock(index: number): void {
		const open = this.open.get(index);
		if (!open) return;
		this.open.delete(index);
		if (open.kind === "text") {
			this.stream.push({ type: "text_end", contentIndex: index, content: open.block.text, partial: this.message });
		} else if (open.kind === "thinking") {
			this.stream.push({
				type: "thinking_end",
				contentIndex: index,
				content: open.block.thinking,
				partial: this.message,
			});
		} else {
			open.block.arguments = open.json.trim() === "" ? {} : parseArgumentsLeniently(open.json);
			this.stream.push({ type: "toolcall_end", contentIndex: index, toolCall: open.block, partial: this.message });
		}
	}

	/** Indices of blocks still open, in content order. */
	openBlocks(): number[] {
		return [...this.open.keys()].sort((a, b) => a - b);
	}

	/** Merges reported token counts; totals and cost are recomputed. */
	setUsage(patch: Partial<Omit<Usage, "cost" | "totalTokens">> & { totalTokens?: number }): void {
		const usage = this.message.usage;
		if (patch.input !== undefined) usage.input = patch.input;
		if (patch.output !== undefined) usage.output = patch.output;
		if (patch.cacheRead !== undefined) usage.cacheRead = patch.cacheRead;
		if (patch.cacheWrite !== undefined) usage.cacheWrite = patch.cacheWrite;
		usage.totalTokens = patch.totalTokens ?? usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
		calculateCost(this.model, usage);
	}

	setResponseId(id: string | undefined): void {
		if (id) this.message.responseId = id;
	}

	/** The provider's own stop/finish reason, kept verbatim on the message. */
	setRawStopReason(reason: string | undefined): void {
		if (reason) this.message.rawStopReason = reason;
	}

	setResponseModel(model: string | undefined): void {
		if (model && model !== this.model.id) this.message.responseModel = model;
	}

	/** Records a note on the message (kept on the final message, shown nowhere by pi-ai itself). */
	addDiagnostic(type: string, details?: Record<string, unknown>): void {
		if (this.isDone) return;
		if (!this.message.diagnostics) this.message.diagnostics = [];
		this.message.diagnostics.push({ type, timestamp: Date.now(), ...(details ? { details } : {}) });
	}

	/** Ends with `done`. Open blocks are closed first. */
	finish(reason: Extract<StopReason, "stop" | "length" | "toolUse">): void {
		if (this.isDone) return;
		this.start();
		for (const index of this.openBlocks()) this.endBlock(index);
		this.message.stopReason = reason;
		this.message.durationMs = this.elapsed();
		this.stream.push({ type: "done", reason, message: this.message });
	}

	/**
	 * Ends with `error`, keeping the partial content and usage. Open blocks are
	 * left as they are (no `*_end`), so consumers can tell a cut block.
	 */
	fail(errorMessage: string, info: ProviderErrorInfo): void {
		if (this.isDone) return;
		this.start();
		const reason = info.kind === "aborted" ? "aborted" : "error";
		this.open.clear();
		this.message.stopReason = reason;
		// Every failure path ends here: whatever the provider or an SDK echoed, no configured secret goes out.
		this.message.errorMessage = redact(errorMessage);
		this.message.errorInfo = info;
		this.message.durationMs = this.elapsed();
		this.stream.push({ type: "error", reason, error: this.message });
	}

	private elapsed(): number {
		return Math.max(0, Math.round(Number(process.hrtime.bigint() - this.startedAt) / 1e6));
	}
}

/** Best-effort parse of possibly incomplete JSON object text; always an object. */
export function parseArgumentsLeniently(json: string): Record<string, unknown> {
	if (json.trim() === "") return {};
	try {
		const value: unknown = JSON.parse(json);
		return isPlainObject(value) ? value : {};
	} catch {
		try {
			const value: unknown = parsePartialJson(json);
			return isPlainObject(value) ? value : {};
		} catch {
			return {};
		}
	}
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}
