import type { Message } from "@pi/ai";
import { describe, expect, it } from "vitest";
import { Agent, type AgentOptions } from "../src/agent.js";
import type { AgentEvent, AgentMessage } from "../src/types.js";
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

interface NoteMessage {
	role: "note";
	text: string;
	timestamp: number;
}

declare module "../src/types.js" {
	interface CustomAgentMessages {
		note: NoteMessage;
	}
}

function setup(options: Partial<AgentOptions> = {}, calls: unknown[] = []) {
	const fake = new ScriptedStream();
	const agent = new Agent({
		initialState: { model: testModel(), tools: [echoTool(calls)] },
		streamFn: fake.streamFn,
		...options,
	});
	const events: AgentEvent[] = [];
	agent.subscribe((e) => {
		events.push(e);
	});
	return { agent, fake, events, calls };
}

describe("request hooks", () => {
	it("convertToLlm: custom messages are dropped by default and converted when asked", async () => {
		const note: NoteMessage = { role: "note", text: "remember", timestamp: 2 };
		const plain = setup();
		plain.fake.enqueue(reply(text("a")));
		await plain.agent.prompt([user("hi"), note]);
		expect(transcript(plain.fake.calls[0].context.messages)).toEqual(["user: hi"]);
		expect(plain.agent.state.messages).toContainEqual(note);

		const converting = setup({
			convertToLlm: (messages) =>
				messages.map(
					(m): Message =>
						m.role === "note" ? { role: "user", content: `[note] ${m.text}`, timestamp: m.timestamp } : m,
				),
		});
		converting.fake.enqueue(reply(text("a")));
		await converting.agent.prompt([user("hi"), note]);
		expect(transcript(converting.fake.calls[0].context.messages)).toEqual(["user: hi", "user: [note] remember"]);
	});

	it("transformContext rewrites what one request sees without touching the transcript", async () => {
		const seen: number[] = [];
		const { agent, fake } = setup({
			transformContext: async (messages, signal) => {
				expect(signal).toBeInstanceOf(AbortSignal);
				seen.push(messages.length);
				return messages.slice(-1);
			},
		});
		fake.enqueue(reply(toolCall("echo", { text: "x" }, "e")), reply(text("done")));
		await agent.prompt("hi");
		expect(seen).toEqual([1, 3]);
		expect(transcript(fake.calls[1].context.messages)).toEqual(["toolResult e: echo: x"]);
		expect(agent.state.messages).toHaveLength(4);
	});

	it("prepareRequest replaces the context, model and thinking level for this and later requests", async () => {
		const projected = [user("projected history", 1)];
		const requests: string[] = [];
		const { agent, fake, events } = setup({
			prepareRequest: ({ context, model, thinkingLevel }) => {
				requests.push(`${model.id}/${thinkingLevel}/${context.messages.length}`);
				if (requests.length === 1) {
					return {
						context: { ...context, messages: [...projected, ...context.messages.slice(-1)] },
						model: testModel({ id: "swapped" }),
						thinkingLevel: "low",
					};
				}
				return undefined;
			},
		});
		fake.enqueue(reply(toolCall("echo", { text: "x" }, "e")), reply(text("done")));
		await agent.prompt("now");
		expect(requests).toEqual(["scripted-1/off/1", "swapped/low/4"]);
		expect(transcript(fake.calls[0].context.messages)).toEqual(["user: projected history", "user: now"]);
		expect(transcript(fake.calls[1].context.messages)).toEqual([
			"user: projected history",
			"user: now",
			'assistant: echo({"text":"x"})',
			"toolResult e: echo: x",
		]);
		expect(fake.calls.map((c) => `${c.model.id}/${c.options?.reasoning}`)).toEqual(["swapped/low", "swapped/low"]);
		// The agent's transcript is built from events, not from the projection.
		expect(transcript(agent.state.messages)[0]).toBe("user: now");
		const end = events.at(-1);
		expect(end?.type === "agent_end" && end.messages).toHaveLength(4);
	});

	it("getApiKey is resolved for every request and passed to the stream", async () => {
		let n = 0;
		const { agent, fake } = setup({ getApiKey: async (provider) => `${provider}-key-${++n}` });
		fake.enqueue(reply(toolCall("echo", { text: "x" })), reply(text("done")));
		await agent.prompt("go");
		expect(fake.calls.map((c) => c.options?.apiKey)).toEqual(["scripted-key-1", "scripted-key-2"]);
	});

	it("stream options, session id and thinking budgets are passed through", async () => {
		const { agent, fake } = setup({
			sessionId: "sess-1",
			thinkingBudgets: { low: 100 },
			streamOptions: { temperature: 0.5, maxTokens: 77, headers: { "x-a": "b" } },
		});
		fake.enqueue(reply(text("ok")));
		await agent.prompt("go");
		expect(fake.calls[0].options).toMatchObject({
			sessionId: "sess-1",
			thinkingBudgets: { low: 100 },
			temperature: 0.5,
			maxTokens: 77,
			headers: { "x-a": "b" },
		});
		expect(fake.calls[0].options?.reasoning).toBeUndefined();
	});
});

describe("tool hooks", () => {
	it("beforeToolCall can block with a reason (or the default) and the model sees an error result", async () => {
		const { agent, fake, calls } = setup({
			beforeToolCall: async ({ toolCall, args, assistantMessage, context }) => {
				expect(assistantMessage.content).toContainEqual(toolCall);
				expect(context.messages.at(-1)).toBe(assistantMessage);
				if ((args as { text: string }).text === "rm") return { block: true, reason: "not allowed" };
				if ((args as { text: string }).text === "quiet") return { block: true };
				return undefined;
			},
		});
		fake.enqueue(
			reply(
				toolCall("echo", { text: "rm" }, "a"),
				toolCall("echo", { text: "quiet" }, "b"),
				toolCall("echo", { text: "ok" }, "c"),
			),
			reply(text("fine")),
		);
		await agent.prompt("go");
		expect(calls).toEqual([{ text: "ok" }]);
		expect(transcript(agent.state.messages).slice(2, 5)).toEqual([
			"toolResult a (error): not allowed",
			"toolResult b (error): Tool execution was blocked",
			"toolResult c: echo: ok",
		]);
	});

	it("beforeToolCall can rewrite the arguments (validated again)", async () => {
		const { agent, fake, calls } = setup({
			beforeToolCall: async ({ args }) => {
				const text = (args as { text: string }).text;
				return text === "bad" ? { args: { text: 42 } } : { args: { text: `${text}!` } };
			},
		});
		fake.enqueue(
			reply(toolCall("echo", { text: "hi" }, "a"), toolCall("echo", { text: "bad" }, "b")),
			reply(text("ok")),
		);
		await agent.prompt("go");
		// 42 is coerced to "42" by the safe coercion; the hook's value wins.
		expect(calls).toEqual([{ text: "hi!" }, { text: "42" }]);
	});

	it("afterToolCall replaces content, details, isError and terminate field by field", async () => {
		const { agent, fake, events } = setup({
			afterToolCall: async ({ isError, toolCall }) => {
				expect(isError).toBe(false);
				if (toolCall.id === "a") return { content: [{ type: "text", text: "rewritten" }], details: { audited: true } };
				if (toolCall.id === "b") return { isError: true };
				return { terminate: true };
			},
		});
		fake.enqueue(
			reply(toolCall("echo", { text: "1" }, "a"), toolCall("echo", { text: "2" }, "b")),
			reply(text("next")),
		);
		await agent.prompt("go");
		expect(transcript(agent.state.messages).slice(2, 4)).toEqual([
			"toolResult a: rewritten",
			"toolResult b (error): echo: 2",
		]);
		expect((agent.state.messages[2] as { details: unknown }).details).toEqual({ audited: true });
		const end = events.find((e) => e.type === "tool_execution_end" && e.toolCallId === "a");
		expect(end?.type === "tool_execution_end" && end.result).toEqual({
			content: [{ type: "text", text: "rewritten" }],
			details: { audited: true },
		});

		// terminate from afterToolCall on every result ends the run after the batch.
		fake.enqueue(reply(toolCall("echo", { text: "3" }, "c")));
		await agent.prompt("again");
		expect(fake.calls).toHaveLength(3);
		expect(fake.pending).toBe(0);
	});
});

describe("turn hooks", () => {
	it("finishTurn end stops after turn_end without polling queues", async () => {
		const { agent, fake, events } = setup({ finishTurn: () => ({ action: "end" }) });
		agent.followUp("not now");
		fake.enqueue(reply(toolCall("echo", { text: "x" }, "e")));
		await agent.prompt("go");
		expect(fake.calls).toHaveLength(1);
		expect(outline(events).slice(-3)).toEqual(["message_end:toolResult", "turn_end", "agent_end"]);
		expect(agent.getQueuedMessages().followUp).toHaveLength(1);
	});

	it("finishTurn continue forces one more request with the context as is; runs before turn_end", async () => {
		const order: string[] = [];
		let turns = 0;
		const { agent, fake } = setup({
			finishTurn: ({ message, toolResults, newMessages }) => {
				order.push(`finishTurn ${transcript([message])[0]} results=${toolResults.length} new=${newMessages.length}`);
				return ++turns === 1 ? { action: "continue" } : undefined;
			},
		});
		agent.subscribe((e) => {
			if (e.type === "turn_end") order.push("turn_end");
		});
		fake.enqueue(reply(text("first")), reply(text("second")));
		await agent.prompt("go");
		expect(order).toEqual([
			"finishTurn assistant: first results=0 new=2",
			"turn_end",
			"finishTurn assistant: second results=0 new=3",
			"turn_end",
		]);
		expect(transcript(fake.calls[1].context.messages)).toEqual(["user: go", "assistant: first"]);
	});

	it("prepareNextTurn swaps the model and injects messages before the next request", async () => {
		const { agent, fake, events } = setup({
			prepareNextTurn: ({ message }) =>
				message.stopReason === "toolUse"
					? { model: testModel({ id: "bigger" }), thinkingLevel: "high", messages: [user("injected", 3)] }
					: undefined,
		});
		fake.enqueue(reply(toolCall("echo", { text: "x" }, "e")), reply(text("done")));
		await agent.prompt("go");
		expect(fake.calls.map((c) => `${c.model.id}/${c.options?.reasoning ?? "off"}`)).toEqual([
			"scripted-1/off",
			"bigger/high",
		]);
		expect(transcript(fake.calls[1].context.messages).at(-1)).toBe("user: injected");
		expect(outline(events).slice(10, 15)).toEqual([
			"turn_end",
			"turn_start",
			"message_start:user",
			"message_end:user",
			"message_start:assistant",
		]);
	});
});

describe("throwing hooks end the run with an error message", () => {
	const cases: [string, Partial<AgentOptions>, string][] = [
		[
			"prepareRequest",
			{ prepareRequest: () => Promise.reject(new Error("db down")) },
			"prepareRequest hook failed: db down",
		],
		[
			"transformContext",
			{
				transformContext: async () => {
					throw new Error("bad transform");
				},
			},
			"transformContext hook failed: bad transform",
		],
		[
			"convertToLlm",
			{
				convertToLlm: () => {
					throw new Error("cannot convert");
				},
			},
			"convertToLlm hook failed: cannot convert",
		],
		[
			"getApiKey",
			{
				getApiKey: () => {
					throw new Error("no key");
				},
			},
			"getApiKey hook failed: no key",
		],
	];
	for (const [name, options, expected] of cases) {
		it(`${name} throwing before the first request`, async () => {
			const { agent, fake, events } = setup(options);
			fake.enqueue(reply(text("never")));
			await agent.prompt("go");
			expect(fake.calls).toHaveLength(0);
			expect(outline(events)).toEqual([
				"agent_start",
				"turn_start",
				"message_start:user",
				"message_end:user",
				"message_start:assistant",
				"message_end:assistant",
				"turn_end",
				"agent_end",
			]);
			const last = agent.state.messages.at(-1) as { stopReason: string; errorMessage: string };
			expect(last).toMatchObject({ role: "assistant", stopReason: "error", errorMessage: expected, content: [] });
			expect(agent.state.errorMessage).toBe(expected);
			expect(agent.state.isStreaming).toBe(false);
		});
	}

	it("finishTurn throwing ends the run after the turn", async () => {
		const { agent, fake, events } = setup({
			finishTurn: () => {
				throw new Error("nope");
			},
		});
		fake.enqueue(reply(text("answer")), reply(text("never")));
		await agent.prompt("go");
		expect(transcript(agent.state.messages)).toEqual(["user: go", "assistant: answer", "assistant [error]: "]);
		expect(agent.state.errorMessage).toBe("finishTurn hook failed: nope");
		expect(outline(events).slice(4)).toEqual([
			"message_start:assistant",
			"message_end:assistant",
			"turn_end",
			"turn_start",
			"message_start:assistant",
			"message_end:assistant",
			"turn_end",
			"agent_end",
		]);
	});

	it("prepareNextTurn throwing ends the run in a turn of its own", async () => {
		const { agent, fake, events } = setup({
			prepareNextTurn: () => {
				throw new Error("swap failed");
			},
		});
		fake.enqueue(reply(toolCall("echo", { text: "x" }, "e")), reply(text("never")));
		await agent.prompt("go");
		expect(agent.state.errorMessage).toBe("prepareNextTurn hook failed: swap failed");
		expect(outline(events).slice(-7)).toEqual([
			"message_end:toolResult",
			"turn_end",
			"turn_start",
			"message_start:assistant",
			"message_end:assistant",
			"turn_end",
			"agent_end",
		]);
		expect(fake.calls).toHaveLength(1);
	});

	it("a throwing tool hook blocks its call, every call still gets a result, then the run ends", async () => {
		const { agent, fake, calls } = setup({
			beforeToolCall: async ({ toolCall }) => {
				if (toolCall.id === "a") throw new Error("policy crashed");
				return undefined;
			},
		});
		fake.enqueue(
			reply(toolCall("echo", { text: "1" }, "a"), toolCall("echo", { text: "2" }, "b")),
			reply(text("never")),
		);
		await agent.prompt("go");
		expect(calls).toEqual([{ text: "2" }]);
		expect(transcript(agent.state.messages)).toEqual([
			"user: go",
			'assistant: echo({"text":"1"}) echo({"text":"2"})',
			"toolResult a (error): Tool call blocked: beforeToolCall hook failed: policy crashed",
			"toolResult b: echo: 2",
			"assistant [error]: ",
		]);
		expect(agent.state.errorMessage).toBe("beforeToolCall hook failed: policy crashed");
		expect(fake.calls).toHaveLength(1);
	});

	it("afterToolCall throwing turns the result into an error and ends the run", async () => {
		const { agent, fake } = setup({
			afterToolCall: async () => {
				throw new Error("audit failed");
			},
		});
		fake.enqueue(reply(toolCall("echo", { text: "1" }, "a")), reply(text("never")));
		await agent.prompt("go");
		expect(transcript(agent.state.messages).slice(2)).toEqual([
			"toolResult a (error): afterToolCall hook failed: audit failed",
			"assistant [error]: ",
		]);
		expect(agent.state.errorMessage).toBe("afterToolCall hook failed: audit failed");
	});
});

// Keep the module augmentation used.
export type { AgentMessage };
