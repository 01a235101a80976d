// The session's side of a run's actionable boundaries (boundary.ts holds the
// pure preview/validate/commit steps): agent-core's `finishTurn` becomes the
// `turn_end` boundary and the recovery's last step the `agent_before_settle`
// boundary. Each offers the hooks an empty proposal, commits what they
// propose (or reports why it was rejected) and says whether one more request
// follows. It remembers the entry id of each recorded message, so `turn_end`
// can name the entries of its turn, and how the last reply ended.
import type { Agent, AgentMessage, AgentTurnContext, AgentTurnDecision } from "@pi/agent-core";
import type { AgentActivityOutcome, SessionBoundaryDraft } from "../extensions/events.js";
import type { SessionLifecycleHooks } from "../extensions/session-hooks.js";
import type { SessionManager } from "../session/session-manager.js";
import { commitDrafts, previewBoundary, validateDrafts } from "./boundary.js";
import type { TranscriptSync } from "./transcript.js";

export interface RunBoundariesOptions {
	agent: Agent;
	sessionManager: SessionManager;
	transcript: TranscriptSync;
	getHooks: () => SessionLifecycleHooks;
}

const CANNOT_CONTINUE = "asked to continue, but the context ends with an answer";

export class RunBoundaries {
	/** Session entry of each recorded message (turn_end names the entries of its turn). */
	private readonly entryIds = new WeakMap<object, string>();
	/** How the last low-level turn ended (agent_before_settle reports it). */
	private lastOutcome: AgentActivityOutcome = "completed";

	constructor(private readonly o: RunBoundariesOptions) {}

	/** A message was recorded as entry `id` (`original` is what the agent produced, `message` what was stored). */
	recorded(original: object, message: object, id: string): void {
		this.entryIds.set(original, id);
		this.entryIds.set(message, id);
	}

	/** An assistant reply ended with this stop reason. */
	replyEnded(stopReason: string | undefined): void {
		this.lastOutcome = outcomeOf(stopReason);
	}

	private pendingMessages(): AgentMessage[] {
		const q = this.o.agent.getQueuedMessages();
		return [...q.steering, ...q.followUp] as AgentMessage[];
	}

	private preview = (entries: SessionBoundaryDraft[]) =>
		previewBoundary(this.o.sessionManager, entries, this.pendingMessages());

	/** Validates and appends a boundary's drafts; returns false when the proposal was rejected. */
	private commit(event: string, entries: SessionBoundaryDraft[]): boolean {
		if (entries.length === 0) return true;
		const problem = validateDrafts(this.o.sessionManager, entries);
		if (problem) {
			this.o.getHooks().reportError?.(event, `rejected the proposed entries: ${problem}`);
			return false;
		}
		commitDrafts(this.o.sessionManager, entries);
		this.o.transcript.refresh();
		return true;
	}

	/** agent-core's finishTurn: the `turn_end` boundary, after the turn's messages are recorded. */
	finishTurn = async (turn: AgentTurnContext): Promise<AgentTurnDecision | undefined> => {
		const hook = this.o.getHooks().turnEnd;
		if (!hook) return undefined;
		const messageEntryId = this.entryIds.get(turn.message);
		if (!messageEntryId) return undefined;
		const stop = turn.message.stopReason;
		const decision = await hook(
			{
				message: turn.message,
				toolResults: turn.toolResults,
				messageEntryId,
				toolResultEntryIds: turn.toolResults.flatMap((r) => this.entryIds.get(r) ?? []),
				outcome: outcomeOf(stop),
			},
			{ entries: [], continue: false },
			this.preview,
		);
		const committed = this.commit("turn_end", decision.entries);
		// Error and aborted responses end the run whatever was asked; a continuation needs something to answer.
		if (!committed || !decision.continue || stop === "error" || stop === "aborted") return undefined;
		if (!this.preview([]).canContinue) {
			this.o.getHooks().reportError?.("turn_end", CANNOT_CONTINUE);
			return undefined;
		}
		return { action: "continue" };
	};

	/** The `agent_before_settle` boundary; true when one more run was asked for and can start. */
	beforeSettle = async (aborted: boolean): Promise<boolean> => {
		const hook = this.o.getHooks().beforeSettle;
		if (!hook || aborted) return false;
		const decision = await hook(this.lastOutcome, { entries: [], continue: false }, this.preview);
		const committed = this.commit("agent_before_settle", decision.entries);
		if (!committed || !decision.continue) return false;
		if (!this.preview([]).canContinue) {
			this.o.getHooks().reportError?.("agent_before_settle", CANNOT_CONTINUE);
			return false;
		}
		return true;
	};
}

function outcomeOf(stopReason: string | undefined): AgentActivityOutcome {
	return stopReason === "aborted" ? "aborted" : stopReason === "error" ? "error" : "completed";
}
