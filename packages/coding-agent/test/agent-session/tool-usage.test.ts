// Usage of model calls a tool makes (1.6.0 "usage accounting"): a tool
// returns it as `usage`, the result message keeps it, tool_result patches can
// replace it, nested calls (ctx.executeTool) add theirs to the calling tool's
// at every depth, and session stats (footer, /session, RPC) count it.
import type { AgentTool } from "@pi/agent-core";
import type { ToolResultMessage, Usage } from "@pi/ai";
import { Type } from "typebox";
import { describe, expect, it } from "vitest";
import type { AgentSession } from "../../src/agent-session/agent-session.js";
import { makeSession } from "./support.js";

function usage(input: number, output: number, cost: number): Usage {
	return {
		input,
		output,
		cacheRead: 0,
		cacheWrite: 0,
		totalTokens: input + output,
		cost: { input: cost, output: 0, cacheRead: 0, cacheWrite: 0, total: cost },
	};
}

/** A tool that "made a model call" costing `own`, after calling `calls` through executeNestedTool. */
function tool(name: string, own: Usage | undefined, calls: string[], getSession: () => AgentSession): AgentTool {
	return {
		name,
		label: name,
		description: `${name} tool`,
		parameters: Type.Object({}),
		execute: async (id, _params, signal) => {
			for (const call of calls) await getSession().executeNestedTool(id, call, {}, { parentSignal: signal });
			return { content: [{ type: "text", text: `${name} done` }], ...(own ? { usage: own } : {}) };
		},
	};
}

function toolResults(session: AgentSession): ToolResultMessage[] {
	return session.messages.filter((m): m is ToolResultMessage => m.role === "toolResult");
}

describe("usage of model calls made by tools", () => {
	it("is kept on the result message and counted in session stats, nested calls at every depth included", async () => {
		let session: AgentSession | undefined;
		const get = () => session as AgentSession;
		const s = await makeSession({
			customTools: [
				tool("summarize", usage(100, 20, 0.5), [], get),
				tool("middle", usage(3, 1, 0.01), ["summarize"], get),
				tool("top", usage(1, 1, 0.001), ["middle", "summarize"], get),
				tool("plain", undefined, [], get),
			],
			tools: ["summarize", "middle", "top", "plain"],
		});
		session = s.session;
		s.fake.enqueue(
			{
				toolCalls: [
					{ name: "top", args: {} },
					{ name: "plain", args: {} },
				],
			},
			{ text: "done" },
		);
		await s.session.prompt("go");
		const [top, plain] = toolResults(s.session);
		// top's own + middle's own + middle's summarize + top's summarize
		expect(top.usage).toMatchObject({ input: 1 + 3 + 100 + 100, output: 1 + 1 + 20 + 20, totalTokens: 246 });
		expect(top.usage?.cost.total).toBeCloseTo(0.001 + 0.01 + 0.5 + 0.5, 6);
		expect(plain.usage).toBeUndefined();
		// The session file keeps it; stats add it to the two model responses (10 in / 5 out each).
		const stored = s.sessionManager
			.getEntries()
			.filter((e) => e.type === "message" && e.message.role === "toolResult")
			.map((e) => (e.type === "message" ? (e.message as ToolResultMessage).usage?.input : undefined));
		expect(stored).toEqual([204, undefined]);
		const stats = s.session.getSessionStats();
		expect(stats.tokens.input).toBe(20 + 204);
		expect(stats.tokens.output).toBe(10 + 42);
		expect(stats.cost).toBeCloseTo(1.011, 3);
		s.session.dispose();
	});

	it("a tool_result patch sees the usage and can replace it", async () => {
		let session: AgentSession | undefined;
		const s = await makeSession({
			customTools: [tool("summarize", usage(100, 20, 0.5), [], () => session as AgentSession)],
			tools: ["summarize"],
		});
		session = s.session;
		const seen: (Usage | undefined)[] = [];
		s.session.toolHooks.onAfterToolCall((ctx) => {
			seen.push(ctx.result.usage);
			return { usage: usage(7, 0, 0) };
		});
		s.fake.enqueue({ toolCalls: [{ name: "summarize", args: {} }] }, { text: "done" });
		await s.session.prompt("go");
		expect(seen.map((u) => u?.input)).toEqual([100]);
		expect(toolResults(s.session)[0].usage?.input).toBe(7);
		expect(s.session.getSessionStats().tokens.input).toBe(20 + 7);
		s.session.dispose();
	});
});
