import { describe, expect, it } from "vitest";
import { emptyUsage } from "../src/cost.js";
import { safeToolCallId, transformMessagesForModel } from "../src/transform-messages.js";
import type { AssistantMessage, Message, Model, ToolResultMessage } from "../src/types.js";

const target: Model = {
	id: "gpt-x",
	name: "GPT X",
	api: "openai-completions",
	provider: "openai",
	baseUrl: "https://api.openai.com/v1",
	reasoning: true,
	input: ["text", "image"],
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
	contextWindow: 1000,
	maxTokens: 100,
};

function assistant(content: AssistantMessage["content"], over: Partial<AssistantMessage> = {}): AssistantMessage {
	return {
		role: "assistant",
		content,
		api: "anthropic-messages",
		provider: "anthropic",
		model: "claude",
		usage: emptyUsage(),
		stopReason: "toolUse",
		timestamp: 10,
		...over,
	};
}
const result = (id: string, text = "ok"): ToolResultMessage => ({
	role: "toolResult",
	toolCallId: id,
	toolName: "read",
	content: [{ type: "text", text }],
	isError: false,
	timestamp: 11,
});
const user = (text: string): Message => ({ role: "user", content: text, timestamp: 12 });

describe("transformMessagesForModel", () => {
	it("turns foreign thinking into text, drops empty/redacted thinking and strips signatures", () => {
		const out = transformMessagesForModel(
			[
				assistant(
					[
						{ type: "thinking", thinking: "plan", thinkingSignature: "sig" },
						{ type: "thinking", thinking: "  ", thinkingSignature: "sig2" },
						{ type: "thinking", thinking: "[redacted]", thinkingSignature: "enc", redacted: true },
						{ type: "text", text: "hi", textSignature: "msg_1" },
						{ type: "toolCall", id: "t1", name: "read", arguments: {}, thoughtSignature: "ts" },
					],
					{ stopReason: "toolUse" },
				),
				result("t1"),
			],
			target,
		);
		expect((out[0] as AssistantMessage).content).toEqual([
			{ type: "text", text: "<thinking>\nplan\n</thinking>" },
			{ type: "text", text: "hi" },
			{ type: "toolCall", id: "t1", name: "read", arguments: {} },
		]);
	});

	it("keeps same-model thinking with its signature", () => {
		const same = assistant(
			[
				{ type: "thinking", thinking: "plan", thinkingSignature: "sig" },
				{ type: "text", text: "x", textSignature: "m" },
			],
			{
				api: target.api,
				provider: target.provider,
				model: target.id,
				stopReason: "stop",
			},
		);
		expect(transformMessagesForModel([same], target)).toEqual([same]);
	});

	it("treats a different model of the same provider as foreign", () => {
		const other = assistant([{ type: "thinking", thinking: "p", thinkingSignature: "s" }], {
			api: target.api,
			provider: target.provider,
			model: "gpt-other",
			stopReason: "stop",
		});
		expect((transformMessagesForModel([other], target)[0] as AssistantMessage).content).toEqual([
			{ type: "text", text: "<thinking>\np\n</thinking>" },
		]);
	});

	it("rewrites tool-call ids consistently in calls and results, without collisions", () => {
		const out = transformMessagesForModel(
			[
				assistant([
					{ type: "toolCall", id: "a.b", name: "read", arguments: {} },
					{ type: "toolCall", id: "a:b", name: "read", arguments: {} },
				]),
				result("a:b", "second"),
				result("a.b", "first"),
			],
			target,
			{ normalizeToolCallId: (id) => id.replace(/[^a-z]/g, "_") },
		);
		const calls = (out[0] as AssistantMessage).content as { id: string }[];
		expect(calls[0].id).toBe("a_b");
		expect(calls[1].id).not.toBe("a_b");
		expect((out[1] as ToolResultMessage).toolCallId).toBe(calls[1].id);
		expect((out[2] as ToolResultMessage).toolCallId).toBe("a_b");
	});

	it("adds a synthetic error result for a call without one, before the next user turn", () => {
		const out = transformMessagesForModel(
			[
				assistant([
					{ type: "toolCall", id: "t1", name: "read", arguments: {} },
					{ type: "toolCall", id: "t2", name: "bash", arguments: {} },
				]),
				result("t1"),
				user("next"),
			],
			target,
		);
		expect(out.map((m) => m.role)).toEqual(["assistant", "toolResult", "toolResult", "user"]);
		expect(out[2]).toEqual({
			role: "toolResult",
			toolCallId: "t2",
			toolName: "bash",
			content: [{ type: "text", text: "No result provided" }],
			isError: true,
			timestamp: 10,
		});
	});

	it("closes orphaned calls at the end of the transcript too, and drops results whose call is gone", () => {
		const out = transformMessagesForModel(
			[user("q"), result("ghost"), assistant([{ type: "toolCall", id: "t9", name: "read", arguments: {} }])],
			target,
		);
		expect(out.map((m) => m.role)).toEqual(["user", "assistant", "toolResult"]);
		expect((out[2] as ToolResultMessage).isError).toBe(true);
	});

	it("skips failed or aborted assistant turns with no content", () => {
		const out = transformMessagesForModel(
			[user("q"), assistant([], { stopReason: "error" }), assistant([], { stopReason: "aborted" }), user("again")],
			target,
		);
		expect(out).toEqual([user("q"), user("again")]);
	});

	it("replaces images with a note for text-only models", () => {
		const textOnly = { ...target, input: ["text" as const] };
		const out = transformMessagesForModel(
			[
				{
					role: "user",
					content: [
						{ type: "text", text: "look" },
						{ type: "image", data: "AA", mimeType: "image/png" },
						{ type: "image", data: "BB", mimeType: "image/png" },
					],
					timestamp: 1,
				},
				assistant([{ type: "toolCall", id: "s", name: "shot", arguments: {} }]),
				{ ...result("s"), content: [{ type: "image", data: "CC", mimeType: "image/png" }] },
			],
			textOnly,
		);
		const note = { type: "text", text: "(image omitted: this model does not accept images)" };
		expect((out[0] as { content: unknown }).content).toEqual([{ type: "text", text: "look" }, note]);
		expect((out[2] as ToolResultMessage).content).toEqual([note]);
	});

	it("does not mutate its input", () => {
		const input: Message[] = [
			assistant([
				{ type: "thinking", thinking: "t" },
				{ type: "toolCall", id: "x", name: "n", arguments: {} },
			]),
		];
		const copy = structuredClone(input);
		transformMessagesForModel(input, target, { normalizeToolCallId: (id) => `${id}_n` });
		expect(input).toEqual(copy);
	});
});

describe("safeToolCallId", () => {
	it("keeps valid ids and rewrites invalid or long ones deterministically", () => {
		expect(safeToolCallId("toolu_01ABC-def")).toBe("toolu_01ABC-def");
		const long = `call_${"a".repeat(80)}|fc_123`;
		const out = safeToolCallId(long, 40);
		expect(out).toMatch(/^[a-zA-Z0-9_-]{1,40}$/);
		expect(safeToolCallId(long, 40)).toBe(out);
		expect(safeToolCallId("a|b")).not.toBe(safeToolCallId("a.b"));
		expect(safeToolCallId("")).toMatch(/^call_[a-z0-9]+$/);
	});
});
