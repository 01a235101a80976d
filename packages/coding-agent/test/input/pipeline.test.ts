// The input pipeline with fake stages: slot order, rewrites seen by later
// stages, `handled` ending the path, removal, and the session's prompt path
// going through it (steer/follow-up from the skill slot on; before_agent_start
// only when a run starts).
import type { AgentMessage } from "@pi/agent-core";
import { describe, expect, it } from "vitest";
import { InputPipeline } from "../../src/input/pipeline.js";
import { INPUT_SLOTS, type InputSlot, type PromptInput } from "../../src/input/types.js";
import { makeSession } from "../agent-session/support.js";

const tag =
	(log: string[], name: string) =>
	(input: PromptInput): { action: "transform"; input: PromptInput } => {
		log.push(`${name}:${input.text}`);
		return { action: "transform", input: { ...input, text: `${input.text}+${name}` } };
	};

describe("InputPipeline", () => {
	it("runs the slots in the documented order whatever the order of use(), each seeing the rewritten input", async () => {
		const pipeline = new InputPipeline();
		const log: string[] = [];
		for (const slot of [...INPUT_SLOTS].reverse()) pipeline.use(slot, tag(log, slot));
		const outcome = await pipeline.process({ text: "x" }, { source: "interactive" });
		expect(log).toEqual([
			"extensionCommand:x",
			"inputEvent:x+extensionCommand",
			"skillCommand:x+extensionCommand+inputEvent",
			"promptTemplate:x+extensionCommand+inputEvent+skillCommand",
		]);
		expect(outcome).toEqual({
			handled: false,
			input: { text: "x+extensionCommand+inputEvent+skillCommand+promptTemplate" },
		});
	});

	it("several stages in a slot run in the order added; continue and undefined pass the input on", async () => {
		const pipeline = new InputPipeline();
		const log: string[] = [];
		pipeline.use("inputEvent", tag(log, "a"));
		pipeline.use("inputEvent", () => ({ action: "continue" }));
		pipeline.use("inputEvent", () => undefined);
		pipeline.use("inputEvent", tag(log, "b"));
		const outcome = await pipeline.process({ text: "x" }, { source: "rpc" });
		expect(log).toEqual(["a:x", "b:x+a"]);
		expect(outcome).toEqual({ handled: false, input: { text: "x+a+b" } });
	});

	it("handled ends the path: later stages never run", async () => {
		const pipeline = new InputPipeline();
		const log: string[] = [];
		pipeline.use("extensionCommand", (input) => (input.text === "/cmd" ? { action: "handled" } : undefined));
		pipeline.use("promptTemplate", tag(log, "template"));
		expect(await pipeline.process({ text: "/cmd" }, { source: "interactive" })).toEqual({ handled: true });
		expect(log).toEqual([]);
	});

	it("process(from) skips the earlier slots; removed stages stop running; a throwing stage rejects", async () => {
		const pipeline = new InputPipeline();
		const log: string[] = [];
		pipeline.use("extensionCommand", tag(log, "command"));
		const remove = pipeline.use("skillCommand", tag(log, "skill"));
		await pipeline.process({ text: "x" }, { source: "interactive", streamingBehavior: "steer" }, "skillCommand");
		expect(log).toEqual(["skill:x"]);
		remove();
		expect(await pipeline.process({ text: "y" }, { source: "interactive" })).toEqual({
			handled: false,
			input: { text: "y+command" },
		});
		pipeline.use("promptTemplate", () => {
			throw new Error("bad template");
		});
		await expect(pipeline.process({ text: "z" }, { source: "interactive" })).rejects.toThrow("bad template");
		expect(() => pipeline.use("nope" as InputSlot, tag(log, "x"))).toThrow("Unknown input slot");
	});

	it("process(from, to) runs only that range; expandPromptTemplates false skips the three command slots", async () => {
		const pipeline = new InputPipeline();
		const log: string[] = [];
		for (const slot of INPUT_SLOTS) pipeline.use(slot, tag(log, slot));
		await pipeline.process({ text: "a" }, { source: "rpc" }, "extensionCommand", "inputEvent");
		expect(log).toEqual(["extensionCommand:a", "inputEvent:a+extensionCommand"]);
		log.length = 0;
		const out = await pipeline.process({ text: "/b" }, { source: "extension", expandPromptTemplates: false });
		expect(log).toEqual(["inputEvent:/b"]);
		expect(out).toEqual({ handled: false, input: { text: "/b+inputEvent" } });
	});

	it("before_agent_start stages' messages are collected in order", async () => {
		const pipeline = new InputPipeline();
		const note = (text: string): AgentMessage => ({ role: "user", content: text, timestamp: 0 });
		pipeline.onAgentStart(() => [note("one")]);
		pipeline.onAgentStart(() => undefined);
		const remove = pipeline.onAgentStart((input) => [note(`two:${input.text}`)]);
		expect(await pipeline.beforeAgentStart({ text: "p" })).toEqual([note("one"), note("two:p")]);
		remove();
		expect(await pipeline.beforeAgentStart({ text: "p" })).toEqual([note("one")]);
	});
});

describe("AgentSession prompt path", () => {
	const userTexts = (messages: AgentMessage[]) =>
		messages.filter((m) => m.role === "user").map((m) => JSON.stringify((m as { content: unknown }).content));

	it("session.prompt sends the pipeline's rewritten input with before_agent_start messages; handled input sends nothing", async () => {
		const { session, fake } = await makeSession();
		const seen: string[] = [];
		session.input.use("extensionCommand", (input) => (input.text === "/local" ? { action: "handled" } : undefined));
		session.input.use("inputEvent", (input, ctx) => {
			seen.push(`${ctx.source}:${input.text}`);
			return undefined;
		});
		session.input.use("promptTemplate", (input) =>
			input.text.startsWith("/t ")
				? { action: "transform", input: { text: `EXPANDED ${input.text.slice(3)}` } }
				: undefined,
		);
		session.input.onAgentStart(() => [{ role: "user", content: [{ type: "text", text: "INJECTED" }], timestamp: 1 }]);

		await session.prompt("/local");
		expect(fake.calls).toHaveLength(0);
		expect(session.messages).toHaveLength(0);

		fake.enqueue({ text: "ok" });
		await session.prompt("/t hello", { source: "rpc" });
		expect(seen).toEqual(["rpc:/t hello"]); // "/local" was handled before the input stage
		expect(userTexts(fake.calls[0].messages)).toEqual([
			JSON.stringify([{ type: "text", text: "EXPANDED hello" }]),
			JSON.stringify([{ type: "text", text: "INJECTED" }]),
		]);
	});

	it("steer and follow-up typed to the session start at the skill slot and never run before_agent_start", async () => {
		const { session, fake } = await makeSession();
		const log: string[] = [];
		session.input.use("inputEvent", tag(log, "input"));
		session.input.use("skillCommand", tag(log, "skill"));
		let started = 0;
		session.input.onAgentStart(() => {
			started++;
			return undefined;
		});
		let release: () => void = () => {};
		fake.enqueue({ text: "first", gate: new Promise<void>((r) => (release = r)) }, { text: "second" });
		const run = session.prompt("go");
		while (!session.isStreaming || fake.calls.length === 0) await new Promise((r) => setTimeout(r, 1));
		await session.steer("s");
		await session.prompt("f", { streamingBehavior: "followUp" });
		release();
		await run;
		expect(log).toEqual(["input:go", "skill:go+input", "skill:s", "input:f", "skill:f+input"]);
		expect(started).toBe(1);
		expect(userTexts(fake.calls[1].messages)).toContain(JSON.stringify([{ type: "text", text: "s+skill" }]));
	});
});
