// What to tell a user who has no usable model or key: concrete ways to
// configure one (provider env vars, auth.json, models.json for a local server).
import { cloudCredentialsHint, envKeyNames } from "@pi/ai";

const COMMON_PROVIDERS = ["anthropic", "openai", "google", "openrouter", "groq", "xai", "mistral", "deepseek"];

function howToConfigure(agentDir: string): string {
	const envLines = COMMON_PROVIDERS.map((p) => `    ${`${p}:`.padEnd(12)} ${envKeyNames(p).join(" or ")}`);
	return [
		"Configure one of:",
		"  - an API key in the environment, for example:",
		...envLines,
		`  - a key in ${agentDir}/auth.json: { "<provider>": { "type": "api_key", "key": "<key or ENV_VAR or !command>" } }`,
		`  - a local or custom OpenAI-compatible server in ${agentDir}/models.json:`,
		'    { "providers": { "local": { "baseUrl": "http://localhost:11434/v1", "api": "openai-completions",',
		'        "models": [{ "id": "<model id>" }] } } }   (no apiKey needed on this machine)',
		"  - or pass --api-key <key> together with --model <provider/id>.",
	].join("\n");
}

export function formatNoModelsMessage(agentDir: string): string {
	return `No models available: no provider has credentials.\n\n${howToConfigure(agentDir)}`;
}

export function formatNoApiKeyMessage(provider: string, agentDir: string): string {
	// Amazon Bedrock and Google Vertex AI: the cloud's own credentials, and what was looked for.
	const cloud = cloudCredentialsHint(provider);
	if (cloud) return `${cloud}.\n\n${howToConfigure(agentDir)}`;
	const names = envKeyNames(provider);
	return `No API key found for ${provider}. Set ${names.join(" or ")}, or see below.\n\n${howToConfigure(agentDir)}`;
}
