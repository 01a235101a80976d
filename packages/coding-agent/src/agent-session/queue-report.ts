// The Agent's steering and follow-up queues as texts, and the
// `queue_update` event: emitted only when what is queued changed since the
// last report (UIs show the queue; a repeated identical event is noise).
import type { Agent } from "@pi/agent-core";
import { messageText } from "../messages.js";
import type { AgentSessionEvent } from "./events.js";

export interface QueueTexts {
	steering: string[];
	followUp: string[];
}

export class QueueReport {
	private last: QueueTexts = { steering: [], followUp: [] };

	constructor(
		private readonly agent: Agent,
		private readonly emit: (event: AgentSessionEvent) => Promise<void>,
	) {}

	/** What is queued now. */
	texts(): QueueTexts {
		const q = this.agent.getQueuedMessages();
		return { steering: q.steering.map(messageText), followUp: q.followUp.map(messageText) };
	}

	/** Emits `queue_update` when the queues differ from the last report. */
	async emitIfChanged(): Promise<void> {
		const next = this.texts();
		if (JSON.stringify(next) === JSON.stringify(this.last)) return;
		this.last = next;
		await this.emit({ type: "queue_update", ...next });
	}

	/** Empties both queues and returns what was in them. */
	async clear(): Promise<QueueTexts> {
		const out = this.texts();
		this.agent.clearAllQueues();
		await this.emitIfChanged();
		return out;
	}

	/** The session moved elsewhere: nothing has been reported for it yet. */
	reset(): void {
		this.last = { steering: [], followUp: [] };
	}
}
