import { describe, expect, it, vi } from "vitest";
import { getModel } from "../../src/models/catalog.js";
import { stream } from "../../src/stream.js";
import type { AssistantMessage, Context, Message, ThinkingLevel, Tool } from "../../src/types.js";
import { requestSender, useFakeTarget } from "../support/adapter-setup.js";
import { AnthropicStream } from "../support/fake-provider/anthropic.js";
import type { RecordedRequest } from "../support/fake-provider/server.js";
import { assistantTurn } from "../support/stream-helpers.js";

const key = { apiKey: "sk-ant-api03-test-key" };

const readTool: Tool = {
	name: "read",
	description: "Read a file",
	parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
};
const bashTool: Tool = {
	name: "bash",
	description: "Run a command",
	parameters: { type: "object", properties: { command: { type: "string" } } },
};

function assistant(content: AssistantMessage["content"], from: Partial<AssistantMessage> = {}): AssistantMessage {
	return assistantTurn({ api: "anthropic-messages", provider: "anthropic", model: "claude-fake" }, content, from);
}

const env = useFakeTarget((url) => ({
	api: "anthropic-messages",
	provider: "anthropic",
	id: "claude-fake",
	baseUrl: url,
	reasoning: true,
	maxTokens: 64_000,
}));

/** Sends one request (answered with a minimal stream) and returns what the server received. */
const send = requestSender(env, key, () => new AnthropicStream().start().text("ok").delta("end_turn").stop().script());

type Body = {
	model: string;
	max_tokens: number;
	stream: boolean;
	system?: { type: string; text: string; cache_control?: object }[];
	tools?: { name: string; description: string; input_schema: object; cache_control?: object }[];
	messages: { role: string; content: { type: string; [key: string]: unknown }[] }[];
	thinking?: object;
	output_config?: object;
	temperature?: number;
};

const body = (request: RecordedRequest) => request.body as Body;

describe("anthropic-messages request body", () => {
	it("sends system blocks, tools and messages with cache markers on system, last tool and last user turns", async () => {
		const request = await send({
			systemPrompt: "Be brief.",
			tools: [readTool, bashTool],
			messages: [
				{ role: "user", content: "first", timestamp: 1 },
				assistant([{ type: "text", text: "hello" }], { stopReason: "stop" }),
				{ role: "user", content: "second", timestamp: 3 },
			],
		});
		expect(request.path).toBe("/v1/messages");
		expect(body(request)).toEqual({
			model: "claude-fake",
			max_tokens: 21_333,
			stream: true,
			system: [{ type: "text", text: "Be brief.", cache_control: { type: "ephemeral" } }],
			tools: [
				{ name: "read", description: "Read a file", input_schema: readTool.parameters, eager_input_streaming: true },
				{
					name: "bash",
					description: "Run a command",
					input_schema: bashTool.parameters,
					eager_input_streaming: true,
					cache_control: { type: "ephemeral" },
				},
			],
			messages: [
				{ role: "user", content: [{ type: "text", text: "first", cache_control: { type: "ephemeral" } }] },
				{ role: "assistant", content: [{ type: "text", text: "hello" }] },
				{ role: "user", content: [{ type: "text", text: "second", cache_control: { type: "ephemeral" } }] },
			],
		});
		expect(request.headers.authorization).toBe("Bearer sk-ant-api03-test-key");
		expect(request.headers["x-api-key"]).toBe("sk-ant-api03-test-key");
		expect(request.headers["anthropic-beta"]).toBeUndefined();
	});

	it("without per-tool eager streaming support, asks for the fine-grained tool streaming beta", async () => {
		const request = await send(
			{ tools: [readTool], messages: [{ role: "user", content: "q", timestamp: 1 }] },
			{},
			{ ...env.model, compat: { supportsEagerToolInputStreaming: false } },
		);
		expect(body(request).tools?.[0]).not.toHaveProperty("eager_input_streaming");
		expect(request.headers["anthropic-beta"]).toBe("fine-grained-tool-streaming-2025-05-14");
	});

	it("round trip: a streamed turn with signed and redacted thinking and a tool call is sent back intact", async () => {
		env.fake.enqueue(
			new AnthropicStream()
				.start()
				.thinking(["Need ", "a file."], "sig-abc")
				.redactedThinking("REDACTED==")
				.toolUse("toolu_7", "read", ['{"path":', '"a.ts"}'])
				.delta("tool_use")
				.stop()
				.script(),
		);
		const first: Context = { tools: [readTool], messages: [{ role: "user", content: "q", timestamp: 1 }] };
		const turn = await stream(env.model, first, { ...key, reasoning: "low" }).result();
		expect(turn.stopReason).toBe("toolUse");
		const sent = body(
			await send(
				{
					...first,
					messages: [
						...first.messages,
						turn,
						{
							role: "toolResult",
							toolCallId: "toolu_7",
							toolName: "read",
							content: [{ type: "text", text: "A" }],
							isError: false,
							timestamp: 3,
						},
					],
				},
				{ reasoning: "low", cacheRetention: "none" },
			),
		);
		expect(sent.messages[1]).toEqual({
			role: "assistant",
			content: [
				{ type: "thinking", thinking: "Need a file.", signature: "sig-abc" },
				{ type: "redacted_thinking", data: "REDACTED==" },
				{ type: "tool_use", id: "toolu_7", name: "read", input: { path: "a.ts" } },
			],
		});
		expect(sent.messages[2]?.content[0]).toMatchObject({ type: "tool_result", tool_use_id: "toolu_7" });
	});

	it("uses a 1h ttl for long retention and no markers for none", async () => {
		const context: Context = {
			systemPrompt: "S",
			tools: [readTool],
			messages: [{ role: "user", content: "q", timestamp: 1 }],
		};
		const long = body(await send(context, { cacheRetention: "long" }));
		expect(long.system?.[0]?.cache_control).toEqual({ type: "ephemeral", ttl: "1h" });
		expect(long.tools?.[0]?.cache_control).toEqual({ type: "ephemeral", ttl: "1h" });
		expect(long.messages[0]?.content[0]?.cache_control).toEqual({ type: "ephemeral", ttl: "1h" });
		const none = await send(context, { cacheRetention: "none" });
		expect(none.rawBody).not.toContain("cache_control");
		const unsupported = body(
			await send(context, { cacheRetention: "long" }, { ...env.model, compat: { supportsLongCacheRetention: false } }),
		);
		expect(unsupported.system?.[0]?.cache_control).toEqual({ type: "ephemeral" });
	});

	it("PI_CACHE_RETENTION=long asks for the 1h ttl when the request names no retention; the request's own wins", async () => {
		vi.stubEnv("PI_CACHE_RETENTION", "long");
		try {
			const context: Context = { systemPrompt: "S", messages: [{ role: "user", content: "q", timestamp: 1 }] };
			const long = body(await send(context));
			expect(long.system?.[0]?.cache_control).toEqual({ type: "ephemeral", ttl: "1h" });
			expect(long.messages[0]?.content[0]?.cache_control).toEqual({ type: "ephemeral", ttl: "1h" });
			const short = body(await send(context, { cacheRetention: "short" }));
			expect(short.system?.[0]?.cache_control).toEqual({ type: "ephemeral" });
			vi.stubEnv("PI_CACHE_RETENTION", "short");
			expect(body(await send(context)).system?.[0]?.cache_control).toEqual({ type: "ephemeral" });
		} finally {
			vi.unstubAllEnvs();
		}
	});

	it("budget thinking: max_tokens = min(base + budget, model max), interleaved-thinking beta, no temperature", async () => {
		const context: Context = { messages: [{ role: "user", content: "q", timestamp: 1 }] };
		const medium = await send(context, { reasoning: "medium", temperature: 0.3 });
		expect(body(medium).thinking).toEqual({ type: "enabled", budget_tokens: 8192 });
		expect(body(medium).max_tokens).toBe(21_333 + 8192);
		expect(body(medium).temperature).toBeUndefined();
		expect(medium.headers["anthropic-beta"]).toBe("interleaved-thinking-2025-05-14");

		const custom = body(
			await send(context, { reasoning: "high", maxTokens: 60_000, thinkingBudgets: { high: 10_000 } }),
		);
		expect(custom.thinking).toEqual({ type: "enabled", budget_tokens: 10_000 });
		expect(custom.max_tokens).toBe(64_000);

		const small = body(await send(context, { reasoning: "high" }, { ...env.model, maxTokens: 8000 }));
		expect(small.max_tokens).toBe(8000);
		expect(small.thinking).toEqual({ type: "enabled", budget_tokens: 6976 });

		const off = body(await send(context, { reasoning: "off", temperature: 0.3 }));
		expect(off.thinking).toBeUndefined();
		expect(off.temperature).toBe(0.3);
	});

	it("adaptive thinking with an effort level on models that think adaptively", async () => {
		const context: Context = { messages: [{ role: "user", content: "q", timestamp: 1 }] };
		const adaptive = { ...env.model, id: "claude-opus-4-6" };
		const high = await send(context, { reasoning: "high" }, adaptive);
		expect(body(high).thinking).toEqual({ type: "adaptive", display: "summarized" });
		expect(body(high).output_config).toEqual({ effort: "high" });
		expect(body(high).max_tokens).toBe(21_333);
		expect(high.headers["anthropic-beta"]).toBeUndefined();
		const xhigh = body(
			await send(context, { reasoning: "xhigh" }, { ...adaptive, thinkingLevelMap: { xhigh: "max" } }),
		);
		expect(xhigh.output_config).toEqual({ effort: "max" });
		// Newer families, and any model whose level map names effort values, are adaptive too.
		const opus5 = body(
			await send(
				context,
				{ reasoning: "xhigh" },
				{ ...env.model, id: "claude-opus-5", thinkingLevelMap: { xhigh: "xhigh" } },
			),
		);
		expect(opus5.thinking).toEqual({ type: "adaptive", display: "summarized" });
		expect(opus5.output_config).toEqual({ effort: "xhigh" });
		// Catalog maps, as 1.6.0's: opus 4.6 has max but no xhigh (xhigh clamps up to max); opus 4.7 has both.
		const catalog = (id: string) => ({ ...getModel("anthropic", id as "claude-opus-4-6"), baseUrl: env.model.baseUrl });
		const effort = async (id: string, reasoning: ThinkingLevel) =>
			body(await send(context, { reasoning }, catalog(id))).output_config;
		expect(await effort("claude-opus-4-6", "max")).toEqual({ effort: "max" });
		expect(await effort("claude-opus-4-6", "xhigh")).toEqual({ effort: "max" });
		expect(await effort("claude-opus-4-6", "high")).toEqual({ effort: "high" });
		expect(await effort("claude-opus-4-7", "xhigh")).toEqual({ effort: "xhigh" });
		expect(await effort("claude-opus-4-7", "max")).toEqual({ effort: "max" });
		// A budget-thinking model has no max: it gets high's budget.
		const budget = body(await send(context, { reasoning: "max" }, catalog("claude-sonnet-4-5")));
		expect(budget.thinking).toEqual({ type: "enabled", budget_tokens: 16_384 });
		const custom = body(
			await send(
				context,
				{ reasoning: "low" },
				{ ...env.model, id: "my-claude", thinkingLevelMap: { minimal: null, low: "low" } },
			),
		);
		expect(custom.thinking).toEqual({ type: "adaptive", display: "summarized" });
		expect(custom.output_config).toEqual({ effort: "low" });
		// Sonnet 4.5 and older take a budget; dated ids do not count as minor versions.
		const older = body(await send(context, { reasoning: "low" }, { ...env.model, id: "claude-sonnet-4-5-20250929" }));
		expect(older.thinking).toEqual({ type: "enabled", budget_tokens: 2048 });
		const legacy = body(await send(context, { reasoning: "low" }, { ...env.model, id: "claude-3-7-sonnet-20250219" }));
		expect(legacy.thinking).toEqual({ type: "enabled", budget_tokens: 2048 });
	});

	it("merges consecutive tool results into one user message; sends images and signed/redacted thinking back", async () => {
		const context: Context = {
			messages: [
				{
					role: "user",
					content: [
						{ type: "text", text: "look" },
						{ type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" },
					],
					timestamp: 1,
				},
				assistant([
					{ type: "thinking", thinking: "plan", thinkingSignature: "sig-1" },
					{ type: "thinking", thinking: "[Reasoning redacted]", thinkingSignature: "opaque==", redacted: true },
					{ type: "toolCall", id: "toolu_1", name: "read", arguments: { path: "a.ts" } },
					{ type: "toolCall", id: "toolu_2", name: "bash", arguments: { command: "ls" } },
				]),
				{
					role: "toolResult",
					toolCallId: "toolu_1",
					toolName: "read",
					content: [{ type: "text", text: "contents" }],
					isError: false,
					timestamp: 3,
				},
				{
					role: "toolResult",
					toolCallId: "toolu_2",
					toolName: "bash",
					content: [
						{ type: "text", text: "denied" },
						{ type: "image", mimeType: "image/jpeg", data: "/9j/" },
					],
					isError: true,
					timestamp: 4,
				},
			],
		};
		const sent = body(await send(context, { cacheRetention: "none" }));
		expect(sent.messages).toEqual([
			{
				role: "user",
				content: [
					{ type: "text", text: "look" },
					{ type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } },
				],
			},
			{
				role: "assistant",
				content: [
					{ type: "thinking", thinking: "plan", signature: "sig-1" },
					{ type: "redacted_thinking", data: "opaque==" },
					{ type: "tool_use", id: "toolu_1", name: "read", input: { path: "a.ts" } },
					{ type: "tool_use", id: "toolu_2", name: "bash", input: { command: "ls" } },
				],
			},
			{
				role: "user",
				content: [
					{ type: "tool_result", tool_use_id: "toolu_1", content: [{ type: "text", text: "contents" }] },
					{
						type: "tool_result",
						tool_use_id: "toolu_2",
						is_error: true,
						content: [
							{ type: "text", text: "denied" },
							{ type: "image", source: { type: "base64", media_type: "image/jpeg", data: "/9j/" } },
						],
					},
				],
			},
		]);
	});

	it("hands off from another provider: thinking becomes text, tool ids are rewritten consistently", async () => {
		const foreignId = "call_abc|fc_0123456789abcdef0123456789abcdef0123456789abcdef0123456789";
		const context: Context = {
			messages: [
				{ role: "user", content: "go", timestamp: 1 },
				assistant(
					[
						{ type: "thinking", thinking: "I should read.", thinkingSignature: '{"type":"reasoning","id":"rs_1"}' },
						{ type: "text", text: "Reading.", textSignature: '{"v":1,"id":"msg_1"}' },
						{ type: "toolCall", id: foreignId, name: "read", arguments: { path: "x" } },
					],
					{ api: "openai-responses", provider: "openai", model: "gpt-5" },
				),
				{
					role: "toolResult",
					toolCallId: foreignId,
					toolName: "read",
					content: [{ type: "text", text: "X" }],
					isError: false,
					timestamp: 3,
				},
			],
		};
		const sent = body(await send(context, { cacheRetention: "none" }));
		const [, turn, results] = sent.messages;
		expect(turn?.content.slice(0, 2)).toEqual([
			{ type: "text", text: "<thinking>\nI should read.\n</thinking>" },
			{ type: "text", text: "Reading." },
		]);
		const use = turn?.content[2];
		expect(use?.type).toBe("tool_use");
		expect(String(use?.id)).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
		expect(results?.content[0]).toEqual({
			type: "tool_result",
			tool_use_id: use?.id,
			content: [{ type: "text", text: "X" }],
		});
	});

	it("mid tool loop, a turn that did not open with thinking is continued without thinking", async () => {
		const loop = (first: AssistantMessage["content"][number]): Context => ({
			messages: [
				{ role: "user", content: "go", timestamp: 1 },
				assistant([first, { type: "toolCall", id: "toolu_1", name: "read", arguments: {} }]),
				{
					role: "toolResult",
					toolCallId: "toolu_1",
					toolName: "read",
					content: [{ type: "text", text: "A" }],
					isError: false,
					timestamp: 3,
				},
			],
		});
		const unsigned = body(await send(loop({ type: "text", text: "Reading." }), { reasoning: "medium" }));
		expect(unsigned.thinking).toBeUndefined();
		const signed = body(
			await send(loop({ type: "thinking", thinking: "t", thinkingSignature: "sig" }), { reasoning: "medium" }),
		);
		expect(signed.thinking).toEqual({ type: "enabled", budget_tokens: 8192 });
		// A new user prompt starts a new turn: thinking is allowed again.
		const fresh = loop({ type: "text", text: "Reading." });
		fresh.messages.push({ role: "user", content: "next", timestamp: 4 });
		expect(body(await send(fresh, { reasoning: "medium" })).thinking).toEqual({ type: "enabled", budget_tokens: 8192 });
	});

	it("a tool call left without result gets a synthetic error result", async () => {
		const context: Context = {
			messages: [
				{ role: "user", content: "go", timestamp: 1 },
				assistant([{ type: "toolCall", id: "toolu_9", name: "read", arguments: {} }]),
				{ role: "user", content: "never mind", timestamp: 3 },
			],
		};
		const sent = body(await send(context, { cacheRetention: "none" }));
		expect(sent.messages[2]).toEqual({
			role: "user",
			content: [
				{
					type: "tool_result",
					tool_use_id: "toolu_9",
					is_error: true,
					content: [{ type: "text", text: "No result provided" }],
				},
			],
		});
	});

	it("folds later system messages into the system prompt", async () => {
		const messages: Message[] = [
			{ role: "system", content: "Base.", sections: { mode: "Mode A." }, toolsAdded: [readTool], timestamp: 0 },
			{ role: "user", content: "q1", timestamp: 1 },
			{
				role: "system",
				content: "",
				sections: { mode: "Mode B." },
				toolsAdded: [bashTool],
				toolsRemoved: [{ name: "read" }],
				timestamp: 2,
			},
			{ role: "user", content: "q2", timestamp: 3 },
		];
		const sent = body(await send({ messages }, { cacheRetention: "none" }));
		expect(sent.system).toEqual([{ type: "text", text: "Base.\n\nMode B." }]);
		expect(sent.tools?.map((t) => t.name)).toEqual(["bash"]);
		expect(sent.messages.map((m) => m.role)).toEqual(["user", "user"]);
	});

	it("OAuth tokens: Bearer auth, Claude Code identity and tool names, names mapped back", async () => {
		env.fake.enqueue(
			new AnthropicStream().start().toolUse("toolu_1", "Read", ['{"path":"a"}']).delta("tool_use").stop().script(),
		);
		const message = await stream(
			env.model,
			{ systemPrompt: "Mine.", tools: [readTool], messages: [{ role: "user", content: "q", timestamp: 1 }] },
			{ apiKey: "sk-ant-oat01-secret-token" },
		).result();
		const request = env.fake.requests.at(-1) as RecordedRequest;
		expect(request.headers.authorization).toBe("Bearer sk-ant-oat01-secret-token");
		expect(request.headers["x-api-key"]).toBeUndefined();
		expect(request.headers["anthropic-beta"]).toBe("claude-code-20250219,oauth-2025-04-20");
		expect(request.headers["user-agent"]).toMatch(/^claude-cli\//);
		expect(request.headers["x-app"]).toBe("cli");
		const sent = body(request);
		expect(sent.system).toEqual([
			{ type: "text", text: "You are Claude Code, Anthropic's official CLI for Claude." },
			{ type: "text", text: "Mine.", cache_control: { type: "ephemeral" } },
		]);
		expect(sent.tools?.[0]?.name).toBe("Read");
		expect(message.content).toEqual([{ type: "toolCall", id: "toolu_1", name: "read", arguments: { path: "a" } }]);
	});

	it("passes metadata.user_id through", async () => {
		const sent = body(
			await send(
				{ messages: [{ role: "user", content: "q", timestamp: 1 }] },
				{ metadata: { user_id: "user-7", other: 1 } },
			),
		);
		expect((sent as { metadata?: unknown }).metadata).toEqual({ user_id: "user-7" });
	});

	it("sends model and option headers; onPayload can replace the body; onResponse sees the status", async () => {
		const seen: number[] = [];
		const request = await send(
			{ messages: [{ role: "user", content: "q", timestamp: 1 }] },
			{
				headers: { "x-extra": "opt" },
				onPayload: (payload) => ({ ...(payload as object), metadata: { user_id: "u1" } }),
				onResponse: (response) => seen.push(response.status),
			},
			{ ...env.model, headers: { "x-model": "m" } },
		);
		expect(request.headers["x-model"]).toBe("m");
		expect(request.headers["x-extra"]).toBe("opt");
		expect((request.body as { metadata?: unknown }).metadata).toEqual({ user_id: "u1" });
		expect(seen).toEqual([200]);
	});
});
