import { AssistantMessageEventStream } from "@pi/ai";
import { Type } from "typebox";
import { describe, expect, it } from "vitest";
import { Agent, type AgentOptions } from "../src/agent.js";
import { ABORTED_TOOL_MESSAGE } from "../src/tool-execution.js";
import type { AgentEvent, AgentTool } from "../src/types.js";
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
	wait,
} from "./support/index.js";

function setup(tools: AgentTool[] = [], options: Partial<AgentOptions> = {}) {
	const fake = new ScriptedStream();
	const agent = new Agent({ initialState: { model: testModel(), tools }, streamFn: fake.streamFn, ...options });
	const events: AgentEvent[] = [];
	agent.subscribe((e) => {
		events.push(e);
	});
	return { agent, fake, events };
}

describe("abort", () => {
	it("while idle is a no-op", async () => {
		const { agent, fake } = setup();
		agent.abort();
		expect(agent.signal).toBeUndefined();
		fake.enqueue(reply(text("fine")));
		await agent.prompt("go");
		expect(transcript(agent.state.messages)).toEqual(["user: go", "assistant: fine"]);
	});

	it("during streaming keeps the partial message with stopReason aborted and ends the run", async () => {
		const { agent, fake, events } = setup();
		const g = gate();
		fake.enqueue(reply(text("half an ans", "wer"), wait(g), text("never")));
		agent.followUp("not delivered");
		const run = agent.prompt("go");
		const textEnded = deferred();
		agent.subscribe((e) => {
			if (e.type === "message_update" && e.assistantMessageEvent.type === "text_end") textEnded.resolve();
		});
		const call = await fake.waitForCall(1);
		await textEnded.promise;
		agent.abort();
		await run;
		expect(call.signal?.aborted).toBe(true);
		const last = agent.state.messages.at(-1);
		expect(last).toMatchObject({
			role: "assistant",
			stopReason: "aborted",
			content: [{ type: "text", text: "half an answer" }],
			errorInfo: { kind: "aborted", retryable: false },
		});
		expect(agent.state.errorMessage).toBe("Request was aborted");
		expect(outline(events).slice(-3)).toEqual(["message_end:assistant", "turn_end", "agent_end"]);
		expect(agent.getQueuedMessages().followUp).toHaveLength(1);
		expect(agent.state.isStreaming).toBe(false);
	});

	it("during streaming ends at once even when the stream function ignores its signal", async () => {
		const stuck = new AssistantMessageEventStream();
		const agent = new Agent({ initialState: { model: testModel() }, streamFn: () => stuck });
		const run = agent.prompt("go");
		await new Promise((r) => setTimeout(r, 5));
		agent.abort();
		await run;
		expect(agent.state.messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "aborted", content: [] });
	});

	it("during tools fires the tools' signal; every call gets a result; the run ends aborted", async () => {
		const started = deferred();
		const signals: AbortSignal[] = [];
		const cooperative = defineTool("coop", Type.Object({}), (_p, signal) => {
			if (signal) signals.push(signal);
			started.resolve();
			return new Promise((_resolve, reject) => {
				signal?.addEventListener("abort", () => reject(new Error("coop stopped: partial output")));
			});
		});
		const stubborn = defineTool("stubborn", Type.Object({}), () => new Promise(() => {}));
		const { agent, fake, events } = setup([cooperative, stubborn], { toolAbortGraceMs: 20 });
		fake.enqueue(reply(toolCall("coop", {}, "c"), toolCall("stubborn", {}, "s")), reply(text("never")));
		agent.steer("sent with the prompt");
		const run = agent.prompt("go");
		await started.promise;
		agent.abort();
		await run;
		expect(signals[0].aborted).toBe(true);
		expect(transcript(agent.state.messages)).toEqual([
			"user: go",
			"user: sent with the prompt",
			"assistant: coop({}) stubborn({})",
			"toolResult c (error): coop stopped: partial output",
			`toolResult s (error): ${ABORTED_TOOL_MESSAGE}`,
			"assistant [aborted]: ",
		]);
		expect((agent.state.messages[4] as { details: unknown }).details).toEqual({ aborted: true });
		expect(fake.calls).toHaveLength(1);
		expect(outline(events).slice(-12)).toEqual([
			"tool_execution_end:c:error",
			"tool_execution_end:s:error",
			"message_start:toolResult",
			"message_end:toolResult",
			"message_start:toolResult",
			"message_end:toolResult",
			"turn_end",
			"turn_start",
			"message_start:assistant",
			"message_end:assistant",
			"turn_end",
			"agent_end",
		]);
		expect(agent.state.pendingToolCalls.size).toBe(0);
	});

	it("a tool that finishes with its own result within the grace period keeps it", async () => {
		const started = deferred();
		const tool = defineTool("graceful", Type.Object({}), (_p, signal) => {
			started.resolve();
			return new Promise((resolve) => {
				signal?.addEventListener("abort", () => setTimeout(() => resolve(textResult("stopped cleanly")), 5));
			});
		});
		const { agent, fake } = setup([tool], { toolAbortGraceMs: 1000 });
		fake.enqueue(reply(toolCall("graceful", {}, "g")));
		const run = agent.prompt("go");
		await started.promise;
		agent.abort();
		await run;
		expect(transcript(agent.state.messages).slice(2)).toEqual([
			"toolResult g: stopped cleanly",
			"assistant [aborted]: ",
		]);
	});

	it("in sequential mode, calls after the abort are not executed", async () => {
		const started = deferred();
		const ran: string[] = [];
		const tool = defineTool("t", Type.Object({ n: Type.String() }), (p, signal) => {
			ran.push(p.n);
			started.resolve();
			return new Promise((_r, reject) => signal?.addEventListener("abort", () => reject(new Error("stopped"))));
		});
		const { agent, fake } = setup([tool], { toolExecution: "sequential" });
		fake.enqueue(reply(toolCall("t", { n: "1" }, "a"), toolCall("t", { n: "2" }, "b")));
		const run = agent.prompt("go");
		await started.promise;
		agent.abort();
		await run;
		expect(ran).toEqual(["1"]);
		expect(transcript(agent.state.messages).slice(2)).toEqual([
			"toolResult a (error): stopped",
			`toolResult b (error): ${ABORTED_TOOL_MESSAGE}`,
			"assistant [aborted]: ",
		]);
	});

	it("in a hook before the request: the request is never sent", async () => {
		const fake = new ScriptedStream();
		let agent: Agent | undefined;
		agent = new Agent({
			initialState: { model: testModel() },
			streamFn: fake.streamFn,
			prepareRequest: async () => {
				agent?.abort();
				return undefined;
			},
		});
		fake.enqueue(reply(text("never")));
		await agent.prompt("go");
		expect(fake.calls).toHaveLength(0);
		expect(transcript(agent.state.messages)).toEqual(["user: go", "assistant [aborted]: "]);
	});

	it("a new prompt after an abort runs normally with a fresh signal", async () => {
		const { agent, fake } = setup();
		const g = gate();
		fake.enqueue(reply(text("x"), wait(g)), reply(text("second run")));
		const run = agent.prompt("one");
		await fake.waitForCall(1);
		agent.abort();
		await run;
		await agent.prompt("two");
		expect(transcript(agent.state.messages).slice(-2)).toEqual(["user: two", "assistant: second run"]);
		expect(fake.calls[1].signal?.aborted).toBe(false);
	});

	it("after an abort during tools the next prompt sends a transcript where every tool call has a result", async () => {
		const started = deferred();
		const stubborn = defineTool("stubborn", Type.Object({}), () => {
			started.resolve();
			return new Promise(() => {});
		});
		const { agent, fake } = setup([stubborn], { toolAbortGraceMs: 0 });
		fake.enqueue(reply(toolCall("stubborn", {}, "a"), toolCall("stubborn", {}, "b")), reply(text("fresh")));
		const run = agent.prompt("go");
		await started.promise;
		agent.abort();
		await run;
		await agent.prompt("next");
		const sent = fake.calls[1].context.messages;
		const callIds = sent.flatMap((m) =>
			m.role === "assistant" ? m.content.filter((b) => b.type === "toolCall").map((b) => b.id) : [],
		);
		const resultIds = sent.flatMap((m) => (m.role === "toolResult" ? [m.toolCallId] : []));
		expect(callIds).toEqual(["a", "b"]);
		expect(resultIds).toEqual(["a", "b"]);
		expect(transcript(agent.state.messages).at(-1)).toBe("assistant: fresh");
	});

	it("while beforeToolCall waits (a permission prompt), the call is not executed and the run ends", async () => {
		const asked = deferred();
		const calls: unknown[] = [];
		const tool = defineTool("guarded", Type.Object({}), () => {
			calls.push(1);
			return textResult("ran");
		});
		const { agent, fake } = setup([tool], {
			beforeToolCall: () => {
				asked.resolve();
				return new Promise(() => {}); // never answers and ignores the signal
			},
		});
		fake.enqueue(reply(toolCall("guarded", {}, "g")));
		const run = agent.prompt("go");
		await asked.promise;
		agent.abort();
		await run;
		expect(calls).toEqual([]);
		expect(transcript(agent.state.messages).slice(2)).toEqual([
			`toolResult g (error): ${ABORTED_TOOL_MESSAGE}`,
			"assistant [aborted]: ",
		]);
	});
});

describe("abort with many parallel calls", () => {
	it("200 calls each listening on their signal: all see the abort, and Node warns about no listener leak", async () => {
		const warnings: string[] = [];
		const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
		process.on("warning", onWarning);
		try {
			let started = 0;
			const allStarted = deferred();
			const tool = defineTool("hang", Type.Object({}), (_params, signal) => {
				// Like bash or grep: one abort listener per call, on the signal it was given.
				return new Promise((resolve) => {
					signal?.addEventListener("abort", () => resolve(textResult("stopped")), { once: true });
					if (++started === 200) allStarted.resolve();
				});
			});
			const { agent, fake } = setup([tool]);
			fake.enqueue(reply(...Array.from({ length: 200 }, (_, i) => toolCall("hang", {}, `c${i}`))));
			const run = agent.prompt("go");
			await allStarted.promise;
			agent.abort();
			await run;
			// Warnings are emitted on the next tick.
			await new Promise((r) => setImmediate(r));
			expect(warnings.filter((w) => w.includes("MaxListeners"))).toEqual([]);
			const results = agent.state.messages.filter((m) => m.role === "toolResult");
			expect(results).toHaveLength(200);
		} finally {
			process.off("warning", onWarning);
		}
	});
});
