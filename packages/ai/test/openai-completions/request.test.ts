import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { stream } from "../../src/stream.js";
import type { AssistantMessage, Context, Message, Model, Tool } from "../../src/types.js";
import { ChatStream } from "../support/fake-provider/openai-chat.js";
import { type FakeProvider, startFakeProvider } from "../support/fake-provider/server.js";
import { assistantTurn, fakeModel } from "../support/stream-helpers.js";

let fake: FakeProvider;
let base: Model;
const key = { apiKey: "sk-test" };
const readTool: Tool = {
	name: "read",
	description: "Read a file",
	parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
};

beforeAll(async () => {
	fake = await startFakeProvider();
	base = fakeModel({ api: "openai-completions", baseUrl: `${fake.url}/v1` });
});
afterAll(() => fake.close());
beforeEach(() => {
	fake.requests.length = 0;
});

/** Sends one request and returns the JSON body the server received. */
async function sentBody(model: Model, context: Context, options: Parameters<typeof stream>[2] = {}) {
	fake.enqueue(new ChatStream().text("ok").finish("stop").done().script());
	const message = await stream(model, context, { ...key, ...options }).result();
	expect(message.stopReason).toBe("stop");
	return fake.requests.at(-1)?.body as Record<string, unknown>;
}

const user = (content: string): Message => ({ role: "user", content, timestamp: 1 });

function assistant(content: AssistantMessage["content"], over: Partial<AssistantMessage> = {}): AssistantMessage {
	return assistantTurn({ api: "openai-completions", provider: "openai", model: "fake-model" }, content, over);
}

describe("openai-completions request body", () => {
	it("sends the system prompt, user turn, tools, usage option and store=false to OpenAI-dialect hosts", async () => {
		const body = await sentBody(
			{ ...base, provider: "openai" },
			{ systemPrompt: "You are terse.", messages: [user("hello")], tools: [readTool] },
			{ maxTokens: 4096, temperature: 0.2 },
		);
		expect(body).toEqual({
			model: "fake-model",
			stream: true,
			stream_options: { include_usage: true },
			store: false,
			max_completion_tokens: 4096,
			temperature: 0.2,
			messages: [
				{ role: "system", content: "You are terse." },
				{ role: "user", content: "hello" },
			],
			tools: [
				{
					type: "function",
					function: { name: "read", description: "Read a file", parameters: readTool.parameters, strict: false },
				},
			],
		});
	});

	it("uses the developer role for reasoning models and sends reasoning_effort", async () => {
		const model = { ...base, reasoning: true };
		const body = await sentBody(model, { systemPrompt: "S", messages: [user("q")] }, { reasoning: "high" });
		expect((body.messages as unknown[])[0]).toEqual({ role: "developer", content: "S" });
		expect(body.reasoning_effort).toBe("high");
		const mapped = await sentBody(
			{ ...model, thinkingLevelMap: { xhigh: "xhigh", minimal: "low" } },
			{ messages: [user("q")] },
			{ reasoning: "minimal" },
		);
		expect(mapped.reasoning_effort).toBe("low");
		// max where the map names it (DeepSeek-style: max but no xhigh, so xhigh clamps up to it),
		// else the highest level the model has.
		const deep = { ...model, thinkingLevelMap: { minimal: null, medium: null, max: "max" } };
		expect((await sentBody(deep, { messages: [user("q")] }, { reasoning: "max" })).reasoning_effort).toBe("max");
		expect((await sentBody(deep, { messages: [user("q")] }, { reasoning: "xhigh" })).reasoning_effort).toBe("max");
		expect((await sentBody(model, { messages: [user("q")] }, { reasoning: "max" })).reasoning_effort).toBe("high");
		const off = await sentBody(model, { messages: [user("q")] }, { reasoning: "off" });
		expect(off.reasoning_effort).toBeUndefined();
	});

	it("sends prompt_cache_key from the session id to OpenAI only", async () => {
		const body = await sentBody(base, { messages: [user("q")] }, { sessionId: "session-42" });
		expect(body.prompt_cache_key).toBe("session-42");
		const none = await sentBody(base, { messages: [user("q")] }, { sessionId: "session-42", cacheRetention: "none" });
		expect(none.prompt_cache_key).toBeUndefined();
		const other = await sentBody({ ...base, provider: "groq" }, { messages: [user("q")] }, { sessionId: "s" });
		expect(other.prompt_cache_key).toBeUndefined();
		const long = await sentBody(base, { messages: [user("q")] }, { sessionId: "s", cacheRetention: "long" });
		expect(long.prompt_cache_retention).toBe("24h");
		vi.stubEnv("PI_CACHE_RETENTION", "long");
		try {
			const fromEnv = await sentBody(base, { messages: [user("q")] }, { sessionId: "s" });
			expect(fromEnv.prompt_cache_retention).toBe("24h");
		} finally {
			vi.unstubAllEnvs();
		}
		const plain = await sentBody(base, { messages: [user("q")] }, { sessionId: "s" });
		expect(plain.prompt_cache_retention).toBeUndefined();
	});

	it("speaks the local-server dialect for loopback hosts (Ollama, llama.cpp, LM Studio, vLLM)", async () => {
		const model = { ...base, provider: "ollama", reasoning: true };
		const body = await sentBody(
			model,
			{ systemPrompt: "S", messages: [user("q")] },
			{ maxTokens: 100, reasoning: "high" },
		);
		expect(body.max_tokens).toBe(100);
		expect(body.max_completion_tokens).toBeUndefined();
		expect(body.store).toBeUndefined();
		expect(body.reasoning_effort).toBeUndefined();
		expect((body.messages as unknown[])[0]).toEqual({ role: "system", content: "S" });
	});

	it("follows explicit compat flags over detection", async () => {
		const model: Model = {
			...base,
			provider: "custom",
			reasoning: true,
			compat: {
				maxTokensField: "max_tokens",
				supportsDeveloperRole: false,
				supportsStore: false,
				supportsUsageInStreaming: false,
				supportsStrictMode: false,
				requiresToolResultName: true,
				requiresAssistantAfterToolResult: true,
			},
		};
		const call = { type: "toolCall" as const, id: "call_1", name: "read", arguments: { path: "a" } };
		const body = await sentBody(
			model,
			{
				systemPrompt: "S",
				tools: [readTool],
				messages: [
					user("q"),
					assistant([call]),
					{
						role: "toolResult",
						toolCallId: "call_1",
						toolName: "read",
						content: [{ type: "text", text: "A" }],
						isError: false,
						timestamp: 3,
					},
					user("next"),
				],
			},
			{ maxTokens: 50 },
		);
		expect(body.stream_options).toBeUndefined();
		expect(body.max_tokens).toBe(50);
		expect(body.store).toBeUndefined();
		expect((body.tools as { function: Record<string, unknown> }[])[0].function.strict).toBeUndefined();
		expect(body.messages).toEqual([
			{ role: "system", content: "S" },
			{ role: "user", content: "q" },
			{
				role: "assistant",
				content: "",
				tool_calls: [{ id: "call_1", type: "function", function: { name: "read", arguments: '{"path":"a"}' } }],
			},
			{ role: "tool", tool_call_id: "call_1", content: "A", name: "read" },
			{ role: "assistant", content: "Done." },
			{ role: "user", content: "next" },
		]);
	});

	it.each([
		["openrouter", { reasoning: { effort: "medium" }, max_completion_tokens: 10 }],
		["deepseek", { thinking: { type: "enabled" }, reasoning_effort: "medium", max_tokens: 10 }],
		["zai", { enable_thinking: true, max_completion_tokens: 10 }],
		["xai", { reasoning_effort: undefined, max_completion_tokens: 10 }],
		["groq", { reasoning_effort: "medium", max_completion_tokens: 10 }],
		["mistral", { reasoning_effort: undefined, max_tokens: 10 }],
		["cerebras", { reasoning_effort: "medium", max_completion_tokens: 10 }],
	])("detects the %s dialect from the provider id", async (provider, expected) => {
		// Detection reads provider id (or host); the request still goes to the fake server.
		const model = { ...base, provider, reasoning: true };
		const body = await sentBody(model, { messages: [user("q")] }, { reasoning: "medium", maxTokens: 10 });
		for (const [k, v] of Object.entries(expected)) expect([k, body[k]]).toEqual([k, v]);
		expect(body.store).toBeUndefined();
	});

	it("gives Mistral nine-character tool-call ids and tool result names", async () => {
		const call = { type: "toolCall" as const, id: "call_abcdefghijkl", name: "read", arguments: {} };
		const body = await sentBody(
			{ ...base, provider: "mistral" },
			{
				messages: [
					user("q"),
					assistant([call]),
					{
						role: "toolResult",
						toolCallId: call.id,
						toolName: "read",
						content: [{ type: "text", text: "A" }],
						isError: false,
						timestamp: 3,
					},
				],
			},
		);
		const messages = body.messages as Record<string, unknown>[];
		const id = (messages[1].tool_calls as { id: string }[])[0].id;
		expect(id).toMatch(/^[a-zA-Z0-9]{9}$/);
		expect(messages[2]).toEqual({ role: "tool", tool_call_id: id, content: "A", name: "read" });
	});

	it("replays assistant tool-call turns with content null and tool results as role tool", async () => {
		const call = { type: "toolCall" as const, id: "call_1", name: "read", arguments: { path: "a.ts" } };
		const body = await sentBody(base, {
			messages: [
				user("q"),
				assistant([{ type: "thinking", thinking: "hmm", thinkingSignature: "reasoning_content" }, call]),
				{
					role: "toolResult",
					toolCallId: "call_1",
					toolName: "read",
					content: [
						{ type: "text", text: "file body" },
						{ type: "image", data: "QUJD", mimeType: "image/png" },
					],
					isError: false,
					timestamp: 3,
				},
				assistant([{ type: "text", text: "It says hi." }], { stopReason: "stop" }),
			],
		});
		expect(body.messages).toEqual([
			{ role: "user", content: "q" },
			{
				role: "assistant",
				content: null,
				reasoning_content: "hmm",
				tool_calls: [{ id: "call_1", type: "function", function: { name: "read", arguments: '{"path":"a.ts"}' } }],
			},
			{ role: "tool", tool_call_id: "call_1", content: "file body" },
			{
				role: "user",
				content: [
					{ type: "text", text: "Images returned by the tool call above:" },
					{ type: "image_url", image_url: { url: "data:image/png;base64,QUJD" } },
				],
			},
			{ role: "assistant", content: "It says hi." },
		]);
	});

	it("sends images as data URLs, or a note for text-only models", async () => {
		const content = [
			{ type: "text" as const, text: "what is this" },
			{ type: "image" as const, data: "QUJD", mimeType: "image/jpeg" },
		];
		const body = await sentBody(base, { messages: [{ role: "user", content, timestamp: 1 }] });
		expect((body.messages as unknown[])[0]).toEqual({
			role: "user",
			content: [
				{ type: "text", text: "what is this" },
				{ type: "image_url", image_url: { url: "data:image/jpeg;base64,QUJD" } },
			],
		});
		const textOnly = await sentBody(
			{ ...base, input: ["text"] },
			{ messages: [{ role: "user", content, timestamp: 1 }] },
		);
		expect((textOnly.messages as unknown[])[0]).toEqual({
			role: "user",
			content: "what is this\n(image omitted: this model does not accept images)",
		});
	});

	it("applies handoff transforms: foreign thinking as text, long ids shortened, orphan calls closed", async () => {
		const longId = `toolu_${"x".repeat(50)}|fc_1`;
		const foreign = assistant(
			[
				{ type: "thinking", thinking: "secret plan", thinkingSignature: "sig-abc" },
				{ type: "thinking", thinking: "", thinkingSignature: "enc", redacted: true },
				{ type: "text", text: "Let me look." },
				{ type: "toolCall", id: longId, name: "read", arguments: { path: "x" } },
				{ type: "toolCall", id: "orphan_call", name: "read", arguments: { path: "y" } },
			],
			{ api: "anthropic-messages", provider: "anthropic", model: "claude-x" },
		);
		const body = await sentBody(base, {
			messages: [
				user("q"),
				foreign,
				{
					role: "toolResult",
					toolCallId: longId,
					toolName: "read",
					content: [{ type: "text", text: "X" }],
					isError: false,
					timestamp: 3,
				},
				user("go on"),
			],
		});
		const messages = body.messages as Record<string, unknown>[];
		const calls = messages[1].tool_calls as { id: string }[];
		expect(messages[1].content).toBe("<thinking>\nsecret plan\n</thinking>Let me look.");
		expect(calls[0].id.length).toBeLessThanOrEqual(40);
		expect(calls[0].id).toMatch(/^[a-zA-Z0-9_-]+$/);
		expect(messages[2]).toEqual({ role: "tool", tool_call_id: calls[0].id, content: "X" });
		expect(messages[3]).toEqual({ role: "tool", tool_call_id: "orphan_call", content: "No result provided" });
		expect(messages[4]).toEqual({ role: "user", content: "go on" });
	});

	it("sends later system messages in place and the replayed tool set", async () => {
		const grep: Tool = { name: "grep", description: "Search", parameters: { type: "object" } };
		const body = await sentBody(base, {
			systemPrompt: "Base.",
			tools: [readTool],
			messages: [
				user("q"),
				{
					role: "system",
					content: "Now in plan mode.",
					toolsAdded: [grep],
					toolsRemoved: [{ name: "read" }],
					timestamp: 2,
				},
				user("plan it"),
			],
		});
		expect(body.messages).toEqual([
			{ role: "system", content: "Base." },
			{ role: "user", content: "q" },
			{ role: "system", content: "Now in plan mode.\n\n(Tools no longer available: read.)" },
			{ role: "user", content: "plan it" },
		]);
		expect((body.tools as { function: { name: string } }[]).map((t) => t.function.name)).toEqual(["grep"]);
	});

	it("skips empty aborted assistant turns and lets onPayload replace the body", async () => {
		const body = await sentBody(
			base,
			{ messages: [user("q"), assistant([], { stopReason: "aborted" }), user("again")] },
			{ onPayload: (payload) => ({ ...(payload as object), extra_field: 1 }) },
		);
		expect(body.messages).toEqual([
			{ role: "user", content: "q" },
			{ role: "user", content: "again" },
		]);
		expect(body.extra_field).toBe(1);
	});

	it("round-trips OpenRouter encrypted reasoning with the tool call it belongs to", async () => {
		const detail = {
			type: "reasoning.encrypted",
			id: "call_g",
			data: "ENCRYPTED",
			format: "google-gemini-v1",
			index: 0,
		};
		fake.enqueue(
			new ChatStream()
				.toolCall(0, "call_g", "read", ['{"path":"a"}'])
				.chunk({ reasoning_details: [detail] })
				.finish("tool_calls")
				.done()
				.script(),
		);
		const model = { ...base, provider: "openrouter" };
		const first = await stream(model, { messages: [user("q")] }, key).result();
		expect(first.content).toEqual([
			{
				type: "toolCall",
				id: "call_g",
				name: "read",
				arguments: { path: "a" },
				thoughtSignature: JSON.stringify(detail),
			},
		]);
		const body = await sentBody(model, {
			messages: [
				user("q"),
				first,
				{
					role: "toolResult",
					toolCallId: "call_g",
					toolName: "read",
					content: [{ type: "text", text: "A" }],
					isError: false,
					timestamp: 3,
				},
			],
		});
		expect((body.messages as Record<string, unknown>[])[1].reasoning_details).toEqual([detail]);
		// Another model gets no foreign signatures.
		const other = await sentBody(
			{ ...model, id: "other-model" },
			{
				messages: [
					user("q"),
					first,
					{
						role: "toolResult",
						toolCallId: "call_g",
						toolName: "read",
						content: [{ type: "text", text: "A" }],
						isError: false,
						timestamp: 3,
					},
				],
			},
		);
		expect((other.messages as Record<string, unknown>[])[1].reasoning_details).toBeUndefined();
	});

	it("replaces lone surrogates left by a cut stream", async () => {
		const cut = "smile \ud83d";
		const body = await sentBody(base, {
			messages: [user(cut), assistant([{ type: "text", text: cut }], { stopReason: "aborted" }), user("and?")],
		});
		expect(body.messages).toEqual([
			{ role: "user", content: "smile \ufffd" },
			{ role: "assistant", content: "smile \ufffd" },
			{ role: "user", content: "and?" },
		]);
	});

	it("sends model and option headers and reports the response", async () => {
		let seen: number | undefined;
		await sentBody(
			{ ...base, headers: { "x-model": "m" } },
			{ messages: [user("q")] },
			{ headers: { "x-option": "o" }, onResponse: (r) => (seen = r.status) },
		);
		const headers = fake.requests.at(-1)?.headers ?? {};
		expect(headers["x-model"]).toBe("m");
		expect(headers["x-option"]).toBe("o");
		expect(seen).toBe(200);
	});
});
