import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Model } from "@pi/ai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AuthStorage } from "../../src/config/auth.js";
import { clearConfigValueCache } from "../../src/config/config-value.js";
import { ModelRegistry } from "../../src/config/model-registry.js";

const builtin: Model = {
	id: "gpt-5.4",
	name: "GPT-5.4",
	api: "openai-responses",
	provider: "openai",
	baseUrl: "https://api.openai.com/v1",
	reasoning: true,
	input: ["text", "image"],
	cost: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 },
	contextWindow: 400000,
	maxTokens: 128000,
};
const builtins = () => [structuredClone(builtin)];

let dir: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "pi-models-"));
	clearConfigValueCache();
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function registry(json: string, env: NodeJS.ProcessEnv = {}) {
	const file = join(dir, "models.json");
	writeFileSync(file, json);
	const auth = AuthStorage.inMemory({}, { env });
	return { reg: new ModelRegistry(auth, { builtins, modelsPath: file, env }), auth, file };
}

describe("ModelRegistry", () => {
	it("adds custom providers from JSONC models.json with documented defaults", async () => {
		const { reg } = registry(`{
			// a local server
			"providers": {
				"local": {
					"baseUrl": "http://127.0.0.1:9/v1",
					"api": "openai-completions",
					"apiKey": "LOCAL_KEY_VAR",
					"compat": { "supportsDeveloperRole": false },
					"models": [ { "id": "llama3.1:8b" }, { "id": "big", "contextWindow": 5, "reasoning": true, }, ],
				},
			},
		}`);
		expect(reg.getErrors()).toEqual([]);
		expect(reg.find("local", "llama3.1:8b")).toMatchObject({
			id: "llama3.1:8b",
			name: "llama3.1:8b",
			api: "openai-completions",
			provider: "local",
			baseUrl: "http://127.0.0.1:9/v1",
			reasoning: false,
			input: ["text"],
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
			contextWindow: 128000,
			maxTokens: 16384,
			compat: { supportsDeveloperRole: false },
		});
		expect(reg.find("local", "llama3.1:8b")?.thinkingLevelMap).toBeUndefined();
		expect(reg.find("local", "big")?.contextWindow).toBe(5);
		expect(reg.getAll().map((m) => `${m.provider}/${m.id}`)).toEqual([
			"openai/gpt-5.4",
			"local/llama3.1:8b",
			"local/big",
		]);
	});

	it("models.json keys come last in the key order and count as credentials", async () => {
		const json = JSON.stringify({
			providers: {
				local: { baseUrl: "http://x", api: "openai-completions", apiKey: "LOCAL_KEY_VAR", models: [{ id: "a" }] },
			},
		});
		const { reg, auth } = registry(json, { LOCAL_KEY_VAR: "resolved-from-env" });
		expect(reg.getAvailable().map((m) => m.id)).toEqual(["a"]);
		expect(await reg.getApiKey({ provider: "local" })).toBe("resolved-from-env");
		await auth.set("local", { type: "api_key", key: "from-auth" });
		expect(await reg.getApiKey({ provider: "local" })).toBe("from-auth");
		expect(await reg.getApiKey({ provider: "openai" })).toBeUndefined();
	});

	it("rerouting a built-in provider keeps its models; headers resolve like keys; authHeader adds a bearer", async () => {
		const { reg } = registry(
			JSON.stringify({
				providers: {
					openai: { baseUrl: "http://proxy/v1", headers: { "x-team": "!printf team-a" }, authHeader: true },
				},
			}),
		);
		expect(reg.find("openai", "gpt-5.4")?.baseUrl).toBe("http://proxy/v1");
		expect(await reg.getRequestHeaders({ provider: "openai", id: "gpt-5.4" }, "k1")).toEqual({
			"x-team": "team-a",
			Authorization: "Bearer k1",
		});
		expect(await reg.getRequestHeaders({ provider: "other", id: "x" })).toBeUndefined();
	});

	it("a malformed models.json is reported with line and column; built-in models stay", () => {
		const { reg, file } = registry('{\n  "providers": {\n    "x": { "baseUrl": "http://x" "api": "a" }\n  }\n}');
		const errors = reg.getErrors();
		expect(errors).toHaveLength(1);
		expect(errors[0].startsWith(`${file}:3:34: `)).toBe(true);
		expect(reg.getAll().map((m) => m.id)).toEqual(["gpt-5.4"]);
	});

	it("reports skipped models by file and field and keeps the rest", () => {
		const { reg, file } = registry(
			JSON.stringify({
				providers: { p: { baseUrl: "http://x", api: "openai-completions", models: [{ id: "a" }, {}] } },
			}),
		);
		const errors = reg.getErrors();
		expect(errors).toHaveLength(1);
		expect(errors[0].startsWith(`${file}: providers.p.models[1].id: `)).toBe(true);
		expect(reg.getAll().map((m) => m.id)).toEqual(["gpt-5.4", "a"]);
	});

	it("a models.json server on this machine needs no apiKey; remote or built-in providers still do", async () => {
		const { reg } = registry(`{
			"providers": {
				"ollama": { "baseUrl": "http://localhost:11434/v1", "api": "openai-completions", "models": [{ "id": "q" }] },
				"lan": { "baseUrl": "http://[::1]:8080/v1", "api": "openai-completions", "models": [{ "id": "l" }] },
				"remote": { "baseUrl": "https://llm.example.com/v1", "api": "openai-completions", "models": [{ "id": "r" }] },
				"openai": { "baseUrl": "http://127.0.0.1:9/v1" }
			}
		}`);
		expect(reg.getErrors()).toEqual([]);
		expect(reg.hasAuth({ provider: "ollama" })).toBe(true);
		expect(reg.hasAuth({ provider: "lan" })).toBe(true);
		expect(reg.hasAuth({ provider: "remote" })).toBe(false);
		expect(reg.hasAuth({ provider: "openai" })).toBe(false);
		expect(reg.getAvailable().map((m) => `${m.provider}/${m.id}`)).toEqual(["ollama/q", "lan/l"]);
		// No key is invented here: pi-ai sends its local placeholder for loopback servers.
		expect(await reg.getApiKey({ provider: "ollama" })).toBeUndefined();
	});

	it("without models.json only built-ins are known", () => {
		const auth = AuthStorage.inMemory({}, { env: { OPENAI_API_KEY: "k" } });
		const reg = ModelRegistry.inMemory(auth, { builtins });
		expect(reg.getAvailable().map((m) => m.id)).toEqual(["gpt-5.4"]);
	});
});
