// OAuth for remote servers through the SDK's auth flow (`auth()` from
// @modelcontextprotocol/sdk/client/auth.js: protected-resource and
// authorization-server discovery, dynamic client registration, PKCE,
// refresh). We supply the OAuthClientProvider: credentials live in
// `<agentDir>/mcp-auth.json` (credential-store.ts) and never reach logs or
// sessions. A background connection
// only uses and refreshes stored tokens; signing in (opening the
// authorization page and taking the redirect on a loopback port) happens
// only on `/mcp login` or `pi mcp login`.
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { OAuthClientProvider, OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import type {
	OAuthClientInformationMixed,
	OAuthClientMetadata,
	OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import type { ConfiguredServer, HttpServerConfig } from "./config.js";
import { storedCredentials, updateCredentials } from "./credential-store.js";
import {
	type ChosenDocument,
	chooseClientMetadataDocument,
	clientMetadataBaseUrl,
	type DocumentSupport,
	offersClientMetadataDocument,
} from "./oauth-client.js";
import { resolveValue } from "./values.js";

/** Raised by a background connection that would have to sign in; classified as "needs-auth". */
function needsSignIn(): Error {
	return Object.assign(new Error("needs sign-in"), { kind: "needs-auth" });
}

interface ProviderOptions {
	agentDir: string;
	server: ConfiguredServer;
	redirectUrl: string | undefined;
	clientSecret?: string;
	/** Called with the authorization page; absent for background connections (they never sign in). */
	onRedirect?: (url: URL) => void;
	/** The Client ID Metadata Document to identify with instead of registering (sign-in only). */
	clientMetadataUrl?: string;
	/** Discovery done before the sign-in started (it chose the document and the redirect path). */
	discovery?: OAuthDiscoveryState;
}

class StoredAuthProvider implements OAuthClientProvider {
	private verifier: string | undefined;
	/** The stored tokens as `tokens()` last read them: what the SDK's verdict on them is about. */
	private handedOut: OAuthTokens | undefined;
	readonly expectedState = randomBytes(16).toString("hex");

	constructor(private readonly o: ProviderOptions) {}

	private get oauth() {
		return (this.o.server.config as HttpServerConfig).oauth ?? {};
	}

	get redirectUrl(): string | undefined {
		return this.o.redirectUrl;
	}

	/** The SDK uses it as the client ID when the authorization server supports documents. */
	get clientMetadataUrl(): string | undefined {
		return this.o.clientMetadataUrl;
	}

	discoveryState(): OAuthDiscoveryState | undefined {
		return this.o.discovery;
	}

	get clientMetadata(): OAuthClientMetadata {
		return {
			client_name: this.oauth.clientName ?? "pi",
			redirect_uris: this.o.redirectUrl ? [this.o.redirectUrl] : [],
			grant_types: ["authorization_code", "refresh_token"],
			response_types: ["code"],
			token_endpoint_auth_method: this.o.clientSecret ? "client_secret_post" : "none",
			...(this.oauth.scope ? { scope: this.oauth.scope } : {}),
		};
	}

	state(): string {
		return this.expectedState;
	}

	clientInformation(): OAuthClientInformationMixed | undefined {
		if (this.oauth.clientId) {
			return { client_id: this.oauth.clientId, ...(this.o.clientSecret ? { client_secret: this.o.clientSecret } : {}) };
		}
		const stored = storedCredentials(this.o.agentDir, this.o.server);
		// A registered client stays in use while its redirect URI matches.
		if (stored?.clientInformation && (!this.o.onRedirect || stored.redirectUri === this.o.redirectUrl)) {
			return stored.clientInformation;
		}
		// A background connection never registers a client: the server needs a sign-in first.
		if (!this.o.onRedirect) throw needsSignIn();
		return undefined;
	}

	async saveClientInformation(info: OAuthClientInformationMixed): Promise<void> {
		// A configured client is the config's, not ours to keep (its secret stays where the config says).
		if (this.oauth.clientId) return;
		await updateCredentials(this.o.agentDir, this.o.server, (c) => ({
			...c,
			clientInformation: info,
			redirectUri: this.o.redirectUrl,
		}));
	}

	tokens(): OAuthTokens | undefined {
		const stored = storedCredentials(this.o.agentDir, this.o.server);
		this.handedOut = stored?.tokens;
		if (!stored?.tokens || !stored.requestedScope) return stored?.tokens;
		const { refresh_token: _dropped, ...tokens } = stored.tokens;
		return tokens;
	}

	/**
	 * The transport's fetch: a 403 with `WWW-Authenticate: Bearer
	 * error="insufficient_scope" scope="…"` records the scope asked for
	 * (step-up); the SDK then runs its auth flow, which needs a sign-in.
	 */
	readonly fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
		const response = await fetch(input, init);
		if (response.status !== 403) return response;
		const challenge = parseBearerChallenge(response.headers.get("www-authenticate"));
		if (challenge.error === "insufficient_scope") {
			await updateCredentials(this.o.agentDir, this.o.server, (c) => ({
				...c,
				requestedScope: mergeScopes(c.requestedScope, challenge.scope) ?? "",
			}));
		}
		return response;
	};

	async saveTokens(tokens: OAuthTokens): Promise<void> {
		this.handedOut = tokens;
		await updateCredentials(this.o.agentDir, this.o.server, (c) => ({ ...c, tokens }));
	}

	redirectToAuthorization(url: URL): void {
		// Background connections never sign in: the SDK then reports UnauthorizedError ("needs sign-in").
		this.o.onRedirect?.(url);
	}

	saveCodeVerifier(verifier: string): void {
		this.verifier = verifier;
	}

	codeVerifier(): string {
		if (!this.verifier) throw new Error("no sign-in is in progress");
		return this.verifier;
	}

	async invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): Promise<void> {
		if (scope === "verifier" || scope === "discovery") {
			if (scope === "verifier") this.verifier = undefined;
			return;
		}
		const judged = this.handedOut;
		await updateCredentials(this.o.agentDir, this.o.server, (c) => {
			// Another pi process refreshed (or signed in) since these tokens were read: the SDK's verdict is
			// about the old ones (typically a refresh token the other process already rotated), so the newer
			// credentials stay.
			if (scope !== "client" && c.tokens && !sameTokens(c.tokens, judged)) return c;
			if (scope === "all") return undefined;
			if (scope === "client") return { ...c, clientInformation: undefined, redirectUri: undefined };
			return { ...c, tokens: undefined };
		});
	}
}

function sameTokens(a: OAuthTokens, b: OAuthTokens | undefined): boolean {
	return b !== undefined && a.access_token === b.access_token && a.refresh_token === b.refresh_token;
}

/** `error` and `scope` of a `Bearer` WWW-Authenticate challenge. */
export function parseBearerChallenge(header: string | null): { error?: string; scope?: string } {
	if (!header || !/^\s*Bearer\b/i.test(header)) return {};
	const out: { error?: string; scope?: string } = {};
	for (const m of header.matchAll(/(\w+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))/g)) {
		const value = m[2] ?? m[3] ?? "";
		if (m[1] === "error") out.error = value;
		else if (m[1] === "scope") out.scope = value;
	}
	return out;
}

/** Space-separated scopes, each once, in first-seen order; undefined when there are none. */
export function mergeScopes(...lists: (string | undefined)[]): string | undefined {
	const all = [...new Set(lists.flatMap((l) => (l ?? "").split(/\s+/)).filter(Boolean))];
	return all.length > 0 ? all.join(" ") : undefined;
}

async function clientSecretOf(server: ConfiguredServer): Promise<string | undefined> {
	const secret = (server.config as HttpServerConfig).oauth?.clientSecret;
	return secret === undefined ? undefined : resolveValue(secret, `server "${server.name}" oauth.clientSecret`);
}

/** The provider a background connection uses: stored tokens, refreshed when expired; never a sign-in. */
export async function createStoredAuthProvider(
	agentDir: string,
	server: ConfiguredServer,
): Promise<OAuthClientProvider | undefined> {
	if (server.config.type !== "http") return undefined;
	const stored = storedCredentials(agentDir, server);
	return new StoredAuthProvider({
		agentDir,
		server,
		// Only for the SDK's bookkeeping: a background connection never sends anyone to this address.
		redirectUrl: stored?.redirectUri ?? "http://127.0.0.1/callback",
		clientSecret: await clientSecretOf(server),
	});
}

export interface LoginOptions {
	/** Tells the user where to sign in (the URL is always given, whether or not a browser opened). */
	notify: (message: string) => void;
	/** Opens a URL in a browser; returns whether one was started. */
	openUrl?: (url: string) => boolean;
	/** Whole sign-in limit (default 300 s). */
	timeoutMs?: number;
	/**
	 * Asks for the address the browser ended on, for when it cannot reach the
	 * loopback callback (pi over SSH). Called once the sign-in page is shown;
	 * `signal` aborts when the callback arrived first. Resolving with undefined
	 * cancels the sign-in.
	 */
	pastedRedirect?: (signal: AbortSignal) => Promise<string | undefined>;
	/** Reads a pasted redirect (the public API's parsePastedAuthorization). */
	parsePasted?: (text: string) => { code?: string; state?: string; iss?: string };
	/** Where pi's Client ID Metadata Documents live (default: clientMetadataBaseUrl()). */
	clientMetadataBaseUrl?: string;
}

interface Redirected {
	code: string;
	state: string | null;
	/** The authorization server's `iss` parameter (RFC 9207), when it sent one. */
	iss: string | null;
}

interface Callback {
	server: Server;
	redirectUrl: string;
	code: Promise<Redirected>;
}

/** A loopback HTTP server that takes one redirect on the callback path (plus `suffix`, for a server-specific document). */
async function startCallback(config: HttpServerConfig, suffix: string): Promise<Callback> {
	const configured = config.oauth?.callbackUrl ? new URL(config.oauth.callbackUrl) : undefined;
	const host = configured ? configured.hostname.replace(/^\[|\]$/g, "") : "127.0.0.1";
	const path = `${(configured?.pathname ?? "/callback").replace(/\/$/, "")}${suffix}`;
	const wantPort = configured?.port ? Number(configured.port) : (config.oauth?.callbackPort ?? 0);
	let settle: (v: Redirected) => void = () => {};
	let fail: (e: Error) => void = () => {};
	const code = new Promise<Redirected>((res, rej) => {
		settle = res;
		fail = rej;
	});
	const server = createServer((req, res) => {
		const url = new URL(req.url ?? "/", "http://localhost");
		if (url.pathname !== path) {
			res.writeHead(404).end();
			return;
		}
		const error = url.searchParams.get("error");
		const got = url.searchParams.get("code");
		res.writeHead(error || !got ? 400 : 200, { "content-type": "text/html; charset=utf-8" });
		res.end(
			error || !got
				? "<p>Sign-in failed. You can close this page.</p>"
				: "<p>Signed in to the MCP server. You can close this page and return to pi.</p>",
		);
		if (error)
			fail(new Error(`the authorization server answered ${error}: ${url.searchParams.get("error_description") ?? ""}`));
		else if (got) settle({ code: got, state: url.searchParams.get("state"), iss: url.searchParams.get("iss") });
	});
	await new Promise<void>((res, rej) => {
		server.once("error", rej);
		server.listen(wantPort, host, () => res());
	});
	const port = (server.address() as { port: number }).port;
	let redirectUrl: string;
	if (configured?.port) {
		const exact = new URL(configured.href);
		exact.pathname = path;
		redirectUrl = suffix ? exact.href : configured.href;
	} else {
		const redirect = configured ? new URL(configured.href) : new URL("http://127.0.0.1/callback");
		redirect.pathname = path;
		redirect.port = String(port);
		redirectUrl = redirect.href;
	}
	return { server, redirectUrl, code };
}

/**
 * Discovery before the sign-in (the SDK's own functions; the SDK's auth flow
 * then reuses it): the authorization server's metadata decides between
 * pi's document and registration, and the document decides the redirect path.
 */
async function discoverForSignIn(
	server: ConfiguredServer,
	fetchFn: FetchLike | undefined,
): Promise<OAuthDiscoveryState | undefined> {
	const config = server.config as HttpServerConfig;
	const { discoverOAuthServerInfo } = await import("@modelcontextprotocol/sdk/client/auth.js");
	const info = await discoverOAuthServerInfo(config.url, fetchFn ? { fetchFn } : undefined);
	return { ...info, authorizationServerUrl: String(info.authorizationServerUrl) };
}

/** pi's document for this sign-in, undefined to register (or to use the configured client). */
function documentFor(
	server: ConfiguredServer,
	discovery: OAuthDiscoveryState | undefined,
	baseUrl: string,
): ChosenDocument | undefined {
	const config = server.config as HttpServerConfig;
	if (!offersClientMetadataDocument(config.oauth)) return undefined;
	const metadata = discovery?.authorizationServerMetadata as DocumentSupport | undefined;
	const chosen = chooseClientMetadataDocument(config.url, metadata, baseUrl);
	if (!chosen && config.oauth?.clientRegistration === "cimd") {
		throw new Error(
			`the authorization server of MCP server "${server.name}" does not accept Client ID Metadata Documents from public clients; remove oauth.clientRegistration "cimd" (or set "dcr")`,
		);
	}
	return chosen;
}

type FetchLike = (input: string | URL, init?: RequestInit) => Promise<Response>;

/** Signs in: discovery, the client (configured, document or registration), the authorization page, the loopback redirect, the token exchange. */
export async function login(agentDir: string, server: ConfiguredServer, o: LoginOptions): Promise<void> {
	if (server.config.type !== "http") throw new Error(`"${server.name}" is a stdio server; only HTTP servers sign in`);
	const config = server.config;
	const { auth } = await import("@modelcontextprotocol/sdk/client/auth.js");
	const timeoutMs = o.timeoutMs ?? 300_000;
	const pasteAbort = new AbortController();
	let timer: NodeJS.Timeout | undefined;
	const timeout = new Promise<never>((_, rej) => {
		timer = setTimeout(
			() => rej(new Error(`sign-in did not finish within ${Math.round(timeoutMs / 1000)} s`)),
			timeoutMs,
		);
	});
	timeout.catch(() => {});
	const fetchFn = config.oauth?.authServerMetadataUrl
		? metadataOverride(config.oauth.authServerMetadataUrl)
		: undefined;
	let callback: Callback | undefined;
	try {
		const discovery = await Promise.race([discoverForSignIn(server, fetchFn), timeout]);
		const document = documentFor(server, discovery, o.clientMetadataBaseUrl ?? clientMetadataBaseUrl());
		callback = await startCallback(config, document?.callbackSuffix ?? "");
		const provider = new StoredAuthProvider({
			agentDir,
			server,
			redirectUrl: callback.redirectUrl,
			clientSecret: await clientSecretOf(server),
			...(document ? { clientMetadataUrl: document.url } : {}),
			...(discovery ? { discovery } : {}),
			onRedirect: (url) => {
				const opened = o.openUrl?.(url.href) ?? false;
				o.notify(
					`${opened ? "Opened the sign-in page" : "Open this URL to sign in"} for MCP server "${server.name}": ${url.href}`,
				);
			},
		});
		// A step-up the server asked for is added to the configured scope ("Later scope requests are added").
		const requested = storedCredentials(agentDir, server)?.requestedScope;
		const scope = mergeScopes(config.oauth?.scope, requested);
		const first = await Promise.race([
			auth(provider, { serverUrl: config.url, scope, ...(fetchFn ? { fetchFn } : {}) }),
			timeout,
		]);
		if (first === "AUTHORIZED") return;
		const { code, state, iss } = await Promise.race([callback.code, pasted(o, pasteAbort.signal), timeout]);
		if (state !== provider.expectedState)
			throw new Error("the redirect carried a state this sign-in did not send; ignored");
		checkIssuer(discovery, iss);
		const second = await Promise.race([
			auth(provider, { serverUrl: config.url, authorizationCode: code, ...(fetchFn ? { fetchFn } : {}) }),
			timeout,
		]);
		if (second !== "AUTHORIZED") throw new Error("the authorization server did not issue tokens");
		if (requested !== undefined)
			await updateCredentials(agentDir, server, (c) => ({ ...c, requestedScope: undefined }));
	} finally {
		pasteAbort.abort();
		clearTimeout(timer);
		callback?.server.close();
	}
}

/**
 * RFC 9207: a server that promises the `iss` parameter must send its own
 * issuer; one that does not promise it must not send a different one (a
 * response from another authorization server, mixed up).
 */
function checkIssuer(discovery: OAuthDiscoveryState | undefined, iss: string | null): void {
	const metadata = discovery?.authorizationServerMetadata as (DocumentSupport & { issuer?: string }) | undefined;
	if (!metadata) return;
	if (iss === null && metadata.authorization_response_iss_parameter_supported !== true) return;
	if (iss !== metadata.issuer) {
		throw new Error(
			`the redirect came from issuer ${iss ?? "(none)"}, not from the authorization server that was asked (${metadata.issuer}); ignored`,
		);
	}
}

/** The code and state from a pasted redirect; never settles when nobody can be asked. */
function pasted(o: LoginOptions, signal: AbortSignal): Promise<Redirected> {
	const ask = o.pastedRedirect;
	const parse = o.parsePasted;
	if (!ask || !parse) return new Promise(() => {});
	return ask(signal).then((text) => {
		if (signal.aborted) return new Promise<never>(() => {});
		if (text === undefined) throw new Error("sign-in cancelled");
		const { code, state, iss } = parse(text);
		if (!code) throw new Error("the pasted text holds no authorization code");
		return { code, state: state ?? null, iss: iss ?? null };
	});
}

/** `authServerMetadataUrl`: answer the SDK's authorization-server discovery with the configured document. */
function metadataOverride(metadataUrl: string) {
	const target = new URL(metadataUrl);
	const local = ["localhost", "127.0.0.1", "[::1]"].includes(target.hostname);
	if (target.protocol !== "https:" && !(local && target.protocol === "http:")) {
		throw new Error("oauth.authServerMetadataUrl must use https (http only on localhost)");
	}
	return (input: string | URL, init?: RequestInit) => {
		const url = new URL(typeof input === "string" ? input : input.href);
		if (
			url.pathname.startsWith("/.well-known/oauth-authorization-server") ||
			url.pathname.startsWith("/.well-known/openid-configuration")
		) {
			return fetch(target, init);
		}
		return fetch(input, init);
	};
}

/** Deletes the stored credentials of a server. */
export async function logout(agentDir: string, server: ConfiguredServer): Promise<boolean> {
	const had = storedCredentials(agentDir, server) !== undefined;
	if (had) await updateCredentials(agentDir, server, () => undefined);
	return had;
}
