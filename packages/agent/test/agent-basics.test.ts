import { describe, expect, it } from "vitest";
import { Agent } from "../src/agent.js";
import type { AgentEvent } from "../src/types.js";
import {
	echoTool,
	outline,
	reply,
	ScriptedStream,
	testModel,
	text,
	thinking,
	toolCall,
	transcript,
} from "./support/index.js";

function setup(fake = new ScriptedStream()) {
	const agent = new Agent({
		initialState: { systemPrompt: "be brief", model: testModel(), tools: [echoTool()] },
		streamFn: fake.streamFn,
	});
	const events: AgentEvent[] = [];
	agent.subscribe((event) => {
		events.push(event);
	});
	return { agent, fake, events };
}

describe("Agent prompt runs", () => {
	it("streams a plain answer with the exact event sequence", async () => {
		const { agent, fake, events } = setup();
		fake.enqueue(reply(thinking("hmm"), text("Hel", "lo")));
		await agent.prompt("hi");
		expect(
			events.map((e) => (e.type === "message_update" ? `update:${e.assistantMessageEvent.type}` : e.type)),
		).toEqual([
			"agent_start",
			"turn_start",
			"message_start",
			"message_end",
			"message_start",
			"update:thinking_start",
			"update:thinking_delta",
			"update:thinking_end",
			"update:text_start",
			"update:text_delta",
			"update:text_delta",
			"update:text_end",
			"message_end",
			"turn_end",
			"agent_end",
		]);
		expect(transcript(agent.state.messages)).toEqual(["user: hi", "assistant: <thinking>hmm</thinking> Hello"]);
		const end = events.at(-1);
		expect(end?.type === "agent_end" && end.messages).toEqual(agent.state.messages);
		expect(agent.state.isStreaming).toBe(false);
		expect(agent.state.errorMessage).toBeUndefined();
		// The request carried the system prompt, the prompt and the tool declarations.
		const call = fake.calls[0];
		expect(call.context.systemPrompt).toBe("be brief");
		expect(call.context.messages).toEqual([
			{ role: "user", content: [{ type: "text", text: "hi" }], timestamp: expect.any(Number) },
		]);
		expect(call.context.tools?.map((t) => t.name)).toEqual(["echo"]);
		expect(call.options?.signal).toBeInstanceOf(AbortSignal);
	});

	it("runs tool calls and asks the model again with the results", async () => {
		const { agent, fake, events } = setup();
		fake.enqueue(reply(text("let me"), toolCall("echo", { text: "a" }, "c1")), reply(text("done")));
		await agent.prompt("go");
		expect(outline(events)).toEqual([
			"agent_start",
			"turn_start",
			"message_start:user",
			"message_end:user",
			"message_start:assistant",
			"message_end:assistant",
			"tool_execution_start:c1",
			"tool_execution_end:c1",
			"message_start:toolResult",
			"message_end:toolResult",
			"turn_end",
			"turn_start",
			"message_start:assistant",
			"message_end:assistant",
			"turn_end",
			"agent_end",
		]);
		expect(transcript(agent.state.messages)).toEqual([
			"user: go",
			'assistant: let me echo({"text":"a"})',
			"toolResult c1: echo: a",
			"assistant: done",
		]);
		expect(transcript(fake.calls[1].context.messages)).toEqual(transcript(agent.state.messages.slice(0, 3)));
		const turnEnd = events.find((e) => e.type === "turn_end");
		expect(turnEnd?.type === "turn_end" && turnEnd.toolResults.map((r) => r.toolCallId)).toEqual(["c1"]);
	});

	it("accepts images, a message, or several messages as the prompt", async () => {
		const { agent, fake } = setup();
		fake.enqueue(reply(text("a")), reply(text("b")), reply(text("c")));
		await agent.prompt("look", [{ type: "image", data: "AAAA", mimeType: "image/png" }]);
		await agent.prompt({ role: "user", content: "second", timestamp: 5 });
		await agent.prompt([
			{ role: "user", content: "third", timestamp: 6 },
			{ role: "user", content: "fourth", timestamp: 7 },
		]);
		expect(agent.state.messages[0]).toMatchObject({
			content: [
				{ type: "text", text: "look" },
				{ type: "image", data: "AAAA", mimeType: "image/png" },
			],
		});
		expect(transcript(agent.state.messages)).toEqual([
			"user: look [image]",
			"assistant: a",
			"user: second",
			"assistant: b",
			"user: third",
			"user: fourth",
			"assistant: c",
		]);
	});

	it("rejects a second prompt while running and continue() with an assistant tail", async () => {
		const { agent, fake } = setup();
		fake.enqueue(reply(text("a")));
		const run = agent.prompt("one");
		await expect(agent.prompt("two")).rejects.toThrow("Agent is already processing a prompt");
		await run;
		await expect(agent.continue()).rejects.toThrow("Cannot continue from message role: assistant");
		await expect(new Agent().continue()).rejects.toThrow("No messages to continue from");
	});

	it("continue() resends from a user or tool-result tail without adding a message", async () => {
		const fake = new ScriptedStream();
		const agent = new Agent({
			initialState: { model: testModel(), messages: [{ role: "user", content: "pending", timestamp: 1 }] },
			streamFn: fake.streamFn,
		});
		const events: AgentEvent[] = [];
		agent.subscribe((e) => {
			events.push(e);
		});
		fake.enqueue(reply(text("answer")));
		await agent.continue();
		expect(outline(events)).toEqual([
			"agent_start",
			"turn_start",
			"message_start:assistant",
			"message_end:assistant",
			"turn_end",
			"agent_end",
		]);
		expect(transcript(agent.state.messages)).toEqual(["user: pending", "assistant: answer"]);
		const end = events.at(-1);
		expect(end?.type === "agent_end" && transcript(end.messages)).toEqual(["assistant: answer"]);
	});

	it("exposes the streaming message and pending tool calls while running", async () => {
		const { agent, fake } = setup();
		const seen: string[] = [];
		agent.subscribe((event) => {
			if (event.type === "message_update") seen.push(`streaming:${agent.state.streamingMessage === event.message}`);
			if (event.type === "tool_execution_start") seen.push(`pending:${[...agent.state.pendingToolCalls].join(",")}`);
			if (event.type === "tool_execution_end") seen.push(`pending:${[...agent.state.pendingToolCalls].join(",")}`);
			if (event.type === "agent_end") seen.push(`isStreaming:${agent.state.isStreaming}`);
		});
		fake.enqueue(reply(toolCall("echo", { text: "x" }, "t1")), reply(text("ok")));
		await agent.prompt("go");
		expect(seen).toEqual([
			"streaming:true",
			"streaming:true",
			"streaming:true",
			"pending:t1",
			"pending:",
			"streaming:true",
			"streaming:true",
			"streaming:true",
			"isStreaming:true",
		]);
		expect(agent.state.isStreaming).toBe(false);
		expect(agent.state.streamingMessage).toBeUndefined();
	});

	it("setters copy arrays; reset clears transcript, queues and error", async () => {
		const { agent, fake } = setup();
		const tools = [echoTool()];
		agent.state.tools = tools;
		tools.push(echoTool());
		expect(agent.state.tools).toHaveLength(1);
		const messages = [{ role: "user" as const, content: "x", timestamp: 1 }];
		agent.state.messages = messages;
		messages.push({ role: "user", content: "y", timestamp: 2 });
		expect(agent.state.messages).toHaveLength(1);
		agent.state.systemPrompt = "new prompt";
		agent.state.thinkingLevel = "high";
		agent.state.model = testModel({ id: "other" });
		fake.enqueue(reply(text("ok")));
		await agent.prompt("go");
		expect(fake.calls[0].context.systemPrompt).toBe("new prompt");
		expect(fake.calls[0].options?.reasoning).toBe("high");
		expect(fake.calls[0].model.id).toBe("other");
		agent.followUp("later");
		agent.reset();
		expect(agent.state.messages).toEqual([]);
		expect(agent.hasQueuedMessages()).toBe(false);
	});

	it("unsubscribe stops delivery", async () => {
		const { agent, fake } = setup();
		const seen: string[] = [];
		const off = agent.subscribe((e) => {
			seen.push(e.type);
		});
		off();
		fake.enqueue(reply(text("ok")));
		await agent.prompt("go");
		expect(seen).toEqual([]);
	});
});

describe("settings changed during a run", () => {
	it("apply from the next request of the same run", async () => {
		const { agent, fake } = setup();
		let changed = false;
		agent.subscribe((event) => {
			if (event.type === "tool_execution_end" && !changed) {
				changed = true;
				agent.state.model = testModel({ id: "mid-run" });
				agent.state.thinkingLevel = "minimal";
				agent.state.systemPrompt = "changed prompt";
				agent.state.tools = [];
			}
		});
		fake.enqueue(reply(toolCall("echo", { text: "x" })), reply(text("ok")));
		await agent.prompt("go");
		expect(
			fake.calls.map((c) => [c.model.id, c.options?.reasoning, c.context.systemPrompt, c.context.tools?.length]),
		).toEqual([
			["scripted-1", undefined, "be brief", 1],
			["mid-run", "minimal", "changed prompt", 0],
		]);
	});
});
