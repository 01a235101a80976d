// A protected MCP server plus its OAuth authorization server on one loopback
// origin: protected-resource metadata (RFC 9728), authorization-server
// metadata (RFC 8414), dynamic client registration, an authorization
// endpoint that approves at once (it redirects with a code, as a browser
// would after the user clicks "allow"), and a token endpoint that checks
// PKCE S256, the redirect URI and the client, and issues refresh tokens.
// Optionally it accepts Client ID Metadata Documents (it fetches the client
// ID URL and checks the redirect URI against the document's list, any port
// on loopback), sends `iss` in redirects (RFC 9207), has no registration
// endpoint, or knows a pre-registered confidential client.
import { createHash, randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { type HttpFixture, startHttpFixture } from "./http.js";

export interface OAuthFixture extends HttpFixture {
	issuer: string;
	/** Access tokens issued so far (valid ones). */
	tokens: Set<string>;
	/** Every client registered through /register (and the pre-registered one). */
	clients: Map<string, { redirect_uris: string[]; client_name?: string; client_secret?: string }>;
	/** Client ID Metadata Documents fetched (their URLs). */
	documentsFetched: string[];
	/** Authorization requests seen (query parameters). */
	authorizations: URLSearchParams[];
	tokenRequests: URLSearchParams[];
	/** The scope each valid access token was granted (the authorization request's `scope`). */
	scopes: Map<string, string>;
}

export interface OAuthFixtureOptions {
	/**
	 * Requests that need a scope the first sign-in does not grant: 403
	 * insufficient_scope (step-up). `tool`: calls of that tool; `method`:
	 * every request of that JSON-RPC method (resources/read, resources/list, …).
	 */
	stepUp?: { tool?: string; method?: string; scope: string };
	/** scopes_supported in the protected-resource metadata. */
	scopesSupported?: string[];
	/** Accept Client ID Metadata Documents, read with this (an HTTPS fetch the test trusts). */
	fetchDocument?: (url: string) => Promise<unknown>;
	/** Send `iss` in authorization responses and say so in the metadata (RFC 9207); a string sends that issuer instead. */
	issParameter?: boolean | string;
	/** No dynamic client registration. */
	noRegistration?: boolean;
	/** A confidential client known in advance (token requests must carry its secret). */
	preRegistered?: { clientId: string; clientSecret: string; redirectUris: string[] };
}

/** Loopback redirect URIs match whatever the port (RFC 8252 section 7.3). */
function sameLoopbackRedirect(listed: string, asked: string): boolean {
	try {
		const a = new URL(listed);
		const b = new URL(asked);
		return a.protocol === b.protocol && a.hostname === b.hostname && a.pathname === b.pathname;
	} catch {
		return false;
	}
}

async function readBody(req: IncomingMessage): Promise<string> {
	const chunks: Buffer[] = [];
	for await (const c of req) chunks.push(c as Buffer);
	return Buffer.concat(chunks).toString("utf8");
}

function json(res: ServerResponse, status: number, body: unknown): void {
	res.writeHead(status, { "content-type": "application/json" });
	res.end(JSON.stringify(body));
}

export async function startOAuthFixture(
	server: Record<string, unknown> = { name: "secure", tools: 2 },
	options: OAuthFixtureOptions = {},
): Promise<OAuthFixture> {
	let origin = "";
	const tokens = new Set<string>();
	const clients: OAuthFixture["clients"] = new Map();
	const documentsFetched: string[] = [];
	if (options.preRegistered) {
		clients.set(options.preRegistered.clientId, {
			redirect_uris: options.preRegistered.redirectUris,
			client_secret: options.preRegistered.clientSecret,
		});
	}
	const authorizations: URLSearchParams[] = [];
	const tokenRequests: URLSearchParams[] = [];
	const codes = new Map<string, { challenge: string; redirect: string; client: string; scope: string }>();
	const refreshTokens = new Map<string, string>();
	const scopes = new Map<string, string>();
	const issue = (scope: string) => {
		const access = `at-${randomBytes(8).toString("hex")}`;
		const refresh = `rt-${randomBytes(8).toString("hex")}`;
		tokens.add(access);
		scopes.set(access, scope);
		refreshTokens.set(refresh, scope);
		return { access_token: access, token_type: "Bearer", expires_in: 3600, refresh_token: refresh };
	};
	const route = (req: IncomingMessage, res: ServerResponse): boolean => {
		const url = new URL(req.url ?? "/", origin);
		if (url.pathname.startsWith("/.well-known/oauth-protected-resource")) {
			json(res, 200, {
				resource: `${origin}/mcp`,
				authorization_servers: [origin],
				...(options.scopesSupported ? { scopes_supported: options.scopesSupported } : {}),
			});
			return true;
		}
		if (url.pathname === "/.well-known/oauth-authorization-server") {
			json(res, 200, {
				issuer: origin,
				authorization_endpoint: `${origin}/authorize`,
				token_endpoint: `${origin}/token`,
				...(options.noRegistration ? {} : { registration_endpoint: `${origin}/register` }),
				response_types_supported: ["code"],
				grant_types_supported: ["authorization_code", "refresh_token"],
				code_challenge_methods_supported: ["S256"],
				token_endpoint_auth_methods_supported: options.preRegistered
					? ["client_secret_post", "client_secret_basic", "none"]
					: ["none"],
				...(options.fetchDocument ? { client_id_metadata_document_supported: true } : {}),
				...(options.issParameter !== undefined
					? { authorization_response_iss_parameter_supported: options.issParameter !== false }
					: {}),
			});
			return true;
		}
		if (url.pathname === "/register" && req.method === "POST") {
			void readBody(req).then((text) => {
				const meta = JSON.parse(text) as { redirect_uris: string[]; client_name?: string };
				const id = `client-${clients.size + 1}`;
				clients.set(id, meta);
				json(res, 201, { ...meta, client_id: id });
			});
			return true;
		}
		if (url.pathname === "/authorize") {
			const q = url.searchParams;
			authorizations.push(q);
			void (async () => {
				const clientId = q.get("client_id") ?? "";
				let client = clients.get(clientId);
				if (!client && options.fetchDocument && clientId.startsWith("https://")) {
					documentsFetched.push(clientId);
					const doc = (await options.fetchDocument(clientId).catch(() => undefined)) as
						| { client_id?: string; redirect_uris?: string[]; client_name?: string }
						| undefined;
					if (doc?.client_id === clientId && Array.isArray(doc.redirect_uris)) {
						client = { redirect_uris: doc.redirect_uris, client_name: doc.client_name };
					}
				}
				const redirect = q.get("redirect_uri") ?? "";
				const listed = client?.redirect_uris.some((r) => r === redirect || sameLoopbackRedirect(r, redirect));
				if (!listed || q.get("code_challenge_method") !== "S256") {
					res.writeHead(400).end("bad authorization request");
					return;
				}
				const code = `code-${randomBytes(6).toString("hex")}`;
				codes.set(code, {
					challenge: q.get("code_challenge") ?? "",
					redirect,
					client: clientId,
					scope: q.get("scope") ?? "",
				});
				const back = new URL(redirect);
				back.searchParams.set("code", code);
				if (q.get("state")) back.searchParams.set("state", q.get("state") as string);
				if (options.issParameter) {
					back.searchParams.set("iss", typeof options.issParameter === "string" ? options.issParameter : origin);
				}
				res.writeHead(302, { location: back.href }).end();
			})();
			return true;
		}
		if (url.pathname === "/token" && req.method === "POST") {
			void readBody(req).then((text) => {
				const form = new URLSearchParams(text);
				tokenRequests.push(form);
				if (form.get("grant_type") === "refresh_token") {
					const rt = form.get("refresh_token") ?? "";
					const scope = refreshTokens.get(rt);
					if (scope === undefined) return json(res, 400, { error: "invalid_grant" });
					refreshTokens.delete(rt);
					return json(res, 200, issue(scope));
				}
				// A confidential client authenticates with its secret (post or basic).
				const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? "")?.[1];
				const [basicId, basicSecret] = basic
					? Buffer.from(basic, "base64").toString("utf8").split(":").map(decodeURIComponent)
					: [];
				if (basicId && !form.get("client_id")) form.set("client_id", basicId);
				const secret = clients.get(form.get("client_id") ?? "")?.client_secret;
				if (secret !== undefined && (form.get("client_secret") ?? basicSecret) !== secret) {
					return json(res, 401, { error: "invalid_client" });
				}
				const grant = codes.get(form.get("code") ?? "");
				const verifier = form.get("code_verifier") ?? "";
				const challenge = createHash("sha256").update(verifier).digest("base64url");
				if (
					!grant ||
					grant.challenge !== challenge ||
					grant.redirect !== form.get("redirect_uri") ||
					grant.client !== form.get("client_id")
				) {
					return json(res, 400, { error: "invalid_grant" });
				}
				codes.delete(form.get("code") ?? "");
				json(res, 200, issue(grant.scope));
			});
			return true;
		}
		return false;
	};
	const fixture = await startHttpFixture({
		server,
		route,
		verifyToken: (auth) => auth !== undefined && tokens.has(auth.replace(/^Bearer /, "")),
		resourceMetadataUrl: () => `${origin}/.well-known/oauth-protected-resource/mcp`,
		gate: (authorization, body) => {
			const step = options.stepUp;
			const call = body as { method?: string; params?: { name?: string } } | undefined;
			const gated = step?.method
				? call?.method === step.method
				: call?.method === "tools/call" && call.params?.name === step?.tool;
			if (!step || !gated) return undefined;
			const granted = (scopes.get((authorization ?? "").replace(/^Bearer /, "")) ?? "").split(" ");
			if (granted.includes(step.scope)) return undefined;
			const wanted = [...new Set([...granted.filter(Boolean), step.scope])].join(" ");
			return {
				status: 403,
				headers: {
					"www-authenticate": `Bearer error="insufficient_scope", scope="${wanted}", resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
				},
			};
		},
	});
	origin = new URL(fixture.url).origin;
	return { ...fixture, issuer: origin, tokens, clients, documentsFetched, authorizations, tokenRequests, scopes };
}
