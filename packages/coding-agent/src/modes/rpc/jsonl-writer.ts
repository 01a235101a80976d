// The protocol's only way to stdout. Records are written in call order; when
// the stream's buffer is full (write() returned false) `write` hands back a
// promise that settles on 'drain', and the session's event listener awaits it,
// so a slow reader slows the agent down instead of losing events or growing
// memory without bound.
import { serializeJsonLine } from "./jsonl.js";

export interface JsonlSink {
	/** Writes raw text; false means "buffer full, wait for drain". */
	write(text: string): boolean;
	on(event: "drain" | "close" | "error", listener: () => void): unknown;
}

export class JsonlWriter {
	private drained: Promise<void> | undefined;
	private release: (() => void) | undefined;
	private closed = false;
	private readonly closeListeners: (() => void)[] = [];

	constructor(private readonly sink: JsonlSink) {
		// One listener each for the writer's life (no per-wait listeners to leak).
		sink.on("drain", () => this.wake());
		sink.on("close", () => this.markClosed());
		sink.on("error", () => this.markClosed());
	}

	/** True once the stream closed or failed (e.g. the reader went away). */
	get isClosed(): boolean {
		return this.closed;
	}

	/** Called once when the stream closes or fails. */
	onClose(listener: () => void): void {
		if (this.closed) listener();
		else this.closeListeners.push(listener);
	}

	/** Writes one record; returns a promise while the stream wants the writer to wait. */
	write(value: unknown): Promise<void> | undefined {
		if (this.closed) return undefined;
		let ok: boolean;
		try {
			ok = this.sink.write(serializeJsonLine(value));
		} catch {
			// A synchronous failure (destroyed stream) counts as closed.
			this.markClosed();
			return undefined;
		}
		if (ok) return this.drained;
		this.drained ??= new Promise<void>((resolve) => {
			this.release = resolve;
		});
		return this.drained;
	}

	/** Settles once a full buffer has drained (at once when it is not full or the stream is gone). */
	whenDrained(): Promise<void> {
		return this.drained ?? Promise.resolve();
	}

	private wake(): void {
		const release = this.release;
		this.drained = undefined;
		this.release = undefined;
		release?.();
	}

	private markClosed(): void {
		if (this.closed) return;
		this.closed = true;
		this.wake();
		for (const listener of this.closeListeners) listener();
	}
}
