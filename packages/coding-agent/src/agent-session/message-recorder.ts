// Every message the agent ends goes into the session before any listener of
// the session hears of it: a tool result first takes the record of the calls
// it made to other tools, a `message_end` hook may replace the message (the
// replacement is what is stored and announced), the append is synced (closing
// the prompt's sync hold; entries the hooks appended share that one sync and
// are announced after it, before the message), and the entry id is remembered
// for `turn_end`.
// A failed write stops the run: nothing may be announced that is not
// recorded. The cause is announced first (`session_write_failed`, naming
// file and errno) and kept as the run's failure, which the prompt rethrows.
import type { Agent, AgentEvent, AgentMessage } from "@pi/agent-core";
import { sumUsage } from "@pi/ai";
import type { SessionLifecycleHooks } from "../extensions/session-hooks.js";
import type { SessionManager } from "../session/session-manager.js";
import type { DeferredSync, EntryBatch } from "./deferred-sync.js";
import type { AgentSessionEvent } from "./events.js";
import type { NestedToolRunner } from "./nested-tools.js";
import type { RunBoundaries } from "./run-boundaries.js";
import type { TranscriptSync } from "./transcript.js";

type MessageEndEvent = Extract<AgentEvent, { type: "message_end" }>;

export interface MessageRecorderOptions {
	agent: Agent;
	sessionManager: SessionManager;
	nestedTools: NestedToolRunner;
	transcript: TranscriptSync;
	deferredSync: DeferredSync;
	/** The message's sync hold: entries its message_end hooks append share its fdatasync. */
	batch: EntryBatch;
	boundaries: RunBoundaries;
	getHooks: () => SessionLifecycleHooks;
	emit: (event: AgentSessionEvent) => Promise<void>;
}

export class MessageRecorder {
	/** The first failed write since `reset()` (the prompt throws it once the run has ended). */
	failure: Error | undefined;

	constructor(private readonly o: MessageRecorderOptions) {}

	/** A new run starts: earlier failures are forgotten. */
	reset(): void {
		this.failure = undefined;
	}

	/** Keeps the first failure of the run. */
	fail(error: Error): void {
		this.failure ??= error;
	}

	/**
	 * Records a `message_end`; returns the event to announce (carrying the stored
	 * message), or undefined when the write failed (the run is then aborted).
	 */
	async record(event: MessageEndEvent): Promise<MessageEndEvent | undefined> {
		if (event.message.role === "toolResult") {
			// Calls this tool made to other tools are recorded on its result (never their results).
			const nested = this.o.nestedTools.take(event.message.toolCallId);
			if (nested) Object.assign(event.message, { nestedCalls: nested });
			const nestedUsage = this.o.nestedTools.takeUsage(event.message.toolCallId);
			if (nestedUsage) event.message.usage = sumUsage(event.message.usage, nestedUsage);
		}
		const original = event.message;
		// What the hooks append shares the message's fdatasync; their announcements wait for it.
		const earlier = this.o.batch.open();
		if (earlier.length > 0) await this.announce(earlier);
		let message: AgentMessage;
		try {
			message = (await this.o.getHooks().messageEnd?.(original)) ?? original;
		} catch (error) {
			await this.announce(this.o.batch.closeQuietly());
			throw error;
		}
		try {
			const id = this.o.sessionManager.appendMessage(message as Parameters<SessionManager["appendMessage"]>[0]);
			this.o.deferredSync.close();
			// One fdatasync for the hooks' entries and the message, before any of them is announced.
			const held = this.o.batch.close();
			this.o.boundaries.recorded(original, message, id);
			if (held.length > 0) await this.announce(held);
		} catch (error) {
			// What the hooks appended is announced only if it reached the disk.
			await this.announce(this.o.batch.closeQuietly());
			// Nothing may be announced that is not recorded: stop the run, and say why first, so
			// json/rpc clients see the cause (file, errno) and not only an aborted run.
			if (!this.failure) {
				this.failure = error as Error;
				await this.o.emit(sessionWriteFailed(error, this.o.sessionManager.getSessionFile()));
			}
			this.o.agent.abort();
			return undefined;
		}
		if (message === original) return event;
		// The recorded message is the replacement: the Agent's copy follows, listeners hear of it.
		this.o.transcript.refresh();
		return { ...event, message };
	}

	/** Announces held `entry_appended` events in order (after their sync). */
	private async announce(events: AgentSessionEvent[]): Promise<void> {
		for (const event of events) await this.o.emit(event);
	}
}

function sessionWriteFailed(error: unknown, fallbackFile: string | undefined): AgentSessionEvent {
	const fault = error as { sessionFile?: string; cause?: { code?: unknown }; message?: string };
	const code = typeof fault.cause?.code === "string" ? fault.cause.code : undefined;
	return {
		type: "session_write_failed",
		file: fault.sessionFile ?? fallbackFile,
		...(code ? { code } : {}),
		errorMessage: fault.message ?? String(error),
	};
}
