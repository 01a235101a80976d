// The compaction collaborator of AgentSession: knows when the context is
// over the threshold, runs a compaction (manual, threshold or overflow) with
// its events, lets extensions replace or cancel it, stores the result as a
// `compaction` entry (nothing is deleted from the file), and can be aborted.
import type { StreamFn } from "@pi/agent-core";
import type { Model, ThinkingLevel } from "@pi/ai";
import type { BranchSummarySettings, CompactionSettings } from "../../config/settings-schema.js";
import type { SessionLifecycleHooks } from "../../extensions/session-hooks.js";
import type { SessionManager } from "../../session/session-manager.js";
import type { CompactionEntry, SessionEntry } from "../../session/types.js";
import type { AgentSessionEvent, CompactionReason } from "../events.js";
import { type BranchSummaryOptions, type BranchSummaryResult, generateBranchSummary } from "./branch-summary.js";
import { type CompactionPreparation, prepareCompaction } from "./prepare.js";
import { type CompactionResult, compact, SummarizationAbortedError, type Summarizer } from "./summarize.js";
import {
	type ContextEstimate,
	estimateProjectedContextTokens,
	estimateTokens,
	shouldCompact,
} from "./token-estimate.js";

export interface CompactorHost {
	readonly sessionManager: SessionManager;
	getModel(): Model | undefined;
	/**
	 * The window the threshold is checked against; default the model's. A
	 * virtual selection's is the window of the model that answered last.
	 */
	getContextWindow?(): number;
	getThinkingLevel(): ThinkingLevel;
	getStreamFn(): StreamFn;
	getApiKey(provider: string): Promise<string | undefined> | string | undefined;
	getCompactionSettings(): CompactionSettings;
	getBranchSummarySettings(): BranchSummarySettings;
	getSessionId?(): string;
	/** Retry policy and timers for transient failures of summary requests. */
	getRetry?(): Summarizer["retry"];
	emit(event: AgentSessionEvent): Promise<void> | void;
	/** The projected context changed (compaction stored, leaf moved): refresh caches such as the Agent's transcript. */
	onContextChanged?(): void;
	/** Extension seams `session_before_compact` / `session_compact` (read at each compaction). */
	getHooks?(): Pick<SessionLifecycleHooks, "beforeCompact" | "afterCompact">;
}

export interface CompactionOutcome {
	result?: CompactionResult;
	aborted: boolean;
	errorMessage?: string;
}

export interface RunCompactionOptions {
	customInstructions?: string;
	/** Overflow recovery: the failed request is retried after this compaction. */
	willRetry?: boolean;
	/** Aborts with the caller (e.g. the run's signal between turns). */
	signal?: AbortSignal;
}

export class Compactor {
	private controller: AbortController | undefined;
	private branchController: AbortController | undefined;

	constructor(private readonly host: CompactorHost) {}

	get isCompacting(): boolean {
		return this.controller !== undefined || this.branchController !== undefined;
	}

	/** Context tokens of the active branch: last trustworthy usage plus estimates after it. */
	estimate(): ContextEstimate {
		return estimateProjectedContextTokens(this.host.sessionManager.buildSessionProjection());
	}

	/** True when auto-compaction is on and the context is above `contextWindow − reserveTokens`. */
	needsCompaction(): boolean {
		const model = this.host.getModel();
		if (!model) return false;
		const settings = this.host.getCompactionSettings();
		if (!settings.enabled) return false;
		return shouldCompact(this.estimate().tokens, this.host.getContextWindow?.() ?? model.contextWindow, settings);
	}

	/**
	 * True when auto-compaction is on and the context does not fit `model`
	 * (a virtual model's router picked it for the next request).
	 */
	tooLargeFor(model: Model): boolean {
		const settings = this.host.getCompactionSettings();
		if (!settings.enabled) return false;
		return shouldCompact(this.estimate().tokens, model.contextWindow, settings);
	}

	/** Cancels a running compaction or branch summary (Esc stops whichever summary is being generated). */
	abort(): void {
		this.controller?.abort();
		this.branchController?.abort();
	}

	abortBranchSummary(): void {
		this.branchController?.abort();
	}

	/** The request plumbing for one summary call. */
	async summarizer(signal: AbortSignal): Promise<Summarizer> {
		const model = this.host.getModel();
		if (!model) throw new Error("No model available for summarization");
		const s: Summarizer = {
			model,
			streamFn: this.host.getStreamFn(),
			signal,
			thinkingLevel: this.host.getThinkingLevel(),
		};
		const apiKey = await this.host.getApiKey(model.provider);
		if (apiKey !== undefined) s.apiKey = apiKey;
		const sessionId = this.host.getSessionId?.();
		if (sessionId !== undefined) s.sessionId = sessionId;
		const retry = this.host.getRetry?.();
		if (retry) s.retry = retry;
		return s;
	}

	/** Manual compaction (`/compact`, RPC `compact`): resolves the result, throws on failure or abort. */
	async compact(customInstructions?: string): Promise<CompactionResult> {
		const outcome = await this.run("manual", { customInstructions });
		if (outcome.result) return outcome.result;
		throw new Error(outcome.aborted ? "Compaction aborted" : (outcome.errorMessage ?? "Compaction failed"));
	}

	/** Runs one compaction with its start/end events. Never throws. */
	async run(reason: CompactionReason, options: RunCompactionOptions = {}): Promise<CompactionOutcome> {
		if (this.controller) return { aborted: false, errorMessage: "A compaction is already running" };
		const prep = this.prepare(reason);
		// Over the threshold but nothing old enough to summarize: not worth an event.
		if (!prep && reason === "threshold") return { aborted: false };
		const controller = new AbortController();
		this.controller = controller;
		const onOuterAbort = () => controller.abort();
		options.signal?.addEventListener("abort", onOuterAbort, { once: true });
		if (options.signal?.aborted) controller.abort();
		const willRetry = options.willRetry ?? false;
		await this.host.emit({ type: "compaction_start", reason });
		let outcome: CompactionOutcome;
		try {
			if (!prep) throw new Error("Nothing to compact: the context already fits in the kept recent messages");
			outcome = { result: await this.produce(prep, reason, options, controller.signal), aborted: false };
		} catch (error) {
			outcome =
				error instanceof SummarizationAbortedError || controller.signal.aborted
					? { aborted: true }
					: { aborted: false, errorMessage: error instanceof Error ? error.message : String(error) };
		} finally {
			options.signal?.removeEventListener("abort", onOuterAbort);
			this.controller = undefined;
		}
		await this.host.emit({
			type: "compaction_end",
			reason,
			result: outcome.result,
			aborted: outcome.aborted,
			willRetry: outcome.result !== undefined && willRetry,
			...(outcome.errorMessage !== undefined ? { errorMessage: outcome.errorMessage } : {}),
		});
		return outcome;
	}

	/** The plan for a compaction of the active branch now, or undefined when nothing can be summarized. */
	prepare(reason: CompactionReason = "manual"): CompactionPreparation | undefined {
		const projection = this.host.sessionManager.buildSessionProjection();
		const settings = this.host.getCompactionSettings();
		// Threshold and manual compactions keep at least keepRecentTokens (estimated) verbatim.
		if (reason !== "overflow") return prepareCompaction(projection, settings);
		// The context did not fit although the budget said it would: keep at most half of
		// what would be summarized otherwise, so the retried request is smaller for sure.
		const start = projection.entries[0]?.sourceEntry.type === "compaction" ? 1 : 0;
		let span = 0;
		for (let i = start; i < projection.entries.length; i++) {
			for (const m of projection.entries[i].messages) if (m.role !== "system") span += estimateTokens(m);
		}
		const keepRecentTokens = Math.min(settings.keepRecentTokens, Math.floor(span / 2));
		return prepareCompaction(projection, settings, { keepRecentTokens, atMost: true });
	}

	private async produce(
		prep: CompactionPreparation,
		reason: CompactionReason,
		options: RunCompactionOptions,
		signal: AbortSignal,
	): Promise<CompactionResult> {
		const sm = this.host.sessionManager;
		let result: CompactionResult | undefined;
		let fromExtension = false;
		const hooks = this.host.getHooks?.() ?? {};
		if (hooks.beforeCompact) {
			const hook = await hooks.beforeCompact({
				preparation: prep,
				branchEntries: sm.getBranch(),
				customInstructions: options.customInstructions,
				reason,
				willRetry: options.willRetry ?? false,
				signal,
			});
			if (hook?.cancel) throw new SummarizationAbortedError();
			if (hook?.compaction) {
				result = hook.compaction;
				fromExtension = true;
			}
		}
		if (!result) result = await compact(prep, await this.summarizer(signal), options.customInstructions);
		if (signal.aborted) throw new SummarizationAbortedError();

		const id = sm.appendCompaction(
			result.summary,
			result.firstKeptEntryId,
			result.tokensBefore,
			result.details,
			fromExtension,
			result.usage,
		);
		const stored = { ...result };
		const entry = sm.getEntry(id) as CompactionEntry;
		stored.firstKeptEntryId = entry.firstKeptEntryId;
		stored.estimatedTokensAfter = this.estimate().tokens;
		this.host.onContextChanged?.();
		await hooks.afterCompact?.(entry, fromExtension, { reason, willRetry: options.willRetry ?? false });
		return stored;
	}

	/** Summarizes abandoned entries for a branch switch (see navigate-tree.ts). */
	async summarizeBranch(
		entries: readonly SessionEntry[],
		options: BranchSummaryOptions = {},
	): Promise<BranchSummaryResult | undefined> {
		const controller = new AbortController();
		this.branchController = controller;
		try {
			const settings = this.host.getBranchSummarySettings();
			return await generateBranchSummary(entries, await this.summarizer(controller.signal), {
				reserveTokens: settings.reserveTokens,
				...options,
			});
		} finally {
			this.branchController = undefined;
		}
	}
}
