// A scripted, in-process stream function for tests of the loop and the layers
// above it. Each call to `streamFn` takes the next scripted response and plays
// it through pi-ai's AssistantStreamWriter, so the event sequence is exactly
// what a real adapter would produce. Calls are recorded; a response can pause
// on a gate until the test releases it; aborts end the stream as a real
// adapter does (`error` with stopReason "aborted", partial content kept).
import {
	type AssistantMessageEventStream,
	AssistantStreamWriter,
	type Context,
	type Message,
	type Model,
	type ProviderErrorInfo,
	type StreamOptions,
	type Usage,
} from "@pi/ai";

/** A latch a scripted response can wait on. */
export interface Gate {
	readonly released: boolean;
	release(): void;
	readonly promise: Promise<void>;
}

export function gate(): Gate {
	let release!: () => void;
	const promise = new Promise<void>((resolve) => {
		release = resolve;
	});
	const g = {
		released: false,
		promise,
		release() {
			g.released = true;
			release();
		},
	};
	return g;
}

export type ScriptStep =
	| { kind: "text"; chunks: string[] }
	| { kind: "thinking"; chunks: string[]; signature?: string }
	| { kind: "toolCall"; id?: string; name: string; chunks: string[] }
	| { kind: "wait"; gate: Gate }
	| { kind: "usage"; usage: Partial<Omit<Usage, "cost">> };

export type ScriptEnd = { stopReason: "stop" | "length" | "toolUse" } | { error: string; info: ProviderErrorInfo };

export interface ScriptedReply {
	steps: ScriptStep[];
	end: ScriptEnd;
}

/** Full control: drive the writer yourself (it is failed for you if you return without ending it). */
export type ScriptedHandler = (call: StreamCall, writer: AssistantStreamWriter) => void | Promise<void>;

export type ScriptedResponse = ScriptedReply | ScriptedHandler;

/** What one call of the stream function was given. */
export interface StreamCall {
	index: number;
	model: Model;
	/** The context as sent; `messages` is a copy of the array taken at call time. */
	context: Context & { messages: Message[] };
	options: StreamOptions | undefined;
	signal: AbortSignal | undefined;
}

// -- builders ---------------------------------------------------------------

/** A text block, streamed in the given chunks (one chunk when a single string). */
export function text(...chunks: string[]): ScriptStep {
	return { kind: "text", chunks };
}

export function thinking(textOrChunks: string | string[], signature?: string): ScriptStep {
	return { kind: "thinking", chunks: Array.isArray(textOrChunks) ? textOrChunks : [textOrChunks], signature };
}

/**
 * A tool call. `args` as an object is streamed as its JSON in one chunk; as
 * string(s) it is the raw argument text, chunk by chunk (may be invalid JSON).
 */
export function toolCall(
	name: string,
	args: Record<string, unknown> | string | string[] = {},
	id?: string,
): ScriptStep {
	const chunks = typeof args === "string" ? [args] : Array.isArray(args) ? args : [JSON.stringify(args)];
	return { kind: "toolCall", id, name, chunks };
}

/** Pauses the response here until the gate is released (or the request aborted). */
export function wait(g: Gate): ScriptStep {
	return { kind: "wait", gate: g };
}

export function usage(u: Partial<Omit<Usage, "cost">>): ScriptStep {
	return { kind: "usage", usage: u };
}

/** A successful reply; the stop reason is "toolUse" when it holds a tool call, else "stop". */
export function reply(...steps: ScriptStep[]): ScriptedReply {
	const stopReason = steps.some((s) => s.kind === "toolCall") ? "toolUse" : "stop";
	return { steps, end: { stopReason } };
}

/** A reply cut at the output limit (stopReason "length"). */
export function cutReply(...steps: ScriptStep[]): ScriptedReply {
	return { steps, end: { stopReason: "length" } };
}

/** A reply that fails after the given steps (a provider error event). */
export function failedReply(
	message: string,
	info: ProviderErrorInfo = { kind: "server", status: 500, retryable: true },
	...steps: ScriptStep[]
): ScriptedReply {
	return { steps, end: { error: message, info } };
}

// -- the stream function ------------------------------------------------------

export interface ScriptedStreamOptions {
	/** Yield to the event loop (setImmediate) between events instead of a microtask. Default false. */
	macrotaskYield?: boolean;
}

export class ScriptedStream {
	readonly calls: StreamCall[] = [];
	private readonly queue: ScriptedResponse[] = [];
	private readonly callWaiters: { n: number; resolve: (call: StreamCall) => void }[] = [];
	private nextToolId = 1;

	constructor(private readonly options: ScriptedStreamOptions = {}) {}

	/** Adds responses, consumed one per call in order. */
	enqueue(...responses: ScriptedResponse[]): this {
		this.queue.push(...responses);
		return this;
	}

	/** Responses not consumed yet. */
	get pending(): number {
		return this.queue.length;
	}

	/** Resolves when the n-th call (1-based) has been made. */
	waitForCall(n: number): Promise<StreamCall> {
		const existing = this.calls[n - 1];
		if (existing) return Promise.resolve(existing);
		return new Promise((resolve) => this.callWaiters.push({ n, resolve }));
	}

	readonly streamFn = (model: Model, context: Context, options?: StreamOptions): AssistantMessageEventStream => {
		const call: StreamCall = {
			index: this.calls.length,
			model,
			context: { ...context, messages: context.messages.slice() },
			options,
			signal: options?.signal,
		};
		this.calls.push(call);
		for (const waiter of this.callWaiters.filter((w) => w.n === this.calls.length)) {
			this.callWaiters.splice(this.callWaiters.indexOf(waiter), 1);
			waiter.resolve(call);
		}
		const writer = new AssistantStreamWriter(model);
		const response = this.queue.shift();
		void this.play(call, writer, response);
		return writer.stream;
	};

	private async play(call: StreamCall, writer: AssistantStreamWriter, response: ScriptedResponse | undefined) {
		const signal = call.signal;
		const abort = () => writer.fail("Request was aborted", { kind: "aborted", retryable: false });
		signal?.addEventListener("abort", abort, { once: true });
		try {
			await this.yieldTurn();
			if (signal?.aborted) return abort();
			if (!response) {
				writer.fail("No scripted response left", { kind: "unknown", retryable: false });
				return;
			}
			if (typeof response === "function") {
				await response(call, writer);
				if (!writer.isDone)
					writer.fail("Scripted handler ended without finishing", { kind: "stream_cut", retryable: false });
				return;
			}
			writer.start();
			for (const step of response.steps) {
				if (writer.isDone) return;
				await this.playStep(step, writer, signal);
			}
			if (writer.isDone) return;
			if ("error" in response.end) writer.fail(response.end.error, response.end.info);
			else writer.finish(response.end.stopReason);
		} catch (error) {
			writer.fail(error instanceof Error ? error.message : String(error), { kind: "unknown", retryable: false });
		} finally {
			signal?.removeEventListener("abort", abort);
		}
	}

	private async playStep(step: ScriptStep, writer: AssistantStreamWriter, signal: AbortSignal | undefined) {
		switch (step.kind) {
			case "text": {
				const index = writer.beginText();
				for (const chunk of step.chunks) {
					await this.yieldTurn();
					if (writer.isDone) return;
					writer.appendText(index, chunk);
				}
				writer.endBlock(index);
				break;
			}
			case "thinking": {
				const index = writer.beginThinking(step.signature);
				for (const chunk of step.chunks) {
					await this.yieldTurn();
					if (writer.isDone) return;
					writer.appendThinking(index, chunk);
				}
				writer.endBlock(index);
				break;
			}
			case "toolCall": {
				const index = writer.beginToolCall(step.id ?? `call_${this.nextToolId++}`, step.name);
				for (const chunk of step.chunks) {
					await this.yieldTurn();
					if (writer.isDone) return;
					writer.appendToolArguments(index, chunk);
				}
				writer.endBlock(index);
				break;
			}
			case "wait":
				if (!step.gate.released) {
					await new Promise<void>((resolve) => {
						step.gate.promise.then(resolve);
						signal?.addEventListener("abort", () => resolve(), { once: true });
					});
				}
				break;
			case "usage":
				writer.setUsage(step.usage);
				break;
		}
		await this.yieldTurn();
	}

	private yieldTurn(): Promise<void> {
		return this.options.macrotaskYield ? new Promise((resolve) => setImmediate(resolve)) : Promise.resolve();
	}
}
