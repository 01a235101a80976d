// Hostile-provider cases every adapter must handle the same way (issue 21), over real HTTP on
// loopback: a cross-origin redirect (credentials must not follow), a 200 that is an HTML or JSON
// error page instead of an event stream, an endless stream (size cap), an endless trickle
// (duration cap), and the default idle timeout when the caller sets none.
import type { ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DEFAULT_IDLE_TIMEOUT_MS, runAdapterStream } from "../src/adapter.js";
import { stream } from "../src/stream.js";
import type { Context, Model } from "../src/types.js";
import { AnthropicStream } from "./support/fake-provider/anthropic.js";
import { GoogleStream } from "./support/fake-provider/google.js";
import { ChatStream } from "./support/fake-provider/openai-chat.js";
import { ResponsesStream } from "./support/fake-provider/openai-responses.js";
import { type FakeProvider, type Script, type SseScript, startFakeProvider } from "./support/fake-provider/server.js";
import { fakeModel } from "./support/stream-helpers.js";

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
const codexToken = `${b64({ alg: "RS256" })}.${b64({ "https://api.openai.com/auth": { chatgpt_account_id: "acct_1" } })}.sig`;
const SECRET_HEADER = "x-team-secret";
const SECRET_VALUE = "team-secret-value-9f8e7d";

interface AdapterCase {
	api: string;
	provider: string;
	basePath: string;
	apiKey: string;
	/** A complete "ok" turn in this adapter's wire format. */
	okTurn(): SseScript;
}

const CASES: AdapterCase[] = [
	{
		api: "openai-completions",
		provider: "openai",
		basePath: "/v1",
		apiKey: "sk-completions-key-123456",
		okTurn: () => new ChatStream().role().text("ok").finish("stop").done().script(),
	},
	{
		api: "openai-responses",
		provider: "openai",
		basePath: "/v1",
		apiKey: "sk-responses-key-123456",
		okTurn: () => new ResponsesStream().created().message("msg_1", ["ok"]).completed().script(),
	},
	{
		api: "openai-codex-responses",
		provider: "openai-codex",
		basePath: "/backend-api",
		apiKey: codexToken,
		okTurn: () => {
			const s = new ResponsesStream().created().message("msg_1", ["ok"]).completed();
			return s.script();
		},
	},
	{
		api: "anthropic-messages",
		provider: "anthropic",
		basePath: "",
		apiKey: "sk-ant-key-123456",
		okTurn: () => new AnthropicStream().start().text("ok").delta("end_turn").stop().script(),
	},
	{
		api: "google-generative-ai",
		provider: "google",
		basePath: "/v1beta",
		apiKey: "AIza-google-key-123456",
		okTurn: () => new GoogleStream().text("ok").finish("STOP").script(),
	},
];

const context: Context = { systemPrompt: "Be brief.", messages: [{ role: "user", content: "hi", timestamp: 1 }] };

let fake: FakeProvider;
let elsewhere: FakeProvider;
beforeAll(async () => {
	fake = await startFakeProvider();
	elsewhere = await startFakeProvider();
});
afterAll(async () => {
	await fake.close();
	await elsewhere.close();
});

/** Writes `piece` until the client goes away (an endless stream), every `everyMs` (0: as fast as it drains). */
function endless(piece: string, everyMs: number): Script {
	return {
		kind: "handler",
		handle: async (_req, res: ServerResponse) => {
			res.writeHead(200, { "content-type": "text/event-stream" });
			let open = true;
			res.on("close", () => {
				open = false;
			});
			while (open) {
				const more = res.write(piece);
				if (everyMs > 0) await new Promise((r) => setTimeout(r, everyMs));
				else if (!more) await drainedOrClosed(res);
				else await new Promise((r) => setImmediate(r));
			}
		},
	};
}

function drainedOrClosed(res: ServerResponse): Promise<void> {
	return new Promise((resolve) => {
		const done = () => {
			res.off("drain", done);
			res.off("close", done);
			resolve();
		};
		res.on("drain", done);
		res.on("close", done);
	});
}

describe.each(CASES)("$api against a hostile provider", (c) => {
	const model = (): Model =>
		fakeModel({
			api: c.api,
			provider: c.provider,
			id: "fake-model",
			baseUrl: `${fake.url}${c.basePath}`,
			headers: { [SECRET_HEADER]: SECRET_VALUE },
		});

	it("refuses a cross-origin redirect: the other host receives nothing, the error names both origins", async () => {
		fake.enqueue({
			kind: "handler",
			handle: (req, res) => {
				res.writeHead(307, { location: `${elsewhere.url}${req.path}` });
				res.end();
			},
		});
		elsewhere.requests.length = 0;
		const message = await stream(model(), context, { apiKey: c.apiKey }).result();
		expect(message.stopReason).toBe("error");
		expect(message.errorInfo).toEqual({
			kind: "provider",
			status: 307,
			code: "cross_origin_redirect",
			retryable: false,
		});
		expect(message.errorMessage).toContain(fake.url);
		expect(message.errorMessage).toContain(elsewhere.url);
		// Nothing reached the other origin: not the key, not the models.json secret header.
		expect(elsewhere.requests).toHaveLength(0);
	});

	it("follows a same-origin redirect with the same body and headers", async () => {
		let firstPath = "";
		fake.enqueue({
			kind: "handler",
			handle: (req, res) => {
				firstPath = req.path;
				res.writeHead(308, { location: `/moved${req.path}` });
				res.end();
			},
		});
		fake.enqueueFor(/^\/moved\//, c.okTurn());
		const before = fake.requests.length;
		const message = await stream(model(), context, { apiKey: c.apiKey }).result();
		expect(message.stopReason).toBe("stop");
		const [first, second] = fake.requests.slice(before);
		expect(second?.path).toBe(`/moved${firstPath}`);
		expect(second?.rawBody).toBe(first?.rawBody);
		expect(second?.headers[SECRET_HEADER]).toBe(SECRET_VALUE);
	});

	it("a 200 with an HTML page is a non-retryable error showing status, type and the page's start", async () => {
		fake.enqueue({
			kind: "handler",
			handle: (_req, res) => {
				res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
				res.end(`<html><body><h1>Sign in to Hotel Wi-Fi</h1>${"<p>x</p>".repeat(500)}</body></html>`);
			},
		});
		const message = await stream(model(), context, { apiKey: c.apiKey }).result();
		expect(message.stopReason).toBe("error");
		expect(message.errorInfo).toEqual({ kind: "provider", status: 200, code: "not_event_stream", retryable: false });
		expect(message.errorMessage).toContain("200");
		expect(message.errorMessage).toContain("text/html");
		expect(message.errorMessage).toContain("Sign in to Hotel Wi-Fi");
		expect((message.errorMessage ?? "").length).toBeLessThan(1000);
	});

	it("a 200 with a JSON error body is a non-retryable error quoting the body", async () => {
		fake.enqueue({
			kind: "handler",
			handle: (_req, res) => {
				res.writeHead(200, { "content-type": "application/json" });
				res.end(JSON.stringify({ error: { message: "gateway quota exhausted for team" } }));
			},
		});
		const message = await stream(model(), context, { apiKey: c.apiKey }).result();
		expect(message.errorInfo).toEqual({ kind: "provider", status: 200, code: "not_event_stream", retryable: false });
		expect(message.errorMessage).toContain("application/json");
		expect(message.errorMessage).toContain("gateway quota exhausted for team");
	});

	it("an endless stream stops at maxResponseBytes with a clear, non-retryable error", async () => {
		fake.enqueue(endless(`: ${"x".repeat(16 * 1024)}\n\n`, 0));
		const message = await stream(model(), context, { apiKey: c.apiKey, maxResponseBytes: 1024 * 1024 }).result();
		expect(message.stopReason).toBe("error");
		expect(message.errorInfo).toEqual({ kind: "provider", code: "response_too_large", retryable: false });
		expect(message.errorMessage).toContain("maxResponseBytes");
		expect(message.errorMessage).toContain("1 MiB");
	});

	it("a stream that never ends stops at maxResponseMs even while bytes keep coming", async () => {
		fake.enqueue(endless(": still here\n\n", 10));
		const message = await stream(model(), context, { apiKey: c.apiKey, maxResponseMs: 300, timeoutMs: 5000 }).result();
		expect(message.stopReason).toBe("error");
		expect(message.errorInfo).toEqual({ kind: "provider", code: "response_too_long", retryable: false });
		expect(message.errorMessage).toContain("maxResponseMs");
	});
});

describe("default idle timeout", () => {
	it("applies when the caller gives no timeoutMs: a silent provider ends in a retryable timeout", async () => {
		vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
		try {
			const model = fakeModel({ api: "openai-completions", baseUrl: "http://127.0.0.1:9" });
			const result = runAdapterStream(model, { apiKey: "k" }, (run) => {
				// A provider that never sends a byte: the body only ends when its signal aborts.
				return new Promise<void>((resolve) => run.signal.addEventListener("abort", () => resolve()));
			}).result();
			await vi.advanceTimersByTimeAsync(DEFAULT_IDLE_TIMEOUT_MS - 1000);
			let settled = false;
			void result.then(() => {
				settled = true;
			});
			await Promise.resolve();
			expect(settled).toBe(false);
			await vi.advanceTimersByTimeAsync(2000);
			const message = await result;
			expect(message.stopReason).toBe("error");
			expect(message.errorInfo).toEqual({ kind: "network", code: "timeout", retryable: true });
			expect(message.errorMessage).toBe(`No data from the provider for ${DEFAULT_IDLE_TIMEOUT_MS} ms`);
		} finally {
			vi.useRealTimers();
		}
	});

	it("timeoutMs: 0 turns it off", async () => {
		vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
		try {
			const model = fakeModel({ api: "openai-completions", baseUrl: "http://127.0.0.1:9" });
			const controller = new AbortController();
			const result = runAdapterStream(model, { apiKey: "k", timeoutMs: 0, signal: controller.signal }, (run) => {
				return new Promise<void>((resolve) => run.signal.addEventListener("abort", () => resolve()));
			}).result();
			await vi.advanceTimersByTimeAsync(DEFAULT_IDLE_TIMEOUT_MS * 2);
			controller.abort();
			const message = await result;
			expect(message.stopReason).toBe("aborted");
		} finally {
			vi.useRealTimers();
		}
	});
});
