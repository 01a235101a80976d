import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { copilotBaseUrl, createGitHubCopilotLogin, normalizeEnterpriseDomain } from "../../src/auth/github-copilot.js";
import { LoginCancelledError, LoginError } from "../../src/auth/interaction.js";
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
});

const flow = () =>
	createGitHubCopilotLogin({
		githubBase: () => fake.url,
		apiBase: () => fake.url,
		timing: { secondMs: 20, minIntervalMs: 1 },
	});

const pollTimes = () => fake.log.filter((r) => r.path === "/login/oauth/access_token");

describe("GitHub Copilot device login", () => {
	it("shows the code, polls with slow_down (server interval), then exchanges for a Copilot token", async () => {
		fake.deviceAnswers = ["pending", "slow_down_interval", "pending", "ok"];
		const stamps: number[] = [];
		const interaction = scriptedInteraction({ browser: false });
		const origin = Date.now();
		const wrapped = { ...interaction, notify: interaction.notify };
		const credential = await flow().login(wrapped);
		for (const _ of pollTimes()) stamps.push(Date.now() - origin);
		expect(fake.violations).toEqual([]);
		expect(interaction.prompts[0]).toMatchObject({ type: "text" });
		expect(interaction.notices[0]).toMatchObject({
			type: "device_code",
			userCode: "WXYZ-9876",
			verificationUri: "https://github.com/login/device",
		});
		expect(pollTimes()).toHaveLength(4);
		// waited one interval (20 ms) first, then 20, then the server's 3 "s" (60 ms) twice.
		expect(Date.now() - origin).toBeGreaterThanOrEqual(20 + 20 + 60 + 60);
		expect(credential).toMatchObject({ type: "oauth", refresh: "gho_github_token" });
		expect(credential.access).toContain("proxy-ep=proxy.enterprise.githubcopilot.com");
		expect(credential.expires).toBeLessThan(Date.now() + 1800_000);
		const exchange = fake.log.find((r) => r.path === "/copilot_internal/v2/token");
		expect(exchange?.headers.authorization).toBe("Bearer gho_github_token");
		expect(flow().requestAuth(credential)).toMatchObject({
			apiKey: credential.access,
			baseUrl: "https://api.enterprise.githubcopilot.com",
			headers: { "Copilot-Integration-Id": "vscode-chat" },
		});
	});

	it("slow_down without an interval adds five seconds", async () => {
		fake.deviceAnswers = ["slow_down", "ok"];
		const started = Date.now();
		await flow().login(scriptedInteraction({ browser: false }));
		// first wait 20 ms, then 20 + 5×20 ms.
		expect(Date.now() - started).toBeGreaterThanOrEqual(20 + 120);
		expect(pollTimes()).toHaveLength(2);
	});

	it("cancelled while polling: no token exchange", async () => {
		fake.deviceAnswers = ["pending"];
		const interaction = scriptedInteraction({ browser: false });
		setTimeout(() => interaction.controller.abort(), 100);
		await expect(flow().login(interaction)).rejects.toBeInstanceOf(LoginCancelledError);
		expect(fake.log.some((r) => r.path === "/copilot_internal/v2/token")).toBe(false);
	});

	it("refresh exchanges the GitHub token again; a revoked one asks to log in again", async () => {
		const next = await flow().refresh({ type: "oauth", access: "old", refresh: "gho_other", expires: 0 });
		expect(next.access).toContain("proxy-ep=");
		fake.revokedGithub.add("gho_revoked");
		const error = await flow()
			.refresh({ type: "oauth", access: "old", refresh: "gho_revoked", expires: 0 })
			.catch((e: unknown) => e);
		expect(error).toBeInstanceOf(LoginError);
		expect((error as LoginError).loginAgain).toBe(true);
		expect((error as Error).message).toContain("github-copilot");
		expect((error as Error).message).not.toContain("gho_revoked");
	});

	it("enterprise domains and token endpoints", () => {
		expect(normalizeEnterpriseDomain("")).toBeUndefined();
		expect(normalizeEnterpriseDomain("https://company.ghe.com/login")).toBe("company.ghe.com");
		expect(normalizeEnterpriseDomain("company.ghe.com")).toBe("company.ghe.com");
		expect(copilotBaseUrl("tid=1;exp=2")).toBe("https://api.individual.githubcopilot.com");
		expect(copilotBaseUrl("tid=1", "company.ghe.com")).toBe("https://copilot-api.company.ghe.com");
		expect(copilotBaseUrl("tid=1;proxy-ep=evil.com/x;")).toBe("https://api.individual.githubcopilot.com");
	});
});
