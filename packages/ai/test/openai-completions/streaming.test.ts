import { describe, expect, it } from "vitest";
import { isContextOverflow } from "../../src/overflow.js";
import { stream } from "../../src/stream.js";
import type { Context } from "../../src/types.js";
import { useFakeTarget } from "../support/adapter-setup.js";
import { ChatStream, chatError } from "../support/fake-provider/openai-chat.js";
import { frameEnds, json, sse, startFakeProvider } from "../support/fake-provider/server.js";
import { collect, deltas, eventTrace, partialArgumentsPerDelta } from "../support/stream-helpers.js";

const context: Context = { systemPrompt: "Be brief.", messages: [{ role: "user", content: "hi", timestamp: 1 }] };
const key = { apiKey: "sk-test-key-1234567890" };

const env = useFakeTarget((url) => ({ api: "openai-completions", baseUrl: `${url}/v1` }));

describe("openai-completions streaming", () => {
	it("streams text and finishes with usage and cost", async () => {
		env.fake.enqueue(
			new ChatStream()
				.role()
				.text("Hel", "lo")
				.finish("stop")
				.usage({ prompt_tokens: 1000, completion_tokens: 500, prompt_tokens_details: { cached_tokens: 200 } })
				.done()
				.script(),
		);
		const events = await collect(stream(env.model, context, key));
		expect(eventTrace(events)).toEqual(["start", "text_start:0", "text_delta:0", "text_delta:0", "text_end:0", "done"]);
		const done = events.at(-1);
		expect(done?.type).toBe("done");
		if (done?.type !== "done") return;
		expect(done.reason).toBe("stop");
		expect(done.message.content).toEqual([{ type: "text", text: "Hello" }]);
		expect(done.message.responseId).toBe("chatcmpl-fake-1");
		const { cost, ...tokens } = done.message.usage;
		expect(tokens).toEqual({ input: 800, output: 500, cacheRead: 200, cacheWrite: 0, totalTokens: 1500 });
		expect(cost.input).toBeCloseTo(0.0016, 12);
		expect(cost.output).toBeCloseTo(0.004, 12);
		expect(cost.cacheRead).toBeCloseTo(0.0001, 12);
		expect(cost.cacheWrite).toBe(0);
		expect(cost.total).toBeCloseTo(0.0057, 12);
		expect(env.fake.requests[0].path).toBe("/v1/chat/completions");
		expect(env.fake.requests[0].headers.authorization).toBe("Bearer sk-test-key-1234567890");
	});

	it("streams reasoning_content as thinking, then text", async () => {
		env.fake.enqueue(
			new ChatStream()
				.reasoning("reasoning_content", "Let me ", "think.")
				.text("Answer.")
				.finish("stop")
				.done()
				.script(),
		);
		const events = await collect(stream(env.model, context, key));
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
			{ type: "thinking", thinking: "Let me think.", thinkingSignature: "reasoning_content" },
			{ type: "text", text: "Answer." },
		]);
	});

	it.each(["reasoning", "reasoning_details"] as const)("reads reasoning from the %s field", async (field) => {
		env.fake.enqueue(new ChatStream().reasoning(field, "a", "b").text("c").finish("stop").done().script());
		const message = await stream(env.model, context, key).result();
		expect(message.content[0]).toMatchObject({ type: "thinking", thinking: "ab" });
		expect(message.content[1]).toEqual({ type: "text", text: "c" });
	});

	it("streams several tool calls with arguments split across chunks", async () => {
		env.fake.enqueue(
			new ChatStream()
				.text("Reading.")
				.toolCall(0, "call_a", "read", ['{"pa', 'th": "src/', 'a.ts"', "}"])
				.toolCall(1, "call_b", "bash", ['{"command":', ' "ls -la"}'])
				.finish("tool_calls")
				.usage({ prompt_tokens: 10, completion_tokens: 20 })
				.done()
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
			"toolcall_start:2",
			"toolcall_delta:2",
			"toolcall_delta:2",
			"toolcall_end:1",
			"toolcall_end:2",
			"done",
		]);
		// The partial arguments grow with each delta (one frame per write, so each state is seen).
		const script = new ChatStream()
			.toolCall(0, "call_a", "read", ['{"pa', 'th": "src/', 'a.ts"', "}"])
			.finish("tool_calls")
			.done()
			.script({ delayMs: 5 });
		env.fake.enqueue({ ...script, splitAt: frameEnds(script.bytes) });
		expect(await partialArgumentsPerDelta(stream(env.model, context, key))).toEqual([
			{},
			{ path: "src/" },
			{ path: "src/a.ts" },
			{ path: "src/a.ts" },
		]);
		expect(deltas(events, "toolcall_delta").join("")).toBe('{"path": "src/a.ts"}{"command": "ls -la"}');
		const done = events.at(-1);
		if (done?.type !== "done") throw new Error("expected done");
		expect(done.reason).toBe("toolUse");
		expect(done.message.content).toEqual([
			{ type: "text", text: "Reading." },
			{ type: "toolCall", id: "call_a", name: "read", arguments: { path: "src/a.ts" } },
			{ type: "toolCall", id: "call_b", name: "bash", arguments: { command: "ls -la" } },
		]);
	});

	it.each([
		["stop", "stop"],
		["length", "length"],
		["tool_calls", "toolUse"],
	] as const)("maps finish_reason %s to %s", async (wire, reason) => {
		env.fake.enqueue(new ChatStream().text("x").finish(wire).done().script());
		const message = await stream(env.model, context, key).result();
		expect(message.stopReason).toBe(reason);
	});

	it("ends content_filter with an error", async () => {
		env.fake.enqueue(new ChatStream().text("x").finish("content_filter").done().script());
		const message = await stream(env.model, context, key).result();
		expect(message.stopReason).toBe("error");
		expect(message.errorInfo).toEqual({ kind: "provider", code: "content_filter", retryable: false });
		expect(message.content).toEqual([{ type: "text", text: "x" }]);
	});

	it("treats [DONE] without a finish reason as a cut stream", async () => {
		env.fake.enqueue(new ChatStream().text("partial").done().script());
		const events = await collect(stream(env.model, context, key));
		const last = events.at(-1);
		expect(last?.type).toBe("error");
		if (last?.type !== "error") return;
		expect(last.reason).toBe("error");
		expect(last.error.errorInfo).toEqual({ kind: "stream_cut", retryable: true });
		expect(last.error.content).toEqual([{ type: "text", text: "partial" }]);
	});

	it("treats a clean end of body without [DONE] or finish reason as an error", async () => {
		env.fake.enqueue(new ChatStream().text("partial").script());
		const message = await stream(env.model, context, key).result();
		expect(message.stopReason).toBe("error");
		expect(message.errorInfo?.kind).toBe("stream_cut");
	});

	it("keeps the partial content when the connection is cut mid-stream", async () => {
		const script = new ChatStream().text("one ", "two ", "three").finish("stop").done().script();
		const firstTwo = script.bytes.indexOf("three") - 40;
		env.fake.enqueue({ ...script, cutAfterBytes: firstTwo });
		const events = await collect(stream(env.model, context, key));
		const last = events.at(-1);
		if (last?.type !== "error") throw new Error(`expected error, got ${last?.type}`);
		expect(last.error.content).toEqual([{ type: "text", text: "one two " }]);
		expect(last.error.errorInfo).toMatchObject({ kind: "stream_cut", retryable: true });
		expect(events.filter((e) => e.type === "error")).toHaveLength(1);
	});

	it("handles slow chunks", async () => {
		env.fake.enqueue(new ChatStream().text("a", "b", "c").finish("stop").done().script({ chunkSize: 40, delayMs: 15 }));
		const started = Date.now();
		const message = await stream(env.model, context, key).result();
		expect(message.content).toEqual([{ type: "text", text: "abc" }]);
		expect(message.stopReason).toBe("stop");
		expect(Date.now() - started).toBeGreaterThanOrEqual(50);
	});

	it("aborts mid-stream with the partial message", async () => {
		const script = new ChatStream().text("before ").text("after").finish("stop").done().script();
		env.fake.enqueue({ ...script, hangAfterBytes: script.bytes.indexOf("after") - 60 });
		const controller = new AbortController();
		const events: string[] = [];
		const s = stream(env.model, context, { ...key, signal: controller.signal });
		for await (const e of s) {
			events.push(e.type);
			if (e.type === "text_delta") controller.abort();
		}
		const message = await s.result();
		expect(events.at(-1)).toBe("error");
		expect(message.stopReason).toBe("aborted");
		expect(message.errorInfo).toEqual({ kind: "aborted", retryable: false });
		expect(message.content).toEqual([{ type: "text", text: "before " }]);
	});

	it("aborts a request that was aborted before it started", async () => {
		const controller = new AbortController();
		controller.abort();
		const message = await stream(env.model, context, { ...key, signal: controller.signal }).result();
		expect(message.stopReason).toBe("aborted");
	});

	it("fails with a timeout when no byte arrives for timeoutMs", async () => {
		const script = new ChatStream().text("a").text("b").finish("stop").done().script();
		env.fake.enqueue({ ...script, hangAfterBytes: script.bytes.indexOf('"b"') - 60 });
		const message = await stream(env.model, context, { ...key, timeoutMs: 100 }).result();
		expect(message.stopReason).toBe("error");
		expect(message.errorInfo).toEqual({ kind: "network", code: "timeout", retryable: true });
		expect(message.content).toEqual([{ type: "text", text: "a" }]);
	});
});

describe("openai-completions errors", () => {
	it("maps 429 with retry-after to a retryable rate limit", async () => {
		env.fake.enqueue(
			chatError(429, "Rate limit reached for requests", {
				type: "requests",
				code: "rate_limit_exceeded",
				headers: { "retry-after": "7" },
			}),
		);
		const events = await collect(stream(env.model, context, key));
		expect(eventTrace(events)).toEqual(["start", "error"]);
		const message = events.at(-1);
		if (message?.type !== "error") throw new Error("expected error");
		expect(message.error.errorMessage).toBe("429 Rate limit reached for requests");
		expect(message.error.errorInfo).toEqual({
			kind: "rate_limit",
			status: 429,
			code: "rate_limit_exceeded",
			retryable: true,
			retryAfterMs: 7000,
		});
	});

	it("prefers retry-after-ms", async () => {
		env.fake.enqueue(chatError(429, "slow down", { headers: { "retry-after-ms": "1500", "retry-after": "9" } }));
		const message = await stream(env.model, context, key).result();
		expect(message.errorInfo?.retryAfterMs).toBe(1500);
	});

	it("maps 500 to a retryable server error", async () => {
		env.fake.enqueue(chatError(500, "The server had an error", { type: "server_error" }));
		const message = await stream(env.model, context, key).result();
		expect(message.errorInfo).toEqual({ kind: "server", status: 500, code: "server_error", retryable: true });
	});

	it("maps 401 to auth and never leaks the key", async () => {
		env.fake.enqueue(chatError(401, `Incorrect API key provided: ${key.apiKey}`, { code: "invalid_api_key" }));
		const message = await stream(env.model, context, key).result();
		expect(message.errorInfo).toMatchObject({ kind: "auth", status: 401, retryable: false });
		expect(message.errorMessage).not.toContain(key.apiKey);
	});

	it("classifies the context-length error as overflow", async () => {
		env.fake.enqueue(
			chatError(
				400,
				"This model's maximum context length is 128000 tokens. However, your messages resulted in 130532 tokens. Please reduce the length of the messages.",
				{ code: "context_length_exceeded" },
			),
		);
		const message = await stream(env.model, context, key).result();
		expect(message.errorInfo).toEqual({
			kind: "overflow",
			status: 400,
			code: "context_length_exceeded",
			retryable: false,
		});
		expect(isContextOverflow(message)).toBe(true);
	});

	it("classifies a bare 413 as overflow", async () => {
		env.fake.enqueue({ kind: "json", status: 413, bodyText: "" });
		const message = await stream(env.model, context, key).result();
		expect(message.errorInfo?.kind).toBe("overflow");
		expect(isContextOverflow(message)).toBe(true);
	});

	it("turns an error object inside the stream into an error event", async () => {
		env.fake.enqueue(new ChatStream().text("so far").error("Upstream overloaded", "overloaded").script());
		const message = await stream(env.model, context, key).result();
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe("Upstream overloaded");
		expect(message.errorInfo).toEqual({ kind: "provider", code: "overloaded", retryable: true });
		expect(message.content).toEqual([{ type: "text", text: "so far" }]);
	});

	it("ignores pings and unknown chunks, and ends on an `event: error` frame", async () => {
		const frames = [
			{ comment: "OPENROUTER PROCESSING" },
			...new ChatStream().text("kept").build(),
			{ data: { object: "ping" } },
			{ event: "error", data: { error: { message: "Internal error upstream", code: 502 } } },
			...new ChatStream().text("never").finish("stop").done().build(),
		];
		env.fake.enqueue(sse(frames));
		const events = await collect(stream(env.model, context, key));
		expect(eventTrace(events)).toEqual(["start", "text_start:0", "text_delta:0", "error"]);
		const message = await stream(env.model, context, key).result(); // nothing queued: 500
		expect(message.errorInfo?.status).toBe(500);
		const last = events.at(-1);
		if (last?.type !== "error") throw new Error("expected error");
		expect(last.error.errorMessage).toBe("502 Internal error upstream");
		expect(last.error.errorInfo).toEqual({ kind: "server", status: 502, retryable: true });
		expect(last.error.content).toEqual([{ type: "text", text: "kept" }]);
	});

	it("reports a malformed chunk as a provider error with the partial content", async () => {
		env.fake.enqueue(sse([...new ChatStream().text("ok").build(), { data: "{not json" }]));
		const message = await stream(env.model, context, key).result();
		expect(message.errorInfo).toEqual({ kind: "provider", code: "malformed_chunk", retryable: true });
		expect(message.content).toEqual([{ type: "text", text: "ok" }]);
	});

	it("reports a refused connection as a retryable network error", async () => {
		const closed = await startFakeProvider();
		const url = closed.url;
		await closed.close();
		const message = await stream({ ...env.model, baseUrl: `${url}/v1` }, context, key).result();
		expect(message.stopReason).toBe("error");
		expect(message.errorInfo).toMatchObject({ kind: "network", retryable: true });
	});

	it("names the environment variable when the key is missing", async () => {
		const saved = process.env.OPENAI_API_KEY;
		delete process.env.OPENAI_API_KEY;
		try {
			const remote = { ...env.model, baseUrl: "https://api.openai.com/v1" };
			const events = await collect(stream(remote, context));
			expect(eventTrace(events)).toEqual(["start", "error"]);
			const message = await stream(remote, context).result();
			expect(message.errorMessage).toContain("OPENAI_API_KEY");
			expect(message.errorInfo).toEqual({ kind: "auth", code: "missing_api_key", retryable: false });
		} finally {
			if (saved !== undefined) process.env.OPENAI_API_KEY = saved;
		}
	});

	it("uses a placeholder key for a server on this machine", async () => {
		const saved = process.env.OPENAI_API_KEY;
		delete process.env.OPENAI_API_KEY;
		try {
			env.fake.enqueue(new ChatStream().text("local").finish("stop").done().script());
			const message = await stream({ ...env.model, provider: "ollama" }, context).result();
			expect(message.stopReason).toBe("stop");
			expect(env.fake.requests[0].headers.authorization).toBe("Bearer local");
		} finally {
			if (saved !== undefined) process.env.OPENAI_API_KEY = saved;
		}
	});

	it("answers 500 when nothing is scripted (fake server sanity)", async () => {
		env.fake.enqueue(json(503, { error: { message: "busy" } }));
		const message = await stream(env.model, context, key).result();
		expect(message.errorInfo).toMatchObject({ kind: "overloaded", status: 503, retryable: true });
	});
});
