// RELIABILITY.md "Providers and streams", end to end for EVERY adapter:
// AgentSession over real HTTP to the fake provider speaking each wire format.
// Overflow → compact → retry once; a second overflow is a clear error;
// 429/5xx retry policy; a reset or an unterminated stream is an error whose
// partial is never committed or replayed as a normal answer.
import { afterEach, describe, expect, it } from "vitest";
import { OVERFLOW_RECOVERY_FAILED } from "../../src/agent-session/recovery/recovery.js";
import { tokens } from "../compaction/messages.js";
import { type HttpSession, kind, makeHttpSession } from "../compaction/support.js";
import { kits } from "./provider-kits.js";

let s: HttpSession | undefined;
afterEach(async () => {
	await s?.close();
	s = undefined;
});

// Window 10 000, reserve 2 000: two 600-token prompts leave something to compact.
const settings = { compaction: { enabled: true, reserveTokens: 2000, keepRecentTokens: 1000 } };

function assistants(h: HttpSession) {
	return h.fileEntries().flatMap((e) => (e.type === "message" && e.message.role === "assistant" ? [e.message] : []));
}

describe.each(kits)("$api", (kit) => {
	const open = (extra: Record<string, unknown> = {}) =>
		makeHttpSession({ settings: { ...settings, ...extra }, model: { api: kit.api, contextWindow: 10_000 } });

	async function twoBigTurns(h: HttpSession) {
		h.fake.enqueue(kit.reply("one", 3000), kit.reply("two", 6000));
		await h.session.prompt(`prompt 1 ${tokens(600)}`);
		await h.session.prompt(`prompt 2 ${tokens(600)}`);
	}

	it("overflow is classified (not retried as transient): compact, then retry once, success", async () => {
		s = await open();
		await twoBigTurns(s);
		s.fake.enqueue(kit.overflow(), kit.reply("## Goal\nOVERFLOW SUMMARY", 700), kit.reply("three", 3000));
		await s.session.prompt("prompt 3");
		expect(s.fake.requests).toHaveLength(5);
		expect(s.fake.requests[4].rawBody).toContain("OVERFLOW SUMMARY");
		expect(s.events.filter((e) => e.type.startsWith("auto_retry"))).toEqual([]);
		const ends = s.events.filter((e) => e.type === "compaction_end");
		expect(ends).toMatchObject([{ reason: "overflow", willRetry: true }]);
		const failed = assistants(s).find((m) => m.stopReason === "error");
		expect(failed?.errorInfo?.kind).toBe("overflow");
		expect(s.fileEntries().map(kind).slice(-4)).toEqual([
			"message:assistant",
			"context_edit",
			"compaction",
			"message:assistant",
		]);
		expect(s.session.getLastAssistantText()).toBe("three");
		expect(s.session.recovery.settledError).toBeUndefined();
	});

	it("a second overflow is a clear error; the session stays usable", async () => {
		s = await open();
		await twoBigTurns(s);
		s.fake.enqueue(kit.overflow(), kit.reply("## Goal\nS", 700), kit.overflow());
		await s.session.prompt("prompt 3");
		expect(s.fake.requests).toHaveLength(5);
		expect(s.session.recovery.settledError).toBe(OVERFLOW_RECOVERY_FAILED);
		expect(s.fileEntries().filter((e) => e.type === "compaction")).toHaveLength(1);
		s.fake.enqueue(kit.reply("fine again"));
		await s.session.prompt("prompt 4");
		expect(s.session.getLastAssistantText()).toBe("fine again");
	});

	it("429 with a retry-after, then success: one visible retry of that delay, one answer in the context", async () => {
		s = await open();
		s.fake.enqueue(kit.rateLimit(5), kit.reply("ok"));
		await s.session.prompt("hello");
		expect(s.timers.delays).toEqual([5000]);
		const starts = s.events.filter((e) => e.type === "auto_retry_start");
		expect(starts).toMatchObject([{ attempt: 1, delayMs: 5000 }]);
		expect(s.events.filter((e) => e.type === "auto_retry_end")).toMatchObject([{ success: true, attempt: 1 }]);
		// No duplicate: the agent's context holds one assistant message, the file the failure + its omission.
		expect(s.session.messages.filter((m) => m.role === "assistant")).toHaveLength(1);
		expect(assistants(s).map((m) => m.stopReason)).toEqual(["error", "stop"]);
		s.fake.enqueue(kit.reply("second"));
		await s.session.prompt("next");
		expect(s.fake.requests[2].rawBody.match(/"ok"|ok/g)?.length ?? 0).toBeGreaterThan(0);
		expect(s.fake.requests[2].rawBody).not.toContain("Rate limited");
	});

	it("a retry-after above the maximum fails fast, naming the delay", async () => {
		s = await open();
		s.fake.enqueue(kit.rateLimit(3600));
		await s.session.prompt("hello");
		expect(s.fake.requests).toHaveLength(1);
		expect(s.timers.delays).toEqual([]);
		expect(s.session.recovery.settledError).toContain("60 min");
	});

	it("5xx beyond the retry limit: bounded attempts with backoff, a final error, session usable", async () => {
		s = await open();
		for (let i = 0; i < 4; i++) s.fake.enqueue(kit.serverError());
		await s.session.prompt("hello");
		expect(s.fake.requests).toHaveLength(4);
		expect(s.timers.delays).toEqual([2000, 4000, 8000]);
		expect(s.events.filter((e) => e.type === "auto_retry_end")).toMatchObject([{ success: false, attempt: 3 }]);
		expect(s.session.recovery.settledError).toBeTruthy();
		s.fake.enqueue(kit.reply("back"));
		await s.session.prompt("again");
		expect(s.session.getLastAssistantText()).toBe("back");
	});

	for (const fault of ["cut", "noTerminal"] as const) {
		const title =
			fault === "cut"
				? "a connection reset mid-stream is an error with the partial, never a normal answer"
				: "a clean end without the terminal event is an error, never done";
		it(title, async () => {
			s = await open({ retry: { enabled: false } });
			s.fake.enqueue(kit[fault]("PARTIAL-WORDS"));
			await s.session.prompt("hello");
			const [failed] = assistants(s);
			expect(failed.stopReason).toBe("error");
			expect(JSON.stringify(failed.content)).toContain("PARTIAL-WORDS");
			expect(s.events.some((e) => e.type === "message_end" && e.message.role === "assistant")).toBe(true);
			// The next request does not replay the partial as if the model had said it.
			s.fake.enqueue(kit.reply("clean"));
			await s.session.prompt("again");
			expect(s.fake.requests[1].rawBody).not.toContain("PARTIAL-WORDS");
			expect(s.session.getLastAssistantText()).toBe("clean");
		});
	}
});
