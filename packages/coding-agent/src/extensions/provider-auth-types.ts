// The provider members of 1.6.0's object form that go beyond static config:
// native authentication (`auth.apiKey` resolving request auth from the stored
// credential and the environment, `auth.oauth` with an async `toAuth`) and
// model discovery (`refreshModels`). Re-exported by provider-types.ts.
/** Request auth for one request: the key, and optionally headers and an endpoint. */
export interface ProviderModelAuth {
	apiKey?: string;
	headers?: Record<string, string>;
	baseUrl?: string;
}

/** A stored API-key credential as a native resolver sees it (auth.json's entry). */
export interface ProviderApiKeyCredential {
	type: "api_key";
	key?: string;
	env?: Record<string, string>;
}

/** A stored OAuth credential (auth.json's entry). */
export interface ProviderOAuthCredential {
	type: "oauth";
	access: string;
	refresh: string;
	expires: number;
	[extra: string]: unknown;
}

/** Environment access for resolvers (the process environment; `~` expands in paths). */
export interface ProviderAuthContext {
	env(name: string): Promise<string | undefined>;
	fileExists(path: string): Promise<boolean>;
}

export interface ProviderAuthResult {
	auth: ProviderModelAuth;
	env?: Record<string, string>;
	/** Shown in status lines ("stored API key", "MY_ENV"). */
	source?: string;
}

export type ProviderAuthPrompt = { signal?: AbortSignal } & (
	| { type: "text" | "secret" | "manual_code"; message: string; placeholder?: string }
	| { type: "select"; message: string; options: readonly { id: string; label: string; description?: string }[] }
);

export type ProviderAuthEvent =
	| { type: "info"; message: string; links?: readonly { url: string; label?: string }[] }
	| { type: "auth_url"; url: string; instructions?: string }
	| { type: "device_code"; userCode: string; verificationUri: string; expiresInSeconds?: number }
	| { type: "progress"; message: string };

/** What a native login can ask of whoever runs it (/login, `pi auth login`). */
export interface ProviderAuthInteraction {
	signal: AbortSignal;
	prompt(prompt: ProviderAuthPrompt): Promise<string>;
	notify(event: ProviderAuthEvent): void;
}

/** `auth.apiKey`: request auth resolved from the stored key and ambient sources. */
export interface ProviderApiKeyAuth {
	name: string;
	/** Asks for the key (and provider environment) /login stores; absent: ambient sources only. */
	login?(interaction: ProviderAuthInteraction): Promise<ProviderApiKeyCredential>;
	/** Side-effect-free availability; without it `resolve` answers. */
	check?(input: {
		ctx: ProviderAuthContext;
		credential?: ProviderApiKeyCredential;
		signal: AbortSignal;
	}): Promise<{ source?: string; type: "api_key" | "oauth" } | undefined>;
	/** Undefined: not configured. */
	resolve(input: {
		ctx: ProviderAuthContext;
		credential?: ProviderApiKeyCredential;
		signal: AbortSignal;
	}): Promise<ProviderAuthResult | undefined>;
}

/** `auth.oauth`: an account login whose request auth `toAuth` derives from the stored tokens. */
export interface ProviderOAuthAuth {
	name: string;
	isSubscription?: boolean;
	loginLabel?: string;
	login(interaction: ProviderAuthInteraction): Promise<ProviderOAuthCredential>;
	refresh(credential: ProviderOAuthCredential, signal: AbortSignal): Promise<ProviderOAuthCredential>;
	toAuth(credential: ProviderOAuthCredential): Promise<ProviderModelAuth>;
}

/** A provider object's native `auth` (at least one of the two). */
export interface ProviderAuth {
	apiKey?: ProviderApiKeyAuth;
	oauth?: ProviderOAuthAuth;
}

/** A provider's persisted catalog snapshot (`context.stored`, `publish({ persist })`). */
export interface ProviderModelsStoreEntry {
	/** JSON the extension chooses (typically its model list). */
	[key: string]: unknown;
}

/** What `refreshModels(context)` is given. */
export interface ProviderRefreshContext {
	/** The provider's stored credential, if any. */
	credential?: ProviderApiKeyCredential | ProviderOAuthCredential;
	/** The snapshot last persisted with `publish({ persist })`. */
	stored?: Readonly<ProviderModelsStoreEntry>;
	/**
	 * Persists (`persist`; `null` deletes) and/or runs `update` synchronously.
	 * Resolves false when a newer refresh of the provider has started (nothing is applied).
	 */
	publish(publication: { persist?: ProviderModelsStoreEntry | null; update?: () => void }): Promise<boolean>;
	/** False when pi runs offline (PI_OFFLINE, --offline): use `stored` only. */
	allowNetwork: boolean;
	force?: boolean;
	signal: AbortSignal;
	baseUrl?: string;
}
