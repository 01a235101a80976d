import type { Model } from "../types.js";

/**
 * Where an Azure OpenAI request goes, from the environment (the names the
 * reference pi documents) and the model:
 * - the endpoint: `AZURE_OPENAI_BASE_URL`, else `AZURE_OPENAI_RESOURCE_NAME`
 *   (→ `https://<name>.openai.azure.com/openai/v1`), else the model's baseUrl;
 *   a bare Azure resource URL gets the `/openai/v1` path the v1 API lives under;
 * - the deployment: the model id, unless `AZURE_OPENAI_DEPLOYMENT_NAME_MAP`
 *   (`model=deployment,…`) names another;
 * - the api-version query parameter: `AZURE_OPENAI_API_VERSION`, default `v1`.
 */
export type AzureConfig =
	| { ok: true; baseUrl: string; deployment: string; apiVersion: string }
	| { ok: false; message: string };

const AZURE_HOSTS = [".openai.azure.com", ".cognitiveservices.azure.com", ".ai.azure.com"];

export function resolveAzureConfig(model: Pick<Model, "id" | "baseUrl">, env = process.env): AzureConfig {
	const explicit = env.AZURE_OPENAI_BASE_URL?.trim();
	const resource = env.AZURE_OPENAI_RESOURCE_NAME?.trim();
	const raw = explicit || (resource ? `https://${resource}.openai.azure.com/openai/v1` : model.baseUrl?.trim());
	if (!raw) {
		return {
			ok: false,
			message:
				"Azure OpenAI needs its endpoint: set AZURE_OPENAI_BASE_URL (https://<resource>.openai.azure.com) or AZURE_OPENAI_RESOURCE_NAME, or give the model a baseUrl in models.json",
		};
	}
	let url: URL;
	try {
		url = new URL(raw.replace(/\/+$/, ""));
	} catch {
		return { ok: false, message: `Azure OpenAI base URL is not a URL: ${raw}` };
	}
	const path = url.pathname.replace(/\/+$/, "");
	if (AZURE_HOSTS.some((h) => url.hostname.endsWith(h)) && ["", "/openai", "/openai/v1/responses"].includes(path)) {
		url.pathname = "/openai/v1";
		url.search = "";
	}
	return {
		ok: true,
		baseUrl: url.toString().replace(/\/+$/, ""),
		deployment: deploymentFor(model.id, env.AZURE_OPENAI_DEPLOYMENT_NAME_MAP),
		apiVersion: env.AZURE_OPENAI_API_VERSION?.trim() || "v1",
	};
}

function deploymentFor(modelId: string, map: string | undefined): string {
	for (const entry of (map ?? "").split(",")) {
		const at = entry.indexOf("=");
		if (at > 0 && entry.slice(0, at).trim() === modelId) {
			const name = entry.slice(at + 1).trim();
			if (name) return name;
		}
	}
	return modelId;
}
