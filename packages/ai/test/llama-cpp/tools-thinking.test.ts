/**
 * Tool calls and thinking through node-llama-cpp with generated models whose weights are wired
 * (see `toolCaller`/`thinker` in tiny-llama.ts) so that a new turn opens with the chat
 * template's `<tool_call>` or `<think>` syntax. The model itself emits that syntax; from there
 * node-llama-cpp detects it, constrains the function name and arguments with a grammar built
 * from the tool's JSON Schema, and the adapter maps what it reports to pi events. What this
 * proves: the detection → grammar → toolcall_* mapping end to end on a real llama.cpp run, and
 * that the arguments obey the schema (an enum the random weights could not hit by chance).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unloadLlamaCppModels } from "../../src/llama-cpp/runtime.js";
import { stream } from "../../src/stream.js";
import type { AssistantMessage, AssistantMessageEvent, Context, Tool, ToolCall } from "../../src/types.js";
import { type TinyModelFile, writeTinyModelFile } from "../support/gguf/tiny-model.js";

let caller: TinyModelFile;
let thinker: TinyModelFile;
beforeAll(() => {
	caller = writeTinyModelFile({ toolCaller: true });
	thinker = writeTinyModelFile({ thinker: true });
});
afterAll(async () => {
	await unloadLlamaCppModels();
	caller.cleanup();
	thinker.cleanup();
});

const pick: Tool = {
	name: "pick_fruit",
	description: "Picks a fruit from the basket",
	parameters: {
		type: "object",
		properties: { fruit: { type: "string", enum: ["apple", "pear", "plum"] }, ripe: { type: "boolean" } },
		required: ["fruit", "ripe"],
		additionalProperties: false,
	},
};
const basket: Record<string, string> = { apple: "a red apple", pear: "a green pear", plum: "a purple plum" };

describe("llama-cpp adapter: grammar-constrained tool calls", () => {
	it("maps node-llama-cpp's function call to toolcall_* events with schema-valid arguments, then takes the result", async () => {
		const context: Context = {
			systemPrompt: "Use tools.",
			tools: [pick],
			messages: [{ role: "user", content: "pick one", timestamp: 1 }],
		};
		const events: AssistantMessageEvent[] = [];
		const s = stream(caller.model, context, { maxTokens: 60, temperature: 0 });
		for await (const event of s) events.push(event);
		const message = await s.result();
		expect(message.stopReason).toBe("toolUse");
		const types = events.map((e) => e.type);
		expect(types[0]).toBe("start");
		expect(types[1]).toBe("toolcall_start");
		expect(types.filter((t) => t === "toolcall_delta").length).toBeGreaterThan(3);
		expect(types.at(-2)).toBe("toolcall_end");
		const call = message.content.find((b): b is ToolCall => b.type === "toolCall");
		expect(call?.name).toBe("pick_fruit");
		expect(Object.keys(basket)).toContain(call?.arguments.fruit);
		expect(typeof call?.arguments.ripe).toBe("boolean");
		expect(Object.keys(call?.arguments ?? {}).sort()).toEqual(["fruit", "ripe"]);
		// The streamed JSON is the final arguments.
		const json = events.flatMap((e) => (e.type === "toolcall_delta" ? [e.delta] : [])).join("");
		expect(JSON.parse(json)).toEqual(call?.arguments);
		expect(call?.id).toMatch(/^call_/);

		// Run the tool for real and send its result back: the history (call + result inside the
		// model turn) renders through the template and the model continues that turn.
		if (!call) throw new Error("no call");
		const result = basket[call.arguments.fruit as string];
		const next = await stream(
			caller.model,
			{
				...context,
				messages: [
					...context.messages,
					message,
					{
						role: "toolResult",
						toolCallId: call.id,
						toolName: call.name,
						content: [{ type: "text", text: result }],
						isError: false,
						timestamp: 2,
					},
				],
			},
			{ maxTokens: 60, temperature: 0 },
		).result();
		expect(["toolUse", "stop", "length"]).toContain(next.stopReason);
		expect(next.usage.input + next.usage.cacheRead).toBeGreaterThan(message.usage.input + message.usage.cacheRead);
	});

	it("without tools the same model only writes text (no function grammar is offered)", async () => {
		const message = await stream(
			caller.model,
			{ messages: [{ role: "user", content: "no tools", timestamp: 1 }] },
			{ maxTokens: 6, temperature: 0 },
		).result();
		expect(message.content.every((b) => b.type === "text")).toBe(true);
	});
});

describe("llama-cpp adapter: thinking", () => {
	const ask: Context = { messages: [{ role: "user", content: "think", timestamp: 1 }] };

	it("streams the thought segment as thinking events, then text; the budget closes the thought", async () => {
		const events: AssistantMessageEvent[] = [];
		const s = stream(thinker.model, ask, {
			maxTokens: 20,
			temperature: 0,
			reasoning: "low",
			thinkingBudgets: { low: 6 },
		});
		for await (const event of s) events.push(event);
		const message: AssistantMessage = await s.result();
		const types = events.map((e) => e.type);
		expect(types.slice(0, 3)).toEqual(["start", "thinking_start", "thinking_delta"]);
		expect(types.indexOf("thinking_end")).toBeLessThan(types.indexOf("text_start"));
		expect(message.content.map((b) => b.type)).toEqual(["thinking", "text"]);
		const thinking = message.content[0];
		expect(thinking.type === "thinking" && thinking.thinking.length).toBeGreaterThan(0);
	});

	it("thinking off gives the thought no budget: the answer is text", async () => {
		const message = await stream(thinker.model, ask, { maxTokens: 10, temperature: 0, reasoning: "off" }).result();
		const thinking = message.content.find((b) => b.type === "thinking");
		expect(thinking?.type === "thinking" ? thinking.thinking : "").toBe("");
		expect(message.content.some((b) => b.type === "text")).toBe(true);
	});
});
