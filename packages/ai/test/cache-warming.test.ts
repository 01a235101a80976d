// Prompt-cache warming numbers (cache-warming.ts), the catalog's cache
// lifetimes and models.json's `promptCache`.
import { describe, expect, it, vi } from "vitest";
import {
	CACHE_WARMING_IDLE_CONTINUATION,
	CACHE_WARMING_MIN_SAVINGS,
	cacheRefreshDelayMs,
	cacheRefreshOptions,
	canReplayForCacheWarming,
	evaluateCacheWarming,
	promptCacheTtlMs,
} from "../src/cache-warming.js";
import { getModel, getModels } from "../src/models/catalog.js";
import { applyModelsConfig } from "../src/models/models-config.js";
import type { Model } from "../src/types.js";

const source = "models.json";
const messages = (issues: { path: string; message: string }[]) => issues.map((i) => `${i.path}: ${i.message}`);

function model(extra: Partial<Model> = {}): Model {
	return {
		id: "m",
		name: "M",
		api: "openai-completions",
		provider: "p",
		baseUrl: "http://127.0.0.1:1/v1",
		reasoning: false,
		input: ["text"],
		// $ per million: input 3, output 15, cache read 0.3, cache write 3.75 (Claude Sonnet 4.5's prices).
		cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
		contextWindow: 1_000_000,
		maxTokens: 1000,
		promptCache: { short: 300, long: 3600 },
		...extra,
	};
}

describe("evaluateCacheWarming", () => {
	it("weighs the avoided miss, times the chance of a next request, against the refresh's price", () => {
		// 200 000 tokens: a miss writes them at $3.75/M ($0.75) instead of reading them at $0.30/M ($0.06).
		const idle = evaluateCacheWarming(model(), 200_000, "idle");
		expect(idle.missCost).toBeCloseTo(0.69, 9);
		expect(idle.warmCost).toBeCloseTo(0.06 + 15 / 1_000_000, 9);
		expect(idle.continuationProbability).toBe(CACHE_WARMING_IDLE_CONTINUATION);
		expect(idle.expectedSavings).toBeCloseTo(0.15 * 0.69 - 0.060015, 9);
		expect(idle.economicsAvailable).toBe(true);
		expect(idle.action).toBe("stop"); // 0.0435 < 0.05
		// The same prompt during a run: the next request is certain.
		const streaming = evaluateCacheWarming(model(), 200_000, "streaming");
		expect(streaming.continuationProbability).toBe(1);
		expect(streaming.expectedSavings).toBeCloseTo(0.69 - 0.060015, 9);
		expect(streaming.action).toBe("warm");
	});

	it("warms exactly from the $0.05 threshold on", () => {
		// Savings per token while idle: 0.15 × (3.75 − 0.3)/M − 0.3/M = 0.2175/M; plus $15/M for the output token.
		const perToken = (0.15 * 3.45 - 0.3) / 1_000_000;
		const atThreshold = Math.ceil((CACHE_WARMING_MIN_SAVINGS + 15 / 1_000_000) / perToken);
		expect(evaluateCacheWarming(model(), atThreshold, "idle").action).toBe("warm");
		expect(evaluateCacheWarming(model(), atThreshold - 10, "idle").action).toBe("stop");
	});

	it("takes a full-price input as the miss where the model has no cache-write price", () => {
		const openaiLike = model({ cost: { input: 2, output: 8, cacheRead: 0.5, cacheWrite: 0 } });
		expect(evaluateCacheWarming(openaiLike, 1_000_000, "idle").missCost).toBeCloseTo(1.5, 9);
	});

	it("has nothing to weigh without a prompt size or prices", () => {
		expect(evaluateCacheWarming(model(), 0, "idle")).toMatchObject({ economicsAvailable: false, action: "stop" });
		const free = model({ cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } });
		expect(evaluateCacheWarming(free, 500_000, "streaming")).toMatchObject({
			economicsAvailable: false,
			action: "stop",
		});
	});
});

describe("lifetimes, timing and replay", () => {
	it("takes the lifetime of the request's retention tier; none without a tier or with caching off", () => {
		expect(promptCacheTtlMs(model())).toBe(300_000);
		expect(promptCacheTtlMs(model(), { cacheRetention: "long" })).toBe(3_600_000);
		expect(promptCacheTtlMs(model(), { cacheRetention: "none" })).toBeUndefined();
		// PI_CACHE_RETENTION=long makes the long tier the one written, so the one warmed.
		vi.stubEnv("PI_CACHE_RETENTION", "long");
		try {
			expect(promptCacheTtlMs(model())).toBe(3_600_000);
			expect(promptCacheTtlMs(model(), { cacheRetention: "short" })).toBe(300_000);
		} finally {
			vi.unstubAllEnvs();
		}
		expect(promptCacheTtlMs(model({ promptCache: { short: 300 } }), { cacheRetention: "long" })).toBeUndefined();
		expect(promptCacheTtlMs(model({ promptCache: undefined }))).toBeUndefined();
	});

	it("refreshes at 90% of the lifetime, at least 10 s before expiry; not at all under 10 s", () => {
		expect(cacheRefreshDelayMs(300_000)).toBe(270_000);
		expect(cacheRefreshDelayMs(3_600_000)).toBe(3_240_000);
		expect(cacheRefreshDelayMs(60_000)).toBe(50_000);
		expect(cacheRefreshDelayMs(11_000)).toBe(1_000);
		expect(cacheRefreshDelayMs(10_000)).toBeUndefined();
	});

	it("does not replay budget-based Claude thinking (the budget follows the output cap)", () => {
		const claude45 = getModel("anthropic", "claude-sonnet-4-5");
		expect(canReplayForCacheWarming(claude45, { reasoning: "high" })).toBe(false);
		expect(canReplayForCacheWarming(claude45, { reasoning: "off" })).toBe(true);
		expect(canReplayForCacheWarming(claude45, {})).toBe(true);
		expect(canReplayForCacheWarming(getModel("anthropic", "claude-opus-4-7"), { reasoning: "high" })).toBe(true);
		expect(canReplayForCacheWarming(model({ reasoning: true }), { reasoning: "high" })).toBe(true);
	});

	it("a refresh keeps the request's options but asks for one token under its own signal", () => {
		const signal = new AbortController().signal;
		const options = { sessionId: "s", reasoning: "high" as const, maxTokens: 9000, headers: { a: "b" } };
		expect(cacheRefreshOptions(options, signal)).toEqual({ ...options, maxTokens: 1, signal });
	});
});

describe("cache lifetimes in the catalog and models.json", () => {
	it("every built-in Anthropic model declares 5 minutes (short) and 1 hour (long); others none", () => {
		for (const m of getModels("anthropic")) expect(m.promptCache, m.id).toEqual({ short: 300, long: 3600 });
		expect(getModel("openai", "gpt-5").promptCache).toBeUndefined();
		// A copy: changing it does not change the catalog.
		const m = getModel("anthropic", "claude-sonnet-4-5");
		if (m.promptCache) m.promptCache.short = 1;
		expect(getModel("anthropic", "claude-sonnet-4-5").promptCache?.short).toBe(300);
	});

	it("models.json sets promptCache on custom models and overrides it tier by tier", () => {
		const r = applyModelsConfig(
			getModels("anthropic"),
			{
				providers: {
					local: {
						baseUrl: "http://localhost:8080/v1",
						api: "openai-completions",
						models: [{ id: "cached", promptCache: { short: 120 } }],
					},
					anthropic: { modelOverrides: { "claude-sonnet-4-5": { promptCache: { long: 1800 } } } },
				},
			},
			{ source },
		);
		expect(r.errors).toEqual([]);
		expect(r.warnings).toEqual([]);
		expect(r.models.find((m) => m.id === "cached")?.promptCache).toEqual({ short: 120 });
		expect(r.models.find((m) => m.id === "claude-sonnet-4-5")?.promptCache).toEqual({ short: 300, long: 1800 });
	});

	it("a bad promptCache is an error naming the field; an unknown tier a warning", () => {
		const r = applyModelsConfig(
			[],
			{
				providers: {
					local: {
						baseUrl: "http://localhost:8080/v1",
						api: "openai-completions",
						models: [
							{ id: "a", promptCache: { short: -5, medium: 60 } },
							{ id: "b", promptCache: 300 },
						],
					},
				},
			},
			{ source },
		);
		expect(messages(r.errors)).toEqual([
			"providers.local.models[0].promptCache.short: expected a cache lifetime in seconds, greater than 0",
			'providers.local.models[1].promptCache: expected an object of retention tiers to seconds, e.g. { "short": 300, "long": 3600 }',
		]);
		expect(messages(r.warnings)).toEqual([
			"providers.local.models[0].promptCache.medium: unknown retention tier; expected short or long; ignored",
		]);
	});
});
