import { type ApiAdapter, failedStream } from "../adapter.js";
import {
	AMBIENT_CREDENTIALS,
	cloudCredentialsHint,
	googleCloudLocation,
	googleCloudProject,
} from "../cloud-credentials.js";
import { streamGoogle } from "./google-generative-ai.js";
import { vertexAuthClient } from "./google-vertex-auth.js";

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
 *   key's `token_uri` when it names its own), sent as a bearer token and kept
 *   for the next requests until shortly before it expires (google-vertex-auth.ts).
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
		return streamGoogle(model, context, options, async (httpOptions) => ({
			vertexai: true,
			project,
			location,
			googleAuthOptions: { authClient: await vertexAuthClient(process.env) },
			httpOptions: { ...httpOptions, ...(baseUrl ? { baseUrl } : {}) },
		}));
	},
};
