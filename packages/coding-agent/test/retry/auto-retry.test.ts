// Auto-retry of transient provider errors, over real HTTP against the fake
// provider, with recording timers for the backoff.
import { writeFileSync } from "node:fs";
import type { ServerResponse } from "node:http";
import { join } from "node:path";
import { Writable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { ChatStream, chatError } from "../../../ai/test/support/fake-provider/openai-chat.js";
import type { Script } from "../../../ai/test/support/fake-provider/server.js";
import type { AgentSessionEvent } from "../../src/agent-session/events.js";
import { runPrintMode } from "../../src/modes/print-mode.js";
import type { ContextEditEntry, SessionEntry } from "../../src/session/types.js";
import { type HttpSession, kind, makeHttpSession, requestTexts, text, toolCall } from "../compaction/support.js";

let s: HttpSession | undefined;
afterEach(async () => {
	await s?.close();
	s = undefined;
});

function retryEvents(events: AgentSessionEvent[]) {
	return events.filter(
		(e) => e.type === "auto_retry_start" || e.type === "auto_retry_end" || e.type === "agent_settled",
	);
}

/** The failed reply is in the file, followed by a context_edit omitting it, then the successful reply. */
function expectRecordedRetry(entries: SessionEntry[], failures: number): void {
	const kinds = entries.map(kind);
	const tail = kinds.slice(kinds.indexOf("message:user"));
	const expected = ["message:user"];
	for (let i = 0; i < failures; i++) expected.push("message:assistant", "context_edit");
	expected.push("message:assistant");
	expect(tail).toEqual(expected);
	const userAt = kinds.indexOf("message:user");
	for (let i = 0; i < failures; i++) {
		const failed = entries[userAt + 1 + 2 * i];
		const edit = entries[userAt + 2 + 2 * i] as ContextEditEntry;
		expect(failed.type === "message" && failed.message.role === "assistant" && failed.message.stopReason).toBe("error");
		expect(edit).toMatchObject({ targetId: failed.id, replacement: null, parentId: failed.id });
	}
	const last = entries.at(-1);
	expect(last?.type === "message" && last.message.role === "assistant" && last.message.stopReason).toBe("stop");
}

const resetConnection: Script = {
	kind: "handler",
	handle: (_req, res: ServerResponse) => {
		res.socket?.destroy();
	},
};

describe("auto-retry", () => {
	it("500 then success: one retry after 2 s, failed reply kept in the file and omitted from the next request", async () => {
		s = await makeHttpSession();
		s.fake.enqueue(chatError(500, "Internal server error", { type: "server_error" }), text("recovered"));
		await s.session.prompt("hello");
		expect(s.timers.delays).toEqual([2000]);
		expect(retryEvents(s.events)).toEqual([
			{
				type: "auto_retry_start",
				attempt: 1,
				maxAttempts: 3,
				delayMs: 2000,
				errorMessage: "500 Internal server error",
			},
			{ type: "auto_retry_end", success: true, attempt: 1 },
			{ type: "agent_settled", aborted: false },
		]);
		expect(s.fake.requests).toHaveLength(2);
		expect(requestTexts(s.fake.requests[1]).map((m) => m.role)).toEqual(["system", "user"]);
		expectRecordedRetry(s.fileEntries(), 1);
		expect(s.session.getLastAssistantText()).toBe("recovered");
		expect(s.session.messages.filter((m) => m.role === "assistant")).toHaveLength(1);
	});

	it("auto_retry_end(success) comes as soon as the retried request answers, not when the run ends", async () => {
		s = await makeHttpSession();
		writeFileSync(join(s.cwd, "notes.txt"), "alpha\n");
		s.fake.enqueue(
			chatError(503, "Service unavailable", { type: "server_error" }),
			toolCall("read", { path: "notes.txt" }),
			text("done reading"),
		);
		const seen: string[] = [];
		s.session.subscribe((e) => {
			if (e.type === "message_end" && e.message.role === "assistant") seen.push(`reply:${e.message.stopReason}`);
			else if (e.type === "tool_execution_start") seen.push("tool");
			else if (e.type === "auto_retry_end") seen.push(`retry_end:${e.success}`);
			else if (e.type === "agent_settled") seen.push("settled");
		});
		await s.session.prompt("read it");
		expect(seen).toEqual(["reply:error", "reply:toolUse", "retry_end:true", "tool", "reply:stop", "settled"]);
		expect(s.events.filter((e) => e.type === "auto_retry_end")).toEqual([
			{ type: "auto_retry_end", success: true, attempt: 1 },
		]);
	});

	it("429 with retry-after longer than the backoff waits the server's delay", async () => {
		s = await makeHttpSession();
		s.fake.enqueue(
			chatError(429, "Rate limit reached", { type: "rate_limit_error", headers: { "retry-after": "5" } }),
			text("ok"),
		);
		await s.session.prompt("hello");
		expect(s.timers.delays).toEqual([5000]);
		expect(retryEvents(s.events)[0]).toMatchObject({ type: "auto_retry_start", attempt: 1, delayMs: 5000 });
		expectRecordedRetry(s.fileEntries(), 1);
	});

	it("529 overloaded, connection reset and a cut stream: backoff 2 s, 4 s, 8 s, then success", async () => {
		s = await makeHttpSession();
		// A stream that stops without a finish reason or [DONE]: cut, not done.
		const cut = new ChatStream().role().text("partial ", "answer").script();
		s.fake.enqueue(chatError(529, "Overloaded", { type: "overloaded_error" }), resetConnection, cut, text("finally"));
		await s.session.prompt("hello");
		expect(s.timers.delays).toEqual([2000, 4000, 8000]);
		const starts = s.events.filter((e) => e.type === "auto_retry_start");
		expect(starts.map((e) => (e.type === "auto_retry_start" ? e.attempt : 0))).toEqual([1, 2, 3]);
		expect(s.events.filter((e) => e.type === "auto_retry_end")).toEqual([
			{ type: "auto_retry_end", success: true, attempt: 3 },
		]);
		expect(s.fake.requests).toHaveLength(4);
		// Each retry request carries only the prompt: no failed attempt leaks into the context.
		for (const req of s.fake.requests.slice(1)) {
			expect(requestTexts(req).map((m) => m.role)).toEqual(["system", "user"]);
		}
		const entries = s.fileEntries();
		expectRecordedRetry(entries, 3);
		// The cut stream's partial text is recorded as an error, never as an answer.
		const partial = entries.find(
			(e) => e.type === "message" && e.message.role === "assistant" && JSON.stringify(e.message).includes("partial"),
		);
		expect(partial?.type === "message" && partial.message.role === "assistant" && partial.message.stopReason).toBe(
			"error",
		);
	});

	it("more failures than maxRetries: bounded attempts, a final error, and the session stays usable", async () => {
		s = await makeHttpSession();
		for (let i = 0; i < 4; i++) s.fake.enqueue(chatError(503, "Service unavailable", { type: "server_error" }));
		await s.session.prompt("hello");
		expect(s.timers.delays).toEqual([2000, 4000, 8000]);
		expect(s.fake.requests).toHaveLength(4);
		expect(retryEvents(s.events).slice(-2)).toEqual([
			{ type: "auto_retry_end", success: false, attempt: 3, finalError: "503 Service unavailable" },
			{ type: "agent_settled", aborted: false },
		]);
		s.fake.enqueue(text("back"));
		await s.session.prompt("again");
		expect(s.session.getLastAssistantText()).toBe("back");
		expect(s.fake.requests).toHaveLength(5);
	});

	it("auth and bad-request errors are not retried", async () => {
		s = await makeHttpSession();
		s.fake.enqueue(chatError(401, "Invalid API key", { type: "invalid_request_error" }));
		await s.session.prompt("hello");
		s.fake.enqueue(chatError(400, "Invalid value for 'tools'", { type: "invalid_request_error" }));
		await s.session.prompt("again");
		expect(s.fake.requests).toHaveLength(2);
		expect(s.timers.delays).toEqual([]);
		expect(s.events.filter((e) => e.type.startsWith("auto_retry"))).toEqual([]);
		expect(s.fileEntries().filter((e) => e.type === "context_edit")).toEqual([]);
	});

	it("retry-after above the allowed maximum fails fast with a message naming the delay", async () => {
		s = await makeHttpSession();
		s.fake.enqueue(
			chatError(429, "Rate limit reached", { type: "rate_limit_error", headers: { "retry-after": "600" } }),
		);
		await s.session.prompt("hello");
		expect(s.fake.requests).toHaveLength(1);
		expect(s.timers.delays).toEqual([]);
		const end = s.events.find((e) => e.type === "auto_retry_end");
		expect(end).toMatchObject({ success: false, attempt: 0 });
		expect(end?.type === "auto_retry_end" && end.finalError).toContain("10 min");
		expect(s.session.recovery.settledError).toBe(end?.type === "auto_retry_end" ? end.finalError : "");
	});

	it("print mode reports the fail-fast reason on stderr and exits 1", async () => {
		s = await makeHttpSession();
		s.fake.enqueue(
			chatError(429, "Rate limit reached", { type: "rate_limit_error", headers: { "retry-after": "3600" } }),
		);
		let out = "";
		let err = "";
		const code = await runPrintMode(s.session, {
			format: "text",
			initial: { text: "hello", images: [] },
			rest: [],
			stdout: new Writable({
				write: (c, _e, cb) => {
					out += c;
					cb();
				},
			}),
			stderr: new Writable({
				write: (c, _e, cb) => {
					err += c;
					cb();
				},
			}),
		});
		expect(code).toBe(1);
		expect(out).toBe("");
		expect(err).toBe(
			"429 Rate limit reached (the provider asked to wait 60 min before retrying, longer than the 1 min allowed; not retrying)\n",
		);
	});

	it("retry.maxAgentDelayMs caps the wait: a longer retry-after fails fast, naming both delays", async () => {
		s = await makeHttpSession({ settings: { retry: { maxAgentDelayMs: 3000 } } });
		s.fake.enqueue(chatError(429, "Slow down", { type: "rate_limit_error", headers: { "retry-after": "5" } }));
		await s.session.prompt("hello");
		expect(s.fake.requests).toHaveLength(1);
		expect(s.session.recovery.settledError).toBe(
			"429 Slow down (the provider asked to wait 5 s before retrying, longer than the 3 s allowed; not retrying)",
		);
	});

	it("retry.enabled false: no retry", async () => {
		s = await makeHttpSession({ settings: { retry: { enabled: false } } });
		s.fake.enqueue(chatError(500, "Internal server error", { type: "server_error" }));
		await s.session.prompt("hello");
		expect(s.fake.requests).toHaveLength(1);
		expect(s.events.filter((e) => e.type.startsWith("auto_retry"))).toEqual([]);
	});

	it("a follow-up queued during the backoff wait is delivered after the retry, before agent_settled", async () => {
		s = await makeHttpSession();
		s.timers.hold = true;
		s.fake.enqueue(chatError(502, "Bad gateway", { type: "server_error" }), text("answer"), text("follow-up answer"));
		const done = s.session.prompt("hello");
		await waitFor(() => s?.timers.waiting === 1);
		await expect(s.session.prompt("and then?")).rejects.toThrow("A run is in progress");
		await s.session.prompt("and then?", { streamingBehavior: "followUp" });
		s.timers.release();
		await done;
		expect(s.fake.requests).toHaveLength(3);
		expect(requestTexts(s.fake.requests[2]).map((m) => `${m.role}:${m.text.split("\n")[0]}`)).toEqual([
			"system:You are a test agent.",
			"user:hello",
			"assistant:answer",
			"user:and then?",
		]);
		// The chain ended when the retried request answered, before the follow-up ran.
		const types = s.eventTypes();
		const end = types.indexOf("auto_retry_end");
		expect(types.slice(end - 1, end + 1)).toEqual(["message_end", "auto_retry_end"]);
		expect(types.slice(-2)).toEqual(["agent_end", "agent_settled"]);
		expect(s.events.filter((e) => e.type === "agent_settled")).toEqual([{ type: "agent_settled", aborted: false }]);
		expect(s.events.at(-1)).toEqual({ type: "agent_settled", aborted: false });
		expect(s.session.getLastAssistantText()).toBe("follow-up answer");
	});

	it("abort during the backoff wait ends the chain at once; nothing is retried", async () => {
		s = await makeHttpSession();
		s.timers.hold = true;
		s.fake.enqueue(chatError(500, "Internal server error", { type: "server_error" }), text("never"));
		const done = s.session.prompt("hello");
		await waitFor(() => s?.timers.waiting === 1);
		expect(s.session.isRetrying).toBe(true);
		expect(s.session.isStreaming).toBe(true);
		await s.session.abort();
		await done;
		expect(retryEvents(s.events).slice(1)).toEqual([
			{ type: "auto_retry_end", success: false, attempt: 1, finalError: "Retry cancelled" },
			{ type: "agent_settled", aborted: true },
		]);
		expect(s.fake.requests).toHaveLength(1);
		expect(s.timers.waiting).toBe(0);
		expect(s.session.isStreaming).toBe(false);
		// The failed reply stays recorded; no edit was made since nothing was retried.
		expect(s.fileEntries().map(kind).slice(-2)).toEqual(["message:user", "message:assistant"]);
	});
});

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
	const start = Date.now();
	while (!condition()) {
		if (Date.now() - start > timeoutMs) throw new Error("condition not reached");
		await new Promise((r) => setTimeout(r, 5));
	}
}
