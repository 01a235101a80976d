// pi's own login flows (ChatGPT, GitHub Copilot) load on demand (issue 25): a run
// with API keys never evaluates their modules (lean-print.test.ts), while a login,
// a refresh and a request with a stored login load them first. This file's module
// state starts fresh (vitest isolates each test file), so the first test runs
// before anything has loaded them.
import { describe, expect, it } from "vitest";
import {
	findLoginFlow,
	loadLoginFlows,
	loginFlows,
	removeLoginFlow,
	setLoginFlow,
	withLoginFlows,
} from "../../src/auth/flows.js";
import type { LoginFlow } from "../../src/auth/types.js";
import { AuthStorage } from "../../src/config/auth.js";

const own: LoginFlow = {
	id: "openai-codex",
	name: "Own ChatGPT",
	login: async () => ({ type: "oauth", access: "a", refresh: "r", expires: 0 }),
	refresh: async (credential) => credential,
	requestAuth: (credential) => ({ apiKey: credential.access }),
};

describe("pi's own login flows load on demand", () => {
	it("a request with a stored login loads them (its key and extras come from the flow); a flow set before keeps its place", async () => {
		// Nothing has loaded them yet in this file.
		expect(loginFlows()).toEqual([]);
		setLoginFlow(own);
		const access = "tid=1;proxy-ep=proxy.example.com";
		const auth = AuthStorage.inMemory(
			{ "github-copilot": { type: "oauth", access, refresh: "r", expires: Date.now() + 3_600_000 } },
			withLoginFlows(),
		);
		expect(await auth.getApiKey("github-copilot")).toBe(access);
		const extras = auth.getRequestExtras("github-copilot");
		expect(extras?.headers?.["Copilot-Integration-Id"]).toBe("vscode-chat");
		expect(extras?.baseUrl).toBe("https://api.example.com");
		// The built-ins' order, the flow set before them in its built-in's place; removing it
		// brings the built-in back.
		expect(loginFlows().map((f) => [f.id, f.name])).toEqual([
			["openai-codex", "Own ChatGPT"],
			["github-copilot", "GitHub Copilot"],
		]);
		removeLoginFlow("openai-codex");
		expect(findLoginFlow("openai-codex")?.name).toBe("ChatGPT Plus/Pro (Codex)");
		expect(loginFlows().map((f) => f.id)).toEqual(["openai-codex", "github-copilot"]);
		await loadLoginFlows();
		expect(loginFlows()).toHaveLength(2);
	});
});
