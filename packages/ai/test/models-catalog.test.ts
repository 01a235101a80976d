import { readFileSync } from "node:fs";
import { describe, expect, expectTypeOf, it } from "vitest";
import {
	CATALOG_DATA_PATH,
	CATALOG_MODULE_PATH,
	normalizeCatalog,
	renderCatalogModule,
} from "../../../scripts/generate-models.js";
import { calculateCost, emptyUsage } from "../src/cost.js";
import {
	builtinModels,
	findModel,
	getAllModels,
	getModel,
	getModels,
	getProviders,
	type KnownProvider,
	modelsAreEqual,
} from "../src/models/catalog.js";
import { getSupportedThinkingLevels, sendsThinkingLevel } from "../src/thinking.js";
import type { KnownApi, Model } from "../src/types.js";

const KNOWN_APIS: KnownApi[] = [
	"openai-completions",
	"openai-responses",
	"anthropic-messages",
	"google-generative-ai",
	"openai-codex-responses",
	"azure-openai-responses",
	"mistral-conversations",
	"bedrock-converse-stream",
	"google-vertex",
];

describe("built-in catalog", () => {
	it("is up to date with packages/ai/models/catalog.yaml", () => {
		const expected = renderCatalogModule(readFileSync(CATALOG_DATA_PATH, "utf8"));
		expect(readFileSync(CATALOG_MODULE_PATH, "utf8")).toBe(expected);
	});

	it("covers the listed providers, each with models", () => {
		const providers = getProviders();
		expect([...providers].sort()).toEqual(
			[
				"amazon-bedrock",
				"anthropic",
				"azure",
				"cerebras",
				"deepseek",
				"github-copilot",
				"google",
				"google-vertex",
				"groq",
				"mistral",
				"openai",
				"openai-codex",
				"openrouter",
				"xai",
			].sort(),
		);
		for (const p of providers) expect(getModels(p).length).toBeGreaterThan(0);
		expect(getAllModels().length).toBeGreaterThan(300);
	});

	it("builtinModels() is the catalog's own list (one array, shared objects); getAllModels() copies it", () => {
		const shared = builtinModels();
		expect(builtinModels()).toBe(shared);
		const copies = getAllModels();
		expect(copies).toEqual(shared);
		expect(copies.map((m) => `${m.provider}/${m.id}`)).toEqual(shared.map((m) => `${m.provider}/${m.id}`));
		for (let i = 0; i < copies.length; i++) expect(copies[i]).not.toBe(shared[i]);
		// A caller changing its copy (here a nested field) leaves the shared rows and later copies as they were.
		const withCompat = copies.findIndex((m) => m.compat !== undefined);
		expect(withCompat).toBeGreaterThanOrEqual(0);
		const before = structuredClone(shared[withCompat]);
		copies[withCompat].cost.input = -1;
		(copies[withCompat].compat as Record<string, unknown>).changed = true;
		expect(shared[withCompat]).toEqual(before);
		expect(getAllModels()[withCompat]).toEqual(before);
	});

	it("has only valid entries", () => {
		const seen = new Set<string>();
		for (const m of getAllModels()) {
			const where = `${m.provider}/${m.id}`;
			expect(seen.has(where), `${where} duplicated`).toBe(false);
			seen.add(where);
			expect(m.id, where).not.toBe("");
			expect(m.name, where).not.toBe("");
			expect(KNOWN_APIS, where).toContain(m.api);
			// Cloud APIs whose endpoint comes from the environment have none in the catalog.
			if (m.provider === "azure" || m.api === "google-vertex") expect(m.baseUrl, where).toBe("");
			else expect(new URL(m.baseUrl).protocol, where).toBe("https:");
			expect(Number.isInteger(m.contextWindow) && m.contextWindow > 0, where).toBe(true);
			expect(Number.isInteger(m.maxTokens) && m.maxTokens > 0, where).toBe(true);
			expect(m.maxTokens, where).toBeLessThanOrEqual(m.contextWindow);
			for (const price of Object.values(m.cost)) expect(price, where).toBeGreaterThanOrEqual(0);
			expect(Object.keys(m.cost).sort(), where).toEqual(["cacheRead", "cacheWrite", "input", "output"]);
			expect(m.input[0], where).toBe("text");
			for (const kind of m.input) expect(["text", "image"], where).toContain(kind);
			expect(typeof m.reasoning, where).toBe("boolean");
			if (m.thinkingLevelMap) {
				expect(m.reasoning, `${where} has a thinking map without reasoning`).toBe(true);
				for (const [level, value] of Object.entries(m.thinkingLevelMap)) {
					expect(["off", "minimal", "low", "medium", "high", "xhigh", "max"], where).toContain(level);
					expect(value === null || typeof value === "string", where).toBe(true);
				}
			}
		}
	});

	it("uses the API each provider speaks", () => {
		const expected: Record<KnownProvider, KnownApi[]> = {
			anthropic: ["anthropic-messages"],
			openai: ["openai-responses"],
			google: ["google-generative-ai"],
			openrouter: ["openai-completions"],
			groq: ["openai-completions"],
			xai: ["openai-completions"],
			deepseek: ["openai-completions"],
			mistral: ["mistral-conversations"],
			"amazon-bedrock": ["bedrock-converse-stream"],
			"google-vertex": ["google-vertex"],
			cerebras: ["openai-completions"],
			"openai-codex": ["openai-codex-responses"],
			"github-copilot": ["openai-completions", "openai-responses"],
			azure: ["azure-openai-responses", "openai-completions"], // Foundry models speak Chat Completions
		};
		for (const p of getProviders()) {
			expect(new Set(getModels(p).map((m) => m.api))).toEqual(new Set(expected[p]));
		}
	});

	it("returns flagship models of each provider", () => {
		const opus = getModel("anthropic", "claude-opus-4-7");
		expect(opus).toMatchObject({
			id: "claude-opus-4-7",
			provider: "anthropic",
			api: "anthropic-messages",
			baseUrl: "https://api.anthropic.com",
			reasoning: true,
			input: ["text", "image"],
			cost: { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
			contextWindow: 1000000,
			maxTokens: 128000,
			thinkingLevelMap: { xhigh: "xhigh" },
		});
		expect(getModel("anthropic", "claude-sonnet-4-5").cost).toEqual({
			input: 3,
			output: 15,
			cacheRead: 0.3,
			cacheWrite: 3.75,
		});
		expect(getModel("openai", "gpt-5.4")).toMatchObject({
			api: "openai-responses",
			baseUrl: "https://api.openai.com/v1",
			contextWindow: 272000,
			maxTokens: 128000,
		});
		expect(getModel("google", "gemini-3.1-pro-preview")).toMatchObject({
			api: "google-generative-ai",
			baseUrl: "https://generativelanguage.googleapis.com/v1beta",
			contextWindow: 1048576,
		});
		expect(getModel("google", "gemini-2.5-flash").cost.input).toBe(0.3);
		expect(getModel("openrouter", "anthropic/claude-sonnet-4.6")).toMatchObject({
			api: "openai-completions",
			baseUrl: "https://openrouter.ai/api/v1",
			compat: { thinkingFormat: "openrouter", cacheControlFormat: "anthropic" },
		});
		expect(getModel("openrouter", "openai/gpt-5").compat).toEqual({ thinkingFormat: "openrouter" });
		expect(getModel("groq", "openai/gpt-oss-120b")).toMatchObject({
			baseUrl: "https://api.groq.com/openai/v1",
			reasoning: true,
		});
		expect(getModel("xai", "grok-4.3")).toMatchObject({
			baseUrl: "https://api.x.ai/v1",
			compat: { supportsStore: false, supportsDeveloperRole: false, supportsReasoningEffort: false },
		});
		expect(getModel("deepseek", "deepseek-v4-pro")).toMatchObject({
			baseUrl: "https://api.deepseek.com",
			thinkingLevelMap: { minimal: null, low: null, medium: null, high: "high", max: "max" },
			compat: { thinkingFormat: "deepseek", requiresReasoningContentOnAssistantMessages: true },
		});
		expect(getModel("mistral", "devstral-medium-latest")).toMatchObject({
			api: "mistral-conversations",
			baseUrl: "https://api.mistral.ai",
		});
		expect(getModel("mistral", "magistral-medium-latest").thinkingLevelMap).toMatchObject({
			off: "none",
			high: "high",
		});
		expect(getModel("cerebras", "gpt-oss-120b")).toMatchObject({
			baseUrl: "https://api.cerebras.ai/v1",
			compat: { supportsStore: false, supportsDeveloperRole: false },
		});
	});

	it("types known pairs as always present, with the provider's API", () => {
		// Checked by tsc (npm run check); the runtime assertions below keep the test honest.
		expectTypeOf(getModel("anthropic", "claude-opus-4-7")).toEqualTypeOf<Model<"anthropic-messages">>();
		expectTypeOf(getModel("openrouter", "openai/gpt-5")).toEqualTypeOf<Model<"openai-completions">>();
		expectTypeOf(getModel("anthropic", "not-a-known-id")).toEqualTypeOf<Model | undefined>();
		expectTypeOf(getModels("google")).toEqualTypeOf<Model<"google-generative-ai">[]>();
		expect(getModel("openrouter", "openai/gpt-5").api).toBe("openai-completions");
	});

	it("returns undefined for unknown ids and providers", () => {
		expect(getModel("anthropic", "claude-nonexistent")).toBeUndefined();
		expect(getModel("nope", "x")).toBeUndefined();
		expect(getModels("nope")).toEqual([]);
	});

	it("hands out copies, so callers cannot corrupt the catalog", () => {
		const a = getModel("openai", "gpt-5.4");
		a.baseUrl = "http://127.0.0.1:1";
		a.cost.input = 999;
		a.thinkingLevelMap!.high = "changed";
		const b = getModel("openai", "gpt-5.4");
		expect(b.baseUrl).toBe("https://api.openai.com/v1");
		expect(b.cost.input).toBe(2.5);
		expect(b.thinkingLevelMap?.high).toBe("high");
	});

	it("exposes thinking levels through the catalog's maps", () => {
		expect(getSupportedThinkingLevels(getModel("anthropic", "claude-opus-4-6"))).toEqual([
			"off",
			"minimal",
			"low",
			"medium",
			"high",
			"max",
		]);
		expect(getSupportedThinkingLevels(getModel("anthropic", "claude-opus-4-7")).slice(-2)).toEqual(["xhigh", "max"]);
		expect(getSupportedThinkingLevels(getModel("openai", "gpt-5.4")).at(-1)).toBe("xhigh");
		expect(getSupportedThinkingLevels(getModel("openai", "gpt-5.6-sol")).at(-1)).toBe("max");
		expect(getSupportedThinkingLevels(getModel("anthropic", "claude-sonnet-4-5"))).toEqual([
			"off",
			"minimal",
			"low",
			"medium",
			"high",
		]);
		expect(getSupportedThinkingLevels(getModel("deepseek", "deepseek-v4-pro"))).toEqual(["off", "high", "max"]);
		expect(getSupportedThinkingLevels(getModel("openai", "gpt-4.1"))).toEqual(["off"]);
		// Foundry's DeepSeek on Azure: low/medium/high by effort name, no minimal (1.6.0's map).
		expect(getSupportedThinkingLevels(getModel("azure", "deepseek-v4-pro"))).toEqual(["off", "low", "medium", "high"]);
		// OpenRouter's GPT-5.2 Chat is not a reasoning row (1.6.0 offers "off" only, its xhigh map unused).
		expect(getModel("openrouter", "openai/gpt-5.2-chat")).toMatchObject({ reasoning: false });
		expect(getSupportedThinkingLevels(getModel("openrouter", "openai/gpt-5.2-chat"))).toEqual(["off"]);
	});

	it("computes cost from usage with the catalog price", () => {
		const model = getModel("anthropic", "claude-sonnet-4-5");
		const usage = { ...emptyUsage(), input: 1_000_000, output: 200_000, cacheRead: 500_000, cacheWrite: 100_000 };
		const cost = calculateCost(model, usage);
		expect(cost.input).toBeCloseTo(3, 10);
		expect(cost.output).toBeCloseTo(3, 10);
		expect(cost.cacheRead).toBeCloseTo(0.15, 10);
		expect(cost.cacheWrite).toBeCloseTo(0.375, 10);
		expect(cost.total).toBeCloseTo(6.525, 10);
	});
});

describe("findModel", () => {
	it("finds by provider/id, id (with slashes), case-insensitive id and name", () => {
		expect(findModel("anthropic/claude-opus-4-7")?.provider).toBe("anthropic");
		const viaOpenRouter = findModel("openrouter/anthropic/claude-opus-4.7");
		expect([viaOpenRouter?.provider, viaOpenRouter?.id]).toEqual(["openrouter", "anthropic/claude-opus-4.7"]);
		// An OpenRouter id alone: "anthropic/claude-opus-4.7" is not anthropic's id format, so the id matches.
		expect(findModel("anthropic/claude-opus-4.7")?.provider).toBe("openrouter");
		expect(findModel("GPT-5.4")?.id).toBe("gpt-5.4");
		expect(findModel("claude opus 4.7")?.id).toBe("claude-opus-4-7");
		expect(findModel("no-such-model")).toBeUndefined();
	});

	it("searches a given list first-match-wins", () => {
		const local: Model = {
			id: "gpt-5.4",
			name: "Local",
			api: "openai-completions",
			provider: "ollama",
			baseUrl: "http://127.0.0.1:11434/v1",
			reasoning: false,
			input: ["text"],
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
			contextWindow: 128000,
			maxTokens: 16384,
		};
		expect(findModel("gpt-5.4", [local, ...getModels("openai")])?.provider).toBe("ollama");
		expect(findModel("openai/gpt-5.4", [local, ...getModels("openai")])?.provider).toBe("openai");
		expect(modelsAreEqual(local, getModel("openai", "gpt-5.4"))).toBe(false);
		expect(modelsAreEqual(getModel("openai", "gpt-5.4"), getModel("openai", "gpt-5.4"))).toBe(true);
		expect(modelsAreEqual(undefined, local)).toBe(false);
	});
});

describe("catalog generator", () => {
	const base = (model: string) =>
		`providers:\n  p:\n    api: openai-completions\n    baseUrl: https://x.example/v1\n    defaults: { reasoning: false, input: [text] }\n    models:\n      - ${model}\n`;

	it("rejects invalid rows, naming each problem", () => {
		expect(() => normalizeCatalog({})).toThrow("catalog: expected a `providers` mapping");
		const bad = base("{ id: m, name: M, context: 0, output: 10, cost: [1, -1, 0, 0], thinking: { high: x }, x: 1 }");
		let message = "";
		try {
			renderCatalogModule(bad);
		} catch (error) {
			message = (error as Error).message;
		}
		expect(message).toContain("providers.p.models[0].context: expected a positive integer");
		expect(message).toContain("providers.p.models[0].cost: expected [input, output, cacheRead, cacheWrite]");
		expect(message).toContain("providers.p.models[0].thinking: a model without reasoning takes no thinking map");
		expect(message).toContain("providers.p.models[0].x: unknown field");
	});

	it("renders typed ids and escapes the data for a template literal", () => {
		const tricky = "we`ird$" + "{x}"; // a backtick and a would-be placeholder
		const source = renderCatalogModule(
			base(`{ id: '${tricky}', name: 'back\\slash "q"', context: 10, output: 5, cost: [0, 0, 0, 0] }`),
		);
		expect(source).toContain(`\t"p":\n\t\t| "${tricky}";`);
		const json = source.slice(source.indexOf("= `") + 3, source.lastIndexOf("`;"));
		// Evaluate the template literal the way the module would.
		const text = new Function(`return \`${json}\`;`)() as string;
		expect(JSON.parse(text)[0].models[0]).toMatchObject({ id: tricky, name: 'back\\slash "q"' });
	});
});

describe("sendsThinkingLevel", () => {
	const base = {
		id: "m",
		name: "m",
		provider: "p",
		reasoning: true,
		input: ["text" as const],
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
		contextWindow: 1000,
		maxTokens: 100,
	};
	it("is false for a local OpenAI-compatible server (no reasoning_effort) and for models without reasoning", () => {
		expect(sendsThinkingLevel({ ...base, api: "openai-completions", baseUrl: "http://127.0.0.1:11434/v1" })).toBe(
			false,
		);
		expect(sendsThinkingLevel({ ...base, api: "openai-completions", baseUrl: "http://localhost:8080/v1" })).toBe(false);
		expect(
			sendsThinkingLevel({
				...base,
				reasoning: false,
				api: "anthropic-messages",
				baseUrl: "https://api.anthropic.com",
			}),
		).toBe(false);
	});
	it("is true where the request carries it: reasoning_effort, a thinking switch, or another API", () => {
		expect(sendsThinkingLevel({ ...base, api: "openai-completions", baseUrl: "https://api.openai.com/v1" })).toBe(true);
		expect(
			sendsThinkingLevel({
				...base,
				api: "openai-completions",
				baseUrl: "http://127.0.0.1:11434/v1",
				compat: { supportsReasoningEffort: true },
			}),
		).toBe(true);
		expect(
			sendsThinkingLevel({
				...base,
				api: "openai-completions",
				baseUrl: "http://127.0.0.1:8000/v1",
				compat: { thinkingFormat: "qwen-chat-template" },
			}),
		).toBe(true);
		expect(sendsThinkingLevel({ ...base, api: "anthropic-messages", baseUrl: "https://api.anthropic.com" })).toBe(true);
	});
});
