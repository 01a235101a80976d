import type { Model } from "@pi/ai";
import { describe, expect, it } from "vitest";
import {
	matchModel,
	parseModelPattern,
	resolveCliModel,
	resolveModelScope,
	selectInitialModel,
} from "../../src/config/model-resolver.js";

function m(provider: string, id: string, extra: Partial<Model> = {}): Model {
	return {
		id,
		name: extra.name ?? id,
		api: "openai-completions",
		provider,
		baseUrl: "http://x",
		reasoning: true,
		input: ["text"],
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
		contextWindow: 1000,
		maxTokens: 100,
		...extra,
	};
}

const models = [
	m("anthropic", "claude-sonnet-4-5", { name: "Claude Sonnet 4.5" }),
	m("anthropic", "claude-sonnet-4-5-20250929"),
	m("anthropic", "claude-opus-4-7"),
	m("openai", "gpt-4o", { reasoning: false }),
	m("openai", "gpt-5.4"),
	m("openrouter", "openai/gpt-4o:extended"),
	m("openrouter", "qwen/qwen3:exacto"),
	m("local", "llama3.1:8b", { reasoning: false }),
];
const ids = (list: { model: Model }[]) => list.map((s) => `${s.model.provider}/${s.model.id}`);

describe("matchModel / parseModelPattern", () => {
	it("prefers exact, then an alias over dated snapshots", () => {
		expect(matchModel("sonnet", models)?.id).toBe("claude-sonnet-4-5");
		expect(matchModel("claude-sonnet-4-5-20250929", models)?.id).toBe("claude-sonnet-4-5-20250929");
		expect(matchModel("Claude Sonnet", models)?.id).toBe("claude-sonnet-4-5");
		expect(matchModel("nothing", models)).toBeUndefined();
	});

	it("tries the full pattern before splitting a :thinking suffix", () => {
		expect(parseModelPattern("qwen/qwen3:exacto", models)).toEqual({ model: models[6] });
		expect(parseModelPattern("llama3.1:8b", models)).toEqual({ model: models[7] });
		expect(parseModelPattern("opus:high", models)).toEqual({ model: models[2], thinkingLevel: "high" });
		expect(parseModelPattern("opus:bogus", models, true)).toEqual({});
		expect(parseModelPattern("opus:bogus", models).warning).toBe(
			'Invalid thinking level "bogus" in pattern "opus:bogus"; using the default level.',
		);
	});
});

describe("resolveCliModel", () => {
	it.each([
		[{ model: "gpt-4o" }, "openai/gpt-4o", undefined],
		[{ model: "openai/gpt-5.4" }, "openai/gpt-5.4", undefined],
		[{ model: "OpenAI/GPT-5.4:low" }, "openai/gpt-5.4", "low"],
		[{ provider: "anthropic", model: "opus" }, "anthropic/claude-opus-4-7", undefined],
		[{ provider: "anthropic", model: "anthropic/opus:xhigh" }, "anthropic/claude-opus-4-7", "xhigh"],
		[{ model: "openai/gpt-4o:extended" }, "openrouter/openai/gpt-4o:extended", undefined],
		[{ model: "sonnet:medium" }, "anthropic/claude-sonnet-4-5", "medium"],
		[{ provider: "openai" }, "openai/gpt-5.4", undefined],
	] as const)("%j → %s %s", (input, expected, level) => {
		const r = resolveCliModel({ ...input, models });
		expect(r.error).toBeUndefined();
		expect(`${r.model?.provider}/${r.model?.id}`).toBe(expected);
		expect(r.thinkingLevel).toBe(level);
	});

	it("errors for unknown models and providers; unknown id of a known provider becomes a custom id", () => {
		expect(resolveCliModel({ model: "nope-model", models }).error).toBe(
			'Model "nope-model" not found. Use --list-models to see available models.',
		);
		expect(resolveCliModel({ provider: "nope", model: "x", models }).error).toBe(
			'Unknown provider "nope". Use --list-models to see the available providers and models.',
		);
		const custom = resolveCliModel({ model: "openai/gpt-9", models });
		expect(custom.model).toMatchObject({ provider: "openai", id: "gpt-9", name: "gpt-9", api: "openai-completions" });
		expect(custom.warning).toBe(
			'Model "gpt-9" is not in the catalog for provider "openai"; using it as a custom model id.',
		);
	});
});

describe("azure's former id, azure-openai-responses", () => {
	const withAzure = [...models, m("azure", "gpt-5.4", { api: "azure-openai-responses" }), m("azure", "gpt-4o")];

	it("--provider, --model and a saved default with the old id name azure", () => {
		for (const input of [
			{ provider: "azure-openai-responses" },
			{ model: "azure-openai-responses/gpt-5.4" },
			{ provider: "azure-openai-responses", model: "gpt-5.4" },
		]) {
			const r = resolveCliModel({ ...input, models: withAzure });
			expect(r.error, JSON.stringify(input)).toBeUndefined();
			expect(`${r.model?.provider}/${r.model?.id}`, JSON.stringify(input)).toBe("azure/gpt-5.4");
		}
		const saved = selectInitialModel({
			isNewSession: true,
			defaultProvider: "azure-openai-responses",
			defaultModel: "gpt-4o",
			all: withAzure,
			available: withAzure,
		});
		expect(`${saved.model?.provider}/${saved.model?.id}`).toBe("azure/gpt-4o");
		const restored = selectInitialModel({
			isNewSession: false,
			restored: { provider: "azure-openai-responses", modelId: "gpt-4o" },
			all: withAzure,
			available: withAzure,
		});
		expect(restored.fallbackMessage).toBeUndefined();
		expect(`${restored.model?.provider}/${restored.model?.id}`).toBe("azure/gpt-4o");
	});

	it("a provider that still has the old name (models.json) is itself, not azure", () => {
		const kept = [...withAzure, m("azure-openai-responses", "my-deployment")];
		const r = resolveCliModel({ provider: "azure-openai-responses", models: kept });
		expect(`${r.model?.provider}/${r.model?.id}`).toBe("azure-openai-responses/my-deployment");
	});
});

describe("resolveModelScope", () => {
	it("globs, fuzzy patterns and thinking suffixes, without duplicates", () => {
		const r = resolveModelScope(["anthropic/*:high", "gpt-4o", "*sonnet*", "zzz"], models);
		expect(ids(r.scoped)).toEqual([
			"anthropic/claude-sonnet-4-5",
			"anthropic/claude-sonnet-4-5-20250929",
			"anthropic/claude-opus-4-7",
			"openai/gpt-4o",
		]);
		expect(r.scoped[0].thinkingLevel).toBe("high");
		expect(r.scoped[3].thinkingLevel).toBeUndefined();
		expect(r.warnings).toEqual(['No models match pattern "zzz"']);
	});
});

describe("selectInitialModel", () => {
	const base = { all: models, available: models, isNewSession: true };
	it("CLI beats everything; --thinking beats the pattern's level; levels are clamped", () => {
		const cli = resolveCliModel({ model: "gpt-4o:high", models });
		expect(selectInitialModel({ ...base, cli })).toEqual({ model: models[3], thinkingLevel: "off" });
		const opus = resolveCliModel({ model: "opus:low", models });
		expect(selectInitialModel({ ...base, cli: opus, cliThinking: "high" }).thinkingLevel).toBe("high");
		expect(selectInitialModel({ ...base, cli: opus }).thinkingLevel).toBe("low");
	});

	it("scoped models for a new session prefer the saved default", () => {
		const scoped = [{ model: models[3] }, { model: models[4], thinkingLevel: "high" as const }];
		expect(selectInitialModel({ ...base, scoped }).model).toBe(models[3]);
		const r = selectInitialModel({ ...base, scoped, defaultProvider: "openai", defaultModel: "gpt-5.4" });
		expect(r).toEqual({ model: models[4], thinkingLevel: "high" });
	});

	it("restores a continued session's model, else falls back with a message", () => {
		const restored = { provider: "openai", modelId: "gpt-5.4", thinkingLevel: "low" as const };
		expect(selectInitialModel({ ...base, isNewSession: false, restored })).toEqual({
			model: models[4],
			thinkingLevel: "low",
		});
		const gone = selectInitialModel({
			...base,
			isNewSession: false,
			restored: { provider: "x", modelId: "y" },
			available: [models[7]],
		});
		expect(gone.model).toBe(models[7]);
		expect(gone.fallbackMessage).toBe(
			"Could not restore the session's model x/y (unknown or no credentials). Using local/llama3.1:8b.",
		);
	});

	it("settings default, else the preference order among models with credentials, else the first available", () => {
		expect(selectInitialModel({ ...base, defaultProvider: "openai", defaultModel: "gpt-4o" }).model).toBe(models[3]);
		expect(selectInitialModel(base)).toEqual({ model: models[2], thinkingLevel: "medium" });
		expect(selectInitialModel({ ...base, available: [models[7], models[4]] }).model).toBe(models[4]);
		expect(selectInitialModel({ ...base, available: [models[7]] })).toEqual({ model: models[7], thinkingLevel: "off" });
		expect(selectInitialModel({ ...base, available: [] })).toEqual({ model: undefined, thinkingLevel: "medium" });
	});
});
