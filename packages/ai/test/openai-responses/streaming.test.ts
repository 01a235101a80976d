import { describe, expect, it } from "vitest";
import { isContextOverflow } from "../../src/overflow.js";
import { stream } from "../../src/stream.js";
import type { Context } from "../../src/types.js";
import { useFakeTarget } from "../support/adapter-setup.js";
import { OPENAI_OVERFLOW_MESSAGE, openaiError, ResponsesStream } from "../support/fake-provider/openai-responses.js";
import { frameEnds } from "../support/fake-provider/server.js";
import { describeCommonStreamFaults } from "../support/stream-faults.js";
import { collect, deltas, errorOf, eventTrace, partialArgumentsPerDelta } from "../support/stream-helpers.js";

const context: Context = { systemPrompt: "Be brief.", messages: [{ role: "user", content: "hi", timestamp: 1 }] };
const key = { apiKey: "sk-test-key-1234567890" };

const env = useFakeTarget((url) => ({
	api: "openai-responses",
	id: "gpt-fake",
	baseUrl: `${url}/v1`,
	reasoning: true,
}));

describe("openai-responses streaming", () => {
	it("streams text and finishes with usage and cost", async () => {
		env.fake.enqueue(
			new ResponsesStream()
				.created()
				.message("msg_1", ["Hel", "lo"])
				.completed({
					input_tokens: 1000,
					output_tokens: 500,
					total_tokens: 1500,
					input_tokens_details: { cached_tokens: 200 },
				})
				.script(),
		);
		const events = await collect(stream(env.model, context, key));
		expect(eventTrace(events)).toEqual(["start", "text_start:0", "text_delta:0", "text_delta:0", "text_end:0", "done"]);
		const done = events.at(-1);
		if (done?.type !== "done") throw new Error("expected done");
		expect(done.reason).toBe("stop");
		expect(done.message.content).toEqual([{ type: "text", text: "Hello", textSignature: '{"v":1,"id":"msg_1"}' }]);
		expect(done.message.responseId).toBe("resp_fake_1");
		const { cost, ...tokens } = done.message.usage;
		expect(tokens).toEqual({ input: 800, output: 500, cacheRead: 200, cacheWrite: 0, totalTokens: 1500 });
		expect(cost.input).toBeCloseTo(0.0016, 12);
		expect(cost.output).toBeCloseTo(0.004, 12);
		expect(cost.cacheRead).toBeCloseTo(0.0001, 12);
		expect(cost.total).toBeCloseTo(0.0057, 12);
		expect(env.fake.requests[0]?.path).toBe("/v1/responses");
		expect(env.fake.requests[0]?.headers.authorization).toBe("Bearer sk-test-key-1234567890");
	});

	it("streams reasoning summaries as thinking; the whole item is the signature", async () => {
		env.fake.enqueue(
			new ResponsesStream()
				.created()
				.reasoning("rs_1", [["Plan", "ning"], ["Check"]], "gAAAA-encrypted")
				.message("msg_1", ["Answer."])
				.completed()
				.script(),
		);
		const events = await collect(stream(env.model, context, { ...key, reasoning: "high" }));
		expect(eventTrace(events)).toEqual([
			"start",
			"thinking_start:0",
			"thinking_delta:0",
			"thinking_delta:0",
			"thinking_delta:0",
			"thinking_delta:0",
			"thinking_end:0",
			"text_start:1",
			"text_delta:1",
			"text_end:1",
			"done",
		]);
		expect(deltas(events, "thinking_delta")).toEqual(["Plan", "ning", "\n\n", "Check"]);
		const done = events.at(-1);
		if (done?.type !== "done") throw new Error("expected done");
		const thinking = done.message.content[0];
		if (thinking?.type !== "thinking") throw new Error("expected thinking");
		expect(thinking.thinking).toBe("Planning\n\nCheck");
		expect(JSON.parse(thinking.thinkingSignature ?? "")).toEqual({
			id: "rs_1",
			type: "reasoning",
			encrypted_content: "gAAAA-encrypted",
			summary: [
				{ type: "summary_text", text: "Planning" },
				{ type: "summary_text", text: "Check" },
			],
		});
	});

	it("streams several function calls with arguments split across chunks", async () => {
		env.fake.enqueue(
			new ResponsesStream()
				.created()
				.functionCall("fc_a", "call_a", "read", ['{"pa', 'th": "src/', 'a.ts"', "}"])
				.functionCall("fc_b", "call_b", "bash", ['{"command":', ' "ls -la"}'])
				.completed()
				.script(),
		);
		const events = await collect(stream(env.model, context, key));
		expect(eventTrace(events)).toEqual([
			"start",
			"toolcall_start:0",
			"toolcall_delta:0",
			"toolcall_delta:0",
			"toolcall_delta:0",
			"toolcall_delta:0",
			"toolcall_end:0",
			"toolcall_start:1",
			"toolcall_delta:1",
			"toolcall_delta:1",
			"toolcall_end:1",
			"done",
		]);
		const done = events.at(-1);
		if (done?.type !== "done") throw new Error("expected done");
		expect(done.reason).toBe("toolUse");
		expect(done.message.content).toEqual([
			{ type: "toolCall", id: "call_a|fc_a", name: "read", arguments: { path: "src/a.ts" } },
			{ type: "toolCall", id: "call_b|fc_b", name: "bash", arguments: { command: "ls -la" } },
		]);
	});

	it("each toolcall_delta carries the partially parsed arguments", async () => {
		const script = new ResponsesStream()
			.created()
			.functionCall("fc_a", "call_a", "read", ['{"pa', 'th": "src/', 'a.ts"', "}"])
			.completed()
			.script({ delayMs: 5 });
		env.fake.enqueue({ ...script, splitAt: frameEnds(script.bytes) });
		expect(await partialArgumentsPerDelta(stream(env.model, context, key))).toEqual([
			{},
			{ path: "src/" },
			{ path: "src/a.ts" },
			{ path: "src/a.ts" },
		]);
	});

	it("response.incomplete (max_output_tokens) ends with length", async () => {
		env.fake.enqueue(
			new ResponsesStream().created().message("msg_1", ["trunc"]).incomplete("max_output_tokens").script(),
		);
		const message = await stream(env.model, context, key).result();
		expect(message.stopReason).toBe("length");
		expect(message.content).toMatchObject([{ type: "text", text: "trunc" }]);
	});

	it("response.incomplete (content_filter) ends with a provider error", async () => {
		env.fake.enqueue(new ResponsesStream().created().message("msg_1", ["x"]).incomplete("content_filter").script());
		const message = await stream(env.model, context, key).result();
		expect(message.stopReason).toBe("error");
		expect(message.errorInfo).toEqual({ kind: "provider", code: "content_filter", retryable: false });
	});

	it("response.failed ends with error and its code", async () => {
		env.fake.enqueue(new ResponsesStream().created().failed("server_error", "The server had an error").script());
		const message = await stream(env.model, context, key).result();
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe("server_error: The server had an error");
		expect(message.errorInfo).toEqual({ kind: "server", code: "server_error", retryable: true });
	});

	it("an error event mid-stream ends with error, keeping the partial", async () => {
		env.fake.enqueue(
			new ResponsesStream()
				.created()
				.openMessage("msg_1", "Par", "tial")
				.error("rate_limit_exceeded", "Rate limit reached")
				.script(),
		);
		const events = await collect(stream(env.model, context, key));
		expect(eventTrace(events)).toEqual(["start", "text_start:0", "text_delta:0", "text_delta:0", "error"]);
		const message = errorOf(events);
		expect(message.content).toMatchObject([{ type: "text", text: "Partial" }]);
		expect(message.errorInfo).toEqual({ kind: "rate_limit", code: "rate_limit_exceeded", retryable: true });
	});

	it("reads the documented flat error event shape too", async () => {
		const { sse } = await import("../support/fake-provider/server.js");
		const frames = new ResponsesStream().created().sseFrames;
		frames.push({ event: "error", data: { type: "error", code: "server_error", message: "boom", param: null } });
		env.fake.enqueue(sse(frames));
		const message = await stream(env.model, context, key).result();
		expect(message.errorMessage).toBe("server_error: boom");
		expect(message.errorInfo).toEqual({ kind: "server", code: "server_error", retryable: true });
	});

	it("a malformed event ends with a retryable provider error", async () => {
		const { sse } = await import("../support/fake-provider/server.js");
		const frames = new ResponsesStream().created().openMessage("msg_1", "ok").sseFrames;
		frames.push({ event: "response.output_text.delta", data: "{not json" });
		env.fake.enqueue(sse(frames));
		const message = await stream(env.model, context, key).result();
		expect(message.errorInfo).toEqual({ kind: "provider", code: "malformed_event", retryable: true });
		expect(message.content).toMatchObject([{ type: "text", text: "ok" }]);
	});

	it("ignores unknown event types", async () => {
		env.fake.enqueue(new ResponsesStream().created().unknown().message("msg_1", ["a"]).unknown().completed().script());
		const events = await collect(stream(env.model, context, key));
		expect(eventTrace(events)).toEqual(["start", "text_start:0", "text_delta:0", "text_end:0", "done"]);
	});

	it("429 with retry-after becomes a retryable rate_limit error", async () => {
		env.fake.enqueue(
			openaiError(429, "rate_limit_exceeded", "Rate limit reached for requests", { "retry-after": "3" }),
		);
		const events = await collect(stream(env.model, context, key));
		expect(eventTrace(events)).toEqual(["start", "error"]);
		const message = errorOf(events);
		expect(message.errorInfo).toEqual({
			kind: "rate_limit",
			status: 429,
			code: "rate_limit_exceeded",
			retryable: true,
			retryAfterMs: 3000,
		});
		expect(env.fake.requests).toHaveLength(1);
	});

	it("500 becomes a retryable server error", async () => {
		env.fake.enqueue(openaiError(500, "server_error", "The server had an error while processing your request."));
		const message = await stream(env.model, context, key).result();
		expect(message.errorInfo).toEqual({ kind: "server", status: 500, code: "server_error", retryable: true });
		expect(env.fake.requests).toHaveLength(1);
	});

	it("recognises the overflow error body", async () => {
		env.fake.enqueue(openaiError(400, "context_length_exceeded", OPENAI_OVERFLOW_MESSAGE));
		const message = await stream(env.model, context, key).result();
		expect(message.errorInfo).toMatchObject({ kind: "overflow", status: 400, retryable: false });
		expect(isContextOverflow(message)).toBe(true);
	});

	it("recognises overflow reported inside the stream (response.failed)", async () => {
		env.fake.enqueue(
			new ResponsesStream().created().failed("context_length_exceeded", OPENAI_OVERFLOW_MESSAGE).script(),
		);
		const message = await stream(env.model, context, key).result();
		expect(message.errorInfo).toEqual({ kind: "overflow", code: "context_length_exceeded", retryable: false });
		expect(isContextOverflow(message)).toBe(true);
	});

	it("a stream cut mid-way ends with error and the partial content", async () => {
		const script = new ResponsesStream().created().message("msg_1", ["Hello ", "there"]).completed().script();
		const cutAt = script.bytes.indexOf("response.output_text.done");
		env.fake.enqueue({ ...script, cutAfterBytes: cutAt });
		const events = await collect(stream(env.model, context, key));
		const message = errorOf(events);
		expect(message.content).toMatchObject([{ type: "text", text: "Hello there" }]);
		expect(message.errorInfo?.retryable).toBe(true);
		expect(["network", "stream_cut"]).toContain(message.errorInfo?.kind);
	});

	it("a clean end without response.completed is an error, never done", async () => {
		env.fake.enqueue(new ResponsesStream().created().message("msg_1", ["All ", "of it"]).script());
		const events = await collect(stream(env.model, context, key));
		const message = errorOf(events);
		expect(message.content).toMatchObject([{ type: "text", text: "All of it" }]);
		expect(message.errorInfo).toEqual({ kind: "stream_cut", retryable: true });
	});
});

describeCommonStreamFaults("openai-responses", {
	env,
	context,
	key,
	openText: (text) => new ResponsesStream().created().openMessage("msg_1", text).script(),
	slowText: (parts) =>
		new ResponsesStream().created().message("msg_1", parts).completed().script({ chunkSize: 80, delayMs: 3 }),
	authFailure: {
		script: openaiError(401, "invalid_api_key", "Incorrect API key provided: sk-test-******7890."),
		errorInfo: { kind: "auth", status: 401, code: "invalid_api_key", retryable: false },
		errorMessage: "401 Incorrect API key provided: sk-test-******7890.",
	},
	exactContent: false,
});
