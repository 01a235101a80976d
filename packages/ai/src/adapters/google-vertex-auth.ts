import { readFileSync, statSync } from "node:fs";
import type { AuthClient } from "google-auth-library";
import { googleAdcPath } from "../cloud-credentials.js";
import { ProviderFault } from "../errors.js";

const CLOUD_PLATFORM_SCOPE = "https://www.googleapis.com/auth/cloud-platform";
/** Where google-auth-library sends every token request, whatever the key file says. */
const GOOGLE_TOKEN_URL = "https://oauth2.googleapis.com/token";

/**
 * Google Vertex AI's Application Default Credentials, one auth client per
 * credentials file for the life of the process: google-auth-library's client
 * keeps the access token it fetched and fetches a new one only when the old
 * one is about to expire (within its eager-refresh margin, 5 minutes), so
 * a session's requests share one token instead of signing a JWT and asking the
 * token endpoint before each. A file that changes (rotated key, new gcloud
 * login) is a new client. A client whose creation failed is not kept.
 */
const clients = new Map<string, Promise<AuthClient>>();

export function vertexAuthClient(env: NodeJS.ProcessEnv): Promise<AuthClient> {
	const path = googleAdcPath(env);
	let stamp = "missing";
	try {
		const stat = statSync(path);
		stamp = `${stat.mtimeMs}:${stat.size}`;
	} catch {
		// google-auth-library reports the missing file itself
	}
	const tokenUri = keyTokenUri(path);
	const cacheKey = `${path}\0${stamp}\0${tokenUri ?? ""}`;
	let client = clients.get(cacheKey);
	if (!client) {
		client = import("google-auth-library").then(({ GoogleAuth }) =>
			new GoogleAuth({
				scopes: [CLOUD_PLATFORM_SCOPE],
				clientOptions: { transporterOptions: { fetchImplementation: authFetch(path, tokenUri) } },
			}).getClient(),
		);
		clients.set(cacheKey, client);
		client.catch(() => clients.delete(cacheKey));
	}
	return client;
}

/** The `token_uri` a service-account key names, when it names another than Google's. */
function keyTokenUri(path: string): string | undefined {
	try {
		const key = JSON.parse(readFileSync(path, "utf8")) as { token_uri?: unknown };
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
function authFetch(path: string, tokenUri: string | undefined): typeof fetch {
	return async (input, init) => {
		const url = input instanceof Request ? input.url : String(input);
		const response = await fetch(tokenUri && url === GOOGLE_TOKEN_URL ? tokenUri : input, init);
		if (response.ok || url !== GOOGLE_TOKEN_URL) return response;
		// A refused token request is a credentials problem, whatever its status (invalid_grant is a 400).
		const text = (await response.text()).replace(/\s+/g, " ").trim().slice(0, 300);
		throw new ProviderFault(
			`Google Vertex AI could not get an access token (${response.status} from ${tokenUri ?? GOOGLE_TOKEN_URL}): ${text || "no body"}. Check the credentials in ${path}`,
			{ kind: "auth", status: response.status, code: "token_refused", retryable: false },
		);
	};
}
