// The adapter sends Chat Completions requests itself (without the SDK's client, which loads undici
// on Node 20 even for a plain-http server): what reaches the server must be what the official
// `openai` SDK would have sent — the same URL, headers and body. The SDK's side is captured from
// its own client, given a fetch that records the request instead of sending it.
import OpenAI from "openai";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { stream } from "../../src/stream.js";
import type { Context, Model } from "../../src/types.js";
import { ChatStream } from "../support/fake-provider/openai-chat.js";
import { type FakeProvider, startFakeProvider } from "../support/fake-provider/server.js";
import { fakeModel } from "../support/stream-helpers.js";

let fake: FakeProvider;
beforeAll(async () => {
	fake = await startFakeProvider();
});
afterAll(() => fake.close());
const savedEnv = { org: process.env.OPENAI_ORG_ID, project: process.env.OPENAI_PROJECT_ID };
afterEach(() => {
	for (const [name, value] of [
		["OPENAI_ORG_ID", savedEnv.org],
		["OPENAI_PROJECT_ID", savedEnv.project],
	] as const) {
		if (value === undefined) delete process.env[name];
		else process.env[name] = value;
	}
});

const context: Context = { messages: [{ role: "user", content: "hi", timestamp: 1 }] };
/** Connection-level headers the HTTP client adds (node:http here, undici for the SDK). */
const transport = new Set([
	"host",
	"connection",
	"content-length",
	"accept-encoding",
	"accept-language",
	"sec-fetch-mode",
]);
const withoutTransport = (headers: Record<string, string | string[] | undefined>) =>
	Object.fromEntries(Object.entries(headers).filter(([name]) => !transport.has(name)));

/** What pi-ai sent to the fake server: path, headers, body text. */
async function sentByPiAi(model: Model, headers?: Record<string, string>) {
	fake.requests.length = 0;
	fake.enqueue(new ChatStream().text("ok").finish("stop").done().script());
	const message = await stream(model, context, { apiKey: "sk-same", headers }).result();
	expect(message.stopReason).toBe("stop");
	const request = fake.requests[0];
	return { path: request.path, headers: withoutTransport(request.headers), body: request.rawBody };
}

/** What the SDK's client would send for the same request body. */
async function sentBySdk(model: Model, body: string, headers?: Record<string, string>) {
	let seen: { url: string; headers: Record<string, string>; body: string } | undefined;
	const client = new OpenAI({
		apiKey: "sk-same",
		baseURL: model.baseUrl,
		maxRetries: 0,
		timeout: 24 * 60 * 60 * 1000,
		defaultHeaders: { ...model.headers, ...headers },
		fetch: async (url, init) => {
			seen = {
				url: String(url),
				headers: Object.fromEntries(new Headers(init?.headers)),
				body: String(init?.body),
			};
			return new Response("data: [DONE]\n\n", { headers: { "content-type": "text/event-stream" } });
		},
	});
	await client.chat.completions.create(JSON.parse(body), {}).asResponse();
	if (!seen) throw new Error("the SDK sent nothing");
	const url = new URL(seen.url);
	return { path: url.pathname + url.search, headers: withoutTransport(seen.headers), body: seen.body };
}

describe("openai-completions requests are the SDK's", () => {
	it("same path, headers (model's and caller's over the SDK's, case-insensitively) and body", async () => {
		const model = fakeModel({
			api: "openai-completions",
			baseUrl: `${fake.url}/v1`,
			headers: { "X-Model": "m", "User-Agent": "custom-agent/1" },
		});
		const ours = await sentByPiAi(model, { "x-option": "o", "content-type": "text/plain" });
		const sdk = await sentBySdk(model, ours.body, { "x-option": "o", "content-type": "text/plain" });
		expect(ours.path).toBe("/v1/chat/completions");
		expect(ours).toEqual(sdk);
		expect(ours.headers["user-agent"]).toBe("custom-agent/1");
		expect(ours.headers["content-type"]).toBe("application/json");
		expect(ours.headers.authorization).toBe("Bearer sk-same");
		expect(ours.headers["x-stainless-lang"]).toBe("js");
	});

	it("a base URL ending in a slash, and the organization and project from the environment", async () => {
		process.env.OPENAI_ORG_ID = "org-1";
		process.env.OPENAI_PROJECT_ID = "proj-1";
		const model = fakeModel({ api: "openai-completions", baseUrl: `${fake.url}/v1/` });
		const ours = await sentByPiAi(model);
		const sdk = await sentBySdk(model, ours.body);
		expect(ours.path).toBe("/v1/chat/completions");
		expect(ours.headers["openai-organization"]).toBe("org-1");
		expect(ours.headers["openai-project"]).toBe("proj-1");
		expect(ours).toEqual(sdk);
	});
});
