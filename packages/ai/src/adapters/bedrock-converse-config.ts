import { AMBIENT_CREDENTIALS } from "../cloud-credentials.js";
import type { Model } from "../types.js";

/** Standard Bedrock runtime endpoints: the SDK derives these from the region itself. */
const STANDARD_ENDPOINT = /^https:\/\/bedrock-runtime(?:-fips)?\.([a-z0-9-]+)\.amazonaws\.com(?:\.cn)?\/?$/;

/**
 * Where a Bedrock request goes and how it authenticates, from the environment
 * (the names 1.6.0 documents) and the model:
 * - the region: `AWS_REGION`, else `AWS_DEFAULT_REGION`, else the one the AWS
 *   SDK finds in the profile's config (`regionFromSdk`), else the region of the
 *   model's standard endpoint (`bedrock-runtime.<region>.amazonaws.com`), else us-east-1;
 * - the endpoint: none for a standard endpoint (the SDK builds it from the
 *   region), else the model's baseUrl as it is (a VPC endpoint, a proxy, a test server);
 * - the credentials: a bearer token (a Bedrock API key: the request's key, or
 *   `AWS_BEARER_TOKEN_BEDROCK`) when there is one, else SigV4 with the SDK's
 *   default chain (env keys, `AWS_PROFILE`, SSO, ECS, IRSA, instance roles).
 */
export interface BedrockTarget {
	/** Region set in the environment, if any. */
	envRegion: string | undefined;
	/** Region of the model's standard endpoint, used when nothing else names one. */
	fallbackRegion: string;
	endpoint: string | undefined;
	bearerToken: string | undefined;
}

export function resolveBedrockTarget(
	model: Pick<Model, "baseUrl">,
	apiKey: string,
	env: NodeJS.ProcessEnv = process.env,
): BedrockTarget {
	const base = model.baseUrl?.trim() ?? "";
	const standard = STANDARD_ENDPOINT.exec(base);
	const bearer = apiKey && apiKey !== AMBIENT_CREDENTIALS ? apiKey : env.AWS_BEARER_TOKEN_BEDROCK?.trim();
	return {
		envRegion: env.AWS_REGION?.trim() || env.AWS_DEFAULT_REGION?.trim() || undefined,
		fallbackRegion: standard?.[1] ?? "us-east-1",
		endpoint: base === "" || standard ? undefined : base.replace(/\/+$/, ""),
		bearerToken: bearer || undefined,
	};
}
