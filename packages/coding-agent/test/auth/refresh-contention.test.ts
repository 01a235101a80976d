// Three pi processes find the same expired ChatGPT login at once: exactly one
// refresh reaches the authorization server (refresh tokens rotate, so a second
// one would fail), and all three end up with the same new token.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type FakeAuthServer, jwtWithAccount, startFakeAuthServer } from "./fake-auth-server.js";

const run = promisify(execFile);
let fake: FakeAuthServer;
let root: string;
beforeAll(async () => {
	fake = await startFakeAuthServer();
	root = mkdtempSync(join(tmpdir(), "pi-refresh-race-"));
});
afterAll(async () => {
	await fake.close();
	rmSync(root, { recursive: true, force: true });
});

it("three processes racing on an expired login refresh it once, under the auth.json lock", async () => {
	const authFile = join(root, "agent", "auth.json");
	mkdirSync(join(root, "agent"), { recursive: true, mode: 0o700 });
	writeFileSync(
		authFile,
		JSON.stringify({
			"openai-codex": { type: "oauth", access: jwtWithAccount("acct_fake"), refresh: "r-start", expires: 1 },
			anthropic: { type: "api_key", key: "sk-kept" },
		}),
		{ mode: 0o600 },
	);
	fake.validRefresh.add("r-start");
	fake.refreshDelayMs = 300;
	const src = resolve(__dirname, "../../src");
	const script = join(root, "child.mts");
	writeFileSync(
		script,
		`import { AuthStorage } from ${JSON.stringify(`${src}/config/auth.ts`)};
import { setLoginFlow, withLoginFlows } from ${JSON.stringify(`${src}/auth/flows.ts`)};
import { createOpenAICodexLogin } from ${JSON.stringify(`${src}/auth/openai-codex.ts`)};
setLoginFlow(createOpenAICodexLogin({ authBase: ${JSON.stringify(fake.url)} }));
const store = AuthStorage.create(${JSON.stringify(authFile)}, withLoginFlows({ env: {} }));
process.stdout.write(String(await store.getApiKey("openai-codex")));
`,
	);
	const tsx = resolve(__dirname, "../../../../node_modules/tsx/dist/esm/index.mjs");
	const children = await Promise.all(
		[0, 1, 2].map(() => run(process.execPath, ["--conditions=development", "--import", tsx, script], { cwd: root })),
	);
	expect(fake.refreshCount).toBe(1);
	const tokens = new Set(children.map((c) => c.stdout));
	expect(tokens.size).toBe(1);
	const saved = JSON.parse(readFileSync(authFile, "utf8"));
	expect(saved["openai-codex"].access).toBe([...tokens][0]);
	expect(saved["openai-codex"].refresh).not.toBe("r-start");
	expect(saved["openai-codex"].expires).toBeGreaterThan(Date.now());
	expect(saved.anthropic).toEqual({ type: "api_key", key: "sk-kept" });
	expect(statSync(authFile).mode & 0o777).toBe(0o600);
}, 30_000);
