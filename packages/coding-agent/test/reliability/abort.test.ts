// RELIABILITY.md "Esc during streaming, thinking, tool execution, retry wait"
// (plus a recovery compaction), in process: AgentSession.abort() over real HTTP.
// Each phase stops within ~1 s, the session file records the aborted turn,
// every tool call has a result, and the next request is a valid transcript.
import { afterEach, describe, expect, it } from "vitest";
import { ChatStream, chatError } from "../../../ai/test/support/fake-provider/openai-chat.js";
import type { Script, SseScript } from "../../../ai/test/support/fake-provider/server.js";
import { tokens } from "../compaction/messages.js";
import { type HttpSession, makeHttpSession, text } from "../compaction/support.js";
import { kits, toolPairs } from "./provider-kits.js";

let s: HttpSession | undefined;
afterEach(async () => {
	await s?.close();
	s = undefined;
});

/** Generous for a loaded 2-core machine; the requirement is "~1 s". */
const STOP_MS = 1500;

async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
	const start = Date.now();
	while (!condition()) {
		if (Date.now() - start > timeoutMs) throw new Error("condition not reached");
		await new Promise((r) => setTimeout(r, 5));
	}
}

function hang(script: SseScript): SseScript {
	return { ...script, hangAfterBytes: script.bytes.length };
}

/** Aborts once `ready` holds; returns how long the prompt took to settle after the abort. */
async function abortWhen(h: HttpSession, run: Promise<void>, ready: () => boolean): Promise<number> {
	await waitFor(ready);
	const t0 = Date.now();
	await h.session.abort();
	await run;
	return Date.now() - t0;
}

function fileAssistants(h: HttpSession) {
	return h.fileEntries().flatMap((e) => (e.type === "message" && e.message.role === "assistant" ? [e.message] : []));
}

/** Every tool call in the file has a tool result entry. */
function expectEveryCallAnswered(h: HttpSession): void {
	const calls = fileAssistants(h).flatMap((m) => m.content.filter((c) => c.type === "toolCall").map((c) => c.id));
	const results = h
		.fileEntries()
		.flatMap((e) => (e.type === "message" && e.message.role === "toolResult" ? [e.message.toolCallId] : []));
	for (const id of calls) expect(results).toContain(id);
}

/** The next prompt's request pairs every tool call with a result, and the model answers normally. */
async function expectValidNextRequest(h: HttpSession, reply: Script, minCalls = 0): Promise<void> {
	const before = h.fake.requests.length;
	h.fake.enqueue(reply);
	await h.session.prompt("after the abort");
	const req = h.fake.requests[before];
	expect(req).toBeDefined();
	const { calls, results } = toolPairs(req.body);
	expect([...results].sort()).toEqual([...calls].sort());
	expect(calls.length).toBeGreaterThanOrEqual(minCalls);
	expect(req.rawBody).toContain("after the abort");
	expect(h.session.isStreaming).toBe(false);
}

describe("abort in every phase (AgentSession.abort)", () => {
	it("while streaming text: stops fast, the partial is saved as aborted", async () => {
		s = await makeHttpSession();
		s.fake.enqueue(hang(new ChatStream().role().text("half an ans").script()));
		const run = s.session.prompt("hello");
		const ms = await abortWhen(s, run, () => s?.events.some((e) => e.type === "message_update") ?? false);
		expect(ms).toBeLessThan(STOP_MS);
		const last = fileAssistants(s).at(-1);
		expect(last?.stopReason).toBe("aborted");
		expect(JSON.stringify(last?.content)).toContain("half an ans");
		expect(s.events.at(-1)).toEqual({ type: "agent_settled", aborted: true });
		await expectValidNextRequest(s, text("fine"));
	});

	it("while thinking: stops fast, the thinking so far is saved as aborted", async () => {
		s = await makeHttpSession({ model: { reasoning: true } });
		s.fake.enqueue(hang(new ChatStream().role().reasoning("reasoning_content", "let me th").script()));
		const run = s.session.prompt("hello");
		const ms = await abortWhen(s, run, () => s?.events.some((e) => e.type === "message_update") ?? false);
		expect(ms).toBeLessThan(STOP_MS);
		const last = fileAssistants(s).at(-1);
		expect(last?.stopReason).toBe("aborted");
		expect(last?.content.some((c) => c.type === "thinking")).toBe(true);
		await expectValidNextRequest(s, text("fine"));
	});

	describe.each(kits)("while a tool runs ($api)", (kit) => {
		it("kills the tool, gives every call a result, next transcript valid", async () => {
			s = await makeHttpSession({ tools: ["bash"], model: { api: kit.api } });
			s.fake.enqueue(kit.toolCall("call_sleep", "bash", { command: "sleep 30" }));
			const run = s.session.prompt("run it");
			const ms = await abortWhen(s, run, () => s?.events.some((e) => e.type === "tool_execution_start") ?? false);
			expect(ms).toBeLessThan(STOP_MS);
			expectEveryCallAnswered(s);
			const result = s
				.fileEntries()
				.find((e) => e.type === "message" && e.message.role === "toolResult" && e.message.toolName === "bash");
			expect(result?.type === "message" && result.message.role === "toolResult" && result.message.isError).toBe(true);
			expect(
				JSON.stringify(result?.type === "message" && result.message.role === "toolResult" && result.message.content),
			).toContain("aborted");
			// The run's end is recorded as an aborted assistant turn after the result.
			expect(fileAssistants(s).at(-1)?.stopReason).toBe("aborted");
			expect(s.events.at(-1)).toEqual({ type: "agent_settled", aborted: true });
			await expectValidNextRequest(s, kit.reply("fine"), 1);
			expect(s.session.getLastAssistantText()).toBe("fine");
		});
	});

	it("during the retry wait: the chain ends at once, nothing is retried", async () => {
		s = await makeHttpSession();
		s.timers.hold = true;
		s.fake.enqueue(chatError(503, "Service unavailable", { type: "server_error" }));
		const run = s.session.prompt("hello");
		const ms = await abortWhen(s, run, () => s?.timers.waiting === 1);
		expect(ms).toBeLessThan(STOP_MS);
		expect(s.fake.requests).toHaveLength(1);
		expect(s.events.at(-1)).toEqual({ type: "agent_settled", aborted: true });
		s.timers.hold = false;
		await expectValidNextRequest(s, text("fine"));
	});

	it("during an overflow-recovery compaction: no compaction is stored, the session stays usable", async () => {
		const settings = { compaction: { enabled: true, reserveTokens: 2000, keepRecentTokens: 1000 } };
		s = await makeHttpSession({ settings, model: { contextWindow: 10_000 } });
		s.fake.enqueue(text("one", 3000), text("two", 6000));
		await s.session.prompt(`prompt 1 ${tokens(600)}`);
		await s.session.prompt(`prompt 2 ${tokens(600)}`);
		s.fake.enqueue(
			chatError(400, "This model's maximum context length is 10000 tokens.", { code: "context_length_exceeded" }),
			hang(new ChatStream().role().text("## Goal\npart").script()),
		);
		const run = s.session.prompt("prompt 3");
		const ms = await abortWhen(s, run, () => (s?.fake.requests.length ?? 0) >= 4);
		expect(ms).toBeLessThan(STOP_MS);
		expect(s.fileEntries().some((e) => e.type === "compaction")).toBe(false);
		expect(s.events.filter((e) => e.type === "compaction_end")).toMatchObject([{ aborted: true }]);
		expect(s.events.at(-1)).toEqual({ type: "agent_settled", aborted: true });
		await expectValidNextRequest(s, text("fine", 3000));
	});
});
