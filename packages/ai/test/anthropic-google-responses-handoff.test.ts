import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stream } from "../src/stream.js";
import type { Context, Model, Tool } from "../src/types.js";
import { AnthropicStream } from "./support/fake-provider/anthropic.js";
import { GoogleStream } from "./support/fake-provider/google.js";
import { ResponsesStream } from "./support/fake-provider/openai-responses.js";
import { type FakeProvider, startFakeProvider } from "./support/fake-provider/server.js";
import { fakeModel } from "./support/stream-helpers.js";

let fake: FakeProvider;
let claude: Model;
let gpt: Model;
let gemini: Model;
const readTool: Tool = {
	name: "read",
	description: "Read a file",
	parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
};

beforeAll(async () => {
	fake = await startFakeProvider();
	claude = fakeModel({
		api: "anthropic-messages",
		provider: "anthropic",
		id: "claude-fake",
		baseUrl: fake.url,
		reasoning: true,
	});
	gpt = fakeModel({
		api: "openai-responses",
		provider: "openai",
		id: "gpt-fake",
		baseUrl: `${fake.url}/v1`,
		reasoning: true,
	});
	gemini = fakeModel({
		api: "google-generative-ai",
		provider: "google",
		id: "gemini-3-pro-preview",
		baseUrl: `${fake.url}/v1beta`,
		reasoning: true,
	});
});
afterAll(() => fake.close());

/** The body of the latest request the fake provider received. */
function lastBody<T>(): T {
	const request = fake.requests.at(-1);
	if (!request) throw new Error("no request");
	return request.body as T;
}

describe("one conversation across anthropic-messages → openai-responses → google-generative-ai", () => {
	it("each model accepts the others' turns: thinking as text, ids rewritten, results matched", async () => {
		const context: Context = {
			systemPrompt: "Be brief.",
			tools: [readTool],
			messages: [{ role: "user", content: "go", timestamp: 1 }],
		};
		const opts = { apiKey: "k", reasoning: "low" as const };

		// Claude thinks and calls a tool.
		fake.enqueue(
			new AnthropicStream()
				.start()
				.thinking(["Need a.ts."], "claude-sig")
				.toolUse("toolu_01A", "read", ['{"path":"a.ts"}'])
				.delta("tool_use")
				.stop()
				.script(),
		);
		const first = await stream(claude, context, opts).result();
		expect(first.stopReason).toBe("toolUse");
		context.messages.push(first, {
			role: "toolResult",
			toolCallId: "toolu_01A",
			toolName: "read",
			content: [{ type: "text", text: "A" }],
			isError: false,
			timestamp: 3,
		});

		// GPT continues: reasons (encrypted) and calls again.
		fake.enqueue(
			new ResponsesStream()
				.created()
				.reasoning("rs_1", [["Now b."]], "gAAAA-1")
				.functionCall("fc_1", "call_1", "read", ['{"path":"b.ts"}'])
				.completed()
				.script(),
		);
		const second = await stream(gpt, context, opts).result();
		expect(second.stopReason).toBe("toolUse");
		const gptInput = lastBody<{ input: unknown[] }>().input;
		expect(gptInput).toEqual([
			{ role: "developer", content: "Be brief." },
			{ role: "user", content: [{ type: "input_text", text: "go" }] },
			{ role: "assistant", content: "<thinking>\nNeed a.ts.\n</thinking>" },
			{ type: "function_call", call_id: "toolu_01A", name: "read", arguments: '{"path":"a.ts"}' },
			{ type: "function_call_output", call_id: "toolu_01A", output: "A" },
		]);
		context.messages.push(second, {
			role: "toolResult",
			toolCallId: "call_1|fc_1",
			toolName: "read",
			content: [{ type: "text", text: "B" }],
			isError: false,
			timestamp: 5,
		});

		// Gemini answers, seeing both earlier turns as plain history.
		fake.enqueue(new GoogleStream().text("Both read.").finish("STOP").script());
		const third = await stream(gemini, context, opts).result();
		expect(third.stopReason).toBe("stop");
		const contents = lastBody<{ contents: unknown[] }>().contents;
		expect(contents).toEqual([
			{ role: "user", parts: [{ text: "go" }] },
			{
				role: "model",
				parts: [
					{ text: "<thinking>\nNeed a.ts.\n</thinking>" },
					{
						functionCall: { name: "read", args: { path: "a.ts" } },
						thoughtSignature: "skip_thought_signature_validator",
					},
				],
			},
			{ role: "user", parts: [{ functionResponse: { name: "read", response: { output: "A" } } }] },
			{
				role: "model",
				parts: [
					{ text: "<thinking>\nNow b.\n</thinking>" },
					{
						functionCall: { name: "read", args: { path: "b.ts" } },
						thoughtSignature: "skip_thought_signature_validator",
					},
				],
			},
			{ role: "user", parts: [{ functionResponse: { name: "read", response: { output: "B" } } }] },
		]);

		// And back to Claude: the Responses id is rewritten to what Anthropic accepts, in call and result.
		context.messages.push(third, { role: "user", content: "thanks", timestamp: 7 });
		fake.enqueue(new AnthropicStream().start().text("ok").delta("end_turn").stop().script());
		await stream(claude, context, { apiKey: "k", cacheRetention: "none" }).result();
		const claudeMessages = lastBody<{ messages: { role: string; content: Record<string, unknown>[] }[] }>().messages;
		const gptTurn = claudeMessages[3];
		const rewritten = gptTurn?.content.find((block) => block.type === "tool_use")?.id;
		expect(rewritten).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
		expect(rewritten).not.toBe("call_1|fc_1");
		expect(claudeMessages[4]?.content[0]).toMatchObject({ type: "tool_result", tool_use_id: rewritten });
		// Claude's own earlier turn keeps its signed thinking.
		expect(claudeMessages[1]?.content[0]).toEqual({
			type: "thinking",
			thinking: "Need a.ts.",
			signature: "claude-sig",
		});
		expect(claudeMessages.map((m) => m.role)).toEqual([
			"user",
			"assistant",
			"user",
			"assistant",
			"user",
			"assistant",
			"user",
		]);
	});
});
