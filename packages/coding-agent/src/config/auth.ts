// The credential store: `<agentDir>/auth.json`, mode 0600 inside a 0700 dir.
// Entries are API keys (literal, env var name or `!command`) or OAuth tokens.
// Key lookup order: runtime override (--api-key) → auth.json → provider env
// var → fallback (models.json provider key). Expired OAuth tokens are
// refreshed under a file lock, so several processes refresh only once.
// Keys never appear in error messages.
import { chmodSync, existsSync, mkdirSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { getEnvApiKey } from "@pi/ai";
import { ConfigValueError, peekConfigValue, resolveConfigValue } from "./config-value.js";
import { withFileLock } from "./file-lock.js";
import { isPlainObject, readJsonFile, writeFileAtomic } from "./json-file.js";
import { agentPaths, getAgentDir } from "./paths.js";

export interface ApiKeyCredential {
	type: "api_key";
	/** Literal key, environment variable name, or `!command`. */
	key: string;
	/** Provider environment a native key login stored with the key (an extension provider's `auth.apiKey.login`). */
	env?: Record<string, string>;
}

export interface OAuthCredential {
	type: "oauth";
	access: string;
	refresh: string;
	/** Unix ms after which `access` must be refreshed. */
	expires: number;
	/** Provider-specific extras (account ids, enterprise urls) are kept as they are. */
	[extra: string]: unknown;
}

export type AuthCredential = ApiKeyCredential | OAuthCredential;

/** Exchanges a refresh token for new credentials (login flows plug in here). */
export type OAuthRefresher = (provider: string, credential: OAuthCredential) => Promise<OAuthCredential>;

/** Keys known outside auth.json (models.json provider `apiKey`). */
export interface FallbackKeySource {
	has(provider: string): boolean;
	get(provider: string): Promise<string | undefined>;
	/** The key without running anything (a `!command` once it has run); for synchronous readers. */
	peek?(provider: string): string | undefined;
}

export class AuthError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "AuthError";
	}
}

export interface AuthStorageOptions {
	env?: NodeJS.ProcessEnv;
	/** Shell for `!command` key values. */
	shell?: string;
	/** Refresh function for providers without their own (see `setOAuthRefresher`). */
	refreshOAuth?: OAuthRefresher;
	/** Clock for expiry checks (tests). */
	now?: () => number;
	/** Account-specific endpoint and headers for requests made with a stored OAuth login (Copilot). */
	oauthRequest?: (provider: string, credential: OAuthCredential) => OAuthRequestExtras | undefined;
	/**
	 * Awaited before a stored OAuth login is used for a key (getApiKey, refreshAfterRejection):
	 * whatever `oauthRequest` needs is loaded by then (the login flows load on demand).
	 */
	beforeOAuth?: () => Promise<void>;
}

/**
 * A provider's own resolution of request auth (an extension provider's native
 * `auth.apiKey`): it reads the stored API key entry and the environment
 * itself, so for its provider it answers instead of the entry and env lookup.
 */
export interface ProviderKeySource {
	/** Configured, as last checked (synchronous: pickers and availability ask often). */
	has(): boolean;
	/** Key, headers and endpoint for one request; undefined when not configured. */
	resolve(stored: ApiKeyCredential | undefined): Promise<OAuthRequestExtras | undefined>;
}

/** What a stored OAuth login adds to a request besides its key. */
export interface OAuthRequestExtras {
	/** The key to send, when it is not the access token itself (an extension login's getApiKey). */
	apiKey?: string;
	baseUrl?: string;
	headers?: Record<string, string>;
}

type AuthData = Record<string, AuthCredential>;

function isCredential(value: unknown): value is AuthCredential {
	if (!isPlainObject(value)) return false;
	if (value.type === "api_key") return typeof value.key === "string";
	if (value.type === "oauth") return typeof value.access === "string" && typeof value.refresh === "string";
	return false;
}

/** Replaces every occurrence of a secret in `text`. */
function redact(text: string, secrets: (string | undefined)[]): string {
	let out = text;
	for (const s of secrets) if (s && s.length >= 4) out = out.split(s).join("***");
	return out;
}

export class AuthStorage {
	private data: AuthData = {};
	private readonly runtimeKeys = new Map<string, string>();
	private readonly keySources = new Map<string, ProviderKeySource>();
	/** Headers and endpoint of each provider's latest key-source resolution (getRequestExtras). */
	private readonly resolvedExtras = new Map<string, OAuthRequestExtras>();
	private readonly refreshers = new Map<string, OAuthRefresher>();
	private readonly refreshing = new Map<string, Promise<OAuthCredential>>();
	private fallback: FallbackKeySource | undefined;
	private loadWarning: string | undefined;
	private permissionNotices: string[] = [];
	private readonly env: NodeJS.ProcessEnv;
	private readonly now: () => number;

	private constructor(
		readonly file: string | undefined,
		initial: AuthData | undefined,
		private readonly options: AuthStorageOptions,
	) {
		this.env = options.env ?? process.env;
		this.now = options.now ?? Date.now;
		if (initial) this.data = structuredClone(initial);
		this.reload();
	}

	/** Store backed by `auth.json` (default `<agentDir>/auth.json`). Nothing is written until a credential is saved. */
	static create(file: string = agentPaths(getAgentDir()).auth, options: AuthStorageOptions = {}): AuthStorage {
		return new AuthStorage(file, undefined, options);
	}

	/** Store that lives only in memory (SDK, tests). */
	static inMemory(data: AuthData = {}, options: AuthStorageOptions = {}): AuthStorage {
		return new AuthStorage(undefined, data, options);
	}

	/** Re-reads auth.json. A malformed file leaves the store empty with a warning (and is not overwritten). */
	reload(): void {
		if (!this.file) return;
		const read = readJsonFile(this.file);
		this.loadWarning = undefined;
		if (read.kind !== "missing") this.permissionNotices.push(...tightenPermissions(this.file));
		if (read.kind === "missing") this.data = {};
		else if (read.kind === "malformed") {
			this.data = {};
			this.loadWarning = `Warning: could not parse ${this.file} at line ${read.error.line}, column ${read.error.column}: ${read.error.reason}. Stored credentials are ignored until it is fixed.`;
		} else if (read.kind === "unusable") {
			this.data = {};
			this.loadWarning = `Warning: ${this.file} ${read.reason}. Stored credentials are ignored until it is fixed.`;
		} else if (!isPlainObject(read.value)) {
			this.data = {};
			this.loadWarning = `Warning: ${this.file} must contain a JSON object. Stored credentials are ignored until it is fixed.`;
		} else this.data = this.validEntries(read.value);
	}

	private validEntries(raw: Record<string, unknown>): AuthData {
		const out: AuthData = {};
		for (const [provider, value] of Object.entries(raw)) if (isCredential(value)) out[provider] = value;
		return out;
	}

	getLoadWarning(): string | undefined {
		return this.loadWarning;
	}

	/** What was found readable by others (and tightened, or not) since the last call; shown once at start-up. */
	takePermissionNotices(): string[] {
		return this.permissionNotices.splice(0);
	}

	setRuntimeApiKey(provider: string, key: string): void {
		this.runtimeKeys.set(provider, key);
	}

	removeRuntimeApiKey(provider: string): void {
		this.runtimeKeys.delete(provider);
	}

	/** The --api-key / runtime override values (for redacting them from exports). */
	getRuntimeApiKeys(): string[] {
		return [...this.runtimeKeys.values()];
	}

	setFallbackKeySource(source: FallbackKeySource | undefined): void {
		this.fallback = source;
	}

	/** Plugs in (or, with undefined, removes) a provider's own request-auth resolution. */
	setProviderKeySource(provider: string, source: ProviderKeySource | undefined): void {
		if (source) this.keySources.set(provider, source);
		else this.keySources.delete(provider);
		this.resolvedExtras.delete(provider);
	}

	setOAuthRefresher(provider: string, refresher: OAuthRefresher): void {
		this.refreshers.set(provider, refresher);
	}

	/** The stored credential (not resolved). */
	get(provider: string): AuthCredential | undefined {
		const c = this.data[provider];
		return c ? structuredClone(c) : undefined;
	}

	/**
	 * The credential a provider's model filters (filterModels,
	 * filterAllModels) judge: the key the chat path would send, from the same
	 * sources in the same order — --api-key or a registration's own key, the
	 * auth.json entry (its key resolved), the environment, models.json. A
	 * `!command` key counts once it has run (the registrar runs it when a
	 * filtering provider registers). A provider with its own key source
	 * (auth.apiKey) sees its stored entry, as its resolve() does.
	 */
	filterCredential(provider: string): AuthCredential | undefined {
		const runtime = this.runtimeKeys.get(provider);
		if (runtime) return { type: "api_key", key: runtime };
		const stored = this.data[provider];
		if (stored?.type === "api_key") {
			const key = peekConfigValue(stored.key, this.env);
			return { ...structuredClone(stored), ...(key !== undefined ? { key } : {}) };
		}
		if (stored) return structuredClone(stored);
		if (this.keySources.has(provider)) return undefined;
		const fromEnv = getEnvApiKey(provider, this.env);
		if (fromEnv) return { type: "api_key", key: fromEnv };
		const fallback = this.fallback?.peek?.(provider);
		return fallback ? { type: "api_key", key: fallback } : undefined;
	}

	/** Providers with a stored credential. */
	list(): string[] {
		return Object.keys(this.data);
	}

	/** Stores a credential (locked read-modify-write of auth.json; other providers' entries on disk are kept). */
	async set(provider: string, credential: AuthCredential): Promise<void> {
		this.data[provider] = structuredClone(credential);
		await this.persist((onDisk) => {
			onDisk[provider] = credential;
		});
	}

	async remove(provider: string): Promise<void> {
		delete this.data[provider];
		await this.persist((onDisk) => {
			delete onDisk[provider];
		});
	}

	/** Whether some credential exists for the provider, without running commands or refreshing. */
	hasAuth(provider: string): boolean {
		return (
			this.runtimeKeys.has(provider) ||
			(this.keySources.get(provider)?.has() ?? false) ||
			provider in this.data ||
			getEnvApiKey(provider, this.env) !== undefined ||
			(this.fallback?.has(provider) ?? false)
		);
	}

	/**
	 * The key to send for a provider, or undefined when none is configured.
	 * Throws AuthError when a configured source fails (a `!command` error, an
	 * OAuth refresh failure); the message never contains the secret.
	 */
	async getApiKey(provider: string): Promise<string | undefined> {
		const runtime = this.runtimeKeys.get(provider);
		if (runtime) return runtime;
		const stored = this.data[provider];
		const source = this.keySources.get(provider);
		if (source && stored?.type !== "oauth") {
			const resolved = await source.resolve(stored ? structuredClone(stored) : undefined);
			const { apiKey, ...extras } = resolved ?? {};
			if (extras.baseUrl || extras.headers) this.resolvedExtras.set(provider, extras);
			else this.resolvedExtras.delete(provider);
			return apiKey;
		}
		if (stored?.type === "api_key") {
			try {
				return await resolveConfigValue(stored.key, {
					env: this.env,
					shell: this.options.shell,
					label: `the "${provider}" key in auth.json`,
				});
			} catch (error) {
				if (error instanceof ConfigValueError) throw new AuthError(error.message);
				throw error;
			}
		}
		if (stored?.type === "oauth") {
			await this.options.beforeOAuth?.();
			return this.keyOf(provider, await this.freshOAuth(provider, stored));
		}
		const fromEnv = getEnvApiKey(provider, this.env);
		if (fromEnv) return fromEnv;
		return this.fallback?.get(provider);
	}

	/**
	 * Endpoint and headers the stored OAuth login of `provider` needs (after
	 * `getApiKey` has refreshed it); undefined for API keys and unknown logins.
	 */
	getRequestExtras(provider: string): OAuthRequestExtras | undefined {
		if (this.runtimeKeys.has(provider)) return undefined;
		const stored = this.data[provider];
		if (stored?.type !== "oauth" && this.keySources.has(provider)) return this.resolvedExtras.get(provider);
		if (stored?.type !== "oauth") return undefined;
		return this.options.oauthRequest?.(provider, stored);
	}

	/** Whether the key for `provider` comes from a stored OAuth login (which a refresh may renew). */
	usesOAuth(provider: string): boolean {
		return !this.runtimeKeys.has(provider) && this.data[provider]?.type === "oauth";
	}

	/**
	 * The provider rejected `rejectedAccess` before it expired (revoked, rotated):
	 * refresh once, under the lock. When another process already stored a
	 * different token, that one is taken instead. Returns the new access token.
	 */
	async refreshAfterRejection(provider: string, rejectedAccess: string): Promise<string> {
		await this.options.beforeOAuth?.();
		const stored = this.data[provider];
		if (stored?.type !== "oauth") throw new AuthError(`No OAuth login is stored for "${provider}"`);
		if (this.keyOf(provider, stored) !== rejectedAccess && this.now() < stored.expires) {
			return this.keyOf(provider, stored);
		}
		// Treat the rejected token as expired, so refreshOnce refreshes unless the disk has a newer one.
		const forced: OAuthCredential = { ...stored, expires: 0 };
		let pending = this.refreshing.get(provider);
		if (!pending) {
			pending = this.refreshOnce(provider, forced, rejectedAccess).finally(() => this.refreshing.delete(provider));
			this.refreshing.set(provider, pending);
		}
		return this.keyOf(provider, await pending);
	}

	/** The key a login sends: its flow's (an extension's getApiKey), else the access token. */
	private keyOf(provider: string, credential: OAuthCredential): string {
		try {
			return this.options.oauthRequest?.(provider, credential)?.apiKey ?? credential.access;
		} catch (error) {
			const message = redact((error as Error)?.message ?? String(error), [credential.refresh, credential.access]);
			throw new AuthError(`Could not get the key of the OAuth login for "${provider}": ${message}`);
		}
	}

	private async freshOAuth(provider: string, credential: OAuthCredential): Promise<OAuthCredential> {
		if (this.now() < credential.expires) return credential;
		let pending = this.refreshing.get(provider);
		if (!pending) {
			pending = this.refreshOnce(provider, credential).finally(() => this.refreshing.delete(provider));
			this.refreshing.set(provider, pending);
		}
		return pending;
	}

	private async refreshOnce(
		provider: string,
		credential: OAuthCredential,
		rejectedAccess?: string,
	): Promise<OAuthCredential> {
		const refresher = this.refreshers.get(provider) ?? this.options.refreshOAuth;
		if (!refresher) {
			throw new AuthError(`The OAuth login for "${provider}" has expired and cannot be refreshed here; log in again.`);
		}
		const run = async (current: OAuthCredential): Promise<OAuthCredential> => {
			try {
				const next = await refresher(provider, current);
				return { ...next, type: "oauth" };
			} catch (error) {
				const message = redact((error as Error)?.message ?? String(error), [current.refresh, current.access]);
				throw new AuthError(`Could not refresh the OAuth login for "${provider}": ${message}`);
			}
		};
		if (!this.file) {
			const next = await run(credential);
			this.data[provider] = next;
			return next;
		}
		const file = this.file;
		return withFileLock(
			file,
			async () => {
				// Another process may have refreshed while we waited for the lock.
				const onDisk = this.readDisk();
				const latest = onDisk[provider];
				if (
					latest?.type === "oauth" &&
					this.now() < latest.expires &&
					this.keyOf(provider, latest) !== rejectedAccess
				) {
					this.data[provider] = latest;
					return latest;
				}
				const next = await run(latest?.type === "oauth" ? latest : credential);
				onDisk[provider] = next;
				this.writeDisk(onDisk);
				this.data[provider] = next;
				return next;
			},
			{ dirMode: 0o700 },
		);
	}

	private readDisk(): AuthData {
		if (!this.file) return {};
		const read = readJsonFile(this.file);
		if (read.kind === "missing") return {};
		if (read.kind === "unusable") throw new AuthError(`${this.file} ${read.reason}; not changing it.`);
		if (read.kind === "malformed" || !isPlainObject(read.value)) {
			throw new AuthError(`${this.file} is malformed; not changing it. Fix or remove it first.`);
		}
		// Keep every entry as it is (including ones we do not understand).
		return read.value as AuthData;
	}

	private writeDisk(data: AuthData): void {
		if (!this.file) return;
		ensurePrivateDir(dirname(this.file));
		writeFileAtomic(this.file, `${JSON.stringify(data, null, 2)}\n`, 0o600);
	}

	private async persist(change: (onDisk: AuthData) => void): Promise<void> {
		if (!this.file) return;
		ensurePrivateDir(dirname(this.file));
		await withFileLock(
			this.file,
			() => {
				const onDisk = this.readDisk();
				change(onDisk);
				this.writeDisk(onDisk);
				this.data = this.validEntries(onDisk);
			},
			{ dirMode: 0o700 },
		);
	}
}

/** Creates the directory as 0700 (explicitly, whatever the umask); an existing one is left alone. */
function ensurePrivateDir(dir: string): void {
	if (existsSync(dir)) return;
	mkdirSync(dir, { recursive: true, mode: 0o700 });
	chmodSync(dir, 0o700);
}

/**
 * auth.json holds keys and tokens: found readable or writable by group or
 * others (0644 from an old version, a copy, a restore from backup), it is set
 * to 0600 and its directory to 0700, and the user is told once. When that is
 * not possible (not the owner, read-only file system) the notice says how to
 * fix it by hand.
 */
function tightenPermissions(file: string): string[] {
	const notices: string[] = [];
	for (const [path, mode, what] of [
		[file, 0o600, "file"],
		[dirname(file), 0o700, "directory"],
	] as const) {
		let current: number;
		try {
			current = statSync(path).mode & 0o777;
		} catch {
			continue;
		}
		if ((current & 0o077) === 0) continue;
		const was = `0${current.toString(8)}`;
		try {
			chmodSync(path, mode);
			notices.push(
				`Note: ${path} (credentials ${what}) was open to other users (mode ${was}); pi changed it to 0${mode.toString(8)}.`,
			);
		} catch (error) {
			const code = (error as NodeJS.ErrnoException).code ?? String(error);
			notices.push(
				`Warning: ${path} (credentials ${what}) is open to other users (mode ${was}) and pi could not change it (${code}). Run: chmod ${mode.toString(8)} '${path}'`,
			);
		}
	}
	return notices;
}
