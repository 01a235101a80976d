// The API-key "login": stores a key for any provider in auth.json (0600).
// The value may also be an environment variable name or a `!command`, as
// auth.json allows; it is stored as typed, never echoed or logged.
import type { AuthStorage } from "../config/auth.js";

export async function saveApiKey(auth: AuthStorage, provider: string, key: string): Promise<void> {
	const value = key.trim();
	if (!provider.trim()) throw new Error("No provider given for the API key");
	if (!value) throw new Error(`No API key entered for ${provider}; nothing was saved`);
	if (/[\r\n]/.test(value)) throw new Error("An API key is one line; nothing was saved");
	await auth.set(provider, { type: "api_key", key: value });
}
