import { Type } from "typebox";
import { describe, expect, it } from "vitest";
import { Agent } from "../src/agent.js";
import type { AgentEvent } from "../src/types.js";
import {
	deferred,
	defineTool,
	gate,
	outline,
	reply,
	ScriptedStream,
	testModel,
	text,
	textResult,
	toolCall,
	transcript,
	user,
	wait,
} from "./support/index.js";

function setup() {
	const fake = new ScriptedStream();
	const toolGate = deferred();
	const toolStarted = deferred();
	const slow = defineTool("slow", Type.Object({}), async () => {
		toolStarted.resolve();
		await toolGate.promise;
		return textResult("slow done");
	});
	const agent = new Agent({ initialState: { model: testModel(), tools: [slow] }, streamFn: fake.streamFn });
	const events: AgentEvent[] = [];
	agent.subscribe((e) => {
		events.push(e);
	});
	return { agent, fake, events, toolGate, toolStarted };
}

describe("steering", () => {
	it("steering during tool execution is injected after the batch, before the next request", async () => {
		const { agent, fake, events, toolGate, toolStarted } = setup();
		fake.enqueue(reply(toolCall("slow", {}, "s1"), toolCall("slow", {}, "s2")), reply(text("after steer")));
		const run = agent.prompt("start");
		await toolStarted.promise;
		agent.steer(user("change course", 9));
		toolGate.resolve();
		await run;
		// Both issued calls ran; the steering message precedes the next request.
		expect(transcript(agent.state.messages)).toEqual([
			"user: start",
			"assistant: slow({}) slow({})",
			"toolResult s1: slow done",
			"toolResult s2: slow done",
			"user: change course",
			"assistant: after steer",
		]);
		expect(outline(events).slice(10)).toEqual([
			"message_start:toolResult",
			"message_end:toolResult",
			"message_start:toolResult",
			"message_end:toolResult",
			"turn_end",
			"turn_start",
			"message_start:user",
			"message_end:user",
			"message_start:assistant",
			"message_end:assistant",
			"turn_end",
			"agent_end",
		]);
		expect(transcript(fake.calls[1].context.messages).at(-1)).toBe("user: change course");
		expect(events.filter((e) => e.type === "agent_start")).toHaveLength(1);
	});

	it("steering during a streamed answer without tool calls is delivered in a next turn of the same run", async () => {
		const { agent, fake, events } = setup();
		const g = gate();
		fake.enqueue(reply(text("partial"), wait(g), text("rest")), reply(text("steered answer")));
		const run = agent.prompt("q");
		await fake.waitForCall(1);
		agent.steer("actually, this");
		g.release();
		await run;
		expect(transcript(agent.state.messages)).toEqual([
			"user: q",
			"assistant: partial rest",
			"user: actually, this",
			"assistant: steered answer",
		]);
		expect(outline(events).filter((e) => e.startsWith("turn") || e.startsWith("agent"))).toEqual([
			"agent_start",
			"turn_start",
			"turn_end",
			"turn_start",
			"turn_end",
			"agent_end",
		]);
	});

	it("steering queued before a prompt goes with the first request, after the prompt", async () => {
		const { agent, fake } = setup();
		agent.steer("and also this");
		fake.enqueue(reply(text("both")));
		await agent.prompt("first");
		expect(transcript(fake.calls[0].context.messages)).toEqual(["user: first", "user: and also this"]);
		expect(fake.calls).toHaveLength(1);
	});

	it("one-at-a-time takes one steering message per turn; all takes every queued one", async () => {
		for (const mode of ["one-at-a-time", "all"] as const) {
			const { agent, fake, toolGate, toolStarted } = setup();
			agent.steeringMode = mode;
			fake.enqueue(reply(toolCall("slow", {}, "s1")), reply(text("r2")), reply(text("r3")));
			const run = agent.prompt("go");
			await toolStarted.promise;
			agent.steer("m1");
			agent.steer("m2");
			toolGate.resolve();
			await run;
			if (mode === "one-at-a-time") {
				expect(transcript(agent.state.messages).slice(3)).toEqual([
					"user: m1",
					"assistant: r2",
					"user: m2",
					"assistant: r3",
				]);
			} else {
				expect(transcript(agent.state.messages).slice(3)).toEqual(["user: m1", "user: m2", "assistant: r2"]);
				expect(fake.pending).toBe(1);
			}
		}
	});
});

describe("follow-ups", () => {
	it("a follow-up sent while running waits until the agent would stop, then continues the same run", async () => {
		const { agent, fake, events, toolGate, toolStarted } = setup();
		fake.enqueue(reply(toolCall("slow", {}, "s1")), reply(text("finished")), reply(text("follow-up answer")));
		const run = agent.prompt("go");
		await toolStarted.promise;
		agent.followUp("one more thing");
		toolGate.resolve();
		await run;
		expect(transcript(agent.state.messages)).toEqual([
			"user: go",
			"assistant: slow({})",
			"toolResult s1: slow done",
			"assistant: finished",
			"user: one more thing",
			"assistant: follow-up answer",
		]);
		expect(events.filter((e) => e.type === "agent_start" || e.type === "agent_end")).toHaveLength(2);
		expect(events.filter((e) => e.type === "turn_start")).toHaveLength(3);
		// All three requests shared one abort signal.
		expect(new Set(fake.calls.map((c) => c.signal)).size).toBe(1);
	});

	it("steering wins over follow-ups; follow-ups wait for the steering turn to finish", async () => {
		const { agent, fake, toolGate, toolStarted } = setup();
		fake.enqueue(reply(toolCall("slow", {}, "s1")), reply(text("steered")), reply(text("followed")));
		const run = agent.prompt("go");
		await toolStarted.promise;
		agent.followUp("later");
		agent.steer("now");
		toolGate.resolve();
		await run;
		expect(transcript(agent.state.messages).slice(3)).toEqual([
			"user: now",
			"assistant: steered",
			"user: later",
			"assistant: followed",
		]);
	});

	it("a follow-up sent while idle waits for the next prompt's natural end", async () => {
		const { agent, fake } = setup();
		agent.followUp("queued while idle");
		expect(agent.hasQueuedMessages()).toBe(true);
		expect(agent.getQueuedMessages().followUp).toHaveLength(1);
		fake.enqueue(reply(text("a1")), reply(text("a2")));
		await agent.prompt("hello");
		expect(transcript(agent.state.messages)).toEqual([
			"user: hello",
			"assistant: a1",
			"user: queued while idle",
			"assistant: a2",
		]);
		expect(agent.hasQueuedMessages()).toBe(false);
	});

	it("follow-up mode all delivers every queued message in one turn", async () => {
		const { agent, fake } = setup();
		agent.followUpMode = "all";
		agent.followUp("f1");
		agent.followUp("f2");
		fake.enqueue(reply(text("a1")), reply(text("a2")));
		await agent.prompt("hello");
		expect(transcript(agent.state.messages)).toEqual([
			"user: hello",
			"assistant: a1",
			"user: f1",
			"user: f2",
			"assistant: a2",
		]);
	});

	it("continue() after an assistant message sends queued steering first, then follow-ups", async () => {
		const { agent, fake } = setup();
		fake.enqueue(reply(text("a1")), reply(text("a2")), reply(text("a3")));
		await agent.prompt("hello");
		agent.followUp("f");
		agent.steer("s");
		await agent.continue();
		expect(transcript(agent.state.messages)).toEqual([
			"user: hello",
			"assistant: a1",
			"user: s",
			"assistant: a2",
			"user: f",
			"assistant: a3",
		]);
	});

	it("cleared queues are not delivered", async () => {
		const { agent, fake } = setup();
		agent.steer("s");
		agent.followUp("f");
		expect(agent.peekQueuedMessages().map((m) => transcript([m])[0])).toEqual(["user: s"]);
		agent.clearSteeringQueue();
		expect(agent.getQueuedMessages()).toEqual({ steering: [], followUp: [expect.anything()] });
		agent.clearFollowUpQueue();
		agent.steer("s2");
		agent.followUp("f2");
		agent.clearAllQueues();
		expect(agent.hasQueuedMessages()).toBe(false);
		fake.enqueue(reply(text("only")));
		await agent.prompt("p");
		expect(transcript(agent.state.messages)).toEqual(["user: p", "assistant: only"]);
	});
});
