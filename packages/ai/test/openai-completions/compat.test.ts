import { describe, expect, it } from "vitest";
import { detectHost, resolveCompletionsCompat } from "../../src/adapters/openai-completions-compat.js";
import { mistralToolCallId } from "../../src/adapters/openai-completions-request.js";
import type { Model } from "../../src/types.js";

const model = (baseUrl: string, over: Partial<Model> = {}): Model => ({
	id: "m",
	name: "m",
	api: "openai-completions",
	provider: "custom",
	baseUrl,
	reasoning: true,
	input: ["text"],
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
	contextWindow: 1000,
	maxTokens: 100,
	...over,
});

describe("openai-completions compat detection", () => {
	it.each([
		["https://api.openai.com/v1", "openai"],
		["https://openrouter.ai/api/v1", "openrouter"],
		["https://api.deepseek.com/v1", "deepseek"],
		["https://api.groq.com/openai/v1", "groq"],
		["https://api.x.ai/v1", "xai"],
		["https://api.cerebras.ai/v1", "cerebras"],
		["https://api.mistral.ai/v1", "mistral"],
		["https://api.z.ai/api/paas/v4", "zai"],
		["https://api.moonshot.ai/v1", "moonshot"],
		["http://localhost:11434/v1", "local"],
		["http://127.0.0.1:8080/v1", "local"],
		["http://192.168.1.20:1234/v1", "local"],
		["http://gpu-box.local:8000/v1", "local"],
		["https://llm.example.com/v1", "other"],
	])("detects %s as %s", (url, host) => {
		expect(detectHost(model(url))).toBe(host);
	});

	it("gives each dialect its switches", () => {
		expect(resolveCompletionsCompat(model("https://api.openai.com/v1"))).toMatchObject({
			supportsStore: true,
			supportsDeveloperRole: true,
			supportsReasoningEffort: true,
			maxTokensField: "max_completion_tokens",
			thinkingFormat: "openai",
			supportsStrictMode: true,
		});
		expect(resolveCompletionsCompat(model("http://localhost:11434/v1"))).toMatchObject({
			supportsStore: false,
			supportsDeveloperRole: false,
			supportsReasoningEffort: false,
			maxTokensField: "max_tokens",
			supportsUsageInStreaming: true,
		});
		expect(resolveCompletionsCompat(model("https://api.deepseek.com"))).toMatchObject({
			thinkingFormat: "deepseek",
			requiresReasoningContentOnAssistantMessages: true,
			maxTokensField: "max_tokens",
		});
		expect(resolveCompletionsCompat(model("https://api.mistral.ai/v1"))).toMatchObject({
			requiresToolResultName: true,
			toolCallIdStyle: "mistral",
		});
		expect(resolveCompletionsCompat(model("https://openrouter.ai/api/v1", { id: "anthropic/claude-x" }))).toMatchObject(
			{
				thinkingFormat: "openrouter",
				cacheControlFormat: "anthropic",
			},
		);
	});

	it("lets explicit compat keys win and keeps detected values for the rest", () => {
		const resolved = resolveCompletionsCompat(
			model("http://localhost:11434/v1", { compat: { supportsReasoningEffort: true, thinkingFormat: "qwen" } }),
		);
		expect(resolved).toMatchObject({
			supportsReasoningEffort: true,
			thinkingFormat: "qwen",
			maxTokensField: "max_tokens",
		});
	});

	it("makes stable nine-character Mistral ids", () => {
		const id = mistralToolCallId("toolu_01ABCDEF");
		expect(id).toMatch(/^[a-zA-Z0-9]{9}$/);
		expect(mistralToolCallId("toolu_01ABCDEF")).toBe(id);
		expect(mistralToolCallId("toolu_01ABCDEG")).not.toBe(id);
		expect(mistralToolCallId("abcDEF123")).toBe("abcDEF123");
	});
});
