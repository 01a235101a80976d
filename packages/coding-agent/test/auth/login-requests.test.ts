// Requests made with a stored account login, over real HTTP: a token the
// provider rejects mid-run gets one refresh and one retry; a second rejection
// and an expired refresh token are clear errors that name the provider.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type AssistantMessageEvent, type Model, stream } from "@pi/ai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ChatStream } from "../../../ai/test/support/fake-provider/openai-chat.js";
import { type FakeProvider, json, startFakeProvider } from "../../../ai/test/support/fake-provider/server.js";
import { withLoginCredentials } from "../../src/agent-session/login-requests.js";
import { setLoginFlow, withLoginFlows } from "../../src/auth/flows.js";
import { createOpenAICodexLogin } from "../../src/auth/openai-codex.js";
import { AuthStorage } from "../../src/config/auth.js";
import { type FakeAuthServer, jwtWithAccount, startFakeAuthServer } from "./fake-auth-server.js";

let auth: FakeAuthServer;
let provider: FakeProvider;
let root: string;
let model: Model;
beforeAll(async () => {
	auth = await startFakeAuthServer();
	provider = await startFakeProvider();
	root = mkdtempSync(join(tmpdir(), "pi-login-req-"));
	model = {
		id: "gpt-test",
		name: "test",
		api: "openai-completions",
		provider: "openai-codex",
		baseUrl: `${provider.url}/v1`,
		reasoning: false,
		input: ["text"],
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
		contextWindow: 1000,
		maxTokens: 100,
	};
});
afterAll(async () => {
	await auth.close();
	await provider.close();
	rmSync(root, { recursive: true, force: true });
});
beforeEach(() => {
	provider.requests.length = 0;
	auth.refreshCount = 0;
});

let n = 0;
async function storeWith(credential: { access: string; refresh: string; expires: number }) {
	const file = join(root, `auth-${++n}.json`);
	setLoginFlow(createOpenAICodexLogin({ authBase: auth.url }));
	const store = AuthStorage.create(file, withLoginFlows({ env: {} }));
	await store.set("openai-codex", { type: "oauth", ...credential });
	return { store, file };
}

async function run(store: AuthStorage): Promise<AssistantMessageEvent[]> {
	const fn = withLoginCredentials(() => stream, store);
	const events: AssistantMessageEvent[] = [];
	for await (const e of await fn(model, { messages: [{ role: "user", content: "hi", timestamp: 1 }] }, {}))
		events.push(e);
	return events;
}

const unauthorized = () => json(401, { error: { message: "token revoked", type: "invalid_request_error" } });
const answer = () => new ChatStream().role().text("hello").finish("stop").done().script();
const bearer = (i: number) => provider.requests[i]?.headers.authorization;

describe("requests with a stored login", () => {
	it("a token revoked mid-run: one refresh, one retry, and only the retry's events are seen", async () => {
		const old = jwtWithAccount("acct_fake", { old: true });
		auth.validRefresh.add("r-live");
		const { store, file } = await storeWith({ access: old, refresh: "r-live", expires: Date.now() + 3600_000 });
		provider.enqueue(unauthorized(), answer());
		const events = await run(store);
		expect(auth.refreshCount).toBe(1);
		expect(provider.requests).toHaveLength(2);
		expect(bearer(0)).toBe(`Bearer ${old}`);
		expect(bearer(1)).not.toBe(`Bearer ${old}`);
		expect(events.filter((e) => e.type === "start")).toHaveLength(1);
		expect(events.at(-1)).toMatchObject({ type: "done", message: { content: [{ type: "text", text: "hello" }] } });
		// The new tokens were saved.
		const saved = JSON.parse(readFileSync(file, "utf8"))["openai-codex"];
		expect(`Bearer ${saved.access}`).toBe(bearer(1));
	});

	it("rejected again after the refresh: a clear error naming the provider, no third request", async () => {
		auth.validRefresh.add("r-live-2");
		const { store } = await storeWith({ access: "tok-a", refresh: "r-live-2", expires: Date.now() + 3600_000 });
		provider.enqueue(unauthorized(), unauthorized());
		const events = await run(store);
		expect(auth.refreshCount).toBe(1);
		expect(provider.requests).toHaveLength(2);
		const last = events.at(-1);
		if (last?.type !== "error") throw new Error("expected an error");
		expect(last.error.errorInfo).toMatchObject({ kind: "auth", status: 401, retryable: false });
		expect(last.error.errorMessage).toMatch(/^openai-codex refused the login even after a refresh/);
		expect(last.error.errorMessage).toContain("/login openai-codex");
	});

	it("an expired login whose refresh token was refused: log in again, nothing sent, tokens not shown", async () => {
		const { store, file } = await storeWith({ access: "tok-old", refresh: "r-dead", expires: 1 });
		const before = readFileSync(file, "utf8");
		const events = await run(store);
		expect(provider.requests).toHaveLength(0);
		const last = events.at(-1);
		if (last?.type !== "error") throw new Error("expected an error");
		expect(last.error.errorInfo).toEqual({ kind: "auth", code: "login_refresh_failed", retryable: false });
		expect(last.error.errorMessage).toContain('"openai-codex"');
		expect(last.error.errorMessage).toContain("Log in again: /login openai-codex");
		expect(last.error.errorMessage).not.toMatch(/r-dead|tok-old/);
		// The stored login is left as it was (a later login replaces it).
		expect(readFileSync(file, "utf8")).toBe(before);
	});
});
