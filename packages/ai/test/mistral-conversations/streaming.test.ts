// The mistral-conversations adapter (over @mistralai/mistralai) against the fake provider speaking
// Mistral's chat-completions stream (test/support/fake-provider/mistral.ts): the request the SDK
// sends, text / thinking / tool-call streams, stop reasons, HTTP errors as errorInfo, the shared
// stream faults and byte splits.
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { createServer } from "node:net";
import { SDK_METADATA } from "@mistralai/mistralai/lib/config.js";
import { describe, expect, it } from "vitest";
import { type MistralChunk, MistralEventMapper } from "../../src/adapters/mistral-conversations-events.js";
import { getModel } from "../../src/models/catalog.js";
import { stream } from "../../src/stream.js";
import type { AssistantMessage, Context } from "../../src/types.js";
import { useFakeTarget } from "../support/adapter-setup.js";
import { describeByteSplits } from "../support/byte-splits.js";
import { MistralStream, mistralError } from "../support/fake-provider/mistral.js";
import { decodePieces } from "../support/split-replay.js";
import { describeCommonStreamFaults } from "../support/stream-faults.js";
import { collect, eventTrace } from "../support/stream-helpers.js";

const context: Context = { systemPrompt: "Be brief.", messages: [{ role: "user", content: "hi", timestamp: 1 }] };
const key = { apiKey: "mistral-key-1234567890" };

const env = useFakeTarget((url) => ({
	api: "mistral-conversations",
	provider: "mistral",
	id: "mistral-fake",
	baseUrl: `${url}/v1`,
	input: ["text", "image"],
}));

type Body = Record<string, unknown> & { messages: Record<string, unknown>[] };
const bodyOf = (i = 0) => env.fake.requests[i]?.body as Body;

describe("mistral-conversations", () => {
	it("posts /v1/chat/completions with the bearer key and the SDK's user agent; text streams to done with usage", async () => {
		env.fake.enqueue(
			new MistralStream()
				.role()
				.text("Hel", "lo")
				.finish("stop", {
					prompt_tokens: 100,
					completion_tokens: 7,
					total_tokens: 107,
					prompt_tokens_details: { cached_tokens: 40 },
				})
				.done()
				.script(),
		);
		const events = await collect(stream(env.model, context, { ...key, maxTokens: 300, sessionId: "s-1" }));
		expect(eventTrace(events)).toEqual(["start", "text_start:0", "text_delta:0", "text_delta:0", "text_end:0", "done"]);
		const done = events.at(-1);
		if (done?.type !== "done") throw new Error("expected done");
		expect(done.message.content).toEqual([{ type: "text", text: "Hello" }]);
		expect(done.message.usage).toMatchObject({ input: 60, output: 7, cacheRead: 40 });
		const request = env.fake.requests[0];
		expect(request?.path).toBe("/v1/chat/completions");
		expect(request?.headers.authorization).toBe(`Bearer ${key.apiKey}`);
		expect(request?.headers["user-agent"]).toBe(SDK_METADATA.userAgent);
		expect(request?.headers.accept).toBe("text/event-stream");
		expect(bodyOf()).toMatchObject({
			model: "mistral-fake",
			stream: true,
			max_tokens: 300,
			prompt_cache_key: "s-1",
			messages: [
				{ role: "system", content: "Be brief." },
				{ role: "user", content: "hi" },
			],
		});
	});

	it("thinking chunks become a thinking block; a tool call with whole arguments ends with toolUse", async () => {
		env.fake.enqueue(
			new MistralStream()
				.role()
				.thinking("Let me ", "look.")
				.textChunks("Reading it.")
				.toolCall("abcDEF123", "read", { path: "a.ts" })
				.finish("tool_calls")
				.done()
				.script(),
		);
		const message = await stream(env.model, context, key).result();
		expect(message.stopReason).toBe("toolUse");
		expect(message.content).toEqual([
			{ type: "thinking", thinking: "Let me look." },
			{ type: "text", text: "Reading it." },
			{ type: "toolCall", id: "abcDEF123", name: "read", arguments: { path: "a.ts" } },
		]);
	});

	it("sends history in Mistral's shape: 9-character tool ids, named tool results, thinking chunks, images", async () => {
		const history: Context = {
			messages: [
				{
					role: "user",
					content: [
						{ type: "text", text: "look" },
						{ type: "image", data: "aGVsbG8=", mimeType: "image/png" },
					],
					timestamp: 1,
				},
				{
					role: "assistant",
					content: [
						{ type: "thinking", thinking: "plan" },
						{ type: "toolCall", id: "toolu_01_from_another_provider", name: "read", arguments: { path: "x" } },
					],
					api: "anthropic-messages",
					provider: "anthropic",
					model: "claude",
					usage: {
						input: 0,
						output: 0,
						cacheRead: 0,
						cacheWrite: 0,
						totalTokens: 0,
						cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
					},
					stopReason: "toolUse",
					timestamp: 2,
				} satisfies AssistantMessage,
				{
					role: "toolResult",
					toolCallId: "toolu_01_from_another_provider",
					toolName: "read",
					content: [{ type: "text", text: "file body" }],
					isError: false,
					timestamp: 3,
				},
			],
			tools: [{ name: "read", description: "Read a file", parameters: { type: "object", properties: {} } }],
		};
		env.fake.enqueue(new MistralStream().text("ok").finish("stop").done().script());
		await stream(env.model, history, key).result();
		const body = bodyOf();
		const [user, assistant, tool] = body.messages;
		expect(user).toEqual({
			role: "user",
			content: [
				{ type: "text", text: "look" },
				{ type: "image_url", image_url: "data:image/png;base64,aGVsbG8=" },
			],
		});
		const calls = assistant?.tool_calls as { id: string; function: { name: string; arguments: string } }[];
		expect(calls[0]?.id).toMatch(/^[a-zA-Z0-9]{9}$/);
		expect(calls[0]?.function).toEqual({ name: "read", arguments: '{"path":"x"}' });
		expect(tool).toMatchObject({ role: "tool", tool_call_id: calls[0]?.id, name: "read", content: "file body" });
		expect(body.tools).toEqual([
			{
				type: "function",
				function: { name: "read", description: "Read a file", parameters: { type: "object", properties: {} } },
			},
		]);
	});

	it("reasoning: reasoning_effort from the level map (off → none); prompt_mode for models without one", async () => {
		const mapped = {
			...env.model,
			reasoning: true,
			thinkingLevelMap: getModel("mistral", "mistral-small-latest").thinkingLevelMap,
		};
		const send = async (model: typeof env.model, reasoning?: "off" | "high" | "max") => {
			env.fake.enqueue(new MistralStream().text("ok").finish("stop").done().script());
			await stream(model, context, { ...key, reasoning }).result();
			const body = env.fake.requests.at(-1)?.body as Body;
			return [body.reasoning_effort, body.prompt_mode];
		};
		expect(await send(mapped, "high")).toEqual(["high", undefined]);
		expect(await send(mapped, "max")).toEqual(["high", undefined]);
		expect(await send(mapped, "off")).toEqual(["none", undefined]);
		const magistral = { ...env.model, reasoning: true };
		expect(await send(magistral, "high")).toEqual([undefined, "reasoning"]);
		expect(await send(magistral, "off")).toEqual([undefined, undefined]);
	});

	it("a payload replaced by onPayload goes through the SDK's own schema: known fields written, an invalid one refused", async () => {
		env.fake.enqueue(new MistralStream().text("ok").finish("stop").done().script());
		const message = await stream(env.model, context, {
			...key,
			onPayload: (payload) => ({ ...(payload as object), topP: 0.5, randomSeed: 7, safePrompt: true }),
		}).result();
		expect(message.stopReason).toBe("stop");
		expect(bodyOf(env.fake.requests.length - 1)).toMatchObject({
			model: "mistral-fake",
			top_p: 0.5,
			random_seed: 7,
			safe_prompt: true,
			messages: [
				{ role: "system", content: "Be brief." },
				{ role: "user", content: "hi" },
			],
		});
		const before = env.fake.requests.length;
		const refused = await stream(env.model, context, {
			...key,
			onPayload: (payload) => ({ ...(payload as object), maxTokens: "many" }),
		}).result();
		expect(refused.stopReason).toBe("error");
		expect(refused.errorInfo).toMatchObject({ kind: "bad_request", code: "invalid_request", retryable: false });
		expect(refused.errorMessage).toContain("The Mistral request is not valid");
		expect(refused.errorMessage).toContain("maxTokens");
		expect(env.fake.requests.length).toBe(before);
	});

	it("stop reasons: length and model_length end with length; error is a retryable server error; no finish is a cut", async () => {
		const end = async (script: MistralStream) => {
			env.fake.enqueue(script.script());
			return stream(env.model, context, key).result();
		};
		expect((await end(new MistralStream().text("a").finish("length").done())).stopReason).toBe("length");
		expect((await end(new MistralStream().text("a").finish("model_length").done())).stopReason).toBe("length");
		const failed = await end(new MistralStream().text("a").finish("error").done());
		expect(failed.errorInfo).toEqual({ kind: "server", code: "error", retryable: true });
		const cut = await end(new MistralStream().text("a").done());
		expect(cut.errorInfo).toMatchObject({ kind: "stream_cut", retryable: true });
		expect(cut.content).toEqual([{ type: "text", text: "a" }]);
	});

	it("HTTP errors are classified from status, body and retry-after; the key never leaks", async () => {
		env.fake.enqueue(mistralError(429, "Requests rate limit exceeded", "rate_limited", { "retry-after": "2" }));
		const limited = await stream(env.model, context, key).result();
		expect(limited.errorInfo).toMatchObject({ kind: "rate_limit", status: 429, retryable: true, retryAfterMs: 2000 });
		env.fake.enqueue(mistralError(401, "Unauthorized", "invalid_request_error"));
		const denied = await stream(env.model, context, key).result();
		expect(denied.errorInfo).toMatchObject({ kind: "auth", status: 401, retryable: false });
		expect(denied.errorMessage).toContain("Unauthorized");
		expect(denied.errorMessage).not.toContain(key.apiKey);
	});

	it("a refused connection is a network error naming the address", async () => {
		// A port that was just free: nothing listens there.
		const probe = createServer().listen(0, "127.0.0.1");
		await once(probe, "listening");
		const { port } = probe.address() as AddressInfo;
		await new Promise((resolve) => probe.close(resolve));
		const message = await stream({ ...env.model, baseUrl: `http://127.0.0.1:${port}/v1` }, context, key).result();
		expect(message.errorInfo).toMatchObject({ kind: "network", retryable: true });
		expect(message.errorMessage).toContain(`127.0.0.1:${port}`);
	});
});

describeCommonStreamFaults("mistral-conversations", {
	env,
	context,
	key,
	openText: (text) => new MistralStream().role().text(text).script(),
	slowText: (parts) => ({
		...new MistralStream()
			.role()
			.text(...parts)
			.finish("stop")
			.done()
			.script(),
		chunkSize: 40,
		delayMs: 5,
	}),
	authFailure: {
		script: mistralError(401, "Unauthorized", "invalid_request_error"),
		errorInfo: { kind: "auth", status: 401, code: "invalid_request_error", retryable: false },
		errorMessage: "401 Unauthorized",
	},
	exactContent: true,
});

describeByteSplits({
	api: "mistral-conversations",
	env,
	context,
	key,
	streams: [
		{
			label: "thinking, text and a tool call",
			frames: () =>
				new MistralStream()
					.role()
					.thinking("Weighing ", "the options — ünïcödé ✓")
					.textChunks("Let me read")
					.toolCall("abcDEF123", "read", '{"path": "src/ä.ts"}')
					.finish("tool_calls")
					.getFrames(),
		},
		{
			label: "plain text",
			frames: () => new MistralStream().role().text("Hello ", "wörld 🌍").finish("stop").getFrames(),
		},
	],
	decode: (pieces) => decodePieces<MistralChunk>(env.model, (writer) => new MistralEventMapper(writer), pieces),
	period: 1000,
	terminal: /^done:/,
});
