import { AMBIENT_CREDENTIALS, hasAwsCredentials, hasVertexAdc } from "./cloud-credentials.js";

/**
 * The environment variables each provider's API key is read from, in the order
 * they are tried. Provider ids match the model catalog.
 */
const ENV_KEYS: Record<string, string[]> = {
	anthropic: ["ANTHROPIC_OAUTH_TOKEN", "ANTHROPIC_API_KEY"],
	openai: ["OPENAI_API_KEY"],
	azure: ["AZURE_OPENAI_API_KEY"],
	// azure's former id (0.73): a models.json provider still named so reads the same key. The CLI
	// takes the old name for azure in --provider, --model and saved defaults (model-resolver.ts).
	"azure-openai-responses": ["AZURE_OPENAI_API_KEY"],
	google: ["GEMINI_API_KEY"],
	"google-vertex": ["GOOGLE_CLOUD_API_KEY"],
	"amazon-bedrock": ["AWS_BEARER_TOKEN_BEDROCK"],
	groq: ["GROQ_API_KEY"],
	cerebras: ["CEREBRAS_API_KEY"],
	xai: ["XAI_API_KEY"],
	openrouter: ["OPENROUTER_API_KEY"],
	"vercel-ai-gateway": ["AI_GATEWAY_API_KEY"],
	zai: ["ZAI_API_KEY"],
	mistral: ["MISTRAL_API_KEY"],
	deepseek: ["DEEPSEEK_API_KEY"],
	minimax: ["MINIMAX_API_KEY"],
	"minimax-cn": ["MINIMAX_CN_API_KEY"],
	moonshotai: ["MOONSHOT_API_KEY"],
	"moonshotai-cn": ["MOONSHOT_API_KEY"],
	huggingface: ["HF_TOKEN"],
	fireworks: ["FIREWORKS_API_KEY"],
	opencode: ["OPENCODE_API_KEY"],
	"kimi-coding": ["KIMI_API_KEY"],
	"github-copilot": ["COPILOT_GITHUB_TOKEN", "GH_TOKEN", "GITHUB_TOKEN"],
};

/** Environment variable names that may hold the provider's key (empty when unknown). */
export function envKeyNames(provider: string): string[] {
	return ENV_KEYS[provider] ?? [`${provider.toUpperCase().replace(/[^A-Z0-9]/g, "_")}_API_KEY`];
}

/**
 * The provider's key from the environment, or undefined. For Amazon Bedrock
 * and Google Vertex AI, whose SDKs find credentials themselves (an AWS profile
 * or IAM keys; Application Default Credentials with a project and location),
 * `AMBIENT_CREDENTIALS` when those are configured.
 */
export function getEnvApiKey(provider: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
	for (const name of envKeyNames(provider)) {
		const value = env[name];
		if (value && value.trim() !== "") return value.trim();
	}
	if (provider === "amazon-bedrock" && hasAwsCredentials(env)) return AMBIENT_CREDENTIALS;
	if (provider === "google-vertex" && hasVertexAdc(env)) return AMBIENT_CREDENTIALS;
	return undefined;
}
