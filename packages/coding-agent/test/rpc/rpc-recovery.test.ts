// The built `pi --mode rpc`: auto-retry and manual compaction reach the
// client as events and responses; their switches show in get_state.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { json } from "../../../ai/test/support/fake-provider/server.js";
import type { RpcClient, RpcClientEvent } from "../../src/modes/rpc/rpc-client.js";
import { useCliSandbox } from "../cli/support.js";
import { startClient, textReply } from "./support.js";

let client: RpcClient | undefined;
const sb = useCliSandbox({
	setup: (sandbox) => {
		// Fast backoff, no SDK-level retries, and a small verbatim tail so there is something to compact.
		writeFileSync(
			join(sandbox.agentDir, "settings.json"),
			JSON.stringify({
				retry: { baseDelayMs: 10, provider: { maxRetries: 0 } },
				compaction: { keepRecentTokens: 10 },
			}),
		);
	},
	beforeClose: async () => {
		await client?.stop();
		client = undefined;
	},
});

async function ask(c: RpcClient, text: string): Promise<RpcClientEvent[]> {
	const events = c.collectEvents();
	await c.prompt(text);
	return events;
}

describe("pi --mode rpc: retry and compaction", () => {
	it("retries a 500 and reports it with auto_retry events", async () => {
		sb.fake.enqueue(json(500, { error: { message: "server melted" } }), textReply("Recovered."));
		client = await startClient(sb);
		const events = await ask(client, "hello");
		const retry = events.filter((e) => e.type === "auto_retry_start" || e.type === "auto_retry_end");
		expect(retry).toEqual([
			{ type: "auto_retry_start", attempt: 1, maxAttempts: 3, delayMs: 10, errorMessage: expect.any(String) },
			{ type: "auto_retry_end", success: true, attempt: 1 },
		]);
		expect(events.at(-1)).toEqual({ type: "agent_settled", aborted: false });
		expect(await client.getLastAssistantText()).toBe("Recovered.");
		expect(sb.fake.requests).toHaveLength(2);
	});

	it("compacts on request and toggles automatic compaction and retry", async () => {
		sb.fake.enqueue(
			textReply("First answer, long enough to be worth summarising."),
			textReply("Second answer."),
			textReply("Summary of the conversation so far."),
		);
		client = await startClient(sb);
		await ask(client, "first question with some words in it");
		await ask(client, "second question");
		const events: RpcClientEvent[] = [];
		client.onEvent((e) => events.push(e));
		const result = await client.compact("Keep it short");
		expect(result.summary).toContain("Summary of the conversation so far.");
		expect(result.tokensBefore).toBeGreaterThan(0);
		expect(events.map((e) => e.type)).toEqual(["compaction_start", "compaction_end"]);
		expect(events[0]).toEqual({ type: "compaction_start", reason: "manual" });
		expect(events[1]).toMatchObject({ reason: "manual", aborted: false, willRetry: false });
		expect(JSON.stringify(sb.fake.requests[2].body)).toContain("Keep it short");
		const { entries } = await client.getEntries();
		expect(entries.filter((e) => e.type === "compaction")).toHaveLength(1);

		expect((await client.getState()).autoCompactionEnabled).toBe(true);
		await client.setAutoCompaction(false);
		expect((await client.getState()).autoCompactionEnabled).toBe(false);
		await client.setAutoRetry(false);
		await client.abortRetry();
		sb.fake.enqueue(json(500, { error: { message: "down" } }));
		const failed = await ask(client, "third");
		expect(failed.some((e) => e.type === "auto_retry_start")).toBe(false);
		const end = failed.filter((e) => e.type === "message_end").at(-1) as { message: { stopReason: string } };
		expect(end.message.stopReason).toBe("error");
	});
});
