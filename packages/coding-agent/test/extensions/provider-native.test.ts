// pi.registerProvider's object form with native members (1.6.0's pi-ai
// Provider), through the BUILT pi against the fake provider: `auth.apiKey`
// resolving each request's key and headers from the stored entry or the
// environment, `auth.oauth` as a login of `pi auth login` whose async toAuth
// gives the request auth, and `refreshModels` listing a live catalog at
// start-up (object form publishing for getModels(), legacy form returning
// the list), persisting its snapshot, and a failing discovery named and
// survived. Build first.
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { json } from "../../../ai/test/support/fake-provider/server.js";
import { textReply, useCliSandbox } from "../cli/support.js";

const NATIVE = resolve(__dirname, "../fixtures/extensions/providers/native-ai.ts");
const KEYLOGIN = resolve(__dirname, "../fixtures/extensions/providers/key-login.ts");
const MEDIA = resolve(__dirname, "../fixtures/extensions/providers/media-tools.ts");
const GATED = resolve(__dirname, "../fixtures/extensions/providers/gated.ts");

const sb = useCliSandbox({
	setup(sb) {
		chmodSync(sb.agentDir, 0o700);
		sb.env.NATIVE_BASE_URL = `${sb.fake.url}/v1`;
		sb.env.KEYLOGIN_BASE_URL = `${sb.fake.url}/v1`;
	},
});

const catalog = (...ids: string[]) => json(200, { data: ids.map((id) => ({ id })) });
const chatRequests = () => sb.fake.requests.filter((r) => r.path.endsWith("/chat/completions"));

describe("registerProvider object form: native auth and refreshModels (built CLI)", () => {
	it("refreshModels lists the live catalog at start-up; without credentials the native-auth provider is not available", async () => {
		sb.fake.enqueueFor("/models", catalog("m1", "m2"), catalog("m1", "m2", "m3"));
		const none = await sb.run(["-e", NATIVE, "--list-models", "native"]);
		expect(none.stderr).toBe("");
		// native-ai resolves no key (no entry, no NATIVE_AI_KEY); native-sso has no login yet.
		expect(none.stdout).toBe('No models matching "native"\n');

		const listed = await sb.run(["-e", NATIVE, "--list-models"], { env: { NATIVE_AI_KEY: "env-key" } });
		expect(listed.stderr).toBe("");
		expect(listed.stdout).toMatch(/^native-ai\s+m1\s/m);
		expect(listed.stdout).toMatch(/^native-ai\s+m3\s/m);
		// The legacy form's list replaced its (empty) static one; it saw no snapshot (it persists none).
		expect(listed.stdout).toMatch(/^legacy-live\s+legacy-1\s/m);
		expect(listed.stdout).toMatch(/^legacy-live\s+legacy-seen-none\s/m);
		// publish({ persist }) kept the snapshot next to models.json.
		const stored = JSON.parse(readFileSync(join(sb.agentDir, "provider-models.json"), "utf8"));
		expect(stored["native-ai"]).toEqual({ ids: ["m1", "m2", "m3"] });
	}, 120_000);

	it("auth.apiKey.resolve gives each request its key and headers: the stored entry first, else the environment", async () => {
		sb.fake.enqueueFor("/models", catalog("m1"), catalog("m1"));
		sb.fake.enqueueFor("/chat/completions", textReply("env answer"), textReply("stored answer"));
		const fromEnv = await sb.run(["-e", NATIVE, "--model", "native-ai/m1", "--no-session", "-p", "hi"], {
			env: { NATIVE_AI_KEY: "env-key" },
		});
		expect(fromEnv.stderr).toBe("");
		expect(fromEnv.stdout).toBe("env answer\n");
		expect(chatRequests()[0].headers.authorization).toBe("Bearer env-key");
		expect(chatRequests()[0].headers["x-native"]).toBe("env");

		writeFileSync(
			join(sb.agentDir, "auth.json"),
			JSON.stringify({ "native-ai": { type: "api_key", key: "stored-key" } }),
			{
				mode: 0o600,
			},
		);
		const fromStore = await sb.run(["-e", NATIVE, "--model", "native-ai/m1", "--no-session", "-p", "hi"]);
		expect(fromStore.stderr).toBe("");
		expect(fromStore.stdout).toBe("stored answer\n");
		expect(chatRequests()[1].headers.authorization).toBe("Bearer stored-key");
		expect(chatRequests()[1].headers["x-native"]).toBe("stored");
	}, 120_000);

	it("auth.oauth: pi auth login runs the native login; requests carry what toAuth derives from the stored tokens", async () => {
		sb.fake.enqueueFor("/models", catalog("m1"), catalog("m1"));
		const login = await sb.run(["auth", "login", "native-sso", "-e", NATIVE], { stdin: "4711\n" });
		expect(login.stderr).toContain("https://sso.native.invalid/authorize");
		expect(login.stderr).toContain("Logged in to Native SSO login");
		expect(login.code).toBe(0);
		const authFile = join(sb.agentDir, "auth.json");
		expect(JSON.parse(readFileSync(authFile, "utf8"))["native-sso"]).toMatchObject({
			type: "oauth",
			access: "acc-4711",
			refresh: "ref-4711",
		});

		sb.fake.enqueueFor("/chat/completions", textReply("sso answer"));
		const r = await sb.run(["-e", NATIVE, "--model", "native-sso/s1", "--no-session", "-p", "hi"]);
		expect(r.stderr).toBe("");
		expect(r.stdout).toBe("sso answer\n");
		expect(chatRequests()[0].headers.authorization).toBe("Bearer tok:acc-4711");
		expect(chatRequests()[0].headers["x-sso-account"]).toBe("acct-ref-4711");
	}, 120_000);

	it("auth.apiKey.login: pi auth login runs the provider's own key login, stores its key and environment, and refreshes the catalog with it", async () => {
		// Start-up discovery (no key yet), then the refresh after the login, as /login does.
		sb.fake.enqueueFor("/models", catalog("k1"), catalog("k1", "k2"));
		const r = await sb.run(["auth", "login", "keyed", "-e", KEYLOGIN], { stdin: "k-9\n" });
		expect(r.stderr).toContain("Your Keyed AI key:");
		expect(r.stderr).toContain("Saved the Keyed AI key for keyed in");
		expect(r.stderr).toContain("Refreshed the models of keyed: 2 listed.\n");
		expect(r.code).toBe(0);
		const discoveries = sb.fake.requests.filter((q) => q.path.endsWith("/models"));
		expect(discoveries.map((q) => q.headers.authorization)).toEqual([undefined, "Bearer k-9"]);
		expect(JSON.parse(readFileSync(join(sb.agentDir, "auth.json"), "utf8")).keyed).toEqual({
			type: "api_key",
			key: "k-9",
			env: { KEYED_REGION: "eu" },
		});
	}, 120_000);

	it("pi auth login: a failing catalog refresh after the login is a warning; the login stands", async () => {
		sb.fake.enqueueFor("/models", catalog("k1"), json(503, { error: "down" }));
		const r = await sb.run(["auth", "login", "keyed", "-e", KEYLOGIN], { stdin: "k-10\n" });
		expect(r.stderr).toContain("Warning: logged in, but the models of keyed could not be refreshed (");
		expect(r.code).toBe(0);
		expect(JSON.parse(readFileSync(join(sb.agentDir, "auth.json"), "utf8")).keyed.key).toBe("k-10");
	}, 120_000);

	it("filterModels: --list-models offers the chat models the stored key unlocks; image/classifier models are not listed", async () => {
		const authFile = join(sb.agentDir, "auth.json");
		writeFileSync(authFile, JSON.stringify({ tiered: { type: "api_key", key: "basic-key" } }), { mode: 0o600 });
		const basic = await sb.run(["-e", MEDIA, "--list-models"]);
		expect(basic.stderr).toBe("");
		expect(basic.stdout).toMatch(/^tiered\s+basic\s/m);
		expect(basic.stdout).not.toMatch(/^tiered\s+pro\s/m);
		expect(basic.stdout).toMatch(/^media-tools\s+media-chat\s/m);
		expect(basic.stdout).not.toMatch(/classifier-v1|image-v1|judge/);
		writeFileSync(authFile, JSON.stringify({ tiered: { type: "api_key", key: "pro-key" } }), { mode: 0o600 });
		const pro = await sb.run(["-e", MEDIA, "--list-models"]);
		expect(pro.stdout).toMatch(/^tiered\s+pro\s/m);
	}, 120_000);

	it("an expired native login is refreshed before the request; toAuth then derives from the new tokens", async () => {
		sb.fake.enqueueFor("/models", catalog("m1"));
		writeFileSync(
			join(sb.agentDir, "auth.json"),
			JSON.stringify({ "native-sso": { type: "oauth", access: "old", refresh: "r0", expires: 1 } }),
			{ mode: 0o600 },
		);
		sb.fake.enqueueFor("/chat/completions", textReply("refreshed answer"));
		const r = await sb.run(["-e", NATIVE, "--model", "native-sso/s1", "--no-session", "-p", "hi"]);
		expect(r.stderr).toBe("");
		expect(r.stdout).toBe("refreshed answer\n");
		expect(chatRequests()[0].headers.authorization).toBe("Bearer tok:old-r");
		expect(JSON.parse(readFileSync(join(sb.agentDir, "auth.json"), "utf8"))["native-sso"]).toMatchObject({
			access: "old-r",
		});
	}, 120_000);

	it("a failing discovery is reported naming the provider and the extension; pi goes on with the other models", async () => {
		sb.fake.enqueueFor("/models", json(503, { error: "down" }));
		sb.fake.enqueueFor("/chat/completions", textReply("still here"));
		const r = await sb.run(["-e", NATIVE, "--model", "legacy-live/legacy-1", "--no-session", "-p", "hi"]);
		expect(r.stderr).toContain(`refreshModels of provider "native-ai" failed: GET /models answered 503 (${NATIVE})`);
		expect(r.stdout).toBe("still here\n");
		expect(r.code).toBe(0);
	}, 120_000);
});

describe("filterModels sees the key from every source the chat path uses (built CLI)", () => {
	const gated = (stdout: string) =>
		stdout
			.split("\n")
			.filter((l) => /^gated\s/.test(l))
			.map((l) => l.split(/\s+/)[1]);

	it("the environment variable", async () => {
		const pro = await sb.run(["-e", GATED, "--list-models", "gated"], { env: { GATED_API_KEY: "pro-key" } });
		expect(pro.stderr).toBe("");
		expect(gated(pro.stdout)).toEqual(["gated-basic", "gated-pro"]);
		const basic = await sb.run(["-e", GATED, "--list-models", "gated"], { env: { GATED_API_KEY: "basic-key" } });
		expect(gated(basic.stdout)).toEqual(["gated-basic"]);
	}, 120_000);

	it("models.json's apiKey for the provider the extension re-registers, also as a !command (run at registration)", async () => {
		const provider = { baseUrl: "http://127.0.0.1:9/v1", api: "openai-completions", models: [{ id: "gated-basic" }] };
		const models = (apiKey: string) =>
			writeFileSync(
				join(sb.agentDir, "models.json"),
				JSON.stringify({ providers: { gated: { ...provider, apiKey } } }),
			);
		models("!printf pro-key");
		const pro = await sb.run(["-e", GATED, "--list-models", "gated"]);
		expect(pro.stderr).toBe("");
		expect(gated(pro.stdout)).toEqual(["gated-basic", "gated-pro"]);
		models("basic-key");
		expect(gated((await sb.run(["-e", GATED, "--list-models", "gated"])).stdout)).toEqual(["gated-basic"]);
	}, 120_000);

	it("--api-key, as ctx.modelRegistry.getAvailable() in a command sees it", async () => {
		const run = (key: string) =>
			sb.run(["-e", GATED, "--model", "gated/gated-basic", "--api-key", key, "--no-session", "-p", "/gated-available"]);
		const pro = await run("pro-key");
		expect(pro.stderr).toBe("");
		expect(pro.stdout).toBe('["gated-basic","gated-pro"]\n');
		expect((await run("basic-key")).stdout).toBe('["gated-basic"]\n');
	}, 120_000);
});
