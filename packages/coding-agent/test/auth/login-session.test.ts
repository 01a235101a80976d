// An account login that can no longer be refreshed, met in the middle of a real session (the issue's
// "expired refresh token: a clear 'log in again' naming the provider, the session untouched"): an
// AgentSession with a file-backed session and auth.json, requests over real HTTP to the fake
// provider, the refresh to the fake authorization server. The turn fails with the log-in-again
// message, nothing reaches the provider, no earlier line of the session file changes, auth.json is
// left as it was, and after logging in again the same session continues with its history.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Model } from "@pi/ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ChatStream } from "../../../ai/test/support/fake-provider/openai-chat.js";
import { type FakeProvider, startFakeProvider } from "../../../ai/test/support/fake-provider/server.js";
import { createAgentSession } from "../../src/agent-session/create-agent-session.js";
import { setLoginFlow, withLoginFlows } from "../../src/auth/flows.js";
import { createOpenAICodexLogin } from "../../src/auth/openai-codex.js";
import { AuthStorage } from "../../src/config/auth.js";
import { ModelRegistry } from "../../src/config/model-registry.js";
import { SettingsManager } from "../../src/config/settings.js";
import { SessionManager } from "../../src/session/session-manager.js";
import { emptyResources } from "../agent-session/support.js";
import { type FakeAuthServer, jwtWithAccount, startFakeAuthServer } from "./fake-auth-server.js";

let auth: FakeAuthServer;
let provider: FakeProvider;
let root: string;
beforeAll(async () => {
	auth = await startFakeAuthServer();
	provider = await startFakeProvider();
	root = mkdtempSync(join(tmpdir(), "pi-login-session-"));
});
afterAll(async () => {
	await auth.close();
	await provider.close();
	rmSync(root, { recursive: true, force: true });
});

const answer = (text: string) => new ChatStream().role().text(text).finish("stop").done().script();

describe("a login that can no longer be refreshed, mid-session", () => {
	it("the turn says to log in again naming the provider; the session file and auth.json are untouched; after a new login the session continues", async () => {
		const model: Model = {
			id: "gpt-test",
			name: "test",
			api: "openai-completions",
			provider: "openai-codex",
			baseUrl: `${provider.url}/v1`,
			reasoning: false,
			input: ["text"],
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
			contextWindow: 100_000,
			maxTokens: 100,
		};
		const authFile = join(root, "auth.json");
		setLoginFlow(createOpenAICodexLogin({ authBase: auth.url }));
		const store = AuthStorage.create(authFile, withLoginFlows({ env: {} }));
		const live = jwtWithAccount("acct_fake", { n: 1 });
		await store.set("openai-codex", {
			type: "oauth",
			access: live,
			refresh: "r-unused",
			expires: Date.now() + 3600_000,
		});
		const sessionManager = SessionManager.create(root, join(root, "sessions"));
		const { session } = await createAgentSession({
			cwd: root,
			agentDir: join(root, "agent"),
			settingsManager: SettingsManager.inMemory({ retry: { enabled: false } }),
			authStorage: store,
			modelRegistry: ModelRegistry.inMemory(store, { builtins: () => [model] }),
			sessionManager,
			resourceLoader: emptyResources,
			model,
			noTools: "all",
		});
		try {
			provider.enqueue(answer("first answer"));
			await session.prompt("first question");
			expect(provider.requests).toHaveLength(1);
			const file = sessionManager.getSessionFile() as string;
			const before = readFileSync(file, "utf8");
			expect(before).toContain("first answer");

			// The access token expires and the refresh token has been revoked (the fake knows no "r-dead").
			await store.set("openai-codex", { type: "oauth", access: live, refresh: "r-dead", expires: 1 });
			const authBefore = readFileSync(authFile, "utf8");
			const errors: string[] = [];
			const unsubscribe = session.subscribe((event) => {
				if (event.type === "message_end" && event.message.role === "assistant" && event.message.stopReason === "error")
					errors.push(event.message.errorMessage ?? "");
			});
			await session.prompt("second question");
			unsubscribe();
			expect(errors).toHaveLength(1);
			expect(errors[0]).toContain('"openai-codex"');
			expect(errors[0]).toContain("Log in again: /login openai-codex");
			expect(errors[0]).not.toMatch(/r-dead|r-unused/);
			expect(errors[0]).not.toContain(live);
			expect(provider.requests).toHaveLength(1); // nothing was sent
			expect(auth.refreshCount).toBeGreaterThanOrEqual(1);
			expect(readFileSync(authFile, "utf8")).toBe(authBefore);
			const after = readFileSync(file, "utf8");
			expect(after.startsWith(before)).toBe(true); // earlier lines unchanged, only appended to
			for (const line of after.trimEnd().split("\n")) JSON.parse(line); // every line whole

			// Logging in again: the same session goes on, with its history.
			const renewed = jwtWithAccount("acct_fake", { n: 2 });
			await store.set("openai-codex", {
				type: "oauth",
				access: renewed,
				refresh: "r-new",
				expires: Date.now() + 3600_000,
			});
			provider.enqueue(answer("third answer"));
			await session.prompt("third question");
			expect(provider.requests).toHaveLength(2);
			expect(provider.requests[1]?.headers.authorization).toBe(`Bearer ${renewed}`);
			const sent = JSON.stringify(provider.requests[1]?.body);
			expect(sent).toContain("first question");
			expect(sent).toContain("first answer");
			expect(sent).toContain("third question");
			expect(readFileSync(file, "utf8")).toContain("third answer");
		} finally {
			session.dispose();
		}
	}, 60_000);
});
