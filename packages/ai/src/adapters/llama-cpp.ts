import type {
	ChatHistoryItem,
	ChatModelFunctions,
	LlamaChatResponseChunk,
	LlamaChatResponseFunctionCallParamsChunk,
} from "node-llama-cpp";
import { type AdapterOptions, type ApiAdapter, runAdapterStream } from "../adapter.js";
import type { NormalizedContext } from "../context.js";
import { ProviderFault } from "../errors.js";
import { toLlamaChatInput } from "../llama-cpp/history.js";
import { acquireModel, type LoadedLlamaModel } from "../llama-cpp/runtime.js";
import type { AssistantStreamWriter } from "../stream-writer.js";
import { thinkingBudget } from "../thinking.js";
import type { Model } from "../types.js";

/** What `onPayload` sees (and may replace) for a llama-cpp request. */
export interface LlamaCppPayload {
	history: ChatHistoryItem[];
	functions?: ChatModelFunctions;
	maxTokens: number;
}

/**
 * The `llama-cpp` adapter: the model runs inside this process through
 * node-llama-cpp. The chat wrapper built from the GGUF's own template renders
 * the transcript; text, thought segments and grammar-constrained function
 * calls stream out as the usual events. Failures are events like every other
 * adapter's: a bad file or a missing dependency is `bad_request`, a prompt
 * over the context window is `overflow` (so compaction recovers), an abort
 * stops between two tokens.
 */
export const adapter: ApiAdapter = {
	stream(model: Model, context: NormalizedContext, options: AdapterOptions) {
		return runAdapterStream(model, options, async ({ writer, signal, touch }) => {
			const loaded = await acquireModel(model);
			if (signal.aborted) return;
			await loaded.exclusive(() => generate(loaded, model, context, options, writer, signal, touch));
		});
	},
};

async function generate(
	loaded: LoadedLlamaModel,
	model: Model,
	context: NormalizedContext,
	options: AdapterOptions,
	writer: AssistantStreamWriter,
	signal: AbortSignal,
	touch: (bytes?: number) => void,
): Promise<void> {
	if (signal.aborted) return;
	const input = toLlamaChatInput(context.messages, model);
	const { chat, contextSize } = loaded;
	const promptTokens = countPromptTokens(loaded, input.history, input.functions);
	if (promptTokens >= contextSize) {
		// node-llama-cpp would silently drop old messages to make room; pi compacts instead.
		throw new ProviderFault(
			`The prompt is ${promptTokens} tokens; it exceeds the context window of ${contextSize} tokens (${loaded.path})`,
			{ kind: "overflow", code: "context_length_exceeded", retryable: false },
		);
	}
	const room = contextSize - promptTokens;
	let payload: LlamaCppPayload = { ...input, maxTokens: Math.min(options.maxTokens ?? model.maxTokens ?? room, room) };
	if (options.onPayload) {
		const replaced = await options.onPayload(payload, model);
		if (replaced !== undefined) payload = replaced as LlamaCppPayload;
	}

	const meter = chat.sequence.tokenMeter;
	const inputBefore = meter.usedInputTokens;
	const outputBefore = meter.usedOutputTokens;
	const blocks = new BlockTracker(writer);
	writer.start();

	const onResponseChunk = (chunk: LlamaChatResponseChunk) => {
		touch(chunk.text.length);
		if (chunk.type === "segment" && chunk.segmentType === "thought")
			blocks.thinking(chunk.text, chunk.segmentEndTime !== undefined);
		else blocks.text(chunk.text);
	};
	const onFunctionCallParamsChunk = (chunk: LlamaChatResponseFunctionCallParamsChunk) => {
		touch(chunk.paramsChunk.length);
		blocks.toolCall(chunk.callIndex, chunk.functionName, chunk.paramsChunk, chunk.done);
	};
	const level = options.reasoning;
	const thoughtTokens = !model.reasoning
		? undefined
		: !level || level === "off"
			? 0
			: level === "xhigh" || level === "high"
				? Number.POSITIVE_INFINITY
				: thinkingBudget(level, options.thinkingBudgets);

	const common = {
		signal,
		stopOnAbortSignal: true,
		maxTokens: payload.maxTokens,
		onResponseChunk,
		...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
		...(thoughtTokens !== undefined ? { budgets: { thoughtTokens } } : {}),
	};
	const response = payload.functions
		? await chat.generateResponse(payload.history, {
				...common,
				functions: payload.functions,
				documentFunctionParams: true,
				onFunctionCallParamsChunk,
			})
		: await chat.generateResponse(payload.history, common);

	const evaluated = Math.max(0, Math.min(promptTokens, meter.usedInputTokens - inputBefore));
	writer.setUsage({
		input: evaluated,
		cacheRead: promptTokens - evaluated,
		output: Math.max(0, meter.usedOutputTokens - outputBefore),
	});
	const stop = response.metadata.stopReason;
	if (stop === "abort" || signal.aborted) return; // reported as aborted by runAdapterStream
	// Calls whose parameters were not streamed (no parameters at all) still become tool calls.
	for (const [index, call] of (response.functionCalls ?? []).entries())
		blocks.completeCall(index, call.functionName, call.params);
	writer.setRawStopReason(stop);
	if (response.functionCalls && response.functionCalls.length > 0) writer.finish("toolUse");
	else if (stop === "maxTokens") writer.finish("length");
	else writer.finish("stop");
}

/** The rendered prompt's length in tokens, from the model's own tokenizer. */
function countPromptTokens(
	loaded: LoadedLlamaModel,
	history: ChatHistoryItem[],
	functions?: ChatModelFunctions,
): number {
	const state = loaded.chat.chatWrapper.generateContextState({
		chatHistory: history,
		availableFunctions: functions,
		documentFunctionParams: true,
	});
	return state.contextText.tokenize(loaded.model.tokenizer).length;
}

/** Keeps at most one text/thinking block open and maps function-call indices to tool-call blocks. */
class BlockTracker {
	private open: { kind: "text" | "thinking"; index: number } | undefined;
	private readonly calls = new Map<number, { index: number; done: boolean }>();
	private callCount = 0;

	constructor(private readonly writer: AssistantStreamWriter) {}

	text(delta: string): void {
		if (delta === "") return;
		this.ensure("text");
		if (this.open) this.writer.appendText(this.open.index, delta);
	}

	thinking(delta: string, ended: boolean): void {
		if (delta !== "") {
			this.ensure("thinking");
			if (this.open) this.writer.appendThinking(this.open.index, delta);
		}
		if (ended) this.close();
	}

	toolCall(callIndex: number, name: string, delta: string, done: boolean): void {
		let call = this.calls.get(callIndex);
		if (!call) {
			this.close();
			call = { index: this.writer.beginToolCall(newToolCallId(++this.callCount), name), done: false };
			this.calls.set(callIndex, call);
		}
		if (delta !== "") this.writer.appendToolArguments(call.index, delta);
		if (done && !call.done) {
			call.done = true;
			this.writer.endBlock(call.index);
		}
	}

	/** Emits a whole call that was not streamed (or closes one that was). */
	completeCall(callIndex: number, name: string, params: unknown): void {
		const call = this.calls.get(callIndex);
		if (call?.done) return;
		if (!call) this.toolCall(callIndex, name, params === undefined ? "" : JSON.stringify(params), true);
		else this.toolCall(callIndex, name, "", true);
	}

	private ensure(kind: "text" | "thinking"): void {
		if (this.open?.kind === kind) return;
		this.close();
		const index = kind === "text" ? this.writer.beginText() : this.writer.beginThinking();
		this.open = { kind, index };
	}

	private close(): void {
		if (this.open) this.writer.endBlock(this.open.index);
		this.open = undefined;
	}
}

function newToolCallId(n: number): string {
	return `call_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}_${n}`;
}
