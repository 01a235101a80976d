import { describe, expect, it } from "vitest";
import { agentLoop, agentLoopContinue, runAgentLoop } from "../src/agent-loop.js";
import type { AgentLoopConfig } from "../src/hooks.js";
import { getDefaultStreamFn, setDefaultStreamFn } from "../src/stream-fn.js";
import type { AgentContext, AgentEvent, AgentMessage } from "../src/types.js";
import {
	echoTool,
	outline,
	reply,
	ScriptedStream,
	testModel,
	text,
	toolCall,
	transcript,
	user,
} from "./support/index.js";

async function collect(stream: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
	const events: AgentEvent[] = [];
	for await (const event of stream) events.push(event);
	return events;
}

describe("stateless agentLoop", () => {
	it("yields the run's events and resolves the new messages; the caller's context is not mutated", async () => {
		const fake = new ScriptedStream().enqueue(reply(toolCall("echo", { text: "x" }, "e")), reply(text("done")));
		const context: AgentContext = { systemPrompt: "sys", messages: [user("earlier")], tools: [echoTool()] };
		const stream = agentLoop([user("now", 2)], context, { model: testModel(), streamFn: fake.streamFn });
		const events = await collect(stream);
		expect(outline(events)).toEqual([
			"agent_start",
			"turn_start",
			"message_start:user",
			"message_end:user",
			"message_start:assistant",
			"message_end:assistant",
			"tool_execution_start:e",
			"tool_execution_end:e",
			"message_start:toolResult",
			"message_end:toolResult",
			"turn_end",
			"turn_start",
			"message_start:assistant",
			"message_end:assistant",
			"turn_end",
			"agent_end",
		]);
		const newMessages = await stream.result();
		expect(transcript(newMessages)).toEqual([
			"user: now",
			'assistant: echo({"text":"x"})',
			"toolResult e: echo: x",
			"assistant: done",
		]);
		expect(context.messages).toHaveLength(1);
		expect(transcript(fake.calls[0].context.messages)).toEqual(["user: earlier", "user: now"]);
		expect(fake.calls[0].context.systemPrompt).toBe("sys");
	});

	it("polls getSteeringMessages after each batch and getFollowUpMessages only at the end", async () => {
		const fake = new ScriptedStream().enqueue(
			reply(toolCall("echo", { text: "x" }, "e")),
			reply(text("after steering")),
			reply(text("after follow-up")),
		);
		const polls: string[] = [];
		const steering: AgentMessage[][] = [[], [user("steer")], []];
		const followUps: AgentMessage[][] = [[user("follow")], []];
		const config: AgentLoopConfig = {
			model: testModel(),
			streamFn: fake.streamFn,
			getSteeringMessages: async () => {
				polls.push("steering");
				return steering.shift() ?? [];
			},
			getFollowUpMessages: async () => {
				polls.push("followUp");
				return followUps.shift() ?? [];
			},
		};
		const messages = await agentLoop([user("go")], { messages: [], tools: [echoTool()] }, config).result();
		expect(polls).toEqual(["steering", "steering", "steering", "followUp", "steering", "followUp"]);
		expect(transcript(messages)).toEqual([
			"user: go",
			'assistant: echo({"text":"x"})',
			"toolResult e: echo: x",
			"user: steer",
			"assistant: after steering",
			"user: follow",
			"assistant: after follow-up",
		]);
	});

	it("agentLoopContinue refuses an empty context or an assistant tail, and continues otherwise", async () => {
		const config = { model: testModel(), streamFn: new ScriptedStream().enqueue(reply(text("ok"))).streamFn };
		expect(() => agentLoopContinue({ messages: [] }, config)).toThrow("Cannot continue: no messages in context");
		const done = await agentLoop(
			[user("x")],
			{ messages: [] },
			{
				model: testModel(),
				streamFn: new ScriptedStream().enqueue(reply(text("a"))).streamFn,
			},
		).result();
		expect(() => agentLoopContinue({ messages: [user("x"), ...done.slice(1)] }, config)).toThrow(
			"Cannot continue from message role: assistant",
		);
		const events = await collect(agentLoopContinue({ messages: [user("retry me")] }, config));
		expect(outline(events)).toEqual([
			"agent_start",
			"turn_start",
			"message_start:assistant",
			"message_end:assistant",
			"turn_end",
			"agent_end",
		]);
	});

	it("runAgentLoop awaits an async sink and survives a throwing one", async () => {
		const fake = new ScriptedStream().enqueue(reply(text("ok")));
		const order: string[] = [];
		const messages = await runAgentLoop(
			[user("go")],
			{ messages: [] },
			{ model: testModel(), streamFn: fake.streamFn },
			async (event) => {
				order.push(`begin ${event.type}`);
				await new Promise((r) => setTimeout(r, 1));
				order.push(`end ${event.type}`);
				if (event.type === "turn_start") throw new Error("sink failure");
			},
		);
		expect(order.slice(0, 4)).toEqual(["begin agent_start", "end agent_start", "begin turn_start", "end turn_start"]);
		expect(order.filter((o) => o.startsWith("begin")).length).toBe(order.filter((o) => o.startsWith("end")).length);
		expect(transcript(messages)).toEqual(["user: go", "assistant: ok"]);
	});

	it("passes config stream options through and leaves loop keys out", async () => {
		const fake = new ScriptedStream().enqueue(reply(text("ok")));
		await agentLoop(
			[user("go")],
			{ messages: [] },
			{
				model: testModel(),
				streamFn: fake.streamFn,
				thinkingLevel: "medium",
				apiKey: "static-key",
				temperature: 0.1,
				metadata: { user: "u1" },
				toolExecution: "sequential",
				finishTurn: () => undefined,
			},
		).result();
		const options = fake.calls[0].options as Record<string, unknown>;
		expect(options).toMatchObject({
			reasoning: "medium",
			apiKey: "static-key",
			temperature: 0.1,
			metadata: { user: "u1" },
		});
		for (const key of ["toolExecution", "finishTurn", "model", "streamFn", "thinkingLevel"])
			expect(options).not.toHaveProperty(key);
	});

	it("uses the default stream function when none is given", async () => {
		const fake = new ScriptedStream().enqueue(reply(text("from default")));
		setDefaultStreamFn(fake.streamFn);
		try {
			expect(getDefaultStreamFn()).toBe(fake.streamFn);
			const messages = await agentLoop([user("go")], { messages: [] }, { model: testModel() }).result();
			expect(transcript(messages).at(-1)).toBe("assistant: from default");
		} finally {
			setDefaultStreamFn(undefined);
		}
	});

	it("message_start carries the assistant message as it was at start, not the partial filled in later", async () => {
		// The start event is consumed before any block begins, as with a socket delivering events apart.
		const fake = new ScriptedStream().enqueue(async (_call, writer) => {
			writer.start();
			await new Promise((resolve) => setImmediate(resolve));
			const index = writer.beginText();
			writer.appendText(index, "the final answer");
			writer.endBlock(index);
			writer.finish("stop");
		});
		const events = await collect(
			agentLoop([user("go")], { messages: [] }, { model: testModel(), streamFn: fake.streamFn }),
		);
		const start = events.find((e) => e.type === "message_start" && e.message.role === "assistant");
		const end = events.find((e) => e.type === "message_end" && e.message.role === "assistant");
		expect(start?.type === "message_start" && start.message.role === "assistant" && start.message.content).toEqual([]);
		expect(end?.type === "message_end" && end.message.role === "assistant" && end.message.content).toEqual([
			{ type: "text", text: "the final answer" },
		]);
	});

	it("message_start has no content even when the blocks were written before the start event was read", async () => {
		const fake = new ScriptedStream().enqueue(reply(text("the final answer")));
		const events = await collect(
			agentLoop([user("go")], { messages: [] }, { model: testModel(), streamFn: fake.streamFn }),
		);
		const start = events.find((e) => e.type === "message_start" && e.message.role === "assistant");
		expect(start?.type === "message_start" && start.message.role === "assistant" && start.message.content).toEqual([]);
	});
});
