import { describe, expect, it } from "vitest";
import { isContextOverflow } from "../../src/overflow.js";
import { stream } from "../../src/stream.js";
import type { AssistantMessage, Context } from "../../src/types.js";
import { useFakeTarget } from "../support/adapter-setup.js";
import { ANTHROPIC_OVERFLOW_MESSAGE, AnthropicStream, anthropicError } from "../support/fake-provider/anthropic.js";
import { frameEnds } from "../support/fake-provider/server.js";
import { describeCommonStreamFaults } from "../support/stream-faults.js";
import { collect, deltas, errorOf, eventTrace, partialArgumentsPerDelta } from "../support/stream-helpers.js";

const context: Context = { systemPrompt: "Be brief.", messages: [{ role: "user", content: "hi", timestamp: 1 }] };
const key = { apiKey: "sk-ant-api03-test-key-1234567890" };

const env = useFakeTarget((url) => ({
	api: "anthropic-messages",
	provider: "anthropic",
	id: "claude-fake",
	baseUrl: url,
	reasoning: true,
	cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
	maxTokens: 64_000,
}));

describe("anthropic-messages streaming", () => {
	it("streams text with pings, finishes with usage and cost", async () => {
		env.fake.enqueue(
			new AnthropicStream()
				.start({ input_tokens: 1000, output_tokens: 1, cache_read_input_tokens: 200, cache_creation_input_tokens: 100 })
				.ping()
				.text("Hel", "lo")
				.ping()
				.delta("end_turn", { output_tokens: 500 })
				.stop()
				.script(),
		);
		const events = await collect(stream(env.model, context, key));
		expect(eventTrace(events)).toEqual(["start", "text_start:0", "text_delta:0", "text_delta:0", "text_end:0", "done"]);
		const done = events.at(-1);
		if (done?.type !== "done") throw new Error("expected done");
		expect(done.reason).toBe("stop");
		expect(done.message.content).toEqual([{ type: "text", text: "Hello" }]);
		expect(done.message.responseId).toBe("msg_fake_1");
		const { cost, ...tokens } = done.message.usage;
		expect(tokens).toEqual({ input: 1000, output: 500, cacheRead: 200, cacheWrite: 100, totalTokens: 1800 });
		expect(cost.input).toBeCloseTo(0.003, 12);
		expect(cost.output).toBeCloseTo(0.0075, 12);
		expect(cost.cacheRead).toBeCloseTo(0.00006, 12);
		expect(cost.cacheWrite).toBeCloseTo(0.000375, 12);
		expect(cost.total).toBeCloseTo(0.010935, 12);
		expect(env.fake.requests[0]?.path).toBe("/v1/messages");
	});

	it("streams thinking with its signature, then text", async () => {
		env.fake.enqueue(
			new AnthropicStream()
				.start()
				.thinking(["Let me ", "think."], "c2lnbmF0dXJl")
				.text("Answer.")
				.delta("end_turn")
				.stop()
				.script(),
		);
		const events = await collect(stream(env.model, context, { ...key, reasoning: "medium" }));
		expect(eventTrace(events)).toEqual([
			"start",
			"thinking_start:0",
			"thinking_delta:0",
			"thinking_delta:0",
			"thinking_end:0",
			"text_start:1",
			"text_delta:1",
			"text_end:1",
			"done",
		]);
		const message = (events.at(-1) as { message: AssistantMessage }).message;
		expect(message.content).toEqual([
			{ type: "thinking", thinking: "Let me think.", thinkingSignature: "c2lnbmF0dXJl" },
			{ type: "text", text: "Answer." },
		]);
	});

	it("keeps redacted thinking as an opaque signature", async () => {
		env.fake.enqueue(
			new AnthropicStream().start().redactedThinking("ENCRYPTED==").text("ok").delta("end_turn").stop().script(),
		);
		const message = await stream(env.model, context, { ...key, reasoning: "low" }).result();
		expect(message.content[0]).toEqual({
			type: "thinking",
			thinking: "[Reasoning redacted]",
			thinkingSignature: "ENCRYPTED==",
			redacted: true,
		});
	});

	it("streams several tool calls with arguments split across chunks", async () => {
		env.fake.enqueue(
			new AnthropicStream()
				.start()
				.text("Reading.")
				.toolUse("toolu_a", "read", ['{"pa', 'th": "src/', 'a.ts"', "}"])
				.toolUse("toolu_b", "bash", ['{"command":', ' "ls -la"}'])
				.delta("tool_use")
				.stop()
				.script(),
		);
		const events = await collect(stream(env.model, context, key));
		expect(eventTrace(events)).toEqual([
			"start",
			"text_start:0",
			"text_delta:0",
			"text_end:0",
			"toolcall_start:1",
			"toolcall_delta:1",
			"toolcall_delta:1",
			"toolcall_delta:1",
			"toolcall_delta:1",
			"toolcall_end:1",
			"toolcall_start:2",
			"toolcall_delta:2",
			"toolcall_delta:2",
			"toolcall_end:2",
			"done",
		]);
		expect(deltas(events, "toolcall_delta")).toEqual(['{"pa', 'th": "src/', 'a.ts"', "}", '{"command":', ' "ls -la"}']);
		const done = events.at(-1);
		if (done?.type !== "done") throw new Error("expected done");
		expect(done.reason).toBe("toolUse");
		expect(done.message.content.slice(1)).toEqual([
			{ type: "toolCall", id: "toolu_a", name: "read", arguments: { path: "src/a.ts" } },
			{ type: "toolCall", id: "toolu_b", name: "bash", arguments: { command: "ls -la" } },
		]);
	});

	it.each([
		["end_turn", "stop"],
		["stop_sequence", "stop"],
		["pause_turn", "stop"],
		["max_tokens", "length"],
		["tool_use", "toolUse"],
	] as const)("maps stop_reason %s to %s", async (wire, unified) => {
		env.fake.enqueue(new AnthropicStream().start().text("x").delta(wire).stop().script());
		const message = await stream(env.model, context, key).result();
		expect(message.stopReason).toBe(unified);
	});

	it("each toolcall_delta carries the partially parsed arguments", async () => {
		const script = new AnthropicStream()
			.start()
			.toolUse("toolu_a", "read", ['{"pa', 'th": "src/', 'a.ts"', "}"])
			.delta("tool_use")
			.stop()
			.script({ delayMs: 5 });
		env.fake.enqueue({ ...script, splitAt: frameEnds(script.bytes) });
		expect(await partialArgumentsPerDelta(stream(env.model, context, key))).toEqual([
			{},
			{ path: "src/" },
			{ path: "src/a.ts" },
			{ path: "src/a.ts" },
		]);
	});

	it("ends a refusal with an error naming it", async () => {
		env.fake.enqueue(new AnthropicStream().start().delta("refusal").stop().script());
		const message = await stream(env.model, context, key).result();
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe("The model refused to respond");
		expect(message.errorInfo).toEqual({ kind: "provider", code: "refusal", retryable: false });
	});

	it("reads input tokens reported late in message_delta", async () => {
		env.fake.enqueue(
			new AnthropicStream()
				.start({ input_tokens: 0, output_tokens: 1 })
				.text("p")
				.delta("end_turn", { input_tokens: 61, output_tokens: 2 })
				.stop()
				.script(),
		);
		const message = await stream(env.model, context, key).result();
		expect(message.usage.input).toBe(61);
		expect(message.usage.output).toBe(2);
		expect(message.usage.totalTokens).toBe(63);
	});

	it("a malformed event ends with a retryable provider error", async () => {
		const { sse } = await import("../support/fake-provider/server.js");
		const frames = new AnthropicStream().start().openText("ok").sseFrames;
		frames.push({ event: "content_block_delta", data: "{not json" });
		env.fake.enqueue(sse(frames));
		const message = await stream(env.model, context, key).result();
		expect(message.errorInfo).toEqual({ kind: "provider", code: "malformed_event", retryable: true });
		expect(message.content).toEqual([{ type: "text", text: "ok" }]);
	});

	it("ignores pings and unknown event types", async () => {
		env.fake.enqueue(
			new AnthropicStream().start().ping().unknown().text("a").ping().unknown().delta("end_turn").stop().script(),
		);
		const events = await collect(stream(env.model, context, key));
		expect(eventTrace(events)).toEqual(["start", "text_start:0", "text_delta:0", "text_end:0", "done"]);
	});

	it("429 with retry-after becomes a retryable rate_limit error", async () => {
		env.fake.enqueue(
			anthropicError(429, "rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit", {
				"retry-after": "7",
			}),
		);
		const events = await collect(stream(env.model, context, key));
		expect(eventTrace(events)).toEqual(["start", "error"]);
		const message = errorOf(events);
		expect(message.stopReason).toBe("error");
		expect(message.errorInfo).toEqual({
			kind: "rate_limit",
			status: 429,
			code: "rate_limit_error",
			retryable: true,
			retryAfterMs: 7000,
		});
		expect(message.errorMessage).toContain("per-minute rate limit");
		expect(isContextOverflow(message)).toBe(false);
	});

	it("500 becomes a retryable server error", async () => {
		env.fake.enqueue(anthropicError(500, "api_error", "Internal server error"));
		const message = await stream(env.model, context, key).result();
		expect(message.errorInfo).toEqual({ kind: "server", status: 500, code: "api_error", retryable: true });
	});

	it("529 overloaded over HTTP is retryable", async () => {
		env.fake.enqueue(anthropicError(529, "overloaded_error", "Overloaded"));
		const message = await stream(env.model, context, key).result();
		expect(message.errorInfo).toEqual({ kind: "overloaded", status: 529, code: "overloaded_error", retryable: true });
		expect(message.errorMessage).toBe("529 Overloaded");
	});

	it("event: error (overloaded) mid-stream ends with error, keeping the partial", async () => {
		env.fake.enqueue(
			new AnthropicStream().start().openText("Par", "tial").error("overloaded_error", "Overloaded").script(),
		);
		const events = await collect(stream(env.model, context, key));
		expect(eventTrace(events)).toEqual(["start", "text_start:0", "text_delta:0", "text_delta:0", "error"]);
		const message = errorOf(events);
		expect(message.content).toEqual([{ type: "text", text: "Partial" }]);
		expect(message.errorMessage).toBe("overloaded_error: Overloaded");
		expect(message.errorInfo).toEqual({ kind: "overloaded", code: "overloaded_error", retryable: true });
	});

	it("recognises the overflow error body", async () => {
		env.fake.enqueue(anthropicError(400, "invalid_request_error", ANTHROPIC_OVERFLOW_MESSAGE));
		const message = await stream(env.model, context, key).result();
		expect(message.errorInfo).toMatchObject({ kind: "overflow", status: 400, retryable: false });
		expect(isContextOverflow(message)).toBe(true);
	});

	it("a stream cut mid-way ends with error and the partial content", async () => {
		const script = new AnthropicStream().start().text("Hello there").delta("end_turn").stop().script();
		const cutAt = script.bytes.indexOf("content_block_stop");
		env.fake.enqueue({ ...script, cutAfterBytes: cutAt });
		const events = await collect(stream(env.model, context, key));
		const message = errorOf(events);
		expect(message.stopReason).toBe("error");
		expect(message.content).toEqual([{ type: "text", text: "Hello there" }]);
		expect(message.errorInfo?.retryable).toBe(true);
		expect(["network", "stream_cut"]).toContain(message.errorInfo?.kind);
		expect(events.filter((e) => e.type === "done" || e.type === "error")).toHaveLength(1);
	});

	it("a cut stream's error event carries the usage reported so far, with its cost", async () => {
		const script = new AnthropicStream()
			.start({ input_tokens: 1000, output_tokens: 1 })
			.text("Hello there")
			.delta("end_turn")
			.stop()
			.script();
		env.fake.enqueue({ ...script, cutAfterBytes: script.bytes.indexOf("content_block_stop") });
		const message = errorOf(await collect(stream(env.model, context, key)));
		expect(message.content).toEqual([{ type: "text", text: "Hello there" }]);
		expect(message.usage.input).toBe(1000);
		expect(message.usage.output).toBe(1);
		expect(message.usage.cost.input).toBeCloseTo(0.003, 10); // 1000 tokens at $3 per million
	});

	it("a clean end without message_stop is an error, never done", async () => {
		env.fake.enqueue(new AnthropicStream().start().text("All of it").delta("end_turn").script());
		const events = await collect(stream(env.model, context, key));
		const message = errorOf(events);
		expect(message.content).toEqual([{ type: "text", text: "All of it" }]);
		expect(message.errorInfo).toEqual({ kind: "stream_cut", retryable: true });
	});
});

describeCommonStreamFaults("anthropic-messages", {
	env,
	context,
	key,
	openText: (text) => new AnthropicStream().start().openText(text).script(),
	slowText: (parts) =>
		new AnthropicStream()
			.start()
			.text(...parts)
			.delta("end_turn")
			.stop()
			.script({ chunkSize: 64, delayMs: 5 }),
	authFailure: {
		script: anthropicError(401, "authentication_error", "invalid x-api-key"),
		errorInfo: { kind: "auth", status: 401, code: "authentication_error", retryable: false },
		errorMessage: "401 invalid x-api-key",
	},
	exactContent: true,
});
