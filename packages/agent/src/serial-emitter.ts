import type { AgentEvent, AgentEventSink } from "./types.js";

/**
 * Delivers events to a sink one at a time, in order. A sink that returns a
 * promise holds back later events until it settles; a sink that throws or
 * rejects is reported to `onError` and never breaks the caller. Synchronous
 * sinks cost no extra await.
 */
export class SerialEmitter {
	private tail: Promise<void> | undefined;

	constructor(
		private readonly sink: AgentEventSink,
		private readonly onError: (error: unknown, event: AgentEvent) => void = () => {},
	) {}

	/** Returns a promise only when delivery is (or is queued behind) asynchronous work. */
	emit(event: AgentEvent): Promise<void> | undefined {
		if (this.tail) return this.track(this.tail.then(() => this.deliver(event)));
		const pending = this.deliver(event);
		return pending ? this.track(pending) : undefined;
	}

	/** Settles when everything emitted so far was delivered. */
	idle(): Promise<void> {
		return this.tail ?? Promise.resolve();
	}

	private deliver(event: AgentEvent): Promise<void> | undefined {
		try {
			const result = this.sink(event);
			if (result && typeof result.then === "function") {
				return result.then(undefined, (error: unknown) => this.onError(error, event));
			}
		} catch (error) {
			this.onError(error, event);
		}
		return undefined;
	}

	private track(pending: Promise<void>): Promise<void> {
		this.tail = pending;
		void pending.then(() => {
			if (this.tail === pending) this.tail = undefined;
		});
		return pending;
	}
}
