// Dynamic extension catalogs in the app (built pi in tmux): /login of a
// provider runs its own auth.apiKey.login and stores what it returns, then
// re-reads the provider's catalog with the new credential; opening /model
// re-reads the catalogs again and the open selector lists the new models.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { json } from "../../../ai/test/support/fake-provider/server.js";
import { textReply } from "../cli/support.js";
import { hasTmux, READY, settle, submit, useTmuxApp } from "../support/tmux-app.js";

const EXT = resolve(__dirname, "../fixtures/extensions/providers/key-login.ts");
const app = useTmuxApp("the dynamic catalog tests", {
	setup: (sb) => {
		sb.writeModels();
		sb.env.KEYLOGIN_BASE_URL = `${sb.fake.url}/v1`;
	},
});

const catalog = (...ids: string[]) => json(200, { data: ids.map((id) => ({ id })) });
const modelRequests = () => app.sb.fake.requests.filter((r) => r.path.endsWith("/models"));

async function until(what: string, ok: () => boolean, timeoutMs = 15_000): Promise<void> {
	const end = Date.now() + timeoutMs;
	while (!ok()) {
		if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
		await new Promise((r) => setTimeout(r, 50));
	}
}

describe.skipIf(!hasTmux)("dynamic catalogs: /login and /model refresh (tmux)", () => {
	it("/login runs auth.apiKey.login, stores its key and env, refreshes the catalog; /model refreshes again", async () => {
		app.sb.fake.enqueueFor("/models", catalog("k1"), catalog("k1", "k2"), catalog("k1", "k2", "k3"));
		app.sb.fake.enqueueFor("/chat/completions", textReply("keyed answer"));
		const pi = app.start({ args: ["-e", EXT, "--model", "fake/fake-model"] });
		await pi.waitFor(READY);
		// Start-up discovery ran without a credential.
		expect(modelRequests()).toHaveLength(1);
		expect(modelRequests()[0].headers.authorization).toBeUndefined();

		await submit(pi, "/login keyed", "Your Keyed AI key:");
		pi.type("sekret-1");
		pi.keys("Enter");
		await pi.waitFor("Saved the Keyed AI key for keyed.");
		await until("the refresh after /login", () => modelRequests().length === 2);
		expect(modelRequests()[1].headers.authorization).toBe("Bearer sekret-1");
		const stored = JSON.parse(readFileSync(join(app.sb.agentDir, "auth.json"), "utf8"));
		expect(stored.keyed).toEqual({ type: "api_key", key: "sekret-1", env: { KEYED_REGION: "eu" } });

		// The selector opens with the known list (k1, k2) and lists k3 once its refresh is back.
		await submit(pi, "/model", "Select model");
		pi.type("keyed/");
		await pi.waitFor("keyed/k3");
		await pi.waitFor("model catalogs refreshed");
		expect(modelRequests()).toHaveLength(3);
		pi.type("k3");
		await settle();
		pi.keys("Enter");
		await pi.waitFor(/k3\s*$/m);
		await submit(pi, "hello", "keyed answer");
		const chat = app.sb.fake.requests.filter((r) => r.path.endsWith("/chat/completions"));
		expect((chat[0].body as { model: string }).model).toBe("k3");
		expect(chat[0].headers.authorization).toBe("Bearer sekret-1");
		expect(chat[0].headers["x-region"]).toBe("eu");
	});

	it("a refresh that fails on /model keeps the known models and says so", async () => {
		app.sb.fake.enqueueFor("/models", catalog("k1"), json(503, { error: "down" }));
		const pi = app.start({ args: ["-e", EXT, "--model", "fake/fake-model"] });
		await pi.waitFor(READY);
		await submit(pi, "/model", "Select model");
		await pi.waitFor("could not refresh keyed; showing the models known before");
		expect(modelRequests()).toHaveLength(2);
	});
});
