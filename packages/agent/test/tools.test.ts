import { Type } from "typebox";
import { describe, expect, it } from "vitest";
import { Agent, type AgentOptions } from "../src/agent.js";
import { CUT_OFF_MESSAGE } from "../src/tool-execution.js";
import type { AgentEvent, AgentTool, AgentToolResult, AgentToolUpdateCallback } from "../src/types.js";
import {
	cutReply,
	type Deferred,
	deferred,
	defineTool,
	echoTool,
	outline,
	reply,
	ScriptedStream,
	testModel,
	text,
	textResult,
	toolCall,
	transcript,
} from "./support/index.js";

function setup(tools: AgentTool[], options: Partial<AgentOptions> = {}) {
	const fake = new ScriptedStream();
	const agent = new Agent({ initialState: { model: testModel(), tools }, streamFn: fake.streamFn, ...options });
	const events: AgentEvent[] = [];
	agent.subscribe((e) => {
		events.push(e);
	});
	return { agent, fake, events };
}

/** A tool whose calls finish when the test says so; logs start/finish. */
function controlledTool(log: string[]) {
	const gates = new Map<string, Deferred>();
	const started = new Map<string, Deferred>();
	const get = (map: Map<string, Deferred>, key: string) => {
		let d = map.get(key);
		if (!d) {
			d = deferred();
			map.set(key, d);
		}
		return d;
	};
	const tool = defineTool("step", Type.Object({ name: Type.String() }), async (params) => {
		log.push(`run ${params.name}`);
		get(started, params.name).resolve();
		await get(gates, params.name).promise;
		log.push(`finish ${params.name}`);
		return textResult(`result ${params.name}`);
	});
	return {
		tool,
		finish: (name: string) => get(gates, name).resolve(),
		started: (name: string) => get(started, name).promise,
	};
}

describe("tool execution order", () => {
	it("parallel: starts in source order, ends in completion order, results in source order", async () => {
		const log: string[] = [];
		const control = controlledTool(log);
		const { agent, fake, events } = setup([control.tool]);
		fake.enqueue(
			reply(
				toolCall("step", { name: "a" }, "a"),
				toolCall("step", { name: "b" }, "b"),
				toolCall("step", { name: "c" }, "c"),
			),
			reply(text("ok")),
		);
		const run = agent.prompt("go");
		await Promise.all([control.started("a"), control.started("b"), control.started("c")]);
		expect(log).toEqual(["run a", "run b", "run c"]);
		control.finish("b");
		await new Promise((r) => setTimeout(r, 5));
		control.finish("c");
		await new Promise((r) => setTimeout(r, 5));
		control.finish("a");
		await run;
		expect(outline(events).slice(6, 15)).toEqual([
			"tool_execution_start:a",
			"tool_execution_start:b",
			"tool_execution_start:c",
			"tool_execution_end:b",
			"tool_execution_end:c",
			"tool_execution_end:a",
			"message_start:toolResult",
			"message_end:toolResult",
			"message_start:toolResult",
		]);
		const turnEnd = events.find((e) => e.type === "turn_end");
		expect(turnEnd?.type === "turn_end" && turnEnd.toolResults.map((r) => r.toolCallId)).toEqual(["a", "b", "c"]);
		expect(transcript(agent.state.messages).slice(2, 5)).toEqual([
			"toolResult a: result a",
			"toolResult b: result b",
			"toolResult c: result c",
		]);
	});

	it("sequential (configured): each call runs and is recorded before the next starts", async () => {
		const log: string[] = [];
		const control = controlledTool(log);
		const { agent, fake, events } = setup([control.tool], { toolExecution: "sequential" });
		fake.enqueue(reply(toolCall("step", { name: "a" }, "a"), toolCall("step", { name: "b" }, "b")), reply(text("ok")));
		const run = agent.prompt("go");
		await control.started("a");
		await new Promise((r) => setTimeout(r, 5));
		expect(log).toEqual(["run a"]);
		control.finish("a");
		await control.started("b");
		control.finish("b");
		await run;
		expect(log).toEqual(["run a", "finish a", "run b", "finish b"]);
		expect(outline(events).slice(6, 14)).toEqual([
			"tool_execution_start:a",
			"tool_execution_end:a",
			"message_start:toolResult",
			"message_end:toolResult",
			"tool_execution_start:b",
			"tool_execution_end:b",
			"message_start:toolResult",
			"message_end:toolResult",
		]);
	});

	it("one tool with executionMode sequential makes the whole batch sequential", async () => {
		const log: string[] = [];
		const control = controlledTool(log);
		const serial = defineTool(
			"serial",
			Type.Object({}),
			() => {
				log.push("serial");
				return textResult("s");
			},
			{ executionMode: "sequential" },
		);
		const { agent, fake } = setup([control.tool, serial]);
		fake.enqueue(reply(toolCall("step", { name: "a" }, "a"), toolCall("serial", {}, "s")), reply(text("ok")));
		const run = agent.prompt("go");
		await control.started("a");
		await new Promise((r) => setTimeout(r, 5));
		expect(log).toEqual(["run a"]);
		control.finish("a");
		await run;
		expect(log).toEqual(["run a", "finish a", "serial"]);
	});
});

describe("tool call outcomes", () => {
	it("unknown tool gives an error result and the run continues", async () => {
		const { agent, fake, events } = setup([echoTool()]);
		fake.enqueue(reply(toolCall("nope", {}, "x")), reply(text("sorry")));
		await agent.prompt("go");
		expect(transcript(agent.state.messages)).toEqual([
			"user: go",
			"assistant: nope({})",
			"toolResult x (error): Tool nope not found",
			"assistant: sorry",
		]);
		expect(outline(events)).toContain("tool_execution_end:x:error");
	});

	it("invalid arguments never reach execute; the model gets every problem listed", async () => {
		const calls: unknown[] = [];
		const tool = defineTool(
			"typed",
			Type.Object({
				count: Type.Integer(),
				name: Type.String(),
				mode: Type.Union([Type.Literal("a"), Type.Literal("b")]),
			}),
			(params) => {
				calls.push(params);
				return textResult("ran");
			},
		);
		const { agent, fake } = setup([tool]);
		fake.enqueue(reply(toolCall("typed", { count: "many", mode: "c" }, "v")), reply(text("fixing")));
		await agent.prompt("go");
		expect(calls).toEqual([]);
		const result = agent.state.messages[2] as { isError: boolean; content: { text: string }[] };
		expect(result.isError).toBe(true);
		expect(result.content[0].text).toBe(
			[
				'Validation failed for tool "typed":',
				"  - (root): must have required properties name",
				"  - count: must be integer",
				"  - mode: must be equal to constant",
				"  - mode: must match a schema in anyOf",
				"",
				"Received arguments:",
				'{\n  "count": "many",\n  "mode": "c"\n}',
			].join("\n"),
		);
	});

	it("safe coercions are applied before execute", async () => {
		const calls: unknown[] = [];
		const tool = defineTool(
			"typed",
			Type.Object({
				count: Type.Number(),
				flag: Type.Boolean(),
				list: Type.Array(Type.String()),
				note: Type.Optional(Type.String()),
			}),
			(params) => {
				calls.push(params);
				return textResult("ran");
			},
		);
		const { agent, fake } = setup([tool]);
		fake.enqueue(
			reply(toolCall("typed", { count: "5", flag: "true", list: '["x","y"]', note: null }, "v")),
			reply(text("ok")),
		);
		await agent.prompt("go");
		expect(calls).toEqual([{ count: 5, flag: true, list: ["x", "y"] }]);
		// The transcript keeps what the model actually sent.
		expect(transcript(agent.state.messages)[1]).toBe(
			'assistant: typed({"count":"5","flag":"true","list":"[\\"x\\",\\"y\\"]","note":null})',
		);
	});

	it("prepareArguments normalises raw arguments before validation", async () => {
		const calls: unknown[] = [];
		const tool = defineTool(
			"legacy",
			Type.Object({ path: Type.String() }),
			(params) => {
				calls.push(params);
				return textResult("ok");
			},
			{ prepareArguments: (args) => ("file" in args ? { path: args.file } : args) },
		);
		const { agent, fake } = setup([tool]);
		fake.enqueue(reply(toolCall("legacy", { file: "a.txt" }, "l")), reply(text("ok")));
		await agent.prompt("go");
		expect(calls).toEqual([{ path: "a.txt" }]);
	});

	it("a throwing tool gives an error result with its message; isError results are errors too", async () => {
		const boom = defineTool("boom", Type.Object({}), () => {
			throw new Error("disk on fire");
		});
		const soft = defineTool("soft", Type.Object({}), () => ({ ...textResult("soft failure"), isError: true }));
		const empty = defineTool("empty", Type.Object({}), () => undefined as unknown as AgentToolResult);
		const { agent, fake } = setup([boom, soft, empty]);
		fake.enqueue(
			reply(toolCall("boom", {}, "b"), toolCall("soft", {}, "s"), toolCall("empty", {}, "e")),
			reply(text("ok")),
		);
		await agent.prompt("go");
		expect(transcript(agent.state.messages).slice(2, 5)).toEqual([
			"toolResult b (error): disk on fire",
			"toolResult s (error): soft failure",
			"toolResult e (error): Tool empty returned no valid result",
		]);
	});

	it("tool calls of a response cut by the output limit are not executed", async () => {
		const calls: unknown[] = [];
		const { agent, fake, events } = setup([echoTool(calls)]);
		fake.enqueue(cutReply(text("writing"), toolCall("echo", '{"text": "trunc', "cut")), reply(text("retrying")));
		await agent.prompt("go");
		expect(calls).toEqual([]);
		expect(transcript(agent.state.messages)).toEqual([
			"user: go",
			'assistant [length]: writing echo({"text":"trunc"})',
			`toolResult cut (error): ${CUT_OFF_MESSAGE}`,
			"assistant: retrying",
		]);
		expect(outline(events)).toContain("tool_execution_end:cut:error");
	});

	it("tool updates are streamed as tool_execution_update, and dropped after the tool settles", async () => {
		let late: AgentToolUpdateCallback | undefined;
		const tool = defineTool("progress", Type.Object({}), (_p, _s, onUpdate) => {
			onUpdate?.(textResult("25%"));
			onUpdate?.(textResult("75%"));
			late = onUpdate;
			return textResult("100%");
		});
		const { agent, fake, events } = setup([tool]);
		fake.enqueue(reply(toolCall("progress", {}, "p")), reply(text("ok")));
		await agent.prompt("go");
		late?.(textResult("too late"));
		const updates = events.filter((e) => e.type === "tool_execution_update");
		expect(updates.map((e) => e.type === "tool_execution_update" && e.partialResult)).toEqual([
			textResult("25%"),
			textResult("75%"),
		]);
		expect(outline(events).slice(6, 10)).toEqual([
			"tool_execution_start:p",
			"tool_execution_update:p",
			"tool_execution_update:p",
			"tool_execution_end:p",
		]);
	});

	it("terminate on every result ends the run after the batch; a mixed batch continues", async () => {
		const stop = defineTool("stop", Type.Object({}), () => ({ ...textResult("stopping"), terminate: true }));
		const { agent, fake } = setup([stop, echoTool()]);
		fake.enqueue(reply(toolCall("stop", {}, "t1"), toolCall("stop", {}, "t2")));
		await agent.prompt("go");
		expect(fake.calls).toHaveLength(1);
		expect(transcript(agent.state.messages).at(-1)).toBe("toolResult t2: stopping");

		fake.enqueue(reply(toolCall("stop", {}, "t3"), toolCall("echo", { text: "x" }, "e")), reply(text("went on")));
		await agent.prompt("again");
		expect(transcript(agent.state.messages).at(-1)).toBe("assistant: went on");
	});
});
