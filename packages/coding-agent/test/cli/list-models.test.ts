import type { Model } from "@pi/ai";
import { describe, expect, it } from "vitest";
import { filterModels, formatModelTable } from "../../src/cli/list-models.js";

const mk = (
	provider: string,
	id: string,
	contextWindow: number,
	maxTokens: number,
	extra: Partial<Model> = {},
): Model => ({
	id,
	name: id,
	api: "openai-completions",
	provider,
	baseUrl: "",
	reasoning: false,
	input: ["text"],
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
	contextWindow,
	maxTokens,
	...extra,
});

describe("--list-models", () => {
	const models = [
		mk("openai", "gpt-5.4", 400000, 128000, { reasoning: true, input: ["text", "image"] }),
		mk("fake", "fake-model", 128000, 16384),
		mk("anthropic", "claude-sonnet-4-5", 1000000, 64000, { reasoning: true }),
	];
	it("formats an aligned table sorted by provider and id", () => {
		expect(formatModelTable(models)).toBe(
			[
				"provider   model              context  max-out  thinking  images",
				"anthropic  claude-sonnet-4-5  1M       64K      yes       no",
				"fake       fake-model         128K     16.4K    no        no",
				"openai     gpt-5.4            400K     128K     yes       yes",
			].join("\n"),
		);
	});
	it("filters by every search term", () => {
		expect(filterModels(models, "openai 5.4").map((m) => m.id)).toEqual(["gpt-5.4"]);
		expect(filterModels(models, undefined)).toHaveLength(3);
		expect(filterModels(models, "zzz")).toEqual([]);
		// Fuzzy like the reference: letters in order, and letters/digits swapped.
		expect(filterModels(models, "sonnet45").map((m) => m.id)).toEqual(["claude-sonnet-4-5"]);
		expect(filterModels(models, "45sonnet").map((m) => m.id)).toEqual(["claude-sonnet-4-5"]);
		expect(filterModels(models, "anthropic/claude").map((m) => m.id)).toEqual(["claude-sonnet-4-5"]);
		expect(filterModels(models, "opnai").map((m) => m.id)).toEqual(["gpt-5.4"]);
	});
});
