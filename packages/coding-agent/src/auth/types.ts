// The contract of an account login (OAuth) for one provider. Each flow lives
// in its own file and is loaded only when a login or refresh needs it.
import type { OAuthCredential } from "../config/auth.js";
import type { LoginInteraction } from "./interaction.js";

/** What a request to the provider needs from the stored login. */
export interface RequestAuth {
	apiKey: string;
	/** Account-specific endpoint (Copilot's proxy host). */
	baseUrl?: string;
	headers?: Record<string, string>;
}

export interface LoginFlow {
	/** Provider id: the key in auth.json and the catalog's provider. */
	id: string;
	/** Shown in pickers. */
	name: string;
	/** Runs the login; resolves with the credential to store. Rejects with LoginCancelledError or LoginError. */
	login(interaction: LoginInteraction): Promise<OAuthCredential>;
	/**
	 * New credentials from the refresh token. Rejects with `LoginError(…, loginAgain=true)`
	 * when the refresh token was refused (expired or revoked).
	 */
	refresh(credential: OAuthCredential, signal?: AbortSignal): Promise<OAuthCredential>;
	/** The key, endpoint and headers for a request with this credential. */
	requestAuth(credential: OAuthCredential): RequestAuth;
}
