import { networkInterfaces } from "node:os";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { LoginCancelledError, LoginError } from "../../src/auth/interaction.js";
import { chatgptAccountId, createOpenAICodexLogin } from "../../src/auth/openai-codex.js";
import { parsePastedAuthorization } from "../../src/auth/pasted-authorization.js";
import { type FakeAuthServer, startFakeAuthServer } from "./fake-auth-server.js";
import { scriptedInteraction } from "./interaction.js";

let fake: FakeAuthServer;
beforeAll(async () => {
	fake = await startFakeAuthServer();
});
afterAll(() => fake.close());
beforeEach(() => {
	fake.log.length = 0;
	fake.violations.length = 0;
	fake.deviceAnswers = ["ok"];
});

const flow = (overrides = {}) =>
	createOpenAICodexLogin({
		authBase: fake.url,
		callbackPort: 0,
		redirectHost: "127.0.0.1",
		callbackTimeoutMs: 5000,
		timing: { secondMs: 20, minIntervalMs: 1 },
		...overrides,
	});

/** Plays the browser: open the authorize URL at the fake server and follow its redirect to pi. */
async function browse(url: string): Promise<Response> {
	return fetch(url, { redirect: "follow" });
}

describe("ChatGPT (openai-codex) browser login", () => {
	it("authorization code + PKCE: state, redirect and token exchange are what the server checks", async () => {
		let page: Promise<Response> | undefined;
		const interaction = scriptedInteraction({
			onNotice: (n) => {
				if (n.type === "auth_url") page = browse(n.url);
			},
		});
		const credential = await flow().login(interaction);
		expect(fake.violations).toEqual([]);
		expect(credential).toMatchObject({ type: "oauth", refresh: "refresh-1", accountId: "acct_fake" });
		expect(credential.expires).toBeGreaterThan(Date.now() + 3000_000);
		const shown = await page;
		expect(shown?.status).toBe(200);
		expect(await shown?.text()).toContain("Signed in to ChatGPT");
		// The authorize request carried S256 + state; the exchange sent the matching verifier.
		const authorize = interaction.notices.find((n) => n.type === "auth_url");
		const sent = new URL(authorize?.type === "auth_url" ? authorize.url : "");
		expect(sent.searchParams.get("code_challenge_method")).toBe("S256");
		expect(sent.searchParams.get("state")).toMatch(/^[0-9a-f]{32}$/);
		const exchange = fake.log.find((r) => r.path === "/oauth/token");
		expect(exchange?.body).toMatchObject({
			grant_type: "authorization_code",
			client_id: "app_EMoamEEZ73f0CkXaXp7hrann",
		});
		expect(exchange?.body.redirect_uri).toBe(sent.searchParams.get("redirect_uri"));
	});

	it("the callback refuses a wrong state and keeps waiting for the right one", async () => {
		const interaction = scriptedInteraction({
			onNotice: (n) => {
				if (n.type !== "auth_url") return;
				void (async () => {
					const redirect = new URL(new URL(n.url).searchParams.get("redirect_uri") ?? "");
					const forged = await fetch(`${redirect}?code=stolen&state=forged`);
					expect(forged.status).toBe(400);
					expect(await forged.text()).toContain("State mismatch");
					await browse(n.url);
				})();
			},
		});
		const credential = await flow().login(interaction);
		expect(credential.accountId).toBe("acct_fake");
		// The forged code never reached the token endpoint.
		expect(fake.log.filter((r) => r.path === "/oauth/token").map((r) => r.body.code)).not.toContain("stolen");
	});

	it("the callback listens on 127.0.0.1 only", async () => {
		let port = 0;
		const interaction = scriptedInteraction({
			onNotice: (n) => {
				if (n.type === "auth_url") port = Number(new URL(new URL(n.url).searchParams.get("redirect_uri") ?? "").port);
			},
		});
		const login = flow().login(interaction);
		await expect.poll(() => port).toBeGreaterThan(0);
		const others = Object.values(networkInterfaces())
			.flat()
			.filter((a) => a && !a.internal)
			.map((a) => (a?.family === "IPv6" ? `[${a.address}]` : a?.address));
		for (const host of ["[::1]", ...others]) {
			await expect(fetch(`http://${host}:${port}/auth/callback`)).rejects.toThrow();
		}
		const ok = await fetch(`http://127.0.0.1:${port}/elsewhere`);
		expect(ok.status).toBe(404);
		interaction.controller.abort();
		await expect(login).rejects.toBeInstanceOf(LoginCancelledError);
	});

	it("times out when no browser comes back, and frees the port", async () => {
		let port = 0;
		const interaction = scriptedInteraction({
			onNotice: (n) => {
				if (n.type === "auth_url") port = Number(new URL(new URL(n.url).searchParams.get("redirect_uri") ?? "").port);
			},
		});
		await expect(flow({ callbackTimeoutMs: 150 }).login(interaction)).rejects.toThrow(
			/ChatGPT sign-in timed out after 0 s without a browser callback/,
		);
		await expect(fetch(`http://127.0.0.1:${port}/auth/callback`)).rejects.toThrow();
		expect(fake.log.some((r) => r.path === "/oauth/token")).toBe(false);
	});

	it("cancelled half-way (after the URL was shown): nothing is exchanged, the port is closed", async () => {
		let port = 0;
		const interaction = scriptedInteraction({
			onNotice: (n) => {
				if (n.type === "auth_url") {
					port = Number(new URL(new URL(n.url).searchParams.get("redirect_uri") ?? "").port);
					setTimeout(() => interaction.controller.abort(), 20);
				}
			},
		});
		await expect(flow().login(interaction)).rejects.toBeInstanceOf(LoginCancelledError);
		await expect(fetch(`http://127.0.0.1:${port}/auth/callback`)).rejects.toThrow();
		expect(fake.log.some((r) => r.path === "/oauth/token")).toBe(false);
	});

	it("a pasted redirect URL completes the login; one with another state is refused", async () => {
		const viaPaste = (mangle: (u: URL) => void) => {
			let authorizeUrl = "";
			const interaction = scriptedInteraction({
				onNotice: (n) => {
					if (n.type === "auth_url") authorizeUrl = n.url;
				},
				answer: async (prompt) => {
					if (prompt.type !== "manual_code") return "";
					// The browser ran elsewhere: get the redirect without following it.
					await expect.poll(() => authorizeUrl).not.toBe("");
					const r = await fetch(authorizeUrl, { redirect: "manual" });
					const location = new URL(r.headers.get("location") ?? "");
					mangle(location);
					return location.toString();
				},
			});
			return flow().login(interaction);
		};
		await expect(viaPaste(() => {})).resolves.toMatchObject({ accountId: "acct_fake" });
		await expect(viaPaste((u) => u.searchParams.set("state", "other"))).rejects.toThrow(/State mismatch/);
	});

	it("parses pasted input forms", () => {
		expect(parsePastedAuthorization("http://localhost:1455/auth/callback?code=c1&state=s1")).toEqual({
			code: "c1",
			state: "s1",
		});
		expect(parsePastedAuthorization("code=c2&state=s2")).toEqual({ code: "c2", state: "s2" });
		expect(parsePastedAuthorization("c3#s3")).toEqual({ code: "c3", state: "s3" });
		expect(parsePastedAuthorization(" c4 ")).toEqual({ code: "c4" });
		expect(chatgptAccountId("not-a-jwt")).toBeUndefined();
	});
});

describe("ChatGPT (openai-codex) device-code login", () => {
	it("polls while pending, slows down on slow_down, then exchanges the code", async () => {
		fake.deviceAnswers = ["pending", "slow_down", "pending", "ok"];
		const interaction = scriptedInteraction({ browser: false });
		const started = Date.now();
		const credential = await flow().login(interaction);
		expect(credential.accountId).toBe("acct_fake");
		expect(interaction.notices[0]).toMatchObject({
			type: "device_code",
			userCode: "ABCD-1234",
			verificationUri: `${fake.url}/codex/device`,
		});
		const polls = fake.log.filter((r) => r.path === "/api/accounts/deviceauth/token");
		expect(polls).toHaveLength(4);
		// interval 1 "second" (20 ms here), +5 after slow_down: at least 20 + 120 + 120 ms.
		expect(Date.now() - started).toBeGreaterThanOrEqual(250);
		expect(fake.violations).toEqual([]);
	});

	it("cancel during polling stops it", async () => {
		fake.deviceAnswers = ["pending"];
		const interaction = scriptedInteraction({ browser: false });
		setTimeout(() => interaction.controller.abort(), 80);
		await expect(flow().login(interaction)).rejects.toBeInstanceOf(LoginCancelledError);
	});
});

describe("ChatGPT (openai-codex) refresh", () => {
	it("a valid refresh token gives new tokens; a refused one asks to log in again", async () => {
		fake.validRefresh.add("r-valid");
		const next = await flow().refresh({ type: "oauth", access: "a", refresh: "r-valid", expires: 0 });
		expect(next.refresh).not.toBe("r-valid");
		const error = await flow()
			.refresh({ type: "oauth", access: "a", refresh: "r-valid", expires: 0 })
			.catch((e: unknown) => e);
		expect(error).toBeInstanceOf(LoginError);
		expect((error as LoginError).loginAgain).toBe(true);
		expect((error as Error).message).toContain("openai-codex");
		expect((error as Error).message).not.toContain("r-valid");
	});
});
