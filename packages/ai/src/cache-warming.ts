// The numbers behind prompt-cache warming: how long a request's cache entry
// lives, when a refresh is due, whether a request can be repeated without
// changing its cache key, and whether a refresh pays for itself. Pure
// functions: the host (pi-coding-agent's CacheWarmer) owns timers and
// requests; pi-ai itself never sends a request on its own.

import { resolveCacheRetention } from "./cache-retention.js";
import { calculateCost, emptyUsage } from "./cost.js";
import { supportsAdaptiveThinking } from "./thinking.js";
import type { Model, StreamOptions, Usage } from "./types.js";

/** "streaming": the run that sent the request is still going; "idle": it has settled. */
export type CacheWarmingPhase = "streaming" | "idle";

/** Send the refresh ("warm") or let the entry expire and stop until the next real request ("stop"). */
export type CacheWarmingAction = "warm" | "stop";

/** One refresh decision: the estimate it rests on and the action it leads to. */
export interface CacheWarmingDecision {
	phase: CacheWarmingPhase;
	/** $ of the refresh itself: the prompt read from the cache plus one output token. */
	warmCost: number;
	/** $ the next real request pays extra if the entry has expired (a full write instead of a read). */
	missCost: number;
	/** Estimated chance that a real request comes before the entry expires. */
	continuationProbability: number;
	/** `continuationProbability × missCost − warmCost`. */
	expectedSavings: number;
	/** False when the prompt size or the model's prices are unknown (nothing to weigh). */
	economicsAvailable: boolean;
	/** "warm" when `expectedSavings` reaches CACHE_WARMING_MIN_SAVINGS. */
	action: CacheWarmingAction;
}

/** A refresh is sent only when it is expected to save at least this many dollars. */
export const CACHE_WARMING_MIN_SAVINGS = 0.05;

/**
 * Chance that the user's next request arrives within one cache lifetime once
 * the agent is idle. A fixed estimate (the reference uses the same value);
 * while a run is still going the next request is certain (1).
 */
export const CACHE_WARMING_IDLE_CONTINUATION = 0.15;

/** Warming while a run goes on stops this long after the real request that started it. */
export const CACHE_WARMING_MAX_STREAMING_AGE_MS = 60 * 60_000;

/** Idle warming stops this long after the last real request: the estimate above gets worse with time. */
export const CACHE_WARMING_MAX_IDLE_AGE_MS = 30 * 60_000;

/** Margin kept before expiry: the refresh is sent at 90% of the lifetime, at least 10 s early. */
const MIN_MARGIN_MS = 10_000;

/**
 * Lifetime (ms) of the cache entry a request with `options` writes: the
 * model's `promptCache` tier for the request's retention ("short" unless set).
 * Undefined when caching is off for the request or the tier has no known lifetime.
 */
export function promptCacheTtlMs(
	model: Model,
	options: Pick<StreamOptions, "cacheRetention"> = {},
): number | undefined {
	const retention = resolveCacheRetention(options);
	if (retention === "none") return undefined;
	const seconds = model.promptCache?.[retention];
	return seconds !== undefined && seconds > 0 ? seconds * 1000 : undefined;
}

/** When (ms after the request) a refresh is due; undefined when the lifetime leaves no room for one. */
export function cacheRefreshDelayMs(ttlMs: number): number | undefined {
	if (ttlMs <= MIN_MARGIN_MS) return undefined;
	return Math.max(1, Math.floor(Math.min(ttlMs * 0.9, ttlMs - MIN_MARGIN_MS)));
}

/**
 * Whether the request can be repeated with a one-token output cap and still
 * hit its own cache entry. Budget-based thinking (Anthropic and Bedrock Claude
 * models that do not think adaptively) derives the thinking budget from the
 * output cap, and the budget is part of what the provider caches on.
 */
export function canReplayForCacheWarming(
	model: Pick<Model, "api" | "id" | "thinkingLevelMap">,
	options: Pick<StreamOptions, "reasoning"> = {},
): boolean {
	if (!options.reasoning || options.reasoning === "off") return true;
	if (model.api !== "anthropic-messages" && model.api !== "bedrock-converse-stream") return true;
	return supportsAdaptiveThinking(model);
}

/** The options of a refresh: the request's own, one output token, its own abort signal. */
export function cacheRefreshOptions<T extends StreamOptions>(options: T, signal: AbortSignal): T {
	return { ...options, maxTokens: 1, signal };
}

/**
 * Whether refreshing the cache entry of a `promptTokens`-token prompt pays for
 * itself: the avoided miss (a cache write, or a full-price input where the
 * model has no write price, instead of a read) weighted by the chance of a
 * next request in time, minus the refresh's own price.
 */
export function evaluateCacheWarming(
	model: Pick<Model, "cost">,
	promptTokens: number,
	phase: CacheWarmingPhase,
): CacheWarmingDecision {
	const hit = price(model, { cacheRead: promptTokens });
	const miss = price(model, model.cost.cacheWrite > 0 ? { cacheWrite: promptTokens } : { input: promptTokens });
	const warmCost = price(model, { cacheRead: promptTokens, output: 1 });
	const missCost = Math.max(0, miss - hit);
	const continuationProbability = phase === "idle" ? CACHE_WARMING_IDLE_CONTINUATION : 1;
	const expectedSavings = continuationProbability * missCost - warmCost;
	return {
		phase,
		warmCost,
		missCost,
		continuationProbability,
		expectedSavings,
		economicsAvailable: promptTokens > 0 && (hit > 0 || miss > 0),
		action: expectedSavings >= CACHE_WARMING_MIN_SAVINGS ? "warm" : "stop",
	};
}

function price(
	model: Pick<Model, "cost">,
	tokens: Partial<Pick<Usage, "input" | "output" | "cacheRead" | "cacheWrite">>,
) {
	const usage = { ...emptyUsage(), ...tokens };
	return calculateCost(model, usage).total;
}
