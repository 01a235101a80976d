// The session's event listeners: called in order and awaited one by one (a
// returned promise holds back the next listener and event: rpc back-pressure);
// a listener that throws breaks neither the run nor the other listeners.
import type { AgentSessionEvent, AgentSessionListener } from "./events.js";

export class SessionListeners {
	private list: AgentSessionListener[] = [];

	/** Adds a listener; returns the function that removes it. */
	add(listener: AgentSessionListener): () => void {
		this.list = [...this.list, listener];
		return () => {
			this.list = this.list.filter((l) => l !== listener);
		};
	}

	readonly emit = async (event: AgentSessionEvent): Promise<void> => {
		for (const listener of this.list) {
			try {
				// Only a returned promise is awaited: a synchronous listener does not delay the ones after it.
				const pending = listener(event);
				if (pending) await pending;
			} catch {
				// A failing listener must not break the run or the other listeners.
			}
		}
	};

	clear(): void {
		this.list = [];
	}
}
