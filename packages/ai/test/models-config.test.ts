import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getAllModels, getModel, getModels } from "../src/models/catalog.js";
import { isLocalHost, LOCAL_SERVER_COMPAT, localServerCompat } from "../src/models/local-compat.js";
import {
	applyModelsConfig,
	CUSTOM_MODEL_DEFAULTS,
	formatModelsConfigIssue,
	loadModelsJson,
	type ModelsConfigResult,
	parseModelsJson,
} from "../src/models/models-config.js";
import { stream } from "../src/stream.js";
import type { Model } from "../src/types.js";
import { ChatStream } from "./support/fake-provider/openai-chat.js";
import { type FakeProvider, startFakeProvider } from "./support/fake-provider/server.js";

const source = "/home/u/.pi/agent/models.json";
const builtins = getAllModels();
const apply = (config: unknown, models: readonly Model[] = builtins) => applyModelsConfig(models, config, { source });
const find = (r: ModelsConfigResult, provider: string, id: string) =>
	r.models.find((m) => m.provider === provider && m.id === id);
const messages = (issues: ModelsConfigResult["errors"]) => issues.map((i) => `${i.path}: ${i.message}`);

describe("models.json: custom local providers", () => {
	it("adds an Ollama provider with the documented defaults and local-server compat", () => {
		const r = apply({
			providers: {
				ollama: {
					baseUrl: "http://localhost:11434/v1",
					api: "openai-completions",
					apiKey: "ollama",
					models: [{ id: "llama3.1:8b" }, { id: "qwen2.5-coder:7b" }],
				},
			},
		});
		expect(r.errors).toEqual([]);
		expect(r.warnings).toEqual([]);
		expect(r.models).toHaveLength(builtins.length + 2);
		expect(r.models.slice(0, builtins.length)).toEqual(builtins);
		expect(find(r, "ollama", "llama3.1:8b")).toEqual({
			id: "llama3.1:8b",
			name: "llama3.1:8b",
			api: "openai-completions",
			provider: "ollama",
			baseUrl: "http://localhost:11434/v1",
			reasoning: false,
			input: ["text"],
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
			contextWindow: 128000,
			maxTokens: 16384,
			compat: {
				supportsDeveloperRole: false,
				supportsReasoningEffort: false,
				supportsStore: false,
				maxTokensField: "max_tokens",
			},
		});
		expect(r.providers.ollama).toEqual({
			name: "ollama",
			builtin: false,
			baseUrl: "http://localhost:11434/v1",
			api: "openai-completions",
			apiKey: "ollama",
			authHeader: false,
			modelHeaders: {},
		});
	});

	it("lets provider and model compat override the local defaults (llama.cpp), keeping the model's fields", () => {
		const r = apply({
			providers: {
				"llama.cpp": {
					baseUrl: "http://127.0.0.1:8080/v1",
					api: "openai-completions",
					compat: { supportsUsageInStreaming: false, thinkingFormat: "qwen-chat-template" },
					models: [
						{
							id: "qwen3-coder",
							name: "Qwen3 Coder (local)",
							reasoning: true,
							input: ["text", "image"],
							contextWindow: 65536,
							maxTokens: 8192,
							cost: { input: 0.1 },
							thinkingLevelMap: { minimal: null, xhigh: "high" },
							compat: { supportsDeveloperRole: true },
						},
					],
				},
			},
		});
		expect(r.errors).toEqual([]);
		expect(find(r, "llama.cpp", "qwen3-coder")).toMatchObject({
			name: "Qwen3 Coder (local)",
			reasoning: true,
			input: ["text", "image"],
			contextWindow: 65536,
			maxTokens: 8192,
			cost: { input: 0.1, output: 0, cacheRead: 0, cacheWrite: 0 },
			thinkingLevelMap: { minimal: null, xhigh: "high" },
			compat: {
				supportsDeveloperRole: true,
				supportsReasoningEffort: false,
				supportsStore: false,
				maxTokensField: "max_tokens",
				supportsUsageInStreaming: false,
				thinkingFormat: "qwen-chat-template",
			},
		});
		// No apiKey: a local server needs none; the app decides what that means for availability.
		expect(r.providers["llama.cpp"].apiKey).toBeUndefined();
	});

	it("caps the default maxTokens at a small context window", () => {
		const r = apply({
			providers: {
				lmstudio: {
					baseUrl: "http://192.168.1.20:1234/v1",
					api: "openai-completions",
					models: [
						{ id: "small", contextWindow: 8192 },
						{ id: "odd", contextWindow: 4096, maxTokens: 8192 },
					],
				},
			},
		});
		expect(find(r, "lmstudio", "small")).toMatchObject({ contextWindow: 8192, maxTokens: 8192 });
		expect(find(r, "lmstudio", "small")?.compat).toEqual(LOCAL_SERVER_COMPAT);
		expect(messages(r.warnings)).toEqual(["providers.lmstudio.models[1].maxTokens: larger than contextWindow"]);
	});

	it("gives remote custom providers no local defaults, and other APIs none either", () => {
		const r = apply({
			providers: {
				proxy: {
					baseUrl: "https://proxy.example.com/v1",
					api: "openai-completions",
					apiKey: "!op read 'op://vault/proxy/key'",
					headers: { "x-portkey-api-key": "PORTKEY_API_KEY" },
					authHeader: true,
					models: [{ id: "m1", headers: { "x-model": "literal" } }],
				},
				"local-claude": {
					baseUrl: "http://localhost:4000",
					api: "anthropic-messages",
					models: [{ id: "claude-x" }],
				},
			},
		});
		expect(r.errors).toEqual([]);
		expect(find(r, "proxy", "m1")?.compat).toBeUndefined();
		expect(find(r, "proxy", "m1")?.headers).toBeUndefined();
		expect(find(r, "local-claude", "claude-x")?.compat).toBeUndefined();
		expect(r.providers.proxy).toEqual({
			name: "proxy",
			builtin: false,
			baseUrl: "https://proxy.example.com/v1",
			api: "openai-completions",
			apiKey: "!op read 'op://vault/proxy/key'",
			headers: { "x-portkey-api-key": "PORTKEY_API_KEY" },
			authHeader: true,
			modelHeaders: { m1: { "x-model": "literal" } },
		});
	});

	it("takes api and baseUrl per model when the provider has none", () => {
		const r = apply({
			providers: {
				mixed: {
					models: [
						{ id: "a", api: "openai-responses", baseUrl: "http://localhost:9000/v1" },
						{ id: "b", api: "google-generative-ai", baseUrl: "https://generativelanguage.googleapis.com/v1beta" },
					],
				},
			},
		});
		expect(r.errors).toEqual([]);
		expect(find(r, "mixed", "a")).toMatchObject({ api: "openai-responses", baseUrl: "http://localhost:9000/v1" });
		expect(find(r, "mixed", "b")).toMatchObject({ api: "google-generative-ai" });
	});

	it("knows which hosts are local", () => {
		for (const host of [
			"localhost",
			"LOCALHOST",
			"127.0.0.1",
			"127.8.9.1",
			"[::1]",
			"0.0.0.0",
			"10.1.2.3",
			"192.168.0.5",
		])
			expect(isLocalHost(host), host).toBe(true);
		for (const host of ["172.16.0.1", "172.31.255.1", "gpu-box.local", "host.docker.internal", "fd00::1"])
			expect(isLocalHost(host), host).toBe(true);
		for (const host of ["api.openai.com", "172.32.0.1", "8.8.8.8", "localhost.example.com", "fdic.gov", "11.0.0.1"])
			expect(isLocalHost(host), host).toBe(false);
		expect(localServerCompat("not a url")).toBeUndefined();
		expect(localServerCompat("https://api.groq.com/openai/v1")).toBeUndefined();
	});
});

describe("models.json: built-in providers", () => {
	it("reroutes every built-in model when only baseUrl/headers are given", () => {
		const r = apply({
			providers: { anthropic: { baseUrl: "https://my-proxy.example.com/v1", headers: { "x-team": "TEAM_TOKEN" } } },
		});
		expect(r.errors).toEqual([]);
		const anthropic = r.models.filter((m) => m.provider === "anthropic");
		expect(anthropic).toHaveLength(getModels("anthropic").length);
		for (const m of anthropic) expect(m.baseUrl).toBe("https://my-proxy.example.com/v1");
		expect(find(r, "anthropic", "claude-opus-4-7")).toEqual({
			...getModel("anthropic", "claude-opus-4-7"),
			baseUrl: "https://my-proxy.example.com/v1",
		});
		expect(r.models.filter((m) => m.provider === "openai")).toEqual(getModels("openai"));
		expect(r.models).toHaveLength(builtins.length);
		expect(r.providers.anthropic).toMatchObject({ builtin: true, headers: { "x-team": "TEAM_TOKEN" } });
	});

	it("upserts models by id when a built-in provider lists models", () => {
		const r = apply({
			providers: {
				anthropic: {
					baseUrl: "https://my-proxy.example.com",
					models: [
						{ id: "claude-opus-4-7", contextWindow: 200000 },
						{ id: "claude-internal", reasoning: true },
					],
				},
				xai: { models: [{ id: "grok-next" }] },
			},
		});
		expect(r.errors).toEqual([]);
		expect(r.models).toHaveLength(builtins.length + 2);
		// Same id: the config entry replaces the built-in (defaults for what it leaves out), in place.
		const index = builtins.findIndex((m) => m.provider === "anthropic" && m.id === "claude-opus-4-7");
		expect(r.models[index]).toEqual({
			id: "claude-opus-4-7",
			name: "claude-opus-4-7",
			api: "anthropic-messages",
			provider: "anthropic",
			baseUrl: "https://my-proxy.example.com",
			reasoning: false,
			input: ["text"],
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
			contextWindow: 200000,
			maxTokens: 16384,
		});
		// New id: added, with the provider's API and (rerouted) base URL.
		expect(find(r, "anthropic", "claude-internal")).toMatchObject({
			api: "anthropic-messages",
			baseUrl: "https://my-proxy.example.com",
			reasoning: true,
		});
		// Other built-ins kept, rerouted.
		expect(find(r, "anthropic", "claude-sonnet-4-5")?.baseUrl).toBe("https://my-proxy.example.com");
		// A new model of a built-in provider inherits the dialect flags all its models share.
		expect(find(r, "xai", "grok-next")).toMatchObject({
			api: "openai-completions",
			baseUrl: "https://api.x.ai/v1",
			compat: { supportsStore: false, supportsDeveloperRole: false, supportsReasoningEffort: false },
		});
	});

	it("applies modelOverrides to built-ins, merging cost, compat and thinking maps", () => {
		const r = apply({
			providers: {
				openrouter: {
					baseUrl: "https://or-proxy.example.com/api/v1",
					compat: { openRouterRouting: { allow_fallbacks: false } },
					modelOverrides: {
						"anthropic/claude-sonnet-4.6": {
							name: "Claude Sonnet 4.6 (Bedrock route)",
							cost: { input: 2.5 },
							compat: { openRouterRouting: { only: ["amazon-bedrock"] } },
							headers: { "x-route": "bedrock" },
						},
						"openai/gpt-5": { thinkingLevelMap: { minimal: null }, maxTokens: 64000, reasoning: true, input: ["text"] },
						"no/such-model": { name: "x" },
					},
				},
			},
		});
		expect(r.errors).toEqual([]);
		const base = getModel("openrouter", "anthropic/claude-sonnet-4.6");
		expect(find(r, "openrouter", "anthropic/claude-sonnet-4.6")).toEqual({
			...base,
			name: "Claude Sonnet 4.6 (Bedrock route)",
			baseUrl: "https://or-proxy.example.com/api/v1",
			cost: { ...base.cost, input: 2.5 },
			compat: {
				...base.compat,
				openRouterRouting: { allow_fallbacks: false, only: ["amazon-bedrock"] },
			},
		});
		const gpt5 = find(r, "openrouter", "openai/gpt-5");
		expect(gpt5?.thinkingLevelMap).toEqual({
			...getModel("openrouter", "openai/gpt-5").thinkingLevelMap,
			minimal: null,
		});
		expect(gpt5).toMatchObject({ maxTokens: 64000, input: ["text"] });
		expect(r.providers.openrouter.modelHeaders).toEqual({ "anthropic/claude-sonnet-4.6": { "x-route": "bedrock" } });
		expect(messages(r.warnings)).toEqual([
			'providers.openrouter.modelOverrides["no/such-model"]: no model "no/such-model" in provider "openrouter"; ignored',
		]);
	});

	it("merges custom models after overrides: a same-id custom model replaces the overridden one", () => {
		const r = apply({
			providers: {
				groq: {
					modelOverrides: { "openai/gpt-oss-120b": { name: "overridden" } },
					models: [{ id: "openai/gpt-oss-120b", name: "custom" }],
				},
			},
		});
		const hits = r.models.filter((m) => m.provider === "groq" && m.id === "openai/gpt-oss-120b");
		expect(hits.map((m) => m.name)).toEqual(["custom"]);
	});

	it("never mutates the models it is given", () => {
		const input = getAllModels();
		const snapshot = structuredClone(input);
		apply(
			{
				providers: {
					openai: { baseUrl: "http://localhost:1/v1", compat: { supportsStore: false }, models: [{ id: "gpt-5.4" }] },
					google: { modelOverrides: { "gemini-2.5-pro": { cost: { input: 0 } } } },
				},
			},
			input,
		);
		expect(input).toEqual(snapshot);
	});
});

describe("models.json: validation", () => {
	it("names the JSON path of each wrong field and skips only what is broken", () => {
		const r = apply({
			providers: {
				ollama: {
					baseUrl: "http://localhost:11434/v1",
					api: "openai-completions",
					models: [
						{ id: "bad", contextWindow: "big", maxTokens: -1, cost: { input: "1", output: -2 }, input: ["audio"] },
						{ id: "good" },
						{ name: "no id" },
						{
							id: "bad2",
							reasoning: "yes",
							thinkingLevelMap: { high: 5 },
							headers: { a: 1 },
							compat: { maxTokensField: "n" },
						},
						"not an object",
					],
				},
				"my.proxy": { baseUrl: 42, api: "openai-completions", models: [{ id: "x" }] },
				anthropic: { modelOverrides: { "claude-opus-4-7": { contextWindow: 0 } } },
				nomodels: { baseUrl: "http://localhost:1/v1", api: "openai-completions" },
				nourl: { api: "openai-completions", models: [{ id: "x" }] },
				noapi: { baseUrl: "http://localhost:1/v1", models: [{ id: "x" }] },
				badurl: { baseUrl: "ftp://files.example.com", api: "openai-completions", models: [{ id: "x" }] },
				wrongtypes: { apiKey: 5, authHeader: "yes", headers: [], models: {}, modelOverrides: [] },
			},
		});
		expect(messages(r.errors)).toEqual([
			"providers.ollama.models[0].contextWindow: expected a number",
			"providers.ollama.models[0].maxTokens: expected a positive whole number of tokens",
			"providers.ollama.models[0].cost.input: expected a number",
			"providers.ollama.models[0].cost.output: expected a price of 0 or more",
			'providers.ollama.models[0].input: expected an array of "text" and "image", e.g. ["text", "image"]',
			"providers.ollama.models[2].id: required: the model id sent to the API",
			"providers.ollama.models[3].reasoning: expected true or false",
			"providers.ollama.models[3].thinkingLevelMap.high: expected a string or null",
			"providers.ollama.models[3].headers.a: expected a string",
			"providers.ollama.models[3].compat.maxTokensField: expected one of max_completion_tokens, max_tokens",
			"providers.ollama.models[4]: expected an object",
			'providers["my.proxy"].baseUrl: expected a string',
			"providers.anthropic.modelOverrides.claude-opus-4-7.contextWindow: expected a positive whole number of tokens",
			'providers.nomodels.models: required: a provider that is not built in needs a "models" array',
			"providers.nourl.baseUrl: required: a provider that is not built in needs the server's base URL",
			'providers.noapi.models[0].api: no API: set "api" on the provider or on this model',
			'providers.badurl.baseUrl: expected an http or https URL, got "ftp://files.example.com"',
			"providers.wrongtypes.apiKey: expected a string",
			"providers.wrongtypes.headers: expected an object of header names to values",
			"providers.wrongtypes.authHeader: expected true or false",
			"providers.wrongtypes.models: expected an array of models",
			"providers.wrongtypes.modelOverrides: expected an object of model ids to overrides",
		]);
		for (const e of r.errors) expect(e.source).toBe(source);
		// The valid model of a valid provider is there; broken entries and providers are not.
		expect(r.models.filter((m) => !builtins.includes(m)).map((m) => `${m.provider}/${m.id}`)).toEqual(["ollama/good"]);
		// A provider whose own fields are valid is applied even when some of its models are not.
		expect(Object.keys(r.providers)).toEqual(["ollama", "anthropic", "noapi"]);
		expect(find(r, "anthropic", "claude-opus-4-7")).toEqual(getModel("anthropic", "claude-opus-4-7"));
	});

	it("treats a provider named __proto__ as data, not as a prototype", () => {
		const config = JSON.parse(
			'{"providers":{"__proto__":{"baseUrl":"http://localhost:1/v1","api":"openai-completions","models":[{"id":"m","headers":{"a":"b"}}]}}}',
		);
		const r = apply(config);
		expect(r.errors).toEqual([]);
		expect(Object.getPrototypeOf(r.providers)).toBe(Object.prototype);
		expect(Object.keys(r.providers)).toEqual(["__proto__"]);
		expect(find(r, "__proto__", "m")?.baseUrl).toBe("http://localhost:1/v1");
	});

	it("rejects a config that is not an object, or providers that is not one", () => {
		expect(messages(apply([]).errors)).toEqual([': expected a JSON object with a "providers" object']);
		expect(messages(apply({ providers: [] }).errors)).toEqual([
			"providers: expected an object of provider names to provider settings",
		]);
		expect(apply({}).errors).toEqual([]);
		expect(apply({}).models).toEqual(builtins);
	});

	it("ignores unknown keys with a warning (never copied onto models); unknown compat flags pass through", () => {
		const r = apply({
			$schema: "https://pi.dev/schemas/models.schema.json",
			extra: true,
			providers: {
				ollama: {
					name: "Ollama",
					baseUrl: "http://localhost:11434/v1",
					api: "openai-completions",
					colour: "blue",
					compat: { futureFlag: 1 },
					models: [
						{
							id: "m",
							contextWindw: 4096,
							inputLimits: { maxRequestBytes: 1 },
							thinkingLevelMap: { ultra: "max", high: "high" },
							cost: { input: 1, tiers: [], surcharge: 3 },
						},
					],
					modelOverrides: {},
				},
				anthropic: { modelOverrides: { "claude-opus-4-7": { api: "openai-completions", id: "x", foo: 1 } } },
			},
		});
		expect(r.errors).toEqual([]);
		expect(messages(r.warnings)).toEqual([
			"extra: unknown top-level key; ignored",
			"providers.ollama.colour: unknown field; ignored",
			"providers.ollama.compat.futureFlag: unknown compat flag; passed through unchecked",
			"providers.ollama.models[0].contextWindw: unknown field; ignored",
			"providers.ollama.models[0].thinkingLevelMap.ultra: unknown thinking level; expected one of off, minimal, low, medium, high, xhigh, max; ignored",
			"providers.ollama.models[0].cost.surcharge: unknown cost field; ignored",
			"providers.anthropic.modelOverrides.claude-opus-4-7.api: cannot be overridden; ignored",
			"providers.anthropic.modelOverrides.claude-opus-4-7.id: cannot be overridden; ignored",
			"providers.anthropic.modelOverrides.claude-opus-4-7.foo: unknown field; ignored",
		]);
		const m = find(r, "ollama", "m") as Model & Record<string, unknown>;
		expect(m.contextWindw).toBeUndefined();
		expect(m.inputLimits).toBeUndefined();
		expect(m.contextWindow).toBe(CUSTOM_MODEL_DEFAULTS.contextWindow);
		expect(m.thinkingLevelMap).toEqual({ high: "high" });
		expect(m.cost).toEqual({ input: 1, output: 0, cacheRead: 0, cacheWrite: 0 });
		expect(m.compat).toMatchObject({ futureFlag: 1 });
		expect(find(r, "anthropic", "claude-opus-4-7")).toEqual(getModel("anthropic", "claude-opus-4-7"));
	});
});

describe("models.json text", () => {
	const jsonc = `{
  // Local models
  "providers": {
    "ollama": {
      "baseUrl": "http://localhost:11434/v1", /* default port */
      "api": "openai-completions",
      "apiKey": "ollama",
      "models": [
        { "id": "llama3.1:8b", },
      ],
    },
  },
}
`;

	it("accepts comments and trailing commas", () => {
		const r = loadModelsJson(jsonc, builtins, { source });
		expect(r.errors).toEqual([]);
		expect(find(r, "ollama", "llama3.1:8b")?.baseUrl).toBe("http://localhost:11434/v1");
	});

	it("reports malformed JSON with line and column and keeps the given models", () => {
		const broken = jsonc.replace('"api": "openai-completions",', '"api": "openai-completions"');
		const r = loadModelsJson(broken, builtins, { source });
		expect(r.errors).toEqual([
			{ source, path: "", message: "unexpected '\"', expected ',' or '}'", line: 7, column: 7 },
		]);
		expect(formatModelsConfigIssue(r.errors[0])).toBe(`${source}:7:7: unexpected '"', expected ',' or '}'`);
		expect(r.models).toEqual(builtins);
		expect(r.providers).toEqual({});
		expect(parseModelsJson("", { source })).toEqual({
			ok: false,
			error: { source, path: "", message: "empty input, expected a JSON value", line: 1, column: 1 },
		});
	});

	it("formats path issues for people", () => {
		const r = apply({
			providers: {
				ollama: { baseUrl: "http://localhost:1", api: "openai-completions", models: [{ id: "m", contextWindow: "x" }] },
			},
		});
		expect(r.errors.map(formatModelsConfigIssue)).toEqual([
			`${source}: providers.ollama.models[0].contextWindow: expected a number`,
		]);
		expect(formatModelsConfigIssue({ source, path: "", message: "boom" })).toBe(`${source}: boom`);
	});
});

describe("a local server configured in models.json", () => {
	let fake: FakeProvider;
	beforeAll(async () => {
		fake = await startFakeProvider();
	});
	afterAll(() => fake.close());

	it("streams through openai-completions with the local dialect", async () => {
		const r = loadModelsJson(
			JSON.stringify({
				providers: {
					"my-box": {
						baseUrl: `${fake.url}/v1`,
						api: "openai-completions",
						apiKey: "unused",
						models: [{ id: "qwen3:8b", reasoning: true }],
					},
				},
			}),
			builtins,
			{ source },
		);
		const model = find(r, "my-box", "qwen3:8b") as Model;
		fake.enqueue(new ChatStream().role().text("hi").finish("stop").done().script());
		const message = await stream(
			model,
			{ systemPrompt: "be brief", messages: [{ role: "user", content: "hello", timestamp: 1 }] },
			{ apiKey: r.providers["my-box"].apiKey, maxTokens: 1000, reasoning: "high" },
		).result();
		expect(message.stopReason).toBe("stop");
		expect(message.content).toEqual([{ type: "text", text: "hi" }]);
		expect(message.provider).toBe("my-box");
		const request = fake.requests.at(-1);
		expect(request?.path).toBe("/v1/chat/completions");
		const body = request?.body as Record<string, unknown>;
		expect(body.model).toBe("qwen3:8b");
		expect((body.messages as { role: string }[]).map((m) => m.role)).toEqual(["system", "user"]);
		expect(body.max_tokens).toBe(1000);
		expect(body.max_completion_tokens).toBeUndefined();
		expect(body.store).toBeUndefined();
		expect(body.reasoning_effort).toBeUndefined();
	});
});
