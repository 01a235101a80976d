// An extension provider's native `auth` (the object form of
// pi.registerProvider, 1.6.0's pi-ai `Provider.auth`) carried out on pi's
// credential store and login list:
// - `apiKey.resolve()` becomes the provider's key source: each request's key,
//   headers and endpoint come from it, given the auth.json entry (a key stored
//   by /login or `pi auth login`) and the environment; `check()` (else one
//   `resolve()`) at registration decides whether the provider is available;
// - `oauth` becomes a login flow (/login, `pi auth login`) whose refresh the
//   store runs under its lock and whose async `toAuth()` gives the request
//   auth of the stored tokens (derived after each login and refresh, and once
//   at registration for tokens already stored).
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import type { ApiKeyLogin } from "../auth/api-key.js";
import type { LoginInteraction } from "../auth/interaction.js";
import { LoginError } from "../auth/interaction.js";
import type { LoginFlow } from "../auth/types.js";
import { AuthError, type AuthStorage, type OAuthCredential, type ProviderKeySource } from "../config/auth.js";
import type {
	ProviderApiKeyAuth,
	ProviderApiKeyCredential,
	ProviderAuthContext,
	ProviderAuthInteraction,
	ProviderModelAuth,
	ProviderOAuthAuth,
	ProviderOAuthCredential,
} from "../extensions/provider-types.js";

function describe(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

export function authContext(env: NodeJS.ProcessEnv): ProviderAuthContext {
	return {
		env: async (name) => env[name],
		fileExists: async (path) => existsSync(path.startsWith("~") ? homedir() + path.slice(1) : path),
	};
}

/** `auth.apiKey` as the provider's key source; `check()` settles availability (await it before the session starts). */
export function nativeKeySource(
	provider: string,
	apiKey: ProviderApiKeyAuth,
	store: AuthStorage,
	env: NodeJS.ProcessEnv,
	extensionPath: string,
): { source: ProviderKeySource; check(): Promise<void> } {
	const ctx = authContext(env);
	let configured = false;
	const storedKey = () => {
		const stored = store.get(provider);
		return stored?.type === "api_key" ? stored : undefined;
	};
	const failure = (what: string, error: unknown) =>
		new AuthError(`The ${what} of provider "${provider}" failed: ${describe(error)} (${extensionPath})`);
	const source: ProviderKeySource = {
		has: () => configured,
		async resolve(stored) {
			let result: Awaited<ReturnType<ProviderApiKeyAuth["resolve"]>>;
			try {
				result = await apiKey.resolve({ ctx, credential: stored, signal: new AbortController().signal });
			} catch (error) {
				throw failure("auth.apiKey.resolve()", error);
			}
			configured = result !== undefined;
			return result?.auth;
		},
	};
	return {
		source,
		async check() {
			const signal = new AbortController().signal;
			try {
				configured = apiKey.check
					? (await apiKey.check({ ctx, credential: storedKey(), signal })) !== undefined
					: (await apiKey.resolve({ ctx, credential: storedKey(), signal })) !== undefined;
			} catch (error) {
				configured = false;
				throw failure(apiKey.check ? "auth.apiKey.check()" : "auth.apiKey.resolve()", error);
			}
		},
	};
}

/** pi's login interaction in the shape a native login asks through. */
function nativeInteraction(interaction: LoginInteraction): ProviderAuthInteraction {
	return {
		signal: interaction.signal,
		notify(event) {
			if (event.type === "info") interaction.notify({ type: "progress", message: event.message });
			else interaction.notify(event);
		},
		prompt(prompt) {
			switch (prompt.type) {
				case "select":
					return interaction.prompt({
						type: "select",
						message: prompt.message,
						options: prompt.options.map((o) => ({ id: o.id, label: o.label })),
					});
				case "secret":
					return interaction.prompt({ type: "secret", message: prompt.message });
				case "manual_code":
					return interaction.prompt({
						type: "manual_code",
						message: prompt.message,
						signal: prompt.signal ?? interaction.signal,
					});
				default:
					return interaction.prompt({ type: "text", message: prompt.message, placeholder: prompt.placeholder });
			}
		},
	};
}

function checkedTokens(result: unknown, provider: string, what: string, extensionPath: string): OAuthCredential {
	const r = result as Partial<ProviderOAuthCredential> | null | undefined;
	if (!r || typeof r.access !== "string" || typeof r.refresh !== "string" || typeof r.expires !== "number") {
		throw new LoginError(
			`The ${what} of provider "${provider}" returned no {access, refresh, expires} credential (${extensionPath})`,
		);
	}
	return { ...(r as ProviderOAuthCredential), type: "oauth" };
}

/**
 * `auth.oauth` as a login flow. `toAuth` is async and the store asks for a
 * request's auth synchronously, so its answer is kept per access token:
 * derived after each login and refresh, and by `prime` for stored tokens.
 */
export function nativeLoginFlow(
	provider: string,
	oauth: ProviderOAuthAuth,
	extensionPath: string,
): { flow: LoginFlow; prime(credential: OAuthCredential): Promise<void> } {
	const derived = new Map<string, ProviderModelAuth>();
	const derive = async (credential: OAuthCredential) => {
		try {
			derived.set(credential.access, await oauth.toAuth(credential as ProviderOAuthCredential));
		} catch (error) {
			throw new LoginError(
				`auth.oauth.toAuth() of provider "${provider}" failed: ${describe(error)} (${extensionPath})`,
			);
		}
	};
	const flow: LoginFlow = {
		id: provider,
		name: oauth.name,
		async login(interaction) {
			const credential = checkedTokens(
				await oauth.login(nativeInteraction(interaction)),
				provider,
				"login",
				extensionPath,
			);
			await derive(credential);
			return credential;
		},
		async refresh(credential, signal) {
			const next = checkedTokens(
				await oauth.refresh(credential as ProviderOAuthCredential, signal ?? new AbortController().signal),
				provider,
				"token refresh",
				extensionPath,
			);
			await derive(next);
			return next;
		},
		requestAuth(credential) {
			const auth = derived.get(credential.access);
			return { apiKey: auth?.apiKey ?? credential.access, baseUrl: auth?.baseUrl, headers: auth?.headers };
		},
	};
	return { flow, prime: derive };
}

/**
 * `auth.apiKey.login` as the provider's key login (/login, `pi auth login`):
 * what it returns is stored as the provider's auth.json key entry (the key
 * and any provider environment), which `resolve()` is then given.
 */
export function nativeApiKeyLogin(provider: string, apiKey: ProviderApiKeyAuth, extensionPath: string): ApiKeyLogin {
	return {
		provider,
		name: apiKey.name,
		async login(interaction) {
			if (typeof apiKey.login !== "function") throw new LoginError(`provider "${provider}" has no auth.apiKey.login`);
			// Called on the object so a login written as a method keeps its `this`.
			const result = (await apiKey.login(nativeInteraction(interaction))) as Partial<ProviderApiKeyCredential> | null;
			const env = result?.env;
			const envOk =
				env === undefined ||
				(env !== null && typeof env === "object" && Object.values(env).every((v) => typeof v === "string"));
			if (result?.type !== "api_key" || (result.key !== undefined && typeof result.key !== "string") || !envOk) {
				throw new LoginError(
					`auth.apiKey.login() of provider "${provider}" returned no { type: "api_key", key?, env? } credential (${extensionPath})`,
				);
			}
			if (!result.key && !env) {
				throw new LoginError(
					`auth.apiKey.login() of provider "${provider}" returned neither a key nor an environment (${extensionPath})`,
				);
			}
			return { type: "api_key", key: result.key ?? "", ...(env ? { env: { ...env } } : {}) };
		},
	};
}
