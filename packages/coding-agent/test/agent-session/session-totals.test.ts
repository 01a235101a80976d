// Footer and /session totals count everything the session paid for: every
// branch, failed attempts, compaction and branch-summary requests — so
// /compact and /tree never lower the cost shown. Real HTTP, fake provider.
import { afterEach, describe, expect, it } from "vitest";
import { type HttpSession, makeHttpSession, text } from "../compaction/support.js";

let s: HttpSession | undefined;
afterEach(async () => {
	await s?.close();
	s = undefined;
});

// $1 000 per million input tokens, $2 000 per million output: 1 000 in + 100 out = $1.2.
const cost = { input: 1000, output: 2000, cacheRead: 0, cacheWrite: 0 };

describe("session totals are cumulative", () => {
	it("/compact and /tree add the summary requests and keep the abandoned branch's cost", async () => {
		s = await makeHttpSession({
			model: { cost },
			settings: { compaction: { enabled: false, reserveTokens: 2000, keepRecentTokens: 10 } },
		});
		s.fake.enqueue(text("one", 1000, 100));
		await s.session.prompt(`first ${"x".repeat(200)}`);
		const base = s.sessionManager.getLeafId();
		s.fake.enqueue(text("two", 1000, 100));
		await s.session.prompt(`second ${"y".repeat(200)}`);
		const before = s.session.getSessionStats();
		expect(before.cost).toBeCloseTo(2.4, 6);
		expect(before.tokens).toMatchObject({ input: 2000, output: 200 });

		// The summary request costs 500 in + 50 out = $0.6, and nothing already paid disappears.
		s.fake.enqueue(text("## Goal\nsummary", 500, 50));
		await s.session.compact();
		const compacted = s.session.getSessionStats();
		expect(compacted.cost).toBeCloseTo(3.0, 6);
		expect(compacted.tokens).toMatchObject({ input: 2500, output: 250 });

		// Leaving the branch (with a branch summary of 300 in + 30 out = $0.36) keeps it all too.
		s.fake.enqueue(text("## Goal\nbranch summary", 300, 30));
		await s.session.navigateTree(base ?? "", { summarize: true });
		const moved = s.session.getSessionStats();
		expect(moved.cost).toBeCloseTo(3.36, 6);
		expect(moved.tokens).toMatchObject({ input: 2800, output: 280 });
		// Counts still describe the context now shown.
		expect(moved.userMessages).toBe(1);
	});
});
