// /login and /logout inside the whole app (headless terminal, real AgentSession):
// a device-code login against the fake authorization server shows the code and
// stores the token; an API key for a picked provider; /logout removes it.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { VirtualTerminal } from "../../../tui/test/helpers/virtual-terminal.js";
import { setLoginFlow } from "../../src/auth/flows.js";
import { createGitHubCopilotLogin } from "../../src/auth/github-copilot.js";
import { InteractiveMode } from "../../src/modes/interactive/interactive-mode.js";
import { plainTheme } from "../../src/modes/interactive/theme-fallback.js";
import { SessionManager } from "../../src/session/session-manager.js";
import { makeSession } from "../agent-session/support.js";
import { type FakeAuthServer, startFakeAuthServer } from "../auth/fake-auth-server.js";
import { waitForScreen } from "../support/screen.js";

let mode: InteractiveMode | undefined;
let fake: FakeAuthServer;
const dirs: string[] = [];
beforeAll(async () => {
	fake = await startFakeAuthServer();
	setLoginFlow(
		createGitHubCopilotLogin({
			githubBase: () => fake.url,
			apiBase: () => fake.url,
			timing: { secondMs: 10, minIntervalMs: 1 },
		}),
	);
});
afterAll(() => fake.close());
afterEach(async () => {
	await mode?.shutdown();
	mode = undefined;
	for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function setup() {
	const root = mkdtempSync(join(tmpdir(), "pi-login-app-"));
	dirs.push(root);
	const agentDir = join(root, "agent");
	mkdirSync(agentDir, { recursive: true });
	const s = await makeSession({ sessionManager: SessionManager.inMemory("/work") });
	const term = new VirtualTerminal(110, 40);
	mode = new InteractiveMode({
		session: s.session,
		cwd: "/work",
		agentDir,
		sessionDir: join(root, "sessions"),
		version: "9.9.9",
		terminal: term,
		theme: plainTheme,
	});
	void mode.run();
	const screen = async () => (await term.screen()).join("\n");
	const waitFor = (pred: (s: string) => boolean, ms = 5000) => waitForScreen(screen, pred, ms);
	const type = async (text: string) => {
		term.typeRaw(text);
		await new Promise((r) => setTimeout(r, 30));
	};
	return { ...s, screen, waitFor, type, auth: s.session.modelRegistry.auth };
}

describe("/login and /logout", () => {
	it("/login github-copilot: asks for the enterprise domain, shows the device code, stores the login", async () => {
		fake.deviceAnswers = ["pending", "slow_down", "ok"];
		const app = await setup();
		await app.waitFor((x) => x.includes("test-model"));
		await app.type("/login github-copilot\r");
		await app.waitFor((x) => x.includes("GitHub Enterprise URL or domain"));
		await app.type("\r");
		await app.waitFor((x) => x.includes("Visit https://github.com/login/device and enter the code WXYZ-9876"));
		await app.waitFor((x) => x.includes("Logged in to GitHub Copilot."));
		expect(app.auth.get("github-copilot")).toMatchObject({ type: "oauth", refresh: "gho_github_token" });
	});

	it("Esc at the first prompt cancels: nothing is stored", async () => {
		const app = await setup();
		await app.waitFor((x) => x.includes("test-model"));
		await app.type("/login github-copilot\r");
		await app.waitFor((x) => x.includes("GitHub Enterprise URL or domain"));
		await app.type("\x1b");
		await app.waitFor((x) => x.includes("Login cancelled; nothing was saved."));
		expect(app.auth.get("github-copilot")).toBeUndefined();
	});

	it("/login loads pi's own account logins itself (the app does not load them before its first screen)", async () => {
		const app = await setup();
		await app.waitFor((x) => x.includes("test-model"));
		await app.type("/login\r");
		// ChatGPT's flow is built in (builtin-flows.ts); GitHub Copilot's is this file's (setLoginFlow) and keeps its place.
		const picker = await app.waitFor((x) => x.includes("Log in to") && x.includes("ChatGPT Plus/Pro (Codex)"));
		expect(picker).toContain("GitHub Copilot");
		await app.type("\x1b");
	});

	it("/login picker → a provider's API key; /logout removes it", async () => {
		const app = await setup();
		await app.waitFor((x) => x.includes("test-model"));
		await app.type("/login\r");
		await app.waitFor((x) => x.includes("Log in to") && x.includes("GitHub Copilot"));
		await app.type("Another");
		await app.type("\x1b[A\r");
		await app.waitFor((x) => x.includes("Provider id"));
		await app.type("my-gateway\r");
		await app.waitFor((x) => x.includes("API key for my-gateway"));
		await app.type("gw-secret-1\r");
		await app.waitFor((x) => x.includes("Saved an API key for my-gateway."));
		expect(app.auth.get("my-gateway")).toEqual({ type: "api_key", key: "gw-secret-1" });
		await app.type("/logout my-gateway\r");
		await app.waitFor((x) => x.includes("Removed the stored credentials for my-gateway."));
		expect(app.auth.get("my-gateway")).toBeUndefined();
	});
});
