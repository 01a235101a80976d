// The API-key "login": stores a key for any provider in auth.json (0600).
// The value may also be an environment variable name or a `!command`, as
// auth.json allows; it is stored as typed, never echoed or logged.
import type { ApiKeyCredential, AuthStorage } from "../config/auth.js";
import type { LoginInteraction } from "./interaction.js";

export async function saveApiKey(auth: AuthStorage, provider: string, key: string): Promise<void> {
	const value = key.trim();
	if (!provider.trim()) throw new Error("No provider given for the API key");
	if (!value) throw new Error(`No API key entered for ${provider}; nothing was saved`);
	if (/[\r\n]/.test(value)) throw new Error("An API key is one line; nothing was saved");
	await auth.set(provider, { type: "api_key", key: value });
}

/**
 * A provider's own way of asking for its key (an extension provider's
 * `auth.apiKey.login`, 1.6.0): /login and `pi auth login` run it instead of
 * the plain "API key for …" prompt and store the credential it returns.
 */
export interface ApiKeyLogin {
	provider: string;
	/** Shown in the /login list. */
	name: string;
	login(interaction: LoginInteraction): Promise<ApiKeyCredential>;
}

const apiKeyLogins = new Map<string, ApiKeyLogin>();

export function setApiKeyLogin(login: ApiKeyLogin | undefined, provider = login?.provider): void {
	if (!provider) return;
	if (login) apiKeyLogins.set(provider, login);
	else apiKeyLogins.delete(provider);
}

export function findApiKeyLogin(provider: string): ApiKeyLogin | undefined {
	return apiKeyLogins.get(provider);
}

export function apiKeyLoginList(): ApiKeyLogin[] {
	return [...apiKeyLogins.values()];
}

/**
 * The key for `provider` as /login and `pi auth login` ask for it: the
 * provider's own login when it has one, else the plain prompt. Stored in
 * auth.json; resolves with what to tell the user.
 */
export async function loginWithApiKey(
	auth: AuthStorage,
	provider: string,
	interaction: LoginInteraction,
): Promise<string> {
	const own = findApiKeyLogin(provider);
	if (own) {
		const credential = await own.login(interaction);
		await auth.set(provider, credential);
		return `Saved the ${own.name} for ${provider}.`;
	}
	const key = await interaction.prompt({ type: "secret", message: `API key for ${provider}:` });
	await saveApiKey(auth, provider, key);
	return `Saved an API key for ${provider}.`;
}
