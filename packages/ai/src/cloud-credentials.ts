import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/**
 * Cloud providers whose SDK finds its own credentials (Amazon Bedrock, Google
 * Vertex AI): whether the environment configures some, as 1.6.0 decides it,
 * and what to tell a user when it does not. No SDK is loaded here.
 */

/** The key `getEnvApiKey` reports for such a provider when the SDK is to find the credentials itself. */
export const AMBIENT_CREDENTIALS = "<authenticated>";

type Env = NodeJS.ProcessEnv;
const isSet = (env: Env, name: string) => (env[name]?.trim() ?? "") !== "";

/** AWS credentials for Bedrock: a profile, IAM keys, a Bedrock bearer token, ECS task or IRSA roles. */
export function hasAwsCredentials(env: Env): boolean {
	return (
		isSet(env, "AWS_PROFILE") ||
		(isSet(env, "AWS_ACCESS_KEY_ID") && isSet(env, "AWS_SECRET_ACCESS_KEY")) ||
		isSet(env, "AWS_BEARER_TOKEN_BEDROCK") ||
		isSet(env, "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI") ||
		isSet(env, "AWS_CONTAINER_CREDENTIALS_FULL_URI") ||
		isSet(env, "AWS_WEB_IDENTITY_TOKEN_FILE")
	);
}

/** The Application Default Credentials file Google's libraries read: the named one, else gcloud's. */
export function googleAdcPath(env: Env): string {
	const named = env.GOOGLE_APPLICATION_CREDENTIALS?.trim();
	if (named) return named;
	const home = env.HOME?.trim() || homedir();
	return join(home, ".config", "gcloud", "application_default_credentials.json");
}

export function googleCloudProject(env: Env): string | undefined {
	return env.GOOGLE_CLOUD_PROJECT?.trim() || env.GCLOUD_PROJECT?.trim() || undefined;
}

export function googleCloudLocation(env: Env): string | undefined {
	return env.GOOGLE_CLOUD_LOCATION?.trim() || undefined;
}

/** Vertex AI through ADC: a credentials file, a project and a location. */
export function hasVertexAdc(env: Env): boolean {
	return (
		googleCloudProject(env) !== undefined && googleCloudLocation(env) !== undefined && existsSync(googleAdcPath(env))
	);
}

/**
 * The cloud provider whose credentials a model's api needs ("amazon-bedrock",
 * "google-vertex"), whatever the provider is called in models.json; undefined
 * for apis that take a plain key.
 */
export function cloudProviderOf(model: { api: string }): "amazon-bedrock" | "google-vertex" | undefined {
	if (model.api === "bedrock-converse-stream") return "amazon-bedrock";
	if (model.api === "google-vertex") return "google-vertex";
	return undefined;
}

/** What to set, per cloud provider, when no credentials were found; undefined for other providers. */
export function cloudCredentialsHint(provider: string, env: Env = process.env): string | undefined {
	if (provider === "amazon-bedrock") {
		return "Amazon Bedrock found no AWS credentials in the environment: set AWS_PROFILE, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (plus AWS_SESSION_TOKEN for temporary keys), or AWS_BEARER_TOKEN_BEDROCK; and AWS_REGION unless the profile names one";
	}
	if (provider === "google-vertex") {
		const missing: string[] = [];
		if (!googleCloudProject(env)) missing.push("GOOGLE_CLOUD_PROJECT (or GCLOUD_PROJECT) is not set");
		if (!googleCloudLocation(env)) missing.push("GOOGLE_CLOUD_LOCATION is not set");
		const adc = googleAdcPath(env);
		if (!existsSync(adc))
			missing.push(
				`no credentials file at ${adc} (${env.GOOGLE_APPLICATION_CREDENTIALS?.trim() ? "GOOGLE_APPLICATION_CREDENTIALS" : "run `gcloud auth application-default login`, or set GOOGLE_APPLICATION_CREDENTIALS to a service-account key"})`,
			);
		return `Google Vertex AI has no credentials: set GOOGLE_CLOUD_API_KEY, or use Application Default Credentials (${missing.join("; ")})`;
	}
	return undefined;
}
