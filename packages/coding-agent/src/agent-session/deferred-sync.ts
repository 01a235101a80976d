// The prompt's sync hold. A prompt appends several entries before its run
// (the system prompt, entries extensions append in `before_agent_start`, the
// user message); each is written at once, but they are fdatasync'ed together,
// once, when the first message is recorded. Nothing may be announced that is
// not durable, so the hold also closes before any event that could announce
// an entry; the events listed below announce none and may pass while it is open.
import type { SessionManager } from "../session/session-manager.js";
import type { AgentSessionEvent } from "./events.js";

/** Agent events that announce no session entry: they may pass while a prompt's appends wait for their one sync. */
const ANNOUNCES_NO_ENTRY: ReadonlySet<string> = new Set([
	"agent_start",
	"turn_start",
	"message_start",
	"message_update",
]);

export class DeferredSync {
	private release: (() => void) | undefined;

	constructor(private readonly sessionManager: Pick<SessionManager, "deferSync">) {}

	/** Opens the hold (closing an earlier one first). */
	open(): void {
		this.close();
		this.release = this.sessionManager.deferSync();
	}

	/** Closes the hold: one fdatasync for what was appended under it (throws SessionWriteError). */
	close(): void {
		const release = this.release;
		this.release = undefined;
		release?.();
	}

	/** Called before an event is announced: one that could announce an entry closes the hold first. */
	beforeEvent(type: string): void {
		if (this.release && !ANNOUNCES_NO_ENTRY.has(type)) this.close();
	}

	/** The hold's end when a run ended before recording a message: a failed sync is returned, not thrown. */
	closeAfterRun(): Error | undefined {
		try {
			this.close();
			return undefined;
		} catch (error) {
			return error as Error;
		}
	}
}

/**
 * A message's sync hold. Entries the message's `message_end` hooks append (builtin:checkpoints
 * records the prompt's start snapshot there, just before the reply) are each written at once but
 * fdatasync'ed with the message, by one call once it is appended; their `entry_appended` events
 * are held until then and go out after that sync, before the message's `message_end` (the file's
 * order). Any other event announced while the batch is open closes it first.
 */
export class EntryBatch {
	private release: (() => void) | undefined;
	private held: AgentSessionEvent[] = [];

	constructor(private readonly sessionManager: Pick<SessionManager, "deferSync">) {}

	get isOpen(): boolean {
		return this.release !== undefined;
	}

	/** Opens the batch (closing an earlier one first). */
	open(): AgentSessionEvent[] {
		const earlier = this.isOpen ? this.closeQuietly() : [];
		this.release = this.sessionManager.deferSync();
		return earlier;
	}

	/** Holds an `entry_appended` while the batch is open (true); any other event is not held. */
	hold(event: AgentSessionEvent): boolean {
		if (!this.release || event.type !== "entry_appended") return false;
		this.held.push(event);
		return true;
	}

	/**
	 * One fdatasync for what was appended under the batch; returns the held events, now true to
	 * announce. A failed sync throws SessionWriteError and drops them: they are not durable.
	 */
	close(): AgentSessionEvent[] {
		const release = this.release;
		const held = this.held;
		this.release = undefined;
		this.held = [];
		release?.();
		return held;
	}

	/** `close`, with a failed sync returning nothing to announce instead of throwing. */
	closeQuietly(): AgentSessionEvent[] {
		try {
			return this.close();
		} catch {
			return [];
		}
	}
}
