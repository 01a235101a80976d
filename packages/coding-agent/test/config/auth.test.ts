import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AuthError, AuthStorage, type OAuthCredential } from "../../src/config/auth.js";
import { clearConfigValueCache } from "../../src/config/config-value.js";

const run = promisify(execFile);
let root: string;
let authFile: string;

beforeEach(() => {
	root = mkdtempSync(join(tmpdir(), "pi-auth-"));
	authFile = join(root, "agent", "auth.json");
	clearConfigValueCache();
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("AuthStorage files", () => {
	it("creates auth.json 0600 in a 0700 dir even with umask 000, and keeps other entries", async () => {
		const old = process.umask(0);
		try {
			const a = AuthStorage.create(authFile, { env: {} });
			await a.set("anthropic", { type: "api_key", key: "sk-one" });
			await a.set("openai", { type: "api_key", key: "sk-two" });
		} finally {
			process.umask(old);
		}
		expect(statSync(join(root, "agent")).mode & 0o777).toBe(0o700);
		expect(statSync(authFile).mode & 0o777).toBe(0o600);
		expect(JSON.parse(readFileSync(authFile, "utf8"))).toEqual({
			anthropic: { type: "api_key", key: "sk-one" },
			openai: { type: "api_key", key: "sk-two" },
		});
	});

	it("tightens an existing world-readable auth.json on write and preserves unknown entries", async () => {
		mkdirSync(join(root, "agent"), { recursive: true });
		writeFileSync(authFile, JSON.stringify({ weird: { type: "future", x: 1 } }), { mode: 0o644 });
		const a = AuthStorage.create(authFile, { env: {} });
		expect(a.list()).toEqual([]);
		await a.set("groq", { type: "api_key", key: "gsk" });
		expect(statSync(authFile).mode & 0o777).toBe(0o600);
		expect(JSON.parse(readFileSync(authFile, "utf8"))).toEqual({
			weird: { type: "future", x: 1 },
			groq: { type: "api_key", key: "gsk" },
		});
	});

	it("a malformed auth.json is reported with its position, ignored, and never overwritten", async () => {
		mkdirSync(join(root, "agent"), { recursive: true });
		writeFileSync(authFile, '{"a": {"type": "api_key", "key": "k"}');
		const a = AuthStorage.create(authFile, { env: {} });
		expect(a.getLoadWarning()).toBe(
			`Warning: could not parse ${authFile} at line 1, column 38: unexpected end of input. Stored credentials are ignored until it is fixed.`,
		);
		await expect(a.set("b", { type: "api_key", key: "x" })).rejects.toThrow(AuthError);
		expect(readFileSync(authFile, "utf8")).toBe('{"a": {"type": "api_key", "key": "k"}');
	});
});

describe("key resolution", () => {
	it("order: runtime override → auth.json → env var → fallback", async () => {
		const env = { OPENAI_API_KEY: "from-env", GROQ_API_KEY: "groq-env" };
		const a = AuthStorage.inMemory({ openai: { type: "api_key", key: "from-auth" } }, { env });
		a.setFallbackKeySource({
			has: (p) => p === "local" || p === "groq",
			get: async (p) => (p === "local" || p === "groq" ? `fallback-${p}` : undefined),
		});
		expect(await a.getApiKey("openai")).toBe("from-auth");
		a.setRuntimeApiKey("openai", "from-cli");
		expect(await a.getApiKey("openai")).toBe("from-cli");
		expect(await a.getApiKey("groq")).toBe("groq-env");
		expect(await a.getApiKey("local")).toBe("fallback-local");
		expect(await a.getApiKey("nothing")).toBeUndefined();
		expect(a.hasAuth("local")).toBe(true);
		expect(a.hasAuth("nothing")).toBe(false);
	});

	it("key values: env var name, literal, and !command (trimmed, run once per process)", async () => {
		const counter = join(root, "count");
		const a = AuthStorage.inMemory(
			{
				x: { type: "api_key", key: "MY_SECRET_VAR" },
				y: { type: "api_key", key: "sk-literal" },
				z: { type: "api_key", key: `!echo run >> ${counter}; printf '  cmd-key \\n'` },
			},
			{ env: { MY_SECRET_VAR: "env-value" } },
		);
		expect(await a.getApiKey("x")).toBe("env-value");
		expect(await a.getApiKey("y")).toBe("sk-literal");
		expect(await Promise.all([a.getApiKey("z"), a.getApiKey("z")])).toEqual(["cmd-key", "cmd-key"]);
		expect(await a.getApiKey("z")).toBe("cmd-key");
		expect(readFileSync(counter, "utf8")).toBe("run\n");
	});

	it("a failing !command gives an error without its output", async () => {
		const a = AuthStorage.inMemory({ z: { type: "api_key", key: "!echo sk-leaked-secret; exit 3" } }, { env: {} });
		const error = await a.getApiKey("z").catch((e: Error) => e);
		expect(error).toBeInstanceOf(AuthError);
		expect((error as Error).message).toBe('The command for the "z" key in auth.json failed: it exited with code 3.');
	});
});

describe("OAuth refresh", () => {
	const expired: OAuthCredential = { type: "oauth", access: "old-access", refresh: "refresh-1", expires: 1000 };

	it("returns a valid token as is and refreshes an expired one, saving it", async () => {
		mkdirSync(join(root, "agent"), { recursive: true });
		writeFileSync(authFile, JSON.stringify({ p: expired, other: { type: "api_key", key: "k" } }));
		let calls = 0;
		const a = AuthStorage.create(authFile, {
			env: {},
			now: () => 5000,
			refreshOAuth: async (_p, c) => {
				calls++;
				expect(c.refresh).toBe("refresh-1");
				return { type: "oauth", access: "new-access", refresh: "refresh-2", expires: 10_000, accountId: "acc" };
			},
		});
		expect(await a.getApiKey("p")).toBe("new-access");
		expect(await a.getApiKey("p")).toBe("new-access");
		expect(calls).toBe(1);
		expect(JSON.parse(readFileSync(authFile, "utf8"))).toEqual({
			p: { type: "oauth", access: "new-access", refresh: "refresh-2", expires: 10_000, accountId: "acc" },
			other: { type: "api_key", key: "k" },
		});
	});

	it("several stores on one file refresh exactly once", async () => {
		mkdirSync(join(root, "agent"), { recursive: true });
		writeFileSync(authFile, JSON.stringify({ p: expired }));
		let calls = 0;
		const refreshOAuth = async (): Promise<OAuthCredential> => {
			calls++;
			await new Promise((r) => setTimeout(r, 50));
			return { type: "oauth", access: `access-${calls}`, refresh: "r2", expires: Date.now() + 60_000 };
		};
		const stores = Array.from({ length: 5 }, () => AuthStorage.create(authFile, { env: {}, refreshOAuth }));
		const keys = await Promise.all(stores.map((s) => s.getApiKey("p")));
		expect(calls).toBe(1);
		expect(keys).toEqual(Array(5).fill("access-1"));
	});

	it("several processes refresh exactly once", async () => {
		mkdirSync(join(root, "agent"), { recursive: true });
		writeFileSync(authFile, JSON.stringify({ p: expired }));
		const log = join(root, "refresh.log");
		const script = join(root, "child.mts");
		const authModule = resolve(__dirname, "../../src/config/auth.ts");
		writeFileSync(
			script,
			`import { appendFileSync } from "node:fs";
import { AuthStorage } from ${JSON.stringify(authModule)};
const a = AuthStorage.create(${JSON.stringify(authFile)}, {
	env: {},
	refreshOAuth: async () => {
		appendFileSync(${JSON.stringify(log)}, "refresh\\n");
		await new Promise((r) => setTimeout(r, 300));
		return { type: "oauth", access: "access-" + process.pid, refresh: "r2", expires: Date.now() + 60000 };
	},
});
process.stdout.write(String(await a.getApiKey("p")));
`,
		);
		const tsx = resolve(__dirname, "../../../../node_modules/tsx/dist/esm/index.mjs");
		const children = await Promise.all(
			[0, 1, 2].map(() => run(process.execPath, ["--conditions=development", "--import", tsx, script], { cwd: root })),
		);
		const tokens = children.map((c) => c.stdout);
		expect(readFileSync(log, "utf8")).toBe("refresh\n");
		expect(new Set(tokens).size).toBe(1);
		expect(tokens[0]).toMatch(/^access-\d+$/);
	}, 30_000);

	it("a refresh failure never shows the tokens", async () => {
		const a = AuthStorage.inMemory(
			{ p: { type: "oauth", access: "old-access-token", refresh: "secret-refresh-token", expires: 0 } },
			{
				env: {},
				refreshOAuth: async (_p, c) => {
					throw new Error(`server rejected ${c.refresh}`);
				},
			},
		);
		await expect(a.getApiKey("p")).rejects.toThrow('Could not refresh the OAuth login for "p": server rejected ***');
	});

	it("an expired login without a refresher asks to log in again", async () => {
		const a = AuthStorage.inMemory({ p: expired }, { env: {} });
		await expect(a.getApiKey("p")).rejects.toThrow(
			'The OAuth login for "p" has expired and cannot be refreshed here; log in again.',
		);
	});
});
