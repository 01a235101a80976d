// The built `pi --mode rpc` against the fake provider, through RpcClient:
// a prompt with a tool call and its events in order, steering and follow-ups
// while a run is active, and abort.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RpcClient, RpcClientEvent } from "../../src/modes/rpc/rpc-client.js";
import { useCliSandbox } from "../cli/support.js";
import { collapseDeltas, hangingReply, labels, startClient, textReply, toolReply } from "./support.js";

/** Not on this machine, so a provider there counts as configured only with a key. */
const REMOTE_URL = "https://llm.example.invalid/v1";

let client: RpcClient | undefined;
const sb = useCliSandbox({
	beforeClose: async () => {
		await client?.stop();
		client = undefined;
	},
});

function lastUserText(index: number): string {
	const body = sb.fake.requests[index].body as { messages: { role: string; content: unknown }[] };
	const users = body.messages.filter((m) => m.role === "user");
	const content = users[users.length - 1].content;
	return typeof content === "string" ? content : (content as { text: string }[]).map((c) => c.text).join("");
}

describe("pi --mode rpc: prompting", () => {
	it("runs a prompt with a tool call and streams every event in order, delta-only", async () => {
		writeFileSync(join(sb.cwd, "a.txt"), "alpha\n");
		sb.fake.enqueue(toolReply("read", { path: "a.txt" }), textReply("It says alpha."));
		client = await startClient(sb);
		const events: RpcClientEvent[] = [];
		client.onEvent((e) => events.push(e));
		const settled = client.waitForIdle();
		expect(await client.prompt("read a.txt")).toBe("started");
		await settled;
		expect(collapseDeltas(labels(events))).toEqual([
			"agent_start",
			"turn_start",
			"message_start:user",
			"message_end:user",
			"message_start:assistant",
			"update:toolcall_start",
			"update:toolcall_delta",
			"update:toolcall_end",
			"message_end:assistant",
			"tool_execution_start",
			"tool_execution_end",
			"message_start:toolResult",
			"message_end:toolResult",
			"turn_end",
			"turn_start",
			"message_start:assistant",
			"update:text_start",
			"update:text_delta",
			"update:text_end",
			"message_end:assistant",
			"turn_end",
			"agent_end",
			"agent_settled",
		]);
		const updates = events.filter((e) => e.type === "message_update");
		for (const u of updates) {
			expect(u).not.toHaveProperty("message");
			expect(u.assistantMessageEvent).not.toHaveProperty("partial");
			expect(u.usage).toMatchObject({ input: expect.any(Number), output: expect.any(Number) });
		}
		const start = updates.find((u) => u.assistantMessageEvent.type === "toolcall_start");
		expect(start?.assistantMessageEvent).toEqual({
			type: "toolcall_start",
			contentIndex: 0,
			id: expect.stringMatching(/^call_/),
			toolName: "read",
		});
		const text = updates
			.map((u) => u.assistantMessageEvent)
			.filter((a) => a.type === "text_delta")
			.map((a) => (a as { delta: string }).delta)
			.join("");
		expect(text).toBe("It says alpha.");
		const toolEnd = events.find((e) => e.type === "tool_execution_end");
		expect(toolEnd).toMatchObject({ toolName: "read", isError: false });
		expect(JSON.stringify(toolEnd)).toContain("alpha");
		expect(await client.getLastAssistantText()).toBe("It says alpha.");
		const messages = await client.getMessages();
		expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
		expect(client.getStderr()).toBe("");
	});

	it("queues steering and follow-up messages while a tool runs and delivers them in order", async () => {
		// The tool waits for a file the test creates once both messages are queued.
		const wait = "while [ ! -f go ]; do sleep 0.02; done; echo released";
		sb.fake.enqueue(toolReply("bash", { command: wait }), textReply("Steered."), textReply("Followed up."));
		client = await startClient(sb);
		const events: RpcClientEvent[] = [];
		client.onEvent((e) => events.push(e));
		const settled = client.waitForIdle();
		const toolStarted = client.waitForEvent("tool_execution_start");
		await client.prompt("start");
		await toolStarted;

		await expect(client.prompt("not now")).rejects.toThrow(/streamingBehavior/);
		expect(await client.steer("steer this")).toBe("queued");
		expect(await client.prompt("follow this", undefined, "followUp")).toBe("queued");
		const state = await client.getState();
		expect(state).toMatchObject({ isStreaming: true, pendingMessageCount: 2 });
		const queues = events.filter((e) => e.type === "queue_update");
		expect(queues).toEqual([
			{ type: "queue_update", steering: ["steer this"], followUp: [] },
			{ type: "queue_update", steering: ["steer this"], followUp: ["follow this"] },
		]);

		writeFileSync(join(sb.cwd, "go"), "");
		await settled;
		expect(sb.fake.requests).toHaveLength(3);
		expect(lastUserText(1)).toBe("steer this");
		expect(lastUserText(2)).toBe("follow this");
		const users = events
			.filter((e) => e.type === "message_start" && e.message.role === "user")
			.map((e) => (e as { message: { content: { text: string }[] } }).message.content[0].text);
		expect(users).toEqual(["start", "steer this", "follow this"]);
		// One run: a single agent_settled, after the follow-up's answer.
		expect(events.filter((e) => e.type === "agent_settled")).toHaveLength(1);
		expect(events.filter((e) => e.type === "queue_update").at(-1)).toEqual({
			type: "queue_update",
			steering: [],
			followUp: [],
		});
		expect(await client.getLastAssistantText()).toBe("Followed up.");
	});

	it("clear_queue hands back queued text", async () => {
		const wait = "while [ ! -f go ]; do sleep 0.02; done";
		sb.fake.enqueue(toolReply("bash", { command: wait }), textReply("Done."));
		client = await startClient(sb);
		const toolStarted = client.waitForEvent("tool_execution_start");
		const settled = client.waitForIdle();
		await client.prompt("start");
		await toolStarted;
		await client.steer("s1");
		await client.followUp("f1");
		expect(await client.clearQueue()).toEqual({ steering: ["s1"], followUp: ["f1"] });
		expect((await client.getState()).pendingMessageCount).toBe(0);
		writeFileSync(join(sb.cwd, "go"), "");
		await settled;
		expect(sb.fake.requests).toHaveLength(2);
	});

	it("aborts a streaming answer; the session stays usable", async () => {
		sb.fake.enqueue(hangingReply("Partial answer"), textReply("Fresh answer."));
		client = await startClient(sb);
		const events: RpcClientEvent[] = [];
		client.onEvent((e) => events.push(e));
		const firstDelta = client.waitForEvent("message_update", {
			predicate: (e) => e.assistantMessageEvent.type === "text_delta",
		});
		const settled = client.waitForEvent("agent_settled");
		await client.prompt("go");
		await firstDelta;
		const t0 = Date.now();
		await client.abort();
		expect(Date.now() - t0).toBeLessThan(2000);
		expect(await settled).toEqual({ type: "agent_settled", aborted: true });
		const end = events.filter((e) => e.type === "message_end").at(-1) as {
			message: { role: string; stopReason: string };
		};
		expect(end.message).toMatchObject({ role: "assistant", stopReason: "aborted" });
		expect((await client.getState()).isStreaming).toBe(false);

		const again = client.waitForIdle();
		await client.prompt("again");
		await again;
		expect(await client.getLastAssistantText()).toBe("Fresh answer.");
		expect(lastUserText(1)).toBe("again");
	});

	it("rejects a prompt without a usable model with an error response", async () => {
		sb.writeModels({ apiKey: undefined, baseUrl: REMOTE_URL }); // a server elsewhere needs a key
		client = await startClient(sb);
		await expect(client.prompt("hi")).rejects.toThrow(/No API key found for fake/);
		expect((await client.getState()).isStreaming).toBe(false);
		expect(sb.fake.requests).toHaveLength(0);
	});
});
