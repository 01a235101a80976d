import type { AgentMessage, QueueMode } from "./types.js";

/** A FIFO of queued messages drained one at a time or all at once. */
export class MessageQueue {
	private items: AgentMessage[] = [];

	constructor(public mode: QueueMode = "one-at-a-time") {}

	enqueue(message: AgentMessage): void {
		this.items.push(message);
	}

	/** Removes and returns what one drain point takes under the current mode. */
	drain(): AgentMessage[] {
		if (this.items.length === 0) return [];
		if (this.mode === "all") {
			const all = this.items;
			this.items = [];
			return all;
		}
		return this.items.splice(0, 1);
	}

	/** What `drain()` would return, without removing it. */
	peek(): AgentMessage[] {
		return this.mode === "all" ? this.items.slice() : this.items.slice(0, 1);
	}

	clear(): void {
		this.items = [];
	}

	get size(): number {
		return this.items.length;
	}

	/** Every queued message, oldest first. */
	list(): readonly AgentMessage[] {
		return this.items;
	}
}
