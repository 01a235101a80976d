import { describe, expect, it } from "vitest";
import { isContextOverflow } from "../../src/overflow.js";
import { stream } from "../../src/stream.js";
import type { Context } from "../../src/types.js";
import { useFakeTarget } from "../support/adapter-setup.js";
import { GOOGLE_OVERFLOW_MESSAGE, GoogleStream, googleError } from "../support/fake-provider/google.js";
import { describeCommonStreamFaults } from "../support/stream-faults.js";
import { collect, deltas, errorOf, eventTrace } from "../support/stream-helpers.js";

const context: Context = { systemPrompt: "Be brief.", messages: [{ role: "user", content: "hi", timestamp: 1 }] };
const key = { apiKey: "AIza-test-key-1234567890" };

const env = useFakeTarget((url) => ({
	api: "google-generative-ai",
	provider: "google",
	id: "gemini-2.5-flash",
	baseUrl: `${url}/v1beta`,
	reasoning: true,
	cost: { input: 0.3, output: 2.5, cacheRead: 0.075, cacheWrite: 0 },
}));

describe("google-generative-ai streaming", () => {
	it("streams text and finishes with usage and cost", async () => {
		env.fake.enqueue(
			new GoogleStream()
				.text("Hel", "lo")
				.finish("STOP", {
					promptTokenCount: 1000,
					cachedContentTokenCount: 200,
					candidatesTokenCount: 300,
					thoughtsTokenCount: 200,
					totalTokenCount: 1500,
				})
				.script(),
		);
		const events = await collect(stream(env.model, context, key));
		expect(eventTrace(events)).toEqual(["start", "text_start:0", "text_delta:0", "text_delta:0", "text_end:0", "done"]);
		const done = events.at(-1);
		if (done?.type !== "done") throw new Error("expected done");
		expect(done.reason).toBe("stop");
		expect(done.message.content).toEqual([{ type: "text", text: "Hello" }]);
		expect(done.message.responseId).toBe("resp-fake-1");
		expect(done.message.responseModel).toBe("gemini-fake");
		const { cost, ...tokens } = done.message.usage;
		expect(tokens).toEqual({ input: 800, output: 500, cacheRead: 200, cacheWrite: 0, totalTokens: 1500 });
		expect(cost.input).toBeCloseTo(0.00024, 12);
		expect(cost.output).toBeCloseTo(0.00125, 12);
		expect(cost.cacheRead).toBeCloseTo(0.000015, 12);
		expect(cost.total).toBeCloseTo(0.001505, 12);
		expect(env.fake.requests[0]?.path).toBe("/v1beta/models/gemini-2.5-flash:streamGenerateContent");
		expect(env.fake.requests[0]?.headers["x-goog-api-key"]).toBe("AIza-test-key-1234567890");
	});

	it("streams thoughts with their signature, then text", async () => {
		env.fake.enqueue(
			new GoogleStream().thought("Let me ", "think.").signature("c2ln").text("Answer.").finish("STOP").script(),
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
		const message = await stream(env.model, context, key).result();
		expect(message.stopReason).toBe("error"); // nothing queued: the fake answers 500
		const done = events.at(-1);
		if (done?.type !== "done") throw new Error("expected done");
		expect(done.message.content).toEqual([
			{ type: "thinking", thinking: "Let me think.", thinkingSignature: "c2ln" },
			{ type: "text", text: "Answer." },
		]);
	});

	it("emits each function call with one delta holding its whole JSON, ids generated", async () => {
		env.fake.enqueue(
			new GoogleStream()
				.text("Reading.")
				.call("read", { path: "src/a.ts" }, "sig-1")
				.call("bash", { command: "ls -la" })
				.finish("STOP")
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
			"toolcall_end:1",
			"toolcall_start:2",
			"toolcall_delta:2",
			"toolcall_end:2",
			"done",
		]);
		expect(deltas(events, "toolcall_delta")).toEqual(['{"path":"src/a.ts"}', '{"command":"ls -la"}']);
		const done = events.at(-1);
		if (done?.type !== "done") throw new Error("expected done");
		expect(done.reason).toBe("toolUse");
		expect(done.message.content.slice(1)).toEqual([
			{
				type: "toolCall",
				id: "read_resp-fake-1_1",
				name: "read",
				arguments: { path: "src/a.ts" },
				thoughtSignature: "sig-1",
			},
			{ type: "toolCall", id: "bash_resp-fake-1_2", name: "bash", arguments: { command: "ls -la" } },
		]);
	});

	it.each([
		["STOP", "stop"],
		["MAX_TOKENS", "length"],
	] as const)("maps finishReason %s to %s", async (wire, unified) => {
		env.fake.enqueue(new GoogleStream().text("x").finish(wire).script());
		const message = await stream(env.model, context, key).result();
		expect(message.stopReason).toBe(unified);
	});

	it.each(["SAFETY", "RECITATION", "MALFORMED_FUNCTION_CALL"])(
		"finishReason %s ends with a provider error",
		async (wire) => {
			env.fake.enqueue(new GoogleStream().text("x").finish(wire).script());
			const message = await stream(env.model, context, key).result();
			expect(message.stopReason).toBe("error");
			expect(message.errorMessage).toBe(`Google stopped the response: ${wire}`);
			expect(message.errorInfo).toEqual({ kind: "provider", code: wire, retryable: false });
			expect(message.content).toEqual([{ type: "text", text: "x" }]);
		},
	);

	it("ignores frames it does not know", async () => {
		const frames = new GoogleStream().text("a").finish("STOP").sseFrames;
		frames.splice(1, 0, { comment: "keep-alive" }, { data: { somethingNew: true } });
		const { sse } = await import("../support/fake-provider/server.js");
		env.fake.enqueue(sse(frames));
		const events = await collect(stream(env.model, context, key));
		expect(eventTrace(events)).toEqual(["start", "text_start:0", "text_delta:0", "text_end:0", "done"]);
	});

	it("429 with retry info becomes a retryable rate_limit error", async () => {
		env.fake.enqueue(
			googleError(429, "RESOURCE_EXHAUSTED", "Resource has been exhausted (e.g. check quota).", [
				{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "12s" },
			]),
		);
		const events = await collect(stream(env.model, context, key));
		expect(eventTrace(events)).toEqual(["start", "error"]);
		const message = errorOf(events);
		expect(message.errorInfo).toEqual({
			kind: "rate_limit",
			status: 429,
			code: "RESOURCE_EXHAUSTED",
			retryable: true,
			retryAfterMs: 12000,
		});
		expect(isContextOverflow(message)).toBe(false);
		expect(env.fake.requests).toHaveLength(1); // the SDK made one attempt only
	});

	it("500 becomes a retryable server error", async () => {
		env.fake.enqueue(googleError(500, "INTERNAL", "An internal error has occurred."));
		const message = await stream(env.model, context, key).result();
		expect(message.errorInfo).toEqual({ kind: "server", status: 500, code: "INTERNAL", retryable: true });
		expect(env.fake.requests).toHaveLength(1);
	});

	it("503 overloaded is retryable", async () => {
		env.fake.enqueue(googleError(503, "UNAVAILABLE", "The model is overloaded. Please try again later."));
		const message = await stream(env.model, context, key).result();
		expect(message.errorInfo).toEqual({ kind: "overloaded", status: 503, code: "UNAVAILABLE", retryable: true });
	});

	it("an error chunk mid-stream ends with error, keeping the partial", async () => {
		const frames = new GoogleStream().text("Par", "tial").sseFrames;
		frames.push({ data: { error: { code: 503, message: "The model is overloaded.", status: "UNAVAILABLE" } } });
		const { sse } = await import("../support/fake-provider/server.js");
		env.fake.enqueue(sse(frames));
		const events = await collect(stream(env.model, context, key));
		const message = errorOf(events);
		expect(message.content).toEqual([{ type: "text", text: "Partial" }]);
		expect(message.errorInfo).toEqual({ kind: "overloaded", status: 503, code: "UNAVAILABLE", retryable: true });
		expect(message.errorMessage).toBe("503 The model is overloaded.");
	});

	it("a blocked prompt (promptFeedback without candidates) ends with a provider error", async () => {
		const { sse } = await import("../support/fake-provider/server.js");
		env.fake.enqueue(
			sse([
				{
					data: {
						promptFeedback: { blockReason: "PROHIBITED_CONTENT" },
						usageMetadata: { promptTokenCount: 7, totalTokenCount: 7 },
					},
				},
			]),
		);
		const message = await stream(env.model, context, key).result();
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe("The prompt was blocked (PROHIBITED_CONTENT)");
		expect(message.errorInfo).toEqual({ kind: "provider", code: "PROHIBITED_CONTENT", retryable: false });
		expect(message.usage.input).toBe(7);
	});

	it("recognises the overflow error body", async () => {
		env.fake.enqueue(googleError(400, "INVALID_ARGUMENT", GOOGLE_OVERFLOW_MESSAGE));
		const message = await stream(env.model, context, key).result();
		expect(message.errorInfo).toMatchObject({ kind: "overflow", status: 400, retryable: false });
		expect(isContextOverflow(message)).toBe(true);
	});

	it("a stream cut mid-way ends with error and the partial content", async () => {
		const script = new GoogleStream().text("Hello ", "there").finish("STOP").script();
		const cutAt = script.bytes.indexOf('"finishReason"');
		env.fake.enqueue({ ...script, cutAfterBytes: cutAt });
		const events = await collect(stream(env.model, context, key));
		const message = errorOf(events);
		expect(message.content).toEqual([{ type: "text", text: "Hello there" }]);
		expect(message.errorInfo?.retryable).toBe(true);
		expect(["network", "stream_cut"]).toContain(message.errorInfo?.kind);
	});

	it("a clean end without a finishReason is an error, never done", async () => {
		env.fake.enqueue(new GoogleStream().text("All ", "of it").script());
		const events = await collect(stream(env.model, context, key));
		const message = errorOf(events);
		expect(message.content).toEqual([{ type: "text", text: "All of it" }]);
		expect(message.errorInfo).toEqual({ kind: "stream_cut", retryable: true });
		expect(eventTrace(events)).toEqual(["start", "text_start:0", "text_delta:0", "text_delta:0", "error"]);
	});
});

describeCommonStreamFaults("google-generative-ai", {
	env,
	context,
	key,
	openText: (text) => new GoogleStream().text(text).script(),
	slowText: (parts) =>
		new GoogleStream()
			.text(...parts)
			.finish("STOP")
			.script({ chunkSize: 40, delayMs: 5 }),
	authFailure: {
		script: googleError(403, "PERMISSION_DENIED", "Method doesn't allow unregistered callers."),
		errorInfo: { kind: "auth", status: 403, code: "PERMISSION_DENIED", retryable: false },
		errorMessage: "403 Method doesn't allow unregistered callers.",
	},
	exactContent: true,
});
