// `pi.events`: a process-wide bus extensions use to talk to each other. A
// listener that throws is reported through `onError` and never reaches the
// emitter or the other listeners.

export type EventBusListener = (data: unknown) => void | Promise<void>;

export interface EventBus {
	/** Returns the function that removes this listener. */
	on(channel: string, listener: EventBusListener): () => void;
	emit(channel: string, data?: unknown): void;
}

export class ExtensionEventBus implements EventBus {
	private readonly channels = new Map<string, EventBusListener[]>();

	constructor(private readonly onError: (channel: string, error: unknown) => void = () => {}) {}

	on(channel: string, listener: EventBusListener): () => void {
		this.channels.set(channel, [...(this.channels.get(channel) ?? []), listener]);
		return () => {
			this.channels.set(
				channel,
				(this.channels.get(channel) ?? []).filter((l) => l !== listener),
			);
		};
	}

	emit(channel: string, data?: unknown): void {
		for (const listener of this.channels.get(channel) ?? []) {
			try {
				const result = listener(data);
				if (result instanceof Promise) result.catch((error) => this.onError(channel, error));
			} catch (error) {
				this.onError(channel, error);
			}
		}
	}

	clear(): void {
		this.channels.clear();
	}
}
