// RELIABILITY.md "Esc during streaming, thinking, tool execution, retry wait",
// against the BUILT CLI: `pi --mode rpc` gets an `abort` line in each phase
// (plus an overflow-recovery compaction and a manual `compact`). It must stop
// within ~1 s, the session file records the aborted turn, every tool call has
// a result, and the next prompt's request pairs every tool call with a result.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ChatStream, chatError } from "../../../ai/test/support/fake-provider/openai-chat.js";
import type { Script } from "../../../ai/test/support/fake-provider/server.js";
import { textReply, toolReply, useCliSandbox } from "../cli/support.js";
import { killRaw, type RawPi, spawnRaw } from "../rpc/support.js";
import { toolPairs } from "./provider-kits.js";
import { pidsWith } from "./support.js";

const STOP_MS = 1500;
let pi: RawPi | undefined;
let file: string;
let nextId = 0;

const sb = useCliSandbox({
	setup: (sandbox) => {
		sandbox.writeModels({ models: [{ id: "fake-model", contextWindow: 10_000, reasoning: true }] });
		writeFileSync(
			join(sandbox.agentDir, "settings.json"),
			JSON.stringify({ compaction: { enabled: true, reserveTokens: 2000, keepRecentTokens: 500 } }),
		);
		file = join(sandbox.root, "abort-session.jsonl");
	},
	beforeClose: async () => {
		await killRaw(pi);
		pi = undefined;
	},
});

function hanging(script: Script): Script {
	return script.kind === "sse" ? { ...script, hangAfterBytes: script.bytes.length } : script;
}

function usageReply(text: string, promptTokens: number): Script {
	return new ChatStream()
		.role()
		.text(text)
		.finish("stop")
		.usage({ prompt_tokens: promptTokens, completion_tokens: 5 })
		.done()
		.script();
}

/** Sends a command and waits for its response. */
async function command(cmd: Record<string, unknown>): Promise<Record<string, unknown>> {
	if (!pi) throw new Error("not started");
	const id = `c${++nextId}`;
	pi.send(`${JSON.stringify({ id, ...cmd })}\n`);
	return pi.waitFor((r) => r.type === "response" && r.id === id);
}

const settledCount = () => pi?.records.filter((r) => r.type === "agent_settled").length ?? 0;

async function promptAndSettle(message: string): Promise<void> {
	const before = settledCount();
	const res = await command({ type: "prompt", message });
	expect(res.success).toBe(true);
	await pi?.waitFor(() => settledCount() > before);
}

/** Waits for `ready` (and `requests` requests at the fake), sends `abort`, returns ms until the run settled (aborted). */
async function abortAt(ready: (r: Record<string, unknown>) => boolean, requests = 0): Promise<number> {
	if (!pi) throw new Error("not started");
	const before = settledCount();
	await pi.waitFor(ready);
	while (sb.fake.requests.length < requests) await new Promise((r) => setTimeout(r, 5));
	const t0 = Date.now();
	await command({ type: "abort" });
	await pi.waitFor(() => settledCount() > before, 8000);
	const ms = Date.now() - t0;
	expect(pi.records.filter((r) => r.type === "agent_settled").at(-1)).toEqual({ type: "agent_settled", aborted: true });
	return ms;
}

function fileEntries(): Record<string, unknown>[] {
	return readFileSync(file, "utf8")
		.split("\n")
		.filter(Boolean)
		.slice(1)
		.map((l) => JSON.parse(l) as Record<string, unknown>);
}

type Msg = { role: string; stopReason?: string; content?: unknown; toolCallId?: string };
const messages = () => fileEntries().flatMap((e) => (e.type === "message" ? [e.message as Msg] : []));

function expectEveryCallAnswered(): void {
	const calls = messages().flatMap((m) =>
		m.role === "assistant" && Array.isArray(m.content)
			? (m.content as { type: string; id: string }[]).filter((c) => c.type === "toolCall").map((c) => c.id)
			: [],
	);
	const results = messages().flatMap((m) => (m.role === "toolResult" ? [m.toolCallId] : []));
	for (const id of calls) expect(results).toContain(id);
}

async function expectValidNextPrompt(minCalls = 0): Promise<void> {
	const before = sb.fake.requests.length;
	sb.fake.enqueue(textReply("after abort"));
	await promptAndSettle("next prompt");
	const req = sb.fake.requests.at(-1);
	expect(sb.fake.requests.length).toBeGreaterThan(before);
	const { calls, results } = toolPairs(req?.body);
	expect([...results].sort()).toEqual([...calls].sort());
	expect(calls.length).toBeGreaterThanOrEqual(minCalls);
	expect(req?.rawBody).toContain("next prompt");
	const last = messages().at(-1);
	expect(last).toMatchObject({ role: "assistant", stopReason: "stop" });
}

const start = () => {
	pi = spawnRaw(sb, ["--session", file]);
};
const isUpdate = (kind: string) => (r: Record<string, unknown>) =>
	r.type === "message_update" && (r.assistantMessageEvent as { type?: string })?.type === kind;

describe("pi --mode rpc: abort in every phase", () => {
	it("streaming text", async () => {
		sb.fake.enqueue(hanging(new ChatStream().role().text("half an ans").script()));
		start();
		await command({ type: "prompt", message: "hello" });
		expect(await abortAt(isUpdate("text_delta"))).toBeLessThan(STOP_MS);
		expect(messages().at(-1)).toMatchObject({ role: "assistant", stopReason: "aborted" });
		await expectValidNextPrompt();
	});

	it("thinking", async () => {
		sb.fake.enqueue(hanging(new ChatStream().role().reasoning("reasoning_content", "hmm, let me").script()));
		start();
		await command({ type: "prompt", message: "hello" });
		expect(await abortAt(isUpdate("thinking_delta"))).toBeLessThan(STOP_MS);
		const last = messages().at(-1);
		expect(last).toMatchObject({ role: "assistant", stopReason: "aborted" });
		expect(JSON.stringify(last?.content)).toContain("let me");
		await expectValidNextPrompt();
	});

	it("tool execution (a bash tree that would run 30 s)", async () => {
		sb.fake.enqueue(toolReply("bash", { command: "sleep 30.7731 & sleep 30.7731; echo never" }));
		start();
		await command({ type: "prompt", message: "run it" });
		expect(await abortAt((r) => r.type === "tool_execution_start")).toBeLessThan(STOP_MS);
		expectEveryCallAnswered();
		expect(messages().filter((m) => m.role === "toolResult")).toHaveLength(1);
		// The whole tree is gone, the background child included.
		for (let i = 0; i < 50 && pidsWith("sleep 30.7731").length > 0; i++) await new Promise((r) => setTimeout(r, 20));
		expect(pidsWith("sleep 30.7731")).toEqual([]);
		await expectValidNextPrompt(1);
	});

	it("retry wait", async () => {
		sb.fake.enqueue(chatError(503, "Service unavailable", { type: "server_error" }));
		start();
		await command({ type: "prompt", message: "hello" });
		expect(await abortAt((r) => r.type === "auto_retry_start")).toBeLessThan(STOP_MS);
		expect(sb.fake.requests).toHaveLength(1);
		await expectValidNextPrompt();
		expect(sb.fake.requests).toHaveLength(2);
	});

	it("overflow-recovery compaction", async () => {
		sb.fake.enqueue(usageReply("one", 3000), usageReply("two", 6000));
		start();
		await promptAndSettle(`prompt 1 ${"x".repeat(2400)}`);
		await promptAndSettle(`prompt 2 ${"y".repeat(2400)}`);
		sb.fake.enqueue(
			chatError(400, "This model's maximum context length is 10000 tokens.", { code: "context_length_exceeded" }),
			hanging(new ChatStream().role().text("## Goal\npart").script()),
		);
		await command({ type: "prompt", message: "prompt 3" });
		// Abort while the summary request streams (the hanging reply is then consumed).
		expect(await abortAt((r) => r.type === "compaction_start", 4)).toBeLessThan(STOP_MS);
		expect(fileEntries().some((e) => e.type === "compaction")).toBe(false);
		await expectValidNextPrompt();
	});

	it("manual compaction (`compact` then `abort`)", async () => {
		sb.fake.enqueue(usageReply("one", 3000), usageReply("two", 6000));
		start();
		await promptAndSettle(`prompt 1 ${"x".repeat(2400)}`);
		await promptAndSettle(`prompt 2 ${"y".repeat(2400)}`);
		sb.fake.enqueue(hanging(new ChatStream().role().text("## Goal\npart").script()));
		if (!pi) throw new Error("not started");
		const p = pi;
		p.send(`${JSON.stringify({ id: "compact1", type: "compact" })}\n`);
		await p.waitFor((r) => r.type === "compaction_start");
		while (sb.fake.requests.length < 3) await new Promise((r) => setTimeout(r, 5));
		const t0 = Date.now();
		await command({ type: "abort" });
		const res = await p.waitFor((r) => r.type === "response" && r.id === "compact1", 5000);
		expect(Date.now() - t0).toBeLessThan(STOP_MS);
		expect(res.success).toBe(false);
		expect(fileEntries().some((e) => e.type === "compaction")).toBe(false);
		await expectValidNextPrompt();
	});
});
