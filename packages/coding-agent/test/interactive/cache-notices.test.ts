// Cache notices worked out from recorded usage (modes/interactive/cache-notices.ts):
// which replies count as a miss and how each notice reads.
import type { AssistantMessage, Usage } from "@pi/ai";
import { describe, expect, it } from "vitest";
import {
	detectCacheMiss,
	formatCacheMiss,
	formatCacheWarmed,
	formatSummaryCost,
	historyCacheNotices,
} from "../../src/modes/interactive/cache-notices.js";
import type { SessionEntry } from "../../src/session/types.js";

const MIN = 60_000;
let n = 0;
const base = () => ({ id: `e${++n}`, parentId: null, timestamp: new Date(0).toISOString() });

/** Usage with costs at $3/M input, $3.75/M cache write, $0.30/M cache read. */
function usage(input: number, cacheRead: number, cacheWrite = 0): Usage {
	const cost = {
		input: input * 3e-6,
		output: 0,
		cacheRead: cacheRead * 0.3e-6,
		cacheWrite: cacheWrite * 3.75e-6,
		total: 0,
	};
	cost.total = cost.input + cost.cacheRead + cost.cacheWrite;
	return { input, output: 10, cacheRead, cacheWrite, totalTokens: input + cacheRead + cacheWrite + 10, cost };
}

function reply(u: Usage, at: number, model = "m1", from: Partial<AssistantMessage> = {}): SessionEntry {
	const message: AssistantMessage = {
		role: "assistant",
		content: [{ type: "text", text: "ok" }],
		api: "anthropic-messages",
		provider: "p",
		model,
		usage: u,
		stopReason: "stop",
		timestamp: at,
		...from,
	};
	return { ...base(), type: "message", message } as SessionEntry;
}
const warm = (u: Usage, note?: string): SessionEntry =>
	({ ...base(), type: "usage", kind: "cache_warm", provider: "p", model: "m1", usage: u, note }) as SessionEntry;
const compaction = (u?: Usage): SessionEntry =>
	({ ...base(), type: "compaction", summary: "s", firstKeptEntryId: "x", tokensBefore: 1, usage: u }) as SessionEntry;
const msg = (e: SessionEntry) => (e as { message: AssistantMessage }).message;
const noPrice = () => undefined;

describe("cache notices", () => {
	it("a reply that re-sends the previous prompt at full price is a miss; the notice names tokens and cost", () => {
		const first = reply(usage(1000, 0, 40_000), 0);
		const second = reply(usage(42_000, 0), 1 * MIN);
		const catalogRead = () => 0.3;
		const miss = detectCacheMiss([first], msg(second), catalogRead);
		// min(41k, 42k) − 0 cache reads; paid $3/M where a read costs $0.30/M (the catalog's: this reply read nothing).
		expect(miss).toMatchObject({ missedTokens: 41_000, modelChanged: false, idleMs: MIN });
		expect(miss?.missedCost).toBeCloseTo(41_000 * 2.7e-6, 6);
		expect(formatCacheMiss(miss as NonNullable<typeof miss>)).toBe("Cache miss: 41k tokens re-billed (~$0.11)");
		// The branch may already hold the reply itself (it is recorded before listeners run): same answer.
		expect(detectCacheMiss([first, second], msg(second), catalogRead)).toEqual(miss);
	});

	it("names a model switch and an idle gap past 5 minutes; small misses and cache hits say nothing", () => {
		const first = reply(usage(0, 30_000), 0);
		const switched = detectCacheMiss([first], msg(reply(usage(31_000, 0), MIN, "m2")), noPrice);
		expect(formatCacheMiss(switched as NonNullable<typeof switched>)).toMatch(
			/^Cache miss after model switch: 30k tokens re-billed/,
		);
		const idle = detectCacheMiss([first], msg(reply(usage(31_000, 0), 12 * MIN)), noPrice);
		expect(formatCacheMiss(idle as NonNullable<typeof idle>)).toMatch(/^Cache miss after 12m idle: 30k/);
		// 5k missed at $2.70/M: under 20k tokens and under $0.10.
		const small = detectCacheMiss([reply(usage(0, 5_000), 0)], msg(reply(usage(6_000, 0), MIN)), noPrice);
		expect(small && formatCacheMiss(small)).toBeUndefined();
		// Under the 1,024-token floor nothing is counted at all; a full hit is no miss.
		expect(detectCacheMiss([reply(usage(0, 1_000), 0)], msg(reply(usage(1_100, 0), MIN)), noPrice)).toBeUndefined();
		expect(detectCacheMiss([first], msg(reply(usage(500, 30_000), MIN)), noPrice)).toBeUndefined();
	});

	it("not counted: after a compaction, on errors, and from a provider that never reported caching", () => {
		const first = reply(usage(0, 30_000), 0);
		expect(detectCacheMiss([first, compaction()], msg(reply(usage(31_000, 0), MIN)), noPrice)).toBeUndefined();
		const failed = reply(usage(31_000, 0), MIN, "m1", { stopReason: "error" });
		expect(detectCacheMiss([first], msg(failed), noPrice)).toBeUndefined();
		const never = reply(usage(30_000, 0), 0);
		expect(detectCacheMiss([never], msg(reply(usage(31_000, 0), MIN)), noPrice)).toBeUndefined();
		// Once caching was reported, a reply without any cache activity is a total miss (read price from the catalog).
		const seen = detectCacheMiss([first, reply(usage(500, 30_000), 1)], msg(reply(usage(31_000, 0), 2)), () => 0.3);
		expect(seen?.missedTokens).toBe(30_500);
	});

	it("a cache warm is the request the next reply is judged against", () => {
		const first = reply(usage(0, 30_000), 0);
		const warmed = warm(usage(0, 60_000));
		const miss = detectCacheMiss([first, warmed], msg(reply(usage(61_000, 0), MIN)), noPrice);
		expect(miss?.missedTokens).toBe(60_000);
	});

	it("warm and summary lines", () => {
		expect(formatCacheWarmed(0.0012)).toBe("Cache warmed: $0.0012");
		expect(formatCacheWarmed(0.5, "extension override")).toBe("Cache warmed (extension override): $0.500");
		expect(formatSummaryCost("compaction", usage(20_000, 0))).toBe("Compaction: 20k tokens billed (~$0.06)");
		expect(formatSummaryCost("branch_summary", usage(900, 0))).toBe("Branch summary: 910 tokens billed");
	});

	it("history: misses after their reply, consecutive warms added into one line, summary costs", () => {
		const a = reply(usage(0, 30_000), 0);
		const w1 = warm(usage(0, 30_000));
		const w2 = warm(usage(0, 30_000));
		const b = reply(usage(31_000, 0), MIN);
		const c = compaction(usage(20_000, 0));
		const notices = historyCacheNotices([a, w1, w2, b, c], () => 0.3);
		const total = w1.type === "usage" && w2.type === "usage" ? w1.usage.cost.total + w2.usage.cost.total : 0;
		expect(notices.get(a.id)).toEqual([{ text: formatCacheWarmed(total), kind: "muted" }]);
		expect(notices.get(b.id)).toEqual([{ text: "Cache miss: 30k tokens re-billed (~$0.08)", kind: "warning" }]);
		expect(notices.get(c.id)).toEqual([{ text: "Compaction: 20k tokens billed (~$0.06)", kind: "warning" }]);
	});
});
