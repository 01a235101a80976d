// Compaction end to end: AgentSession over real HTTP against the fake
// provider, with usage figures per turn; the session file is checked each time.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { chatError } from "../../../ai/test/support/fake-provider/openai-chat.js";
import { SUMMARIZER_SYSTEM_PROMPT } from "../../src/agent-session/compaction/prompts.js";
import type { CompactionResult } from "../../src/agent-session/compaction/summarize.js";
import { OVERFLOW_RECOVERY_FAILED } from "../../src/agent-session/recovery/recovery.js";
import { COMPACTION_SUMMARY_PREFIX } from "../../src/messages.js";
import type { CompactionEntry, SessionEntry } from "../../src/session/types.js";
import { tokens } from "./messages.js";
import { type HttpSession, kind, makeHttpSession, requestTexts, text, toolCall } from "./support.js";

let s: HttpSession | undefined;
afterEach(async () => {
	await s?.close();
	s = undefined;
});

// Window 10 000, reserve 2 000: compaction above 8 000 tokens; 1 000 recent tokens kept.
const settings = { compaction: { enabled: true, reserveTokens: 2000, keepRecentTokens: 1000 } };
const model = { contextWindow: 10_000 };

function idOfUser(entries: SessionEntry[], textPart: string): string {
	const e = entries.find(
		(x) => x.type === "message" && x.message.role === "user" && JSON.stringify(x).includes(textPart),
	);
	if (!e) throw new Error(`no user entry with ${textPart}`);
	return e.id;
}

/** An answer of exactly 12 estimated tokens. */
const ANSWER_12 = "twelve tokens of answer, forty-eight characters.";

function compactionEvents(s: HttpSession) {
	return s.events.filter((e) => e.type === "compaction_start" || e.type === "compaction_end");
}

describe("threshold compaction", () => {
	it("fires after the turn that crosses the threshold; the next request holds the summary plus the kept messages", async () => {
		s = await makeHttpSession({ settings, model });
		const big = (n: number) => `prompt ${n} ${tokens(600, String(n))}`;
		s.fake.enqueue(text("one", 3000), text("two", 5000));
		await s.session.prompt(big(1));
		await s.session.prompt(big(2));
		expect(compactionEvents(s)).toEqual([]);
		expect(s.fake.requests).toHaveLength(2);

		s.fake.enqueue(text("three", 8500), text("## Goal\nSUMMARY-OF-TURNS", 900, 40));
		await s.session.prompt(big(3));
		// Turn 3 (8 505 tokens) crossed the threshold: one summary request after it, before agent_settled.
		expect(s.fake.requests).toHaveLength(4);
		const summaryReq = requestTexts(s.fake.requests[3]);
		expect(summaryReq[0]).toEqual({ role: "system", text: SUMMARIZER_SYSTEM_PROMPT });
		expect(summaryReq[1].text).toContain("<conversation>\n[User]: prompt 1 ");
		expect(summaryReq[1].text).toContain("[Assistant]: one");
		// At least 1 000 (estimated) tokens stay verbatim: walking back, prompt 3 and its answer are
		// ~604, prompt 2 reaches the budget, and its turn (~603) is under it, so the cut is at prompt 2.
		expect(summaryReq[1].text).not.toContain("prompt 2");
		const body = s.fake.requests[3].body as { max_tokens?: number; max_completion_tokens?: number };
		expect(body.max_tokens ?? body.max_completion_tokens).toBe(1600);

		const types = s.eventTypes();
		expect(types.slice(types.lastIndexOf("agent_end"))).toEqual([
			"agent_end",
			"compaction_start",
			"compaction_end",
			"agent_settled",
		]);
		const entries = s.fileEntries();
		const compaction = entries.find((e) => e.type === "compaction") as CompactionEntry;
		expect(compaction).toMatchObject({
			firstKeptEntryId: idOfUser(entries, "prompt 2"),
			tokensBefore: 8505,
			details: { readFiles: [], modifiedFiles: [] },
			fromHook: false,
		});
		expect(compaction.summary).toBe("## Goal\nSUMMARY-OF-TURNS");
		expect(compaction.usage?.input).toBe(900);
		const end = compactionEvents(s)[1];
		expect(end).toMatchObject({ reason: "threshold", aborted: false, willRetry: false });
		const result = (end as { result: CompactionResult }).result;
		expect(result).toMatchObject({ summary: compaction.summary, firstKeptEntryId: compaction.firstKeptEntryId });
		expect(result.estimatedTokensAfter).toBeLessThan(2000);
		// Nothing was deleted: every earlier entry is still in the file.
		expect(entries.filter((e) => kind(e) === "message:user")).toHaveLength(3);

		s.fake.enqueue(text("four"));
		await s.session.prompt("prompt 4");
		const next = requestTexts(s.fake.requests[4]);
		expect(next.map((m) => m.role)).toEqual(["system", "user", "user", "assistant", "user", "assistant", "user"]);
		expect(next[1].text).toBe(`${COMPACTION_SUMMARY_PREFIX}## Goal\nSUMMARY-OF-TURNS\n</summary>`);
		expect(next[2].text).toContain("prompt 2");
		expect(next[4].text).toContain("prompt 3");
		expect(next[5].text).toBe("three");
		expect(next[6].text).toBe("prompt 4");
		// The system prompt survives the compaction (the checkpoint leads the context).
		expect(next[0].text).toContain("You are a test agent.");
	});

	it("compacts between the turns of a run; a cut landing on a tool result moves to its call", async () => {
		s = await makeHttpSession({ settings, model });
		// The tool result alone exceeds keepRecentTokens: the cut would fall on it, so it moves to the call.
		writeFileSync(join(s.cwd, "notes.txt"), tokens(1100, "n"));
		s.fake.enqueue(text("earlier answer", 3000));
		await s.session.prompt(`earlier ${tokens(300, "e")}`);
		// One run: a read whose usage crosses the threshold, then the final answer.
		s.fake.enqueue(
			toolCall("read", { path: "notes.txt" }, 8600),
			text("## Goal\nNOTES-A", 500),
			text("## Goal\nNOTES-B", 500),
			text("done reading", 2000),
		);
		await s.session.prompt("read notes.txt");
		// Split turn: a history summary and a turn-prefix summary, then the next turn of the same run.
		expect(s.fake.requests).toHaveLength(5);
		expect(requestTexts(s.fake.requests[2])[0].text).toBe(SUMMARIZER_SYSTEM_PROMPT);
		expect(requestTexts(s.fake.requests[3])[0].text).toBe(SUMMARIZER_SYSTEM_PROMPT);
		const next = requestTexts(s.fake.requests[4]);
		expect(next.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool"]);
		expect(next[1].text).toContain("## Earlier Part Of The Current Turn");
		expect(next[2].text).toContain("notes.txt");
		expect(next[3].text).toContain("nnnn");
		const types = s.eventTypes();
		expect(types.indexOf("compaction_end")).toBeLessThan(types.lastIndexOf("turn_start"));
		expect(types.filter((t) => t === "agent_end")).toHaveLength(2);
		const entries = s.fileEntries();
		const kinds = entries.map(kind);
		const at = kinds.indexOf("compaction");
		expect(kinds.slice(at - 3)).toEqual([
			"message:user",
			"message:assistant",
			"message:toolResult",
			"compaction",
			"message:assistant",
		]);
		expect((entries[at] as CompactionEntry).firstKeptEntryId).toBe(entries[at - 2].id);
		expect((entries[at] as CompactionEntry).details).toEqual({ readFiles: [], modifiedFiles: [] });
	});
});

describe("abort", () => {
	it("Esc during a between-turns compaction stops the run; nothing is stored, every tool call has its result", async () => {
		s = await makeHttpSession({ settings, model });
		writeFileSync(join(s.cwd, "notes.txt"), tokens(1100, "n"));
		s.fake.enqueue(text("earlier answer", 3000));
		await s.session.prompt(`earlier ${tokens(300, "e")}`);
		// The cut splits the turn: two summary requests (history, turn prefix), both left hanging.
		const hang = { kind: "sse" as const, bytes: Buffer.from(""), hangAfterBytes: 0 };
		s.fake.enqueue(toolCall("read", { path: "notes.txt" }, 8600), hang, hang);
		const done = s.session.prompt("read notes.txt");
		while (s.fake.requests.length < 4) await new Promise((r) => setTimeout(r, 5));
		expect(s.events.filter((e) => e.type === "compaction_start")).toHaveLength(1);
		const t0 = Date.now();
		await s.session.abort();
		await done;
		expect(Date.now() - t0).toBeLessThan(1000);
		expect(s.events.filter((e) => e.type === "compaction_end")).toEqual([
			{ type: "compaction_end", reason: "threshold", result: undefined, aborted: true, willRetry: false },
		]);
		expect(s.events.at(-1)).toEqual({ type: "agent_settled", aborted: true });
		const kinds = s.fileEntries().map(kind);
		expect(kinds).not.toContain("compaction");
		expect(kinds.slice(-4)).toEqual(["message:user", "message:assistant", "message:toolResult", "message:assistant"]);
		const last = s.fileEntries().at(-1);
		expect(last?.type === "message" && last.message.role === "assistant" && last.message.stopReason).toBe("aborted");
		// The session goes on normally afterwards, with a valid transcript (call, result, aborted reply).
		s.session.setAutoCompactionEnabled(false);
		s.fake.enqueue(text("fine", 1000));
		await s.session.prompt("continue");
		expect(s.session.getLastAssistantText()).toBe("fine");
		expect(requestTexts(s.fake.requests.at(-1) ?? s.fake.requests[0]).map((m) => m.role)).toEqual([
			"system",
			"user",
			"assistant",
			"user",
			"assistant",
			"tool",
			"user",
		]);
	});
});

describe("context estimate and pre-prompt check", () => {
	it("keeps at least keepRecentTokens: a 1,000-token last prompt stays verbatim with budget 500, however many tokens usage reports", async () => {
		s = await makeHttpSession({
			settings: { compaction: { enabled: true, reserveTokens: 2000, keepRecentTokens: 500 } },
			model: { contextWindow: 200_000 },
		});
		s.fake.enqueue(text("first answer", 2000));
		await s.session.prompt(`early ${tokens(300)}`);
		// The provider counts far more than the characters suggest (a real system prompt and tool
		// declarations): that must not shrink what is kept below the last prompt.
		s.fake.enqueue(text(ANSWER_12, 199_000), text("## Goal\nKEPT-PROMPT-TEST", 500, 20));
		await s.session.prompt(`LAST-PROMPT ${tokens(1000)}`);
		expect(s.fake.requests).toHaveLength(3);
		const summaryReq = requestTexts(s.fake.requests[2]);
		expect(summaryReq[0].text).toBe(SUMMARIZER_SYSTEM_PROMPT);
		expect(summaryReq[1].text).toContain("[User]: early");
		expect(summaryReq[1].text).not.toContain("LAST-PROMPT");
		const entries = s.fileEntries();
		const compaction = entries.find((e) => e.type === "compaction") as CompactionEntry;
		expect(compaction.firstKeptEntryId).toBe(idOfUser(entries, "LAST-PROMPT"));
		s.fake.enqueue(text("next"));
		await s.session.prompt("and now?");
		const next = requestTexts(s.fake.requests[3]);
		expect(next.map((m) => m.role)).toEqual(["system", "user", "user", "assistant", "user"]);
		expect(next[2].text).toContain("LAST-PROMPT");
		expect(next[3].text).toBe(ANSWER_12);
	});

	it("getContextUsage follows compaction; a prompt over the threshold compacts before its request", async () => {
		s = await makeHttpSession({ settings, model });
		s.fake.enqueue(text("one", 3000), text("two", 6000));
		await s.session.prompt(`prompt 1 ${tokens(600)}`);
		await s.session.prompt(`prompt 2 ${tokens(600)}`);
		expect(s.session.getContextUsage()).toMatchObject({ tokens: 6005, contextWindow: 10_000 });
		expect(s.session.getContextUsage().percent).toBeCloseTo(60.05, 6);
		// Threshold lowered between prompts (as a switch to a smaller model would): the next prompt compacts first.
		s.session.settings.setCompactionEnabled(true);
		s.session.settings.set(["compaction", "reserveTokens"], 5000);
		s.session.settings.set(["compaction", "keepRecentTokens"], 500);
		s.fake.enqueue(text("## Goal\nPRE-PROMPT", 100), text("three", 900));
		await s.session.prompt("prompt 3");
		expect(requestTexts(s.fake.requests[2])[0].text).toBe(SUMMARIZER_SYSTEM_PROMPT);
		const third = requestTexts(s.fake.requests[3]);
		expect(third[1].text).toContain("PRE-PROMPT");
		expect(third.at(-1)).toEqual({ role: "user", text: "prompt 3" });
		const kinds = s.fileEntries().map(kind);
		expect(kinds.slice(-3)).toEqual(["compaction", "message:user", "message:assistant"]);
		expect(s.session.getContextUsage().tokens).toBe(905);
	});
});

describe("overflow recovery", () => {
	const overflow = () =>
		chatError(
			400,
			"This model's maximum context length is 10000 tokens. However, your messages resulted in 12000 tokens.",
			{
				code: "context_length_exceeded",
			},
		);

	it("overflow → compact → retry → success; the failed reply stays in the file, omitted by a context_edit", async () => {
		s = await makeHttpSession({ settings, model });
		s.fake.enqueue(text("one", 3000), text("two", 6000));
		await s.session.prompt(`prompt 1 ${tokens(600)}`);
		await s.session.prompt(`prompt 2 ${tokens(600)}`);
		s.fake.enqueue(overflow(), text("## Goal\nOVERFLOW SUMMARY", 700), text("three", 3000));
		await s.session.prompt("prompt 3");
		expect(s.fake.requests).toHaveLength(5);
		const retry = requestTexts(s.fake.requests[4]);
		expect(retry[1].text).toContain("OVERFLOW SUMMARY");
		expect(retry.at(-1)).toEqual({ role: "user", text: "prompt 3" });
		expect(retry.some((m) => m.text.includes("maximum context length"))).toBe(false);
		expect(compactionEvents(s).map((e) => [e.type, e.reason, "willRetry" in e ? e.willRetry : undefined])).toEqual([
			["compaction_start", "overflow", undefined],
			["compaction_end", "overflow", true],
		]);
		expect(s.events.filter((e) => e.type.startsWith("auto_retry"))).toEqual([]);
		expect(s.events.at(-1)).toEqual({ type: "agent_settled", aborted: false });
		const entries = s.fileEntries();
		const kinds = entries.map(kind);
		expect(kinds.slice(-5)).toEqual([
			"message:user",
			"message:assistant",
			"context_edit",
			"compaction",
			"message:assistant",
		]);
		const failed = entries.at(-4);
		expect(failed?.type === "message" && failed.message.role === "assistant" && failed.message.errorInfo?.kind).toBe(
			"overflow",
		);
		expect(entries.at(-3)).toMatchObject({ type: "context_edit", targetId: failed?.id, replacement: null });
		expect(s.session.getLastAssistantText()).toBe("three");
	});

	it("a second overflow ends the run with a clear error", async () => {
		s = await makeHttpSession({ settings, model });
		s.fake.enqueue(text("one", 3000), text("two", 6000));
		await s.session.prompt(`prompt 1 ${tokens(600)}`);
		await s.session.prompt(`prompt 2 ${tokens(600)}`);
		s.fake.enqueue(overflow(), text("## Goal\nS", 700), overflow());
		await s.session.prompt("prompt 3");
		expect(s.fake.requests).toHaveLength(5);
		const ends = s.events.filter((e) => e.type === "compaction_end");
		expect(ends).toHaveLength(2);
		expect(ends[1]).toEqual({
			type: "compaction_end",
			reason: "overflow",
			result: undefined,
			aborted: false,
			willRetry: false,
			errorMessage: OVERFLOW_RECOVERY_FAILED,
		});
		expect(s.events.at(-1)).toEqual({ type: "agent_settled", aborted: false });
		expect(s.session.recovery.settledError).toBe(OVERFLOW_RECOVERY_FAILED);
		const entries = s.fileEntries();
		expect(entries.filter((e) => e.type === "compaction")).toHaveLength(1);
		const last = entries.at(-1);
		expect(last?.type === "message" && last.message.role === "assistant" && last.message.stopReason).toBe("error");
	});

	it("silent overflow (usage above the window) is recovered the same way", async () => {
		s = await makeHttpSession({ settings, model });
		s.fake.enqueue(text("one", 3000), text("two", 6000));
		await s.session.prompt(`prompt 1 ${tokens(600)}`);
		await s.session.prompt(`prompt 2 ${tokens(600)}`);
		s.fake.enqueue(text("garbled", 12_000), text("## Goal\nS", 700), text("clean", 3000));
		await s.session.prompt("prompt 3");
		expect(s.fake.requests).toHaveLength(5);
		expect(s.session.getLastAssistantText()).toBe("clean");
		expect(s.fileEntries().map(kind).slice(-4)).toEqual([
			"message:assistant",
			"context_edit",
			"compaction",
			"message:assistant",
		]);
	});
});

describe("manual compaction", () => {
	it("compact(instructions) focuses the summary; a second compaction merges the previous notes", async () => {
		s = await makeHttpSession({
			settings: { compaction: { enabled: false, reserveTokens: 2000, keepRecentTokens: 100 } },
			model,
		});
		writeFileSync(join(s.cwd, "a.txt"), "alpha");
		s.fake.enqueue(toolCall("read", { path: "a.txt" }), text("read it"), text("second"));
		await s.session.prompt(`first ${tokens(200)}`);
		await s.session.prompt(`second ${tokens(200)}`);
		s.fake.enqueue(text("## Goal\nNOTES-1"));
		const first = await s.session.compact("the file names");
		expect(requestTexts(s.fake.requests[3])[1].text).toContain("Give particular attention to: the file names");
		expect(first.summary).toBe("## Goal\nNOTES-1\n\n<read-files>\na.txt\n</read-files>");
		expect(first.details).toEqual({ readFiles: ["a.txt"], modifiedFiles: [] });
		expect(s.events.find((e) => e.type === "compaction_start")).toEqual({ type: "compaction_start", reason: "manual" });

		s.fake.enqueue(text("third"), text("fourth"));
		await s.session.prompt(`third ${tokens(200)}`);
		await s.session.prompt(`fourth ${tokens(200)}`);
		s.fake.enqueue(text("## Goal\nNOTES-2"));
		const second = await s.session.compact();
		const req = requestTexts(s.fake.requests.at(-1) ?? s.fake.requests[0])[1].text;
		expect(req).toContain("<previous-notes>\n## Goal\nNOTES-1\n</previous-notes>");
		expect(second.details).toEqual({ readFiles: ["a.txt"], modifiedFiles: [] });
		expect(s.fileEntries().filter((e) => e.type === "compaction")).toHaveLength(2);
	});

	it("compaction can be cancelled while the summary is requested; nothing is stored", async () => {
		s = await makeHttpSession({ settings, model });
		s.fake.enqueue(text("one"), text("two"));
		await s.session.prompt(`first ${tokens(1200)}`);
		await s.session.prompt(`second ${tokens(1200)}`);
		s.fake.enqueue({ kind: "sse", bytes: Buffer.from(""), hangAfterBytes: 0 });
		const pending = s.session.compact();
		while (s.fake.requests.length < 3) await new Promise((r) => setTimeout(r, 5));
		expect(s.session.isCompacting).toBe(true);
		s.session.abortCompaction();
		await expect(pending).rejects.toThrow("Compaction aborted");
		expect(s.events.filter((e) => e.type === "compaction_end")).toEqual([
			{ type: "compaction_end", reason: "manual", result: undefined, aborted: true, willRetry: false },
		]);
		expect(s.fileEntries().some((e) => e.type === "compaction")).toBe(false);
	});

	it("a transient failure of the summary request is retried with the retry policy", async () => {
		s = await makeHttpSession({ settings, model });
		s.fake.enqueue(text("one"), text("two"));
		await s.session.prompt(`first ${tokens(1200)}`);
		await s.session.prompt(`second ${tokens(1200)}`);
		s.fake.enqueue(chatError(503, "Service unavailable", { type: "server_error" }), text("## Goal\nAFTER RETRY"));
		const result = await s.session.compact();
		expect(result.summary).toBe("## Goal\nAFTER RETRY");
		expect(s.timers.delays).toEqual([2000]);
		expect(s.fake.requests).toHaveLength(4);
		expect(requestTexts(s.fake.requests[3])).toEqual(requestTexts(s.fake.requests[2]));
		expect(s.fileEntries().filter((e) => e.type === "compaction")).toHaveLength(1);
	});

	it("nothing to compact is a clear error", async () => {
		s = await makeHttpSession({ settings, model });
		s.fake.enqueue(text("one"));
		await s.session.prompt("short");
		await expect(s.session.compact()).rejects.toThrow("Nothing to compact");
		expect(s.fake.requests).toHaveLength(1);
	});

	it("a split turn gets a separate summary of its early part", async () => {
		s = await makeHttpSession({
			settings: { compaction: { enabled: false, reserveTokens: 2000, keepRecentTokens: 600 } },
			model,
		});
		for (let i = 0; i < 4; i++) writeFileSync(join(s.cwd, `f${i}.txt`), tokens(300, String(i)));
		s.fake.enqueue(text("old answer"));
		await s.session.prompt("old question");
		for (let i = 0; i < 4; i++) s.fake.enqueue(toolCall("read", { path: `f${i}.txt` }));
		s.fake.enqueue(text("all read"));
		await s.session.prompt("read all four files");
		s.fake.enqueue(text("HISTORY-NOTES"), text("PREFIX-NOTES"));
		const result = await s.session.compact();
		const summaryRequests = s.fake.requests.slice(-2).map((r) => requestTexts(r)[1].text);
		const prefixReq = summaryRequests.find((t) => t.includes("first part of a single long turn"));
		const historyReq = summaryRequests.find((t) => !t.includes("first part of a single long turn"));
		expect(prefixReq).toContain("[User]: read all four files");
		expect(historyReq).toContain("[User]: old question");
		expect(historyReq).not.toContain("read all four files");
		expect(result.summary).toMatch(/NOTES\n\n---\n\n## Earlier Part Of The Current Turn\n\n.*NOTES/);
		const entries = s.fileEntries();
		const kept = entries.find((e) => e.id === result.firstKeptEntryId);
		expect(kept?.type === "message" && kept.message.role).toBe("assistant");
	});
});
