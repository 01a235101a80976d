import { readFileSync } from "node:fs";
import { type ApiAdapter, failedStream } from "../adapter.js";
import {
	AMBIENT_CREDENTIALS,
	cloudCredentialsHint,
	googleAdcPath,
	googleCloudLocation,
	googleCloudProject,
} from "../cloud-credentials.js";
import { ProviderFault } from "../errors.js";
import { streamGoogle } from "./google-generative-ai.js";

const CLOUD_PLATFORM_SCOPE = "https://www.googleapis.com/auth/cloud-platform";
/** Where google-auth-library sends every token request, whatever the key file says. */
const GOOGLE_TOKEN_URL = "https://oauth2.googleapis.com/token";

/** The `token_uri` a service-account key names, when it names another than Google's. */
function keyTokenUri(env: NodeJS.ProcessEnv): string | undefined {
	try {
		const key = JSON.parse(readFileSync(googleAdcPath(env), "utf8")) as { token_uri?: unknown };
		return typeof key.token_uri === "string" && key.token_uri !== GOOGLE_TOKEN_URL ? key.token_uri : undefined;
	} catch {
		return undefined; // google-auth-library reports an unreadable file itself
	}
}

/**
 * The fetch google-auth-library's token requests go through: the global one
 * (its default would import node-fetch), with the token request sent to the
 * key's own `token_uri` (a private or test token endpoint) when it names one.
 */
function authFetch(tokenUri: string | undefined): typeof fetch {
	return async (input, init) => {
		const url = input instanceof Request ? input.url : String(input);
		const response = await fetch(tokenUri && url === GOOGLE_TOKEN_URL ? tokenUri : input, init);
		if (response.ok || url !== GOOGLE_TOKEN_URL) return response;
		// A refused token request is a credentials problem, whatever its status (invalid_grant is a 400).
		const text = (await response.text()).replace(/\s+/g, " ").trim().slice(0, 300);
		throw new ProviderFault(
			`Google Vertex AI could not get an access token (${response.status} from ${tokenUri ?? GOOGLE_TOKEN_URL}): ${text || "no body"}. Check the credentials in ${googleAdcPath(process.env)}`,
			{ kind: "auth", status: response.status, code: "token_refused", retryable: false },
		);
	};
}

/**
 * The `google-vertex` wire adapter: Gemini on Google Cloud's Vertex AI, over
 * the same `@google/genai` SDK as the Gemini API (in its Vertex mode), so the
 * request body and the stream are read as in google-generative-ai.ts. The
 * credentials, as 1.6.0 takes them:
 * - a Google Cloud API key (`GOOGLE_CLOUD_API_KEY`, or a key stored for the
 *   provider): Vertex's express mode, the key in `x-goog-api-key`;
 * - otherwise Application Default Credentials through google-auth-library
 *   (which the SDK uses): a service-account key or a gcloud user login in
 *   `GOOGLE_APPLICATION_CREDENTIALS` or gcloud's default file, with
 *   `GOOGLE_CLOUD_PROJECT` (or `GCLOUD_PROJECT`) and `GOOGLE_CLOUD_LOCATION`
 *   naming the project and region; an OAuth access token is fetched (from the
 *   key's `token_uri` when it names its own) and sent as a bearer token.
 * The endpoint is the region's (`https://<location>-aiplatform.googleapis.com`)
 * unless the model has a baseUrl (a proxy, a Private Service Connect endpoint).
 */
export const adapter: ApiAdapter = {
	stream(model, context, options) {
		const baseUrl = model.baseUrl?.trim() || undefined;
		if (options.apiKey !== AMBIENT_CREDENTIALS) {
			return streamGoogle(model, context, options, (httpOptions) => ({
				vertexai: true,
				apiKey: options.apiKey,
				httpOptions: { ...httpOptions, ...(baseUrl ? { baseUrl } : {}) },
			}));
		}
		const project = googleCloudProject(process.env);
		const location = googleCloudLocation(process.env);
		if (!project || !location) {
			return failedStream(model, cloudCredentialsHint("google-vertex") ?? "Google Vertex AI has no credentials", {
				kind: "auth",
				code: "missing_credentials",
				retryable: false,
			});
		}
		return streamGoogle(model, context, options, (httpOptions) => ({
			vertexai: true,
			project,
			location,
			googleAuthOptions: {
				scopes: [CLOUD_PLATFORM_SCOPE],
				clientOptions: { transporterOptions: { fetchImplementation: authFetch(keyTokenUri(process.env)) } },
			},
			httpOptions: { ...httpOptions, ...(baseUrl ? { baseUrl } : {}) },
		}));
	},
};
