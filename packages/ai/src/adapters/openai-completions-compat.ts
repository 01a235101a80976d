import { isLocalHost } from "../models/local-compat.js";
import type { Model, OpenAICompletionsCompat } from "../types.js";

/** Every switch with a value: the model's `compat` over what its host is known to need. */
export type ResolvedCompletionsCompat = Required<
	Omit<OpenAICompletionsCompat, "openRouterRouting" | "cacheControlFormat">
> &
	Pick<OpenAICompletionsCompat, "openRouterRouting" | "cacheControlFormat"> & {
		/** Mistral accepts only 9-character alphanumeric tool-call ids. */
		toolCallIdStyle: "openai" | "mistral";
	};

type Host =
	| "openai"
	| "openrouter"
	| "deepseek"
	| "groq"
	| "xai"
	| "cerebras"
	| "mistral"
	| "zai"
	| "moonshot"
	| "local"
	| "other";

/** Which dialect a model speaks, from its provider id or base URL. */
export function detectHost(model: Pick<Model, "provider" | "baseUrl">): Host {
	const url = model.baseUrl.toLowerCase();
	const p = model.provider;
	if (p === "openai" || url.includes("api.openai.com")) return "openai";
	if (p === "openrouter" || url.includes("openrouter.ai")) return "openrouter";
	if (p === "deepseek" || url.includes("deepseek.com")) return "deepseek";
	if (p === "groq" || url.includes("groq.com")) return "groq";
	if (p === "xai" || url.includes("api.x.ai")) return "xai";
	if (p === "cerebras" || url.includes("cerebras.ai")) return "cerebras";
	if (p === "mistral" || url.includes("mistral.ai")) return "mistral";
	if (p === "zai" || url.includes("api.z.ai") || url.includes("bigmodel.cn")) return "zai";
	if (p.startsWith("moonshotai") || url.includes("moonshot.")) return "moonshot";
	if (["ollama", "lmstudio", "llama.cpp", "vllm"].includes(p) || isLocalUrl(model.baseUrl)) return "local";
	return "other";
}

/** Loopback, private-network and mDNS hosts: where self-hosted servers live. */
function isLocalUrl(url: string): boolean {
	try {
		return isLocalHost(new URL(url).hostname);
	} catch {
		return false;
	}
}

/**
 * Defaults per host. Local servers (Ollama, llama.cpp, LM Studio, vLLM) know
 * neither `developer` nor `store` nor `reasoning_effort` reliably, so they get
 * the most widely accepted dialect; so do hosts whose docs say so.
 */
function detected(model: Model): ResolvedCompletionsCompat {
	const host = detectHost(model);
	const standard = host === "openai" || host === "openrouter" || host === "groq" || host === "other";
	return {
		supportsStore: host === "openai",
		supportsDeveloperRole: host === "openai" || host === "openrouter" || host === "other",
		supportsReasoningEffort: !["xai", "zai", "moonshot", "local", "mistral"].includes(host),
		supportsUsageInStreaming: true,
		maxTokensField: ["local", "mistral", "deepseek", "moonshot"].includes(host)
			? "max_tokens"
			: "max_completion_tokens",
		requiresToolResultName: host === "mistral",
		requiresAssistantAfterToolResult: false,
		requiresThinkingAsText: false,
		requiresReasoningContentOnAssistantMessages: host === "deepseek",
		thinkingFormat:
			host === "deepseek" ? "deepseek" : host === "zai" ? "zai" : host === "openrouter" ? "openrouter" : "openai",
		supportsStrictMode: standard,
		supportsLongCacheRetention: host === "openai",
		openRouterRouting: undefined,
		cacheControlFormat: host === "openrouter" && model.id.startsWith("anthropic/") ? "anthropic" : undefined,
		toolCallIdStyle: host === "mistral" ? "mistral" : "openai",
	};
}

/** The model's explicit `compat` keys win; absent keys come from host detection. */
export function resolveCompletionsCompat(model: Model): ResolvedCompletionsCompat {
	const base = detected(model);
	const own = model.compat ?? {};
	const out = { ...base };
	for (const key of Object.keys(base) as (keyof ResolvedCompletionsCompat)[]) {
		const value = (own as Record<string, unknown>)[key];
		if (value !== undefined) (out as Record<string, unknown>)[key] = value;
	}
	if (own.openRouterRouting !== undefined) out.openRouterRouting = own.openRouterRouting;
	if (own.cacheControlFormat !== undefined) out.cacheControlFormat = own.cacheControlFormat;
	return out;
}
