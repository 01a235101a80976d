// Prompt-cache warming. After a request of the conversation, the provider
// keeps its prompt prefix cached for a while (the model's `promptCache`
// lifetime). Shortly before that entry expires, the warmer sends the same
// request again with a one-token output cap: the prefix is read from the
// cache (cheap) and the entry lives on, so the user's next request does not
// pay for writing it again. Whether a refresh is worth it is pi-ai's
// estimate (cache-warming.ts): it must save at least $0.05 on average.
//
// Rules:
//   - one request is kept warm at a time: the conversation's latest;
//   - "streaming" phase while the run that sent it goes on, "idle" after it
//     settled (the `cacheWarming` setting decides which phases warm);
//   - a new run (or any change of model or of the conversation's prefix:
//     compaction, a context edit, tree navigation, another session) ends it;
//   - before each refresh `cache_warming_decision` lets extensions keep or
//     change pi's decision (the last handler returning an action wins);
//   - a refresh's usage is recorded as a `usage` entry (kind "cache_warm"):
//     counted in the session's totals, never part of the model's context;
//   - a failed refresh is reported and ends warming; it never touches the
//     conversation. Timers do not keep the process alive.
import type { StreamFn } from "@pi/agent-core";
import {
	CACHE_WARMING_MAX_IDLE_AGE_MS,
	CACHE_WARMING_MAX_STREAMING_AGE_MS,
	CACHE_WARMING_MIN_SAVINGS,
	type CacheWarmingAction,
	type CacheWarmingDecision,
	type CacheWarmingPhase,
	type Context,
	cacheRefreshDelayMs,
	cacheRefreshOptions,
	canReplayForCacheWarming,
	evaluateCacheWarming,
	type Model,
	promptCacheTtlMs,
	type StreamOptions,
} from "@pi/ai";
import type { CacheWarmingMode } from "../config/settings-schema.js";
import { isVirtualModel } from "../config/virtual-models.js";
import type { CacheWarmingDecisionEvent } from "../extensions/run-events.js";
import type { SessionManager } from "../session/session-manager.js";
import type { SessionEntry, UsageEntry } from "../session/types.js";

export type { CacheWarmingMode };

/** The warmer's clock: real timers in the product, a hand-driven one in tests. */
export interface WarmingClock {
	now(): number;
	setTimeout(callback: () => void, ms: number): unknown;
	clearTimeout(handle: unknown): void;
}

export const realWarmingClock: WarmingClock = {
	now: () => Date.now(),
	setTimeout: (callback, ms) => {
		const handle = setTimeout(callback, ms);
		// A pending refresh never keeps pi running: exiting cancels it.
		handle.unref?.();
		return handle;
	},
	clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface CacheWarmingStatus {
	/** "scheduled": a refresh (decision) is due at `nextWarmAt`; "refreshing": one is on its way. */
	state: "inactive" | "scheduled" | "refreshing";
	mode: CacheWarmingMode;
	/** Why nothing is scheduled. */
	reason?: string;
	nextWarmAt?: number;
	/** The decision pi would take now (scheduled), or the one that stopped warming. */
	decision?: CacheWarmingDecision;
	/** The decision was an extension's, not pi's. */
	extensionOverride?: boolean;
	/** The last refresh that failed, if warming stopped because of it. */
	lastError?: string;
}

export interface CacheWarmerDeps {
	/** Sends a refresh: the session's stream function below virtual routing (keys, configured headers). */
	stream: () => StreamFn;
	sessionManager: Pick<SessionManager, "appendUsage" | "findOnBranch" | "getEntry" | "getLeafId">;
	/** The `cacheWarming` setting, read at every step (a change applies at once). */
	getMode: () => CacheWarmingMode;
	/** The selected model: only requests made with it are kept warm. */
	currentModel: () => Model | undefined;
	/** A run is starting or going on (then an idle refresh is not sent: the run's own request follows). */
	isBusy: () => boolean;
	clock?: WarmingClock;
}

interface WarmRun {
	model: Model;
	context: Context;
	options: StreamOptions;
	/** The session leaf the request was projected from. */
	leafId: string | null;
	ttlMs: number;
	delayMs: number;
	/** When the real request was sent: the age limits count from here, refreshes do not move it. */
	startedAt: number;
	phase: CacheWarmingPhase;
	nextWarmAt: number;
	/** Past this a refresh comes too late to be a cache read (a delayed timer). */
	lateAt: number;
	timer?: unknown;
	refreshing: boolean;
	controller: AbortController;
	extensionOverride: boolean;
}

/** Entries that change what an earlier request's prefix is (the next request no longer starts with it). */
const PREFIX_BREAKING: ReadonlySet<SessionEntry["type"]> = new Set(["compaction", "context_edit", "branch_summary"]);

function describe(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

export class CacheWarmer {
	private run: WarmRun | undefined;
	private inactive: Omit<CacheWarmingStatus, "mode"> = { state: "inactive", reason: "no request yet" };
	private decide: ((event: CacheWarmingDecisionEvent) => Promise<CacheWarmingAction>) | undefined;
	private disposed = false;
	/** Timers and time (tests replace it; applies to the next schedule). */
	clock: WarmingClock;
	/** A refresh was recorded (the session announces the entry). */
	onWarmed: ((entry: UsageEntry) => void) | undefined;
	/** A refresh failed (the session reports it). */
	onError: ((message: string) => void) | undefined;

	constructor(private readonly deps: CacheWarmerDeps) {
		this.clock = deps.clock ?? realWarmingClock;
	}

	/**
	 * Wraps the agent loop's stream function: every request of the
	 * conversation becomes the one kept warm. Requests outside the loop
	 * (compaction, summaries, extensions' complete()) do not pass here.
	 */
	observe(inner: StreamFn): StreamFn {
		return (model, context, options) => {
			this.start(model, context, options ?? {});
			return inner(model, context, options);
		};
	}

	/**
	 * `cache_warming_decision`: lets extensions change each decision (the
	 * extension bridge installs the runner here). Returns the remover.
	 */
	setDecisionHook(hook: (event: CacheWarmingDecisionEvent) => Promise<CacheWarmingAction>): () => void {
		this.decide = hook;
		return () => {
			if (this.decide === hook) this.decide = undefined;
		};
	}

	get status(): CacheWarmingStatus {
		const mode = this.deps.getMode();
		if (mode === "off") return { state: "inactive", mode, reason: "cache warming is off" };
		const run = this.run;
		if (!run) return { ...this.inactive, mode };
		const problem = this.problemWith(run);
		if (problem) return { state: "inactive", mode, reason: problem };
		const decision = this.evaluate(run);
		if (run.refreshing) return { state: "refreshing", mode, decision, extensionOverride: run.extensionOverride };
		if (!decision.economicsAvailable) return { state: "inactive", mode, reason: "no prompt size or prices to weigh" };
		return { state: "scheduled", mode, nextWarmAt: run.nextWarmAt, decision };
	}

	/** A request of the conversation was sent: keep its cache entry warm (replacing any earlier one). */
	start(model: Model, context: Context, options: StreamOptions): void {
		this.clear();
		if (this.disposed) return;
		if (this.deps.getMode() === "off") {
			this.stop("cache warming is off");
			return;
		}
		// Each request of a virtual model is routed anew: a refresh might reach another model.
		if (isVirtualModel(model)) {
			this.stop("a virtual model routes each request anew");
			return;
		}
		if (!canReplayForCacheWarming(model, options)) {
			this.stop("the thinking budget follows the output cap, so a refresh would miss this cache entry");
			return;
		}
		const ttlMs = promptCacheTtlMs(model, options);
		if (ttlMs === undefined) {
			this.stop(
				options.cacheRetention === "none"
					? "the request does not use the prompt cache"
					: `${model.provider}/${model.id} declares no cache lifetime for this retention`,
			);
			return;
		}
		const delayMs = cacheRefreshDelayMs(ttlMs);
		if (delayMs === undefined) {
			this.stop("the cache lifetime is too short to refresh");
			return;
		}
		const run: WarmRun = {
			model,
			context,
			options,
			leafId: this.deps.sessionManager.getLeafId(),
			ttlMs,
			delayMs,
			startedAt: this.clock.now(),
			phase: "streaming",
			nextWarmAt: 0,
			lateAt: 0,
			refreshing: false,
			controller: new AbortController(),
			extensionOverride: false,
		};
		this.run = run;
		this.schedule(run);
	}

	/** A run begins: its own request will be the one kept warm; nothing pending is sent. */
	onRunStart(): void {
		if (this.run) this.stop("a new run started");
	}

	/** The run settled: from now on refreshes are idle ones (or none, with `cacheWarming: "streaming"`). */
	onSettled(): void {
		const run = this.run;
		if (!run) return;
		if (this.deps.getMode() === "streaming") {
			this.stop('the run settled (cacheWarming is "streaming")');
			return;
		}
		run.phase = "idle";
		if (run.nextWarmAt > run.startedAt + CACHE_WARMING_MAX_IDLE_AGE_MS) this.stop("30-minute idle limit reached");
	}

	/** The `cacheWarming` setting changed: a refresh the new mode forbids is cancelled at once. */
	onModeChanged(): void {
		const run = this.run;
		if (!run) return;
		const problem = this.problemWith(run);
		if (problem) this.stop(problem);
	}

	/** Cancels anything pending (the session is disposed; the process exits). */
	dispose(): void {
		this.disposed = true;
		this.stop("session closed");
	}

	private clear(): void {
		const run = this.run;
		if (!run) return;
		this.run = undefined;
		if (run.timer !== undefined) this.clock.clearTimeout(run.timer);
		run.controller.abort();
	}

	private stop(reason: string, extra: Omit<CacheWarmingStatus, "state" | "mode" | "reason"> = {}): void {
		this.clear();
		this.inactive = { state: "inactive", reason, ...extra };
	}

	private schedule(run: WarmRun): void {
		const now = this.clock.now();
		run.nextWarmAt = now + run.delayMs;
		// Half of the margin before expiry is left for a late timer (sleep, a blocked event loop).
		run.lateAt = run.nextWarmAt + Math.floor((run.ttlMs - run.delayMs) / 2);
		const limit = run.phase === "idle" ? CACHE_WARMING_MAX_IDLE_AGE_MS : CACHE_WARMING_MAX_STREAMING_AGE_MS;
		if (run.nextWarmAt > run.startedAt + limit) {
			this.stop(run.phase === "idle" ? "30-minute idle limit reached" : "one-hour limit reached");
			return;
		}
		run.timer = this.clock.setTimeout(() => void this.refresh(run), run.delayMs);
	}

	/** Why `run` may no longer be refreshed, or undefined when it may. */
	private problemWith(run: WarmRun): string | undefined {
		const mode = this.deps.getMode();
		if (mode === "off") return "cache warming is off";
		if (mode === "streaming" && run.phase === "idle") return 'the run settled (cacheWarming is "streaming")';
		const selected = this.deps.currentModel();
		if (!selected || selected.provider !== run.model.provider || selected.id !== run.model.id) {
			return "the model changed";
		}
		if (!this.prefixIntact(run)) return "the conversation changed";
		return undefined;
	}

	/**
	 * The branch still holds the request's leaf, and nothing after it rewrote what came before.
	 * Walks up from the leaf over the index only: a resumed branch is mostly on disk.
	 */
	private prefixIntact(run: WarmRun): boolean {
		let broken = false;
		const reached = this.deps.sessionManager.findOnBranch((e) => {
			if (e.id === run.leafId) return true;
			broken = PREFIX_BREAKING.has(e.type as SessionEntry["type"]);
			return broken;
		});
		return !broken && (run.leafId === null || reached !== undefined);
	}

	/** Prompt size of the branch's latest answer, as the provider reported it (only that entry is read). */
	private evaluate(run: WarmRun): CacheWarmingDecision {
		const id = this.deps.sessionManager.findOnBranch((e) => e.type === "message" && e.role === "assistant");
		const e = id === undefined ? undefined : this.deps.sessionManager.getEntry(id);
		let promptTokens = 0;
		if (e?.type === "message" && e.message.role === "assistant") {
			const u = e.message.usage;
			promptTokens = u.input + u.cacheRead + u.cacheWrite;
		}
		return evaluateCacheWarming(run.model, promptTokens, run.phase);
	}

	/** Ends `run` when it may not go on; true when it may. */
	private check(run: WarmRun): boolean {
		if (this.run !== run) return false;
		const problem =
			this.problemWith(run) ??
			(run.phase === "idle" && this.deps.isBusy() ? "a new run started" : undefined) ??
			(this.clock.now() > run.lateAt ? "the refresh came too late (the timer was delayed)" : undefined);
		if (!problem) return true;
		this.stop(problem);
		return false;
	}

	private async refresh(run: WarmRun): Promise<void> {
		run.timer = undefined;
		if (!this.check(run)) return;
		const decision = this.evaluate(run);
		let action = decision.action;
		if (this.decide) {
			try {
				action = await this.decide({
					type: "cache_warming_decision",
					warmCost: decision.warmCost,
					missCost: decision.missCost,
					continuationProbability: decision.continuationProbability,
					action: decision.action,
				});
			} catch {
				// The runner reports handler errors itself; pi's own decision stands.
			}
		}
		if (!this.check(run)) return;
		const extensionOverride = action !== decision.action;
		if (action === "stop") {
			const reason = extensionOverride
				? "stopped by an extension"
				: decision.economicsAvailable
					? `expected savings under $${CACHE_WARMING_MIN_SAVINGS.toFixed(2)}`
					: "no prompt size or prices to weigh";
			this.stop(reason, { decision, extensionOverride });
			return;
		}
		run.extensionOverride = extensionOverride;
		run.refreshing = true;
		let failure: string | undefined;
		try {
			const stream = await this.deps.stream()(
				run.model,
				run.context,
				cacheRefreshOptions(run.options, run.controller.signal),
			);
			const message = await stream.result();
			if (message.stopReason === "aborted") return; // cancelled: a new run or the session closed
			if (message.stopReason === "error") failure = message.errorMessage ?? "the provider returned an error";
			else if (this.run === run && this.problemWith(run) === undefined) {
				// Recorded only while the session is still the one the request belongs to.
				const entry = this.deps.sessionManager.appendUsage(
					"cache_warm",
					message.provider,
					message.model,
					message.usage,
					extensionOverride ? "extension override" : undefined,
				);
				this.onWarmed?.(entry);
			}
		} catch (error) {
			failure = describe(error);
		} finally {
			run.refreshing = false;
		}
		if (this.run !== run) return;
		if (failure !== undefined) {
			this.onError?.(`Cache warming: the refresh of ${run.model.provider}/${run.model.id} failed: ${failure}`);
			this.stop("the last refresh failed", { decision, lastError: failure });
			return;
		}
		this.schedule(run);
	}
}

const dollars = (v: number) => (v < 0 ? `-$${Math.abs(v).toFixed(3)}` : `$${v.toFixed(3)}`);

function duration(ms: number): string {
	let s = Math.max(0, Math.ceil(ms / 1000));
	const h = Math.floor(s / 3600);
	s %= 3600;
	const m = Math.floor(s / 60);
	s %= 60;
	const parts = [h ? `${h}h` : "", m ? `${m}m` : "", s || (!h && !m) ? `${s}s` : ""].filter(Boolean);
	return parts.join(" ");
}

/** The decision's figures: what weighs against what. */
function figures(d: CacheWarmingDecision): string {
	const chance = `${Math.round(d.continuationProbability * 100)}% chance of a request in time`;
	return `refresh ${dollars(d.warmCost)}, cache miss ${dollars(d.missCost)}, ${chance}`;
}

/** Lines for `/session`: the mode, then the next decision (or why there is none). */
export function describeCacheWarming(status: CacheWarmingStatus, now: number): string[] {
	const head = `Cache warming: ${status.mode}`;
	const d = status.decision;
	if (status.state === "scheduled" && d && status.nextWarmAt !== undefined) {
		const cmp = d.action === "warm" ? "≥" : "<";
		return [
			`${head} • next decision in ${duration(status.nextWarmAt - now)}: ${d.action} (expected savings ${dollars(d.expectedSavings)} ${cmp} $${CACHE_WARMING_MIN_SAVINGS.toFixed(3)})`,
			`    ${figures(d)}`,
		];
	}
	if (status.state === "refreshing") {
		return [`${head} • refreshing now${status.extensionOverride ? " (an extension's decision)" : ""}`];
	}
	const lines = [`${head} • inactive: ${status.reason ?? "nothing to keep warm"}`];
	if (status.lastError) lines.push(`    last refresh failed: ${status.lastError}`);
	if (d?.economicsAvailable) lines.push(`    last decision: ${d.action}, ${figures(d)}`);
	return lines;
}
