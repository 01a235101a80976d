// Tools calling tools (AgentSession.executeNestedTool, behind ctx.executeTool):
// the same validation and tool hooks as a model's call, ids `<parent>/<n>`,
// parentToolCallId on every event and hook, no transcript entry of their own,
// and a bounded `nestedCalls` record on the calling tool's result message.
import type { AgentTool } from "@pi/agent-core";
import { Type } from "typebox";
import { describe, expect, it } from "vitest";
import type { AgentSession } from "../../src/agent-session/agent-session.js";
import { NESTED_ARGS_MAX_BYTES, type NestedToolOutcome } from "../../src/agent-session/nested-tools.js";
import { echoTool, makeSession } from "./support.js";

function callerTool(getSession: () => AgentSession, plan: { name: string; args: unknown }[], out: NestedToolOutcome[]) {
	const tool: AgentTool = {
		name: "caller",
		label: "Caller",
		description: "Calls other tools.",
		parameters: Type.Object({}),
		execute: async (id, _params, signal) => {
			for (const step of plan)
				out.push(await getSession().executeNestedTool(id, step.name, step.args, { parentSignal: signal }));
			return { content: [{ type: "text", text: `made ${plan.length} calls` }] };
		},
	};
	return tool;
}

describe("nested tool calls", () => {
	it("run through validation and the tool hooks, carry parentToolCallId, and leave only a record", async () => {
		const outcomes: NestedToolOutcome[] = [];
		let session: AgentSession | undefined;
		const plan = [
			{ name: "echo", args: { value: "a" } },
			{ name: "echo", args: { wrong: true } },
			{ name: "nope", args: {} },
			{ name: "echo", args: { value: "blocked" } },
			{ name: "echo", args: { value: "x".repeat(NESTED_ARGS_MAX_BYTES + 10) } },
		];
		const s = await makeSession({
			customTools: [echoTool(), callerTool(() => session as AgentSession, plan, outcomes)],
			tools: ["echo", "caller"],
		});
		session = s.session;
		const hookSeen: string[] = [];
		s.session.toolHooks.onBeforeToolCall((ctx) => {
			hookSeen.push(`before:${ctx.toolCall.id}:${ctx.parentToolCallId ?? "-"}`);
			if ((ctx.args as { value?: string }).value === "blocked") return { block: true, reason: "no thanks" };
			return undefined;
		});
		s.session.toolHooks.onAfterToolCall((ctx) => {
			hookSeen.push(`after:${ctx.toolCall.id}:${ctx.parentToolCallId ?? "-"}`);
			if (ctx.toolCall.id.endsWith("/1")) return { content: [{ type: "text", text: "patched" }] };
			return undefined;
		});
		const events: string[] = [];
		s.session.subscribe((e) => {
			if (e.type.startsWith("tool_execution_"))
				events.push(
					`${e.type}:${(e as { toolCallId: string }).toolCallId}:${(e as { parentToolCallId?: string }).parentToolCallId ?? "-"}`,
				);
		});
		s.fake.enqueue({ toolCalls: [{ name: "caller", args: {} }] }, { text: "done" });
		await s.session.prompt("go");

		const parent = "call_1";
		expect(outcomes.map((o) => [o.toolCall.id, o.isError])).toEqual([
			[`${parent}/1`, false],
			[`${parent}/2`, true],
			[`${parent}/3`, true],
			[`${parent}/4`, true],
			[`${parent}/5`, false],
		]);
		const text = (o: NestedToolOutcome) => JSON.stringify(o.result.content);
		expect(text(outcomes[0])).toContain("patched");
		expect(text(outcomes[1])).toMatch(/value/i);
		expect(text(outcomes[2])).toContain("Tool nope not found");
		expect(text(outcomes[3])).toContain("no thanks");
		expect(hookSeen).toContain(`before:${parent}/1:${parent}`);
		expect(hookSeen).toContain(`after:${parent}/1:${parent}`);
		expect(hookSeen).toContain(`before:${parent}:-`);
		expect(events).toContain(`tool_execution_start:${parent}/1:${parent}`);
		expect(events).toContain(`tool_execution_end:${parent}/3:${parent}`);
		expect(events.indexOf(`tool_execution_start:${parent}/1:${parent}`)).toBeGreaterThan(
			events.indexOf(`tool_execution_start:${parent}:-`),
		);

		// Only the caller's call and result are in the transcript; the nested calls are a record on its result.
		const results = s.sessionManager
			.getEntries()
			.flatMap((e) => (e.type === "message" && e.message.role === "toolResult" ? [e.message] : []));
		expect(results.map((r) => r.toolCallId)).toEqual([parent]);
		const record = (results[0] as unknown as { nestedCalls: { calls: Record<string, unknown>[]; complete: boolean } })
			.nestedCalls;
		expect(record.complete).toBe(false); // the last call's arguments were too large to keep
		expect(record.calls.map((c) => [c.name, c.status])).toEqual([
			["echo", "ok"],
			["echo", "error"],
			["nope", "error"],
			["echo", "error"],
			["echo", "ok"],
		]);
		expect(record.calls[0].arguments).toEqual({ value: "a" });
		expect(record.calls[4].arguments).toBeUndefined();
		expect(record.calls[4].argumentsBytes).toBeGreaterThan(NESTED_ARGS_MAX_BYTES);
		expect(record.calls[3].error).toContain("no thanks");
		expect(JSON.stringify(record)).not.toContain("patched"); // never results
		// The model's next request holds the caller's result, not the nested ones.
		const sent = s.fake.calls[1].messages.flatMap((m) => (m.role === "toolResult" ? [m.toolCallId] : []));
		expect(sent).toEqual([parent]);
	});
});
