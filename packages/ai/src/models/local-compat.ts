// Dialect defaults for OpenAI-compatible servers a user runs themselves
// (Ollama, llama.cpp server, LM Studio, vLLM, SGLang). Their chat templates
// rarely know the `developer` role or `reasoning_effort`, ignore or reject
// `store`, and all accept the older `max_tokens`.
import type { OpenAICompletionsCompat } from "../types.js";

/** The compat defaults for a self-hosted OpenAI-compatible server. */
export const LOCAL_SERVER_COMPAT: Readonly<OpenAICompletionsCompat> = Object.freeze({
	supportsDeveloperRole: false,
	supportsReasoningEffort: false,
	supportsStore: false,
	maxTokensField: "max_tokens",
});

/** True for loopback, private-network and mDNS hosts (where self-hosted servers live). */
export function isLocalHost(hostname: string): boolean {
	const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
	if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".local")) return true;
	if (host === "host.docker.internal" || host === "0.0.0.0" || host === "::" || host === "::1") return true;
	if (host.startsWith("fc") || host.startsWith("fd") || host.startsWith("fe80:")) return host.includes(":");
	const v4 = /^(\d{1,3})\.(\d{1,3})\.\d{1,3}\.\d{1,3}$/.exec(host);
	if (!v4) return false;
	const a = Number(v4[1]);
	const b = Number(v4[2]);
	return (
		a === 127 || a === 10 || (a === 192 && b === 168) || (a === 172 && b >= 16 && b <= 31) || (a === 169 && b === 254)
	);
}

/** LOCAL_SERVER_COMPAT when `baseUrl` points at a local or private host, else undefined. */
export function localServerCompat(baseUrl: string): OpenAICompletionsCompat | undefined {
	let host: string;
	try {
		host = new URL(baseUrl).hostname;
	} catch {
		return undefined;
	}
	return isLocalHost(host) ? { ...LOCAL_SERVER_COMPAT } : undefined;
}
