// The openai-codex-responses adapter over real HTTP against the fake provider:
// request shape (endpoint, account header, stateless body), the Responses
// events with the backend's `response.done`, the shared stream faults and
// byte splits of a recorded-shape stream.
import { describe, expect, it } from "vitest";
import { CodexEventMapper, codexBase } from "../../src/adapters/openai-codex-responses.js";
import type { ResponsesWireEvent } from "../../src/adapters/openai-responses-events.js";
import { stream } from "../../src/stream.js";
import type { Context } from "../../src/types.js";
import { useFakeTarget } from "../support/adapter-setup.js";
import { describeByteSplits } from "../support/byte-splits.js";
import { openaiError, ResponsesStream } from "../support/fake-provider/openai-responses.js";
import { recordedFrames } from "../support/fake-provider/recorded.js";
import { decodePieces } from "../support/split-replay.js";
import { describeCommonStreamFaults } from "../support/stream-faults.js";
import { collect, eventTrace, usageTokens } from "../support/stream-helpers.js";

const API = "openai-codex-responses";
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
const token = `${b64({ alg: "RS256" })}.${b64({ "https://api.openai.com/auth": { chatgpt_account_id: "acct_42" } })}.sig`;
const key = { apiKey: token };
const context: Context = { systemPrompt: "Be brief.", messages: [{ role: "user", content: "hi", timestamp: 1 }] };

const env = useFakeTarget((url) => ({
	api: API,
	provider: "openai-codex",
	id: "gpt-6-sol",
	baseUrl: `${url}/backend-api`,
	reasoning: true,
}));

const done = (s: ResponsesStream) => {
	// The Codex backend's terminal event.
	const frames = s.sseFrames.map((f) =>
		"event" in f && f.event === "response.completed"
			? { event: "response.done", data: { ...(f.data as object), type: "response.done" } }
			: f,
	);
	return frames;
};

describe("openai-codex-responses", () => {
	it("posts to <base>/codex/responses with the ChatGPT account and a stateless body", async () => {
		env.fake.enqueue(new ResponsesStream().created().message("msg_1", ["ok"]).completed().script());
		const message = await stream(env.model, context, { ...key, sessionId: "sess-1", reasoning: "high" }).result();
		expect(message.stopReason).toBe("stop");
		const request = env.fake.requests[0];
		expect(request.path).toBe("/backend-api/codex/responses");
		expect(request.headers.authorization).toBe(`Bearer ${token}`);
		expect(request.headers["chatgpt-account-id"]).toBe("acct_42");
		expect(request.headers["openai-beta"]).toBe("responses=experimental");
		expect(request.headers.originator).toBe("pi");
		expect(request.headers["session-id"]).toBe("sess-1");
		expect(request.body).toMatchObject({
			model: "gpt-6-sol",
			stream: true,
			store: false,
			include: ["reasoning.encrypted_content"],
			tool_choice: "auto",
			parallel_tool_calls: true,
			prompt_cache_key: "sess-1",
			reasoning: { effort: "high", summary: "auto" },
			input: [{ role: "developer", content: "Be brief." }, { role: "user" }],
		});
	});

	it("a turn ending with response.done finishes with usage; tool calls end with toolUse", async () => {
		const text = new ResponsesStream().created().message("msg_1", ["Hel", "lo"]).completed();
		env.fake.enqueue({ kind: "sse", bytes: (await import("../support/fake-provider/server.js")).sseBytes(done(text)) });
		const events = await collect(stream(env.model, context, key));
		expect(eventTrace(events)).toEqual(["start", "text_start:0", "text_delta:0", "text_delta:0", "text_end:0", "done"]);
		const last = events.at(-1);
		if (last?.type !== "done") throw new Error("expected done");
		expect(usageTokens(last.message)).toMatchObject({ input: 10, output: 5 });

		env.fake.enqueue(
			new ResponsesStream().created().functionCall("fc_1", "call_1", "read", ['{"pa', 'th":"a"}']).completed().script(),
		);
		const call = await stream(env.model, context, key).result();
		expect(call.stopReason).toBe("toolUse");
		expect(call.content).toMatchObject([{ type: "toolCall", name: "read", arguments: { path: "a" } }]);
	});

	it("a token without a ChatGPT account is an auth error before any request", async () => {
		const message = await stream(env.model, context, { apiKey: "sk-plain-api-key" }).result();
		expect(message.errorInfo).toEqual({ kind: "auth", code: "no_chatgpt_account", retryable: false });
		expect(message.errorMessage).toContain("/login openai-codex");
		expect(env.fake.requests).toHaveLength(0);
	});

	it("usage limits (429) are retryable rate limits with the server's delay", async () => {
		env.fake.enqueue(
			openaiError(429, "usage_limit_reached", "You have hit your ChatGPT usage limit.", { "retry-after": "7" }),
		);
		const message = await stream(env.model, context, key).result();
		expect(message.errorInfo).toMatchObject({ kind: "rate_limit", status: 429, retryAfterMs: 7000 });
		expect(message.errorMessage).not.toContain(token);
	});

	it("base URLs", () => {
		expect(codexBase("https://chatgpt.com/backend-api")).toBe("https://chatgpt.com/backend-api/codex");
		expect(codexBase("https://chatgpt.com/backend-api/codex/")).toBe("https://chatgpt.com/backend-api/codex");
		expect(codexBase("https://x/codex/responses")).toBe("https://x/codex");
	});
});

describeCommonStreamFaults(API, {
	env,
	context,
	key,
	openText: (text) => new ResponsesStream().created().openMessage("msg_1", text).script(),
	slowText: (parts) =>
		new ResponsesStream().created().message("msg_1", parts).completed().script({ chunkSize: 80, delayMs: 3 }),
	authFailure: {
		script: openaiError(401, "token_expired", "Provided authentication token is expired."),
		errorInfo: { kind: "auth", status: 401, code: "token_expired", retryable: false },
		errorMessage: "401 Provided authentication token is expired.",
	},
	exactContent: false,
});

describeByteSplits({
	api: API,
	env,
	context,
	key,
	streams: [{ label: "codex-text.1", frames: () => recordedFrames(API, "codex-text.1", { eventFromType: true }) }],
	decode: (pieces) => decodePieces<ResponsesWireEvent>(env.model, (writer) => new CodexEventMapper(writer), pieces),
	period: 1000,
	terminal: /^done:/,
	timeoutMs: 30_000,
});
