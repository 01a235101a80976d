// The footer's totals of a session too large to read before the first frame: the frame shows
// without them, they are read in steps between frames, and the app is told when they are there.
import { describe, expect, it } from "vitest";
import type { AgentSession } from "../../src/agent-session/agent-session.js";
import type { UsageTotals } from "../../src/agent-session/session-stats.js";
import { FooterState } from "../../src/modes/interactive/footer-state.js";

/** A session whose totals take `steps` calls to read. */
function sessionNeeding(steps: number, totals: UsageTotals) {
	let calls = 0;
	const session = {
		sessionManager: {
			foldSome: () => ({ acc: totals, done: ++calls >= steps }),
			getSessionName: () => undefined,
		},
		getContextUsage: () => ({ tokens: 10, contextWindow: 1000, percent: 1 }),
		model: undefined,
		thinkingLevel: "off",
		autoCompactionEnabled: true,
	};
	return { session: session as unknown as AgentSession, calls: () => calls };
}

const nextTurn = () => new Promise((r) => setImmediate(r));

describe("FooterState", () => {
	it("shows a large session's totals once read, in steps after the first frame, and says so once", async () => {
		const totals: UsageTotals = {
			tokens: { input: 1200, output: 80, cacheRead: 5, cacheWrite: 0, total: 1285 },
			cost: 2.5,
		};
		const { session, calls } = sessionNeeding(3, totals);
		let changed = 0;
		const state = new FooterState(session, "/tmp", undefined, () => changed++);
		expect(state.data.tokens).toEqual({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });
		expect(state.data.cost).toBe(0);
		await nextTurn();
		expect(changed).toBe(0);
		await nextTurn();
		expect(calls()).toBe(3);
		expect(changed).toBe(1);
		expect(state.data.tokens).toEqual({ input: 1200, output: 80, cacheRead: 5, cacheWrite: 0 });
		expect(state.data.cost).toBe(2.5);
	});

	it("a session read at once: its totals are in the first data, nothing scheduled", async () => {
		const totals: UsageTotals = { tokens: { input: 7, output: 3, cacheRead: 0, cacheWrite: 0, total: 10 }, cost: 0.25 };
		const { session, calls } = sessionNeeding(1, totals);
		let changed = 0;
		const state = new FooterState(session, "/tmp", undefined, () => changed++);
		expect(state.data.tokens.input).toBe(7);
		await nextTurn();
		expect(calls()).toBe(1);
		expect(changed).toBe(0);
	});
});
