// What happens between the end of a low-level agent run and the moment the
// session is settled: retry transient failures (after a backoff), recover
// from a context overflow (compact, then retry once), compact when the
// context crossed the threshold, and deliver messages queued meanwhile.
// `agent_settled` is emitted when none of that is left; AgentSession's
// prompt() resolves after it.
//
// A retried or overflowed reply is never deleted: it stays in the session
// file, and a context_edit omits it from the projection, so the next request
// (projected afresh) does not carry it.
import type { Agent, AgentLoopTurnUpdate, AgentMessage, AgentTurnContext } from "@pi/agent-core";
import { type AssistantMessage, isContextOverflow, type Model } from "@pi/ai";
import type { SessionManager } from "../../session/session-manager.js";
import { isRetryableError } from "../backoff/retry-policy.js";
import type { Compactor } from "../compaction/compactor.js";
import type { AgentSessionEvent } from "../events.js";
import type { AutoRetry } from "../retry/auto-retry.js";

export const OVERFLOW_RECOVERY_FAILED =
	"Context overflow recovery failed: the request was still too large after compacting once and retrying. Compact with fewer kept tokens, start a new session, or switch to a model with a larger context window.";

export interface RecoveryHost {
	readonly agent: Agent;
	readonly sessionManager: SessionManager;
	getModel(): Model | undefined;
	/**
	 * The model whose limits judge a reply: the selected one, or for a virtual
	 * selection the physical model the request was routed to. Default getModel().
	 */
	replyModel?(reply: AssistantMessage): Model | undefined;
	emit(event: AgentSessionEvent): Promise<void> | void;
	/** The Agent's transcript is a cache of the projection; realigns it after the session changed. */
	refreshTranscript(): void;
	/**
	 * The last boundary before `agent_settled` (`agent_before_settle`): may
	 * record entries; true asks for one more run. Not called after an abort.
	 */
	beforeSettle?(aborted: boolean): Promise<boolean>;
}

function lastAssistant(messages: readonly AgentMessage[]): AssistantMessage | undefined {
	const last = messages[messages.length - 1];
	return last?.role === "assistant" ? last : undefined;
}

export class RunRecovery {
	private settling: Promise<void> | undefined;
	private abortRequested = false;
	private overflowError: string | undefined;
	private preparing = false;
	private announcing = false;
	private readonly abortController = { current: new AbortController() };

	constructor(
		private readonly host: RecoveryHost,
		private readonly compactor: Compactor,
		readonly retry: AutoRetry,
	) {}

	/** True while a pre-prompt compaction runs, and from the end of a run until `agent_settled`. */
	get isSettling(): boolean {
		return this.preparing || this.settling !== undefined;
	}

	/** True while `agent_settled` handlers run: the run is over, only its announcement is not. */
	get isAnnouncingSettled(): boolean {
		return this.announcing;
	}

	/** Resolves once the current settling (if any) is over and `agent_settled` handlers have returned. */
	whenSettled(): Promise<void> {
		return this.settling ?? Promise.resolve();
	}

	/**
	 * Why the last prompt ended in failure, when recovery knows better than the
	 * provider's error text (overflow recovery failed, a retry chain ended,
	 * a server delay over the cap). Undefined after success.
	 */
	get settledError(): string | undefined {
		return this.overflowError ?? this.retry.finalError;
	}

	/** Resolves when the current settle phase (if any) is over. */
	idle(): Promise<void> {
		return this.settling ?? Promise.resolve();
	}

	/** Stops a retry wait or a recovery compaction; the session then settles as aborted. */
	abort(): void {
		this.abortRequested = true;
		this.abortController.current.abort();
		this.retry.abort();
		this.compactor.abort();
	}

	/** Call before a new prompt starts its run: a fresh retry chain, and compaction if over the threshold. */
	async beforePrompt(): Promise<void> {
		this.abortRequested = false;
		this.abortController.current = new AbortController();
		this.overflowError = undefined;
		this.retry.reset();
		if (!this.compactor.needsCompaction()) return;
		this.preparing = true;
		try {
			await this.compactor.run("threshold", { signal: this.abortController.current.signal });
		} finally {
			this.preparing = false;
		}
	}

	/**
	 * For `agent.prepareNextTurn`: between the turns of a run, compact when the
	 * context crossed the threshold, so the next request is already smaller.
	 * The next request is projected afresh, so nothing needs to be returned.
	 */
	readonly prepareNextTurn = async (
		turn: AgentTurnContext,
		signal: AbortSignal,
	): Promise<AgentLoopTurnUpdate | undefined> => {
		if (signal.aborted || turn.message.stopReason === "aborted") return undefined;
		if (this.compactor.needsCompaction()) await this.compactor.run("threshold", { signal });
		return undefined;
	};

	/**
	 * Every finished assistant reply passes here. A retried request that
	 * answered ends its chain in success at once — not at the end of the run,
	 * which may go on for many tool calls and turns after it.
	 */
	async onReplyEnd(message: AssistantMessage): Promise<void> {
		if (message.stopReason === "error" || message.stopReason === "aborted") return;
		await this.retry.finish(true);
	}

	/** Runs after `agent.prompt()`/`continue()` resolved; resolves after `agent_settled` was emitted. */
	settle(): Promise<void> {
		if (this.settling) return this.settling;
		const run = this.settleLoop().finally(() => {
			this.settling = undefined;
		});
		this.settling = run;
		return run;
	}

	private async settleLoop(): Promise<void> {
		let aborted = false;
		let overflowRetried = false;
		const signal = this.abortController.current.signal;
		for (;;) {
			const last = lastAssistant(this.host.agent.state.messages);
			const next = last ? await this.recover(last, overflowRetried, signal) : "done";
			if (next === "overflow-retry") overflowRetried = true;
			if (next === "aborted") {
				aborted = true;
				break;
			}
			if (next === "retry" || next === "overflow-retry") {
				if (!(await this.continueRun())) break;
				continue;
			}
			// Messages queued while the run ended (or during recovery) start another run.
			const ok = last === undefined || (last.stopReason !== "error" && last.stopReason !== "aborted");
			if (ok && !this.abortRequested && this.host.agent.hasQueuedMessages()) {
				if (!(await this.continueRun())) break;
				continue;
			}
			aborted = last?.stopReason === "aborted" || this.abortRequested;
			if (!aborted && this.host.beforeSettle && (await this.host.beforeSettle(false)) && !this.abortRequested) {
				// An extension asked for one more run (its entries are already recorded).
				if (!(await this.continueRun())) break;
				continue;
			}
			break;
		}
		this.announcing = true;
		try {
			await this.host.emit({ type: "agent_settled", aborted });
		} finally {
			this.announcing = false;
		}
	}

	/** Decides what follows a run that ended with `last`, doing the waiting/compacting it needs. */
	private async recover(
		last: AssistantMessage,
		overflowRetried: boolean,
		signal: AbortSignal,
	): Promise<"done" | "retry" | "overflow-retry" | "aborted"> {
		if (last.stopReason === "aborted" || this.abortRequested) {
			await this.retry.finish(false, last.errorMessage ?? "Request was aborted");
			return "aborted";
		}
		const model = this.host.replyModel?.(last) ?? this.host.getModel();
		const window = model?.contextWindow;
		const sameModel = model !== undefined && last.provider === model.provider && last.model === model.id;
		if (sameModel && isContextOverflow(last, window)) {
			await this.retry.finish(false, last.errorMessage ?? "Context overflow");
			if (overflowRetried) {
				this.overflowError = OVERFLOW_RECOVERY_FAILED;
				await this.host.emit({
					type: "compaction_end",
					reason: "overflow",
					result: undefined,
					aborted: false,
					willRetry: false,
					errorMessage: OVERFLOW_RECOVERY_FAILED,
				});
				return "done";
			}
			this.omitReply(last);
			const outcome = await this.compactor.run("overflow", { willRetry: true, signal });
			this.host.refreshTranscript();
			if (outcome.result) return "overflow-retry";
			return outcome.aborted ? "aborted" : "done";
		}
		if (last.stopReason === "error") {
			if (this.retry.enabled && isRetryableError(last, window)) {
				if (await this.retry.schedule(last, signal)) {
					this.omitReply(last);
					return "retry";
				}
				return this.abortRequested ? "aborted" : "done";
			}
			await this.retry.finish(false, last.errorMessage ?? "Request failed");
			return "done";
		}
		await this.retry.finish(true);
		if (this.compactor.needsCompaction()) {
			const outcome = await this.compactor.run("threshold", { signal });
			if (outcome.aborted) return "aborted";
		}
		return "done";
	}

	/** Omits a failed reply from the projection (the raw record stays) and refreshes the Agent's transcript. */
	private omitReply(message: AssistantMessage): void {
		const sm = this.host.sessionManager;
		// Walk up from the leaf: the reply is the newest assistant entry (only a few steps away).
		let id = sm.getLeafId();
		while (id !== null) {
			const entry = sm.getEntry(id);
			if (!entry) break;
			if (entry.type === "message" && entry.message.role === "assistant") {
				const stored = entry.message;
				if (
					stored === message ||
					(stored.timestamp === message.timestamp && stored.stopReason === message.stopReason)
				) {
					sm.appendContextEdit(entry.id, null);
				}
				break;
			}
			id = entry.parentId;
		}
		this.host.refreshTranscript();
	}

	private async continueRun(): Promise<boolean> {
		if (this.abortRequested) return false;
		try {
			await this.host.agent.continue();
			return true;
		} catch {
			// Nothing to continue from (e.g. the projection ends with an assistant message).
			return false;
		}
	}
}
