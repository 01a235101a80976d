import { describe, expect, it } from "vitest";
import { findCutPoint } from "../../src/agent-session/compaction/cut-point.js";
import { prepareCompaction } from "../../src/agent-session/compaction/prepare.js";
import { estimateTokens as estimate } from "../../src/agent-session/compaction/token-estimate.js";
import { SessionManager } from "../../src/session/session-manager.js";
import type { ProjectedSessionEntry } from "../../src/session/types.js";
import { assistant, tokens, toolResult, user } from "./messages.js";

const settings = { enabled: true, reserveTokens: 100, keepRecentTokens: 100 };

function roleOf(slot: ProjectedSessionEntry): string {
	return slot.messages[0]?.role ?? `(${slot.sourceEntry.type})`;
}

/** A session of `turns` turns: user, assistant calling read, tool result, assistant answer. */
function toolSession(turns: number, size = 20): SessionManager {
	const sm = SessionManager.inMemory("/w");
	for (let t = 0; t < turns; t++) {
		sm.appendMessage(user(`q${t} ${tokens(size)}`));
		sm.appendMessage(assistant("", { calls: [{ id: `c${t}`, name: "read", args: { path: `f${t}.ts` } }] }));
		sm.appendMessage(toolResult(`c${t}`, tokens(size * 3)));
		sm.appendMessage(assistant(`a${t} ${tokens(size)}`));
	}
	return sm;
}

describe("findCutPoint", () => {
	it("never starts the kept range at a tool result, for any budget", () => {
		const slots = toolSession(12).buildSessionProjection().entries;
		for (let keep = 1; keep <= 1500; keep += 7) {
			const cut = findCutPoint(slots, 0, slots.length, keep);
			const kept = slots.slice(cut.firstKeptIndex);
			expect(roleOf(kept[0])).not.toBe("toolResult");
			// Every kept tool result has its call in the kept range.
			const calls = new Set(
				kept.flatMap((s) =>
					s.messages.flatMap((m) =>
						m.role === "assistant" ? m.content.filter((b) => b.type === "toolCall").map((b) => b.id) : [],
					),
				),
			);
			for (const s of kept)
				for (const m of s.messages) if (m.role === "toolResult") expect(calls).toContain(m.toolCallId);
		}
	});

	it("keeps at least keepRecentTokens: the turn where the budget is reached stays whole", () => {
		const sm = SessionManager.inMemory("/w");
		for (let i = 0; i < 10; i++) {
			sm.appendMessage(user(tokens(10)));
			sm.appendMessage(assistant(tokens(40)));
		}
		const slots = sm.buildSessionProjection().entries;
		// Budget 120: walking back 40 + 10 + 40 + 10 + 40 = 140 >= 120 at slot 15 (an assistant);
		// its turn (user 14 + assistant 15, 50 tokens) is under the budget, so it is kept whole.
		const cut = findCutPoint(slots, 0, slots.length, 120);
		expect(cut).toEqual({ firstKeptIndex: 14, turnStartIndex: -1, isSplitTurn: false });
		expect(roleOf(slots[14])).toBe("user");
		// Overflow recovery keeps at most the budget: the first cut point at or after slot 15.
		expect(findCutPoint(slots, 0, slots.length, 120, { atMost: true })).toEqual({
			firstKeptIndex: 15,
			turnStartIndex: 14,
			isSplitTurn: true,
		});
		// A budget reached exactly at a user message cuts there, not splitting a turn.
		expect(findCutPoint(slots, 0, slots.length, 100)).toEqual({
			firstKeptIndex: 16,
			turnStartIndex: -1,
			isSplitTurn: false,
		});
	});

	it("a last prompt larger than the budget is kept verbatim with its answer (budget 500, prompt 1,000, answer 12)", () => {
		const sm = SessionManager.inMemory("/w");
		for (let i = 0; i < 3; i++) {
			sm.appendMessage(user(tokens(300)));
			sm.appendMessage(assistant(tokens(300)));
		}
		sm.appendMessage(user(tokens(1000)));
		sm.appendMessage(assistant(tokens(12)));
		const prep = prepareCompaction(sm.buildSessionProjection(), { ...settings, keepRecentTokens: 500 });
		expect(prep?.isSplitTurn).toBe(false);
		expect(prep?.messagesToSummarize).toHaveLength(6);
		expect(prep?.firstKeptEntryId).toBe(sm.getEntries()[6].id);
	});

	it("a tool loop over the budget is split where the budget is reached, never after it (at least the budget kept)", () => {
		const sm = SessionManager.inMemory("/w");
		sm.appendMessage(user("start"));
		for (let i = 0; i < 10; i++) {
			sm.appendMessage(assistant("", { calls: [{ id: `c${i}`, name: "read", args: { path: `f${i}` } }] }));
			sm.appendMessage(toolResult(`c${i}`, tokens(100)));
		}
		const slots = sm.buildSessionProjection().entries;
		for (const keep of [150, 250, 333, 777]) {
			const cut = findCutPoint(slots, 0, slots.length, keep);
			let kept = 0;
			for (const slot of slots.slice(cut.firstKeptIndex)) for (const m of slot.messages) kept += estimate(m);
			expect(kept).toBeGreaterThanOrEqual(keep);
			expect(cut.isSplitTurn).toBe(true);
			expect(roleOf(slots[cut.firstKeptIndex])).toBe("assistant");
		}
	});

	it("splits one huge turn: the turn start is reported for a separate summary", () => {
		const sm = SessionManager.inMemory("/w");
		sm.appendMessage(user("old question"));
		sm.appendMessage(assistant("old answer"));
		sm.appendMessage(user("do the big job"));
		for (let i = 0; i < 20; i++) {
			sm.appendMessage(assistant("", { calls: [{ id: `c${i}`, name: "read", args: { path: `f${i}` } }] }));
			sm.appendMessage(toolResult(`c${i}`, tokens(50)));
		}
		const projection = sm.buildSessionProjection();
		const prep = prepareCompaction(projection, { ...settings, keepRecentTokens: 300 });
		expect(prep?.isSplitTurn).toBe(true);
		expect(prep?.messagesToSummarize.map((m) => m.role)).toEqual(["user", "assistant"]);
		expect(prep?.turnPrefixMessages[0]).toMatchObject({ role: "user", content: [{ text: "do the big job" }] });
		expect(prep?.turnPrefixMessages.at(-1)?.role).toBe("toolResult");
		const firstKept = projection.entries.find((s) => s.sourceEntry.id === prep?.firstKeptEntryId);
		expect(firstKept && roleOf(firstKept)).toBe("assistant");
		// File paths of both parts are tracked.
		expect([...(prep?.fileOps.read ?? [])]).toContain("f0");
	});

	it("moves the cut back over entries without model content (settings changes) so they stay with what follows", () => {
		const sm = SessionManager.inMemory("/w");
		sm.appendMessage(user(tokens(100)));
		sm.appendMessage(assistant(tokens(100)));
		sm.appendThinkingLevelChange("high");
		sm.appendMessage(user(tokens(50)));
		sm.appendMessage(assistant(tokens(50)));
		const slots = sm.buildSessionProjection().entries;
		const cut = findCutPoint(slots, 0, slots.length, 100);
		expect(slots[cut.firstKeptIndex].sourceEntry.type).toBe("thinking_level_change");
		expect(cut.isSplitTurn).toBe(false);
	});

	it("budget never reached: nothing to summarize", () => {
		const sm = SessionManager.inMemory("/w");
		sm.appendMessage(user("a"));
		sm.appendMessage(assistant("b"));
		expect(prepareCompaction(sm.buildSessionProjection(), settings)).toBeUndefined();
	});
});

describe("prepareCompaction", () => {
	it("summarizes from the previous kept boundary, carries the previous summary and file lists", () => {
		const sm = toolSession(6);
		const first = prepareCompaction(sm.buildSessionProjection(), settings);
		expect(first).toBeDefined();
		if (!first) return;
		sm.appendCompaction(
			"old notes\n\n<read-files>\nf0.ts\n</read-files>",
			first.firstKeptEntryId,
			first.tokensBefore,
			{ readFiles: ["f0.ts", "legacy.ts"], modifiedFiles: ["m.ts"] },
			false,
		);
		for (let t = 6; t < 10; t++) {
			sm.appendMessage(user(`q${t} ${tokens(20)}`));
			sm.appendMessage(assistant(`a${t} ${tokens(20)}`));
		}
		const projection = sm.buildSessionProjection();
		const second = prepareCompaction(projection, settings);
		expect(second?.previousSummary).toBe("old notes");
		// The span starts at the first kept entry of the previous compaction, not at the compaction.
		const firstKeptBefore = projection.entries[1].messages[0];
		expect(second?.messagesToSummarize[0]).toBe(firstKeptBefore);
		const summarizedReads = (second?.messagesToSummarize ?? []).flatMap((m) =>
			m.role === "assistant" ? m.content.flatMap((b) => (b.type === "toolCall" ? [String(b.arguments.path)] : [])) : [],
		);
		expect(summarizedReads.length).toBeGreaterThan(0);
		expect([...(second?.fileOps.read ?? [])].sort()).toEqual(
			[...new Set(["f0.ts", "legacy.ts", ...summarizedReads])].sort(),
		);
		expect([...(second?.fileOps.edited ?? [])]).toEqual(["m.ts"]);
	});

	it("returns undefined when the leaf is a compaction", () => {
		const sm = toolSession(4);
		const prep = prepareCompaction(sm.buildSessionProjection(), settings);
		sm.appendCompaction("s", prep?.firstKeptEntryId ?? null, 1);
		expect(prepareCompaction(sm.buildSessionProjection(), settings)).toBeUndefined();
	});

	it("omitted entries are neither summarized nor counted", () => {
		const sm = SessionManager.inMemory("/w");
		sm.appendMessage(user(`first ${tokens(100)}`));
		const failed = sm.appendMessage({ ...assistant("BROKEN"), stopReason: "error", errorMessage: "boom" });
		sm.appendContextEdit(failed, null);
		sm.appendMessage(assistant(tokens(100)));
		sm.appendMessage(user(tokens(100)));
		sm.appendMessage(assistant(tokens(100)));
		const prep = prepareCompaction(sm.buildSessionProjection(), settings);
		const texts = JSON.stringify(prep?.messagesToSummarize);
		expect(texts).not.toContain("BROKEN");
		expect(prep?.messagesToSummarize.map((m) => m.role)).toEqual(["user", "assistant"]);
	});
});
