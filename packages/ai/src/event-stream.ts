import type { AssistantMessage, AssistantMessageEvent, Context, Model, StreamOptions } from "./types.js";

/**
 * A push-based async-iterable queue of events that also resolves a final
 * result. Producers `push()` events and `end()`; consumers iterate and/or await
 * `result()`. Iteration never throws: failures are delivered as events.
 */
export class EventStream<TEvent, TResult> implements AsyncIterable<TEvent> {
	private readonly queue: TEvent[] = [];
	private readonly waiting: ((value: IteratorResult<TEvent>) => void)[] = [];
	private finished = false;
	private resolveResult!: (value: TResult) => void;
	private readonly resultPromise: Promise<TResult>;

	constructor(
		private readonly isTerminal: (event: TEvent) => boolean,
		private readonly extractResult: (event: TEvent) => TResult,
	) {
		this.resultPromise = new Promise((resolve) => {
			this.resolveResult = resolve;
		});
	}

	/** Delivers an event; a terminal event also settles `result()` and ends the stream. */
	push(event: TEvent): void {
		if (this.finished) return;
		if (this.isTerminal(event)) {
			this.finished = true;
			this.resolveResult(this.extractResult(event));
		}
		const waiter = this.waiting.shift();
		if (waiter) waiter({ value: event, done: false });
		else this.queue.push(event);
		if (this.finished) this.flushWaiters();
	}

	/** Ends the stream without a terminal event (only for streams whose producer settles `result` itself). */
	end(result?: TResult): void {
		if (!this.finished && result !== undefined) this.resolveResult(result);
		this.finished = true;
		this.flushWaiters();
	}

	get isFinished(): boolean {
		return this.finished;
	}

	result(): Promise<TResult> {
		return this.resultPromise;
	}

	private flushWaiters(): void {
		if (this.queue.length > 0) return;
		for (const waiter of this.waiting.splice(0)) waiter({ value: undefined, done: true });
	}

	[Symbol.asyncIterator](): AsyncIterator<TEvent> {
		return {
			next: () => {
				const event = this.queue.shift();
				if (event !== undefined) {
					if (this.finished && this.queue.length === 0) this.flushWaiters();
					return Promise.resolve({ value: event, done: false });
				}
				if (this.finished) return Promise.resolve({ value: undefined, done: true });
				return new Promise((resolve) => this.waiting.push(resolve));
			},
			return: () => Promise.resolve({ value: undefined, done: true }),
		};
	}
}

/** The stream of one LLM response: exactly one `done` or `error` ends it. */
export class AssistantMessageEventStream extends EventStream<AssistantMessageEvent, AssistantMessage> {
	constructor() {
		super(
			(event) => event.type === "done" || event.type === "error",
			(event) => {
				if (event.type === "done") return event.message;
				if (event.type === "error") return event.error;
				throw new Error("not a terminal event");
			},
		);
	}
}

/** Any function that streams one response; adapters, proxies and test fakes all have this shape. */
export type StreamFunction = (model: Model, context: Context, options?: StreamOptions) => AssistantMessageEventStream;
