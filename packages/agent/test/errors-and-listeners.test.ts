import { AssistantMessageEventStream } from "@pi/ai";
import { describe, expect, it } from "vitest";
import { Agent } from "../src/agent.js";
import type { AgentEvent } from "../src/types.js";
import {
	echoTool,
	failedReply,
	outline,
	reply,
	ScriptedStream,
	testModel,
	text,
	toolCall,
	transcript,
} from "./support/index.js";

function setup(streamFn = new ScriptedStream()) {
	const agent = new Agent({ initialState: { model: testModel(), tools: [echoTool()] }, streamFn: streamFn.streamFn });
	return { agent, fake: streamFn };
}

describe("provider errors", () => {
	it("an error event ends the run; the error message with its partial content is last; no retry", async () => {
		const { agent, fake } = setup();
		agent.followUp("queued");
		fake.enqueue(
			failedReply("overloaded", { kind: "overloaded", status: 529, retryable: true }, text("partial")),
			reply(text("never")),
		);
		const events: AgentEvent[] = [];
		agent.subscribe((e) => {
			events.push(e);
		});
		await agent.prompt("go");
		expect(fake.calls).toHaveLength(1);
		expect(agent.state.messages.at(-1)).toMatchObject({
			role: "assistant",
			stopReason: "error",
			errorMessage: "overloaded",
			errorInfo: { kind: "overloaded", status: 529, retryable: true },
			content: [{ type: "text", text: "partial" }],
		});
		expect(agent.state.errorMessage).toBe("overloaded");
		expect(outline(events).slice(-3)).toEqual(["message_end:assistant", "turn_end", "agent_end"]);
		expect(agent.hasQueuedMessages()).toBe(true);
	});

	it("a retry through continue() clears the error state", async () => {
		const { agent, fake } = setup();
		fake.enqueue(failedReply("boom"), reply(text("recovered")));
		await agent.prompt("go");
		expect(agent.state.errorMessage).toBe("boom");
		// The upper layer drops the failed message and continues.
		agent.state.messages = agent.state.messages.slice(0, -1);
		await agent.continue();
		expect(agent.state.errorMessage).toBeUndefined();
		expect(transcript(agent.state.messages)).toEqual(["user: go", "assistant: recovered"]);
	});

	it("a stream function that throws becomes an error message", async () => {
		const agent = new Agent({
			initialState: { model: testModel() },
			streamFn: () => {
				throw new Error("no adapter for api scripted");
			},
		});
		await agent.prompt("go");
		expect(agent.state.messages.at(-1)).toMatchObject({
			role: "assistant",
			stopReason: "error",
			errorMessage: "no adapter for api scripted",
		});
	});

	it("a stream that ends without done/error is an error, never a success", async () => {
		const agent = new Agent({
			initialState: { model: testModel() },
			streamFn: () => {
				const s = new AssistantMessageEventStream();
				queueMicrotask(() => s.end());
				return s;
			},
		});
		const events: AgentEvent[] = [];
		agent.subscribe((e) => {
			events.push(e);
		});
		await agent.prompt("go");
		expect(outline(events).slice(4)).toEqual([
			"message_start:assistant",
			"message_end:assistant",
			"turn_end",
			"agent_end",
		]);
		expect(agent.state.messages).toHaveLength(2);
		expect(agent.state.messages.at(-1)).toMatchObject({
			stopReason: "error",
			errorMessage: "Stream ended without a terminal event",
			errorInfo: { kind: "stream_cut", retryable: false },
		});
	});

	it("a tool call inside a failed response is not executed and gets no result", async () => {
		const calls: unknown[] = [];
		const fake = new ScriptedStream();
		const agent = new Agent({
			initialState: { model: testModel(), tools: [echoTool(calls)] },
			streamFn: fake.streamFn,
		});
		fake.enqueue(failedReply("cut", { kind: "network", retryable: true }, toolCall("echo", { text: "x" })));
		await agent.prompt("go");
		expect(calls).toEqual([]);
		expect(agent.state.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
	});
});

describe("listeners", () => {
	it("are awaited in registration order, holding back later events", async () => {
		const { agent, fake } = setup();
		const log: string[] = [];
		agent.subscribe(async (e) => {
			if (e.type === "message_end") {
				await new Promise((r) => setTimeout(r, 5));
				log.push(`slow:${e.type}`);
			}
		});
		agent.subscribe((e) => {
			if (e.type === "message_end" || e.type === "tool_execution_start") log.push(`fast:${e.type}`);
		});
		fake.enqueue(reply(toolCall("echo", { text: "x" })), reply(text("done")));
		await agent.prompt("go");
		expect(log.slice(0, 5)).toEqual([
			"slow:message_end",
			"fast:message_end",
			"slow:message_end",
			"fast:message_end",
			"fast:tool_execution_start",
		]);
	});

	it("a throwing or rejecting listener does not break the run or other listeners", async () => {
		const errors: string[] = [];
		const fake = new ScriptedStream();
		const agent = new Agent({
			initialState: { model: testModel(), tools: [echoTool()] },
			streamFn: fake.streamFn,
			onListenerError: (error, event) => errors.push(`${event.type}: ${(error as Error).message}`),
		});
		agent.subscribe((e) => {
			if (e.type === "turn_start") throw new Error("sync boom");
		});
		agent.subscribe(async (e) => {
			if (e.type === "tool_execution_end") throw new Error("async boom");
		});
		const seen: string[] = [];
		agent.subscribe((e) => {
			seen.push(e.type);
		});
		fake.enqueue(reply(toolCall("echo", { text: "x" })), reply(text("done")));
		await agent.prompt("go");
		expect(transcript(agent.state.messages).at(-1)).toBe("assistant: done");
		expect(errors).toEqual(["turn_start: sync boom", "tool_execution_end: async boom", "turn_start: sync boom"]);
		expect(seen.filter((t) => t === "turn_start")).toHaveLength(2);
		expect(seen.at(-1)).toBe("agent_end");
	});

	it("prompt() and waitForIdle() settle only after agent_end listeners", async () => {
		const { agent, fake } = setup();
		let flushed = false;
		agent.subscribe(async (e) => {
			if (e.type === "agent_end") {
				await new Promise((r) => setTimeout(r, 10));
				flushed = true;
			}
		});
		fake.enqueue(reply(text("ok")));
		const run = agent.prompt("go");
		const idle = agent.waitForIdle();
		expect(agent.state.isStreaming).toBe(true);
		await idle;
		expect(flushed).toBe(true);
		await run;
		expect(agent.state.isStreaming).toBe(false);
	});

	it("listeners see the transcript already updated at message_end and the run's signal", async () => {
		const { agent, fake } = setup();
		const lengths: number[] = [];
		let signal: AbortSignal | undefined;
		agent.subscribe((e, s) => {
			signal = s;
			if (e.type === "message_end") lengths.push(agent.state.messages.length);
		});
		fake.enqueue(reply(text("ok")));
		await agent.prompt("go");
		expect(lengths).toEqual([1, 2]);
		expect(signal).toBe(fake.calls[0].signal);
	});
});
