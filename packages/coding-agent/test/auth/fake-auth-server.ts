/**
 * A fake OAuth authorization server on 127.0.0.1 for the login-flow tests. It
 * plays both OpenAI's auth server (authorize + PKCE token exchange, refresh,
 * device codes) and GitHub's (device flow, Copilot token exchange), checks
 * what a real one checks, and records every request.
 *
 * Endpoint shapes follow the public documentation of the OAuth 2.0
 * authorization-code grant with PKCE (RFC 6749 §4.1, RFC 7636), the device
 * authorization grant (RFC 8628) and the facts in pi 1.6.0's pi-ai login
 * modules (paths, field names, GitHub's `slow_down` with `interval`).
 */
import { createHash } from "node:crypto";
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeAuthServer {
	url: string;
	/** Every request: method, path, parsed body (form or JSON), headers. */
	log: { method: string; path: string; body: Record<string, unknown>; headers: IncomingMessage["headers"] }[];
	/** Problems the server found with requests (a real server would have refused them). */
	violations: string[];
	/** What device-token polls answer, consumed in order; the last one repeats. */
	deviceAnswers: ("pending" | "slow_down" | "slow_down_interval" | "ok")[];
	/** Refresh tokens the server accepts (rotated on use). */
	validRefresh: Set<string>;
	refreshCount: number;
	/** Copilot token exchange answers 401 for these GitHub tokens. */
	revokedGithub: Set<string>;
	/** Milliseconds to wait before answering a refresh (widens race windows). */
	refreshDelayMs: number;
	close(): Promise<void>;
}

export function jwtWithAccount(accountId: string, extra: Record<string, unknown> = {}): string {
	const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
	return `${b64({ alg: "none" })}.${b64({ "https://api.openai.com/auth": { chatgpt_account_id: accountId }, ...extra })}.sig`;
}

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
	const chunks: Buffer[] = [];
	for await (const c of req) chunks.push(c as Buffer);
	const text = Buffer.concat(chunks).toString("utf8");
	if (!text) return {};
	if ((req.headers["content-type"] ?? "").includes("json")) return JSON.parse(text) as Record<string, unknown>;
	return Object.fromEntries(new URLSearchParams(text));
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
	res.writeHead(status, { "content-type": "application/json", ...headers });
	res.end(JSON.stringify(body));
}

export async function startFakeAuthServer(): Promise<FakeAuthServer> {
	const pending = new Map<string, { challenge: string; redirectUri: string; clientId: string }>();
	let issued = 0;
	const state: FakeAuthServer = {
		url: "",
		log: [],
		violations: [],
		deviceAnswers: ["ok"],
		validRefresh: new Set(),
		refreshCount: 0,
		revokedGithub: new Set(),
		refreshDelayMs: 0,
		close: async () => {},
	};
	let devicePolls = 0;
	const nextDeviceAnswer = () => {
		devicePolls++;
		return state.deviceAnswers.length > 1 ? (state.deviceAnswers.shift() ?? "ok") : (state.deviceAnswers[0] ?? "ok");
	};
	const newTokens = () => {
		issued++;
		const refresh = `refresh-${issued}`;
		state.validRefresh.add(refresh);
		return { access_token: jwtWithAccount("acct_fake", { n: issued }), refresh_token: refresh, expires_in: 3600 };
	};

	const server = createServer((req, res) => {
		void (async () => {
			const url = new URL(req.url ?? "/", "http://127.0.0.1");
			const body = await readBody(req);
			state.log.push({ method: req.method ?? "", path: url.pathname, body, headers: req.headers });
			const p = url.searchParams;
			switch (`${req.method} ${url.pathname}`) {
				// --- OpenAI: authorization code + PKCE
				case "GET /oauth/authorize": {
					for (const [k, v] of [
						["response_type", "code"],
						["code_challenge_method", "S256"],
						["client_id", "app_EMoamEEZ73f0CkXaXp7hrann"],
					]) {
						if (p.get(k) !== v) state.violations.push(`authorize: ${k}=${p.get(k)}`);
					}
					const challenge = p.get("code_challenge") ?? "";
					if (!/^[A-Za-z0-9_-]{43}$/.test(challenge)) state.violations.push("authorize: bad code_challenge");
					if (!p.get("state")) state.violations.push("authorize: no state");
					const code = `code-${pending.size + 1}`;
					pending.set(code, {
						challenge,
						redirectUri: p.get("redirect_uri") ?? "",
						clientId: p.get("client_id") ?? "",
					});
					const back = new URL(p.get("redirect_uri") ?? "");
					back.searchParams.set("code", code);
					back.searchParams.set("state", p.get("state") ?? "");
					res.writeHead(302, { location: back.toString() });
					return res.end();
				}
				case "POST /oauth/token": {
					if (body.grant_type === "authorization_code") {
						const grant = pending.get(String(body.code));
						if (!grant) return send(res, 400, { error: "invalid_grant" });
						pending.delete(String(body.code));
						const verifier = String(body.code_verifier ?? "");
						const expected = createHash("sha256").update(verifier).digest("base64url");
						if (expected !== grant.challenge) {
							state.violations.push("token: PKCE verifier does not match the challenge");
							return send(res, 400, { error: "invalid_grant" });
						}
						if (body.redirect_uri !== grant.redirectUri) {
							state.violations.push("token: redirect_uri differs from the authorize request");
							return send(res, 400, { error: "invalid_grant" });
						}
						if (body.client_id !== grant.clientId) state.violations.push("token: client_id differs");
						return send(res, 200, newTokens());
					}
					if (body.grant_type === "refresh_token") {
						state.refreshCount++;
						if (state.refreshDelayMs) await new Promise((r) => setTimeout(r, state.refreshDelayMs));
						const token = String(body.refresh_token);
						if (!state.validRefresh.has(token)) {
							return send(res, 400, { error: "invalid_grant", error_description: "refresh token expired" });
						}
						state.validRefresh.delete(token); // rotation: a refresh token works once
						return send(res, 200, newTokens());
					}
					return send(res, 400, { error: "unsupported_grant_type" });
				}
				// --- OpenAI: device code
				case "POST /api/accounts/deviceauth/usercode":
					return send(res, 200, { device_auth_id: "dev-1", user_code: "ABCD-1234", interval: "1" });
				case "POST /api/accounts/deviceauth/token": {
					const answer = nextDeviceAnswer();
					if (answer === "ok") {
						const verifier = "device-verifier";
						const code = `code-dev-${devicePolls}`;
						pending.set(code, {
							challenge: createHash("sha256").update(verifier).digest("base64url"),
							redirectUri: `${state.url}/deviceauth/callback`,
							clientId: "app_EMoamEEZ73f0CkXaXp7hrann",
						});
						return send(res, 200, { authorization_code: code, code_verifier: verifier });
					}
					if (answer === "pending") return send(res, 403, { error: { code: "deviceauth_authorization_pending" } });
					return send(res, 400, { error: { code: "slow_down" } });
				}
				// --- GitHub device flow + Copilot token
				case "POST /login/device/code":
					if (body.client_id !== "Iv1.b507a08c87ecfe98") state.violations.push("github: client_id");
					return send(res, 200, {
						device_code: "gh-device",
						user_code: "WXYZ-9876",
						verification_uri: "https://github.com/login/device",
						interval: 1,
						expires_in: 900,
					});
				case "POST /login/oauth/access_token": {
					if (body.grant_type !== "urn:ietf:params:oauth:grant-type:device_code")
						state.violations.push("github: grant");
					if (body.device_code !== "gh-device") state.violations.push("github: device_code");
					const answer = nextDeviceAnswer();
					// GitHub answers 200 with an error field while pending.
					if (answer === "ok") return send(res, 200, { access_token: "gho_github_token", token_type: "bearer" });
					if (answer === "pending") return send(res, 200, { error: "authorization_pending" });
					if (answer === "slow_down_interval") return send(res, 200, { error: "slow_down", interval: 3 });
					return send(res, 200, { error: "slow_down" });
				}
				case "GET /copilot_internal/v2/token": {
					const auth = String(req.headers.authorization ?? "");
					const token = auth.replace(/^Bearer /, "");
					if (!token || state.revokedGithub.has(token)) return send(res, 401, { message: "Bad credentials" });
					if (req.headers["copilot-integration-id"] !== "vscode-chat") state.violations.push("copilot: headers");
					issued++;
					return send(res, 200, {
						token: `tid=abc;exp=9999999999;proxy-ep=proxy.enterprise.githubcopilot.com;n=${issued}`,
						expires_at: Math.floor(Date.now() / 1000) + 1800,
					});
				}
				default:
					return send(res, 404, { error: "not_found" });
			}
		})();
	});
	server.listen(0, "127.0.0.1");
	await once(server, "listening");
	state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	state.close = async () => {
		server.closeAllConnections();
		server.close();
		await once(server, "close");
	};
	return state;
}
