// "Sign in with ChatGPT" for the Codex backend (provider `openai-codex`):
// authorization code + PKCE (S256) with a loopback redirect on
// 127.0.0.1:1455, or a device code where no browser can be opened. Both end
// in the same token exchange; the ChatGPT account id is read from the access
// token's claims. Endpoint facts as documented by OpenAI's Codex CLI.

import type { OAuthCredential } from "../config/auth.js";
import { startCallbackServer } from "./callback-server.js";
import { pollDeviceCode } from "./device-code.js";
import { asRecord, describeFailure, oauthErrorCode, requestJson } from "./http.js";
import { LoginCancelledError, LoginError, type LoginInteraction } from "./interaction.js";
import { parsePastedAuthorization } from "./pasted-authorization.js";
import { createPkce, createState } from "./pkce.js";
import type { LoginFlow } from "./types.js";

export const OPENAI_CODEX_CLIENT_ID = "app_EMoamEEZ73f0CkXaXp7hrann";
const SCOPE = "openid profile email offline_access";
const ACCOUNT_CLAIM = "https://api.openai.com/auth";
const NAME = "ChatGPT";

export interface OpenAICodexEndpoints {
	/** Authorization server origin. */
	authBase: string;
	/** Loopback port of the registered redirect URI (0 = any, tests only). */
	callbackPort: number;
	/** Host written into the redirect URI (the registered one says localhost). */
	redirectHost: string;
	callbackTimeoutMs: number;
	/** Device-code expiry (the server does not say). */
	deviceExpiresInSeconds: number;
	timing?: { secondMs?: number; minIntervalMs?: number };
}

const DEFAULTS: OpenAICodexEndpoints = {
	authBase: "https://auth.openai.com",
	callbackPort: 1455,
	redirectHost: "localhost",
	callbackTimeoutMs: 5 * 60_000,
	deviceExpiresInSeconds: 15 * 60,
};

/** The ChatGPT account id inside an access token (a JWT), or undefined. */
export function chatgptAccountId(accessToken: string): string | undefined {
	const parts = accessToken.split(".");
	if (parts.length !== 3) return undefined;
	try {
		const claims = asRecord(JSON.parse(Buffer.from(parts[1], "base64url").toString("utf8")));
		const id = asRecord(claims[ACCOUNT_CLAIM]).chatgpt_account_id;
		return typeof id === "string" && id !== "" ? id : undefined;
	} catch {
		return undefined;
	}
}

export function createOpenAICodexLogin(overrides: Partial<OpenAICodexEndpoints> = {}): LoginFlow {
	const cfg = { ...DEFAULTS, ...overrides };
	const tokenUrl = `${cfg.authBase}/oauth/token`;

	const tokens = async (
		form: Record<string, string>,
		signal: AbortSignal | undefined,
		operation: "exchange" | "refresh",
	): Promise<OAuthCredential> => {
		const response = await requestJson(tokenUrl, { form }, signal, `${NAME} token ${operation}`);
		if (!response.ok) {
			const code = oauthErrorCode(response.body);
			const refused = operation === "refresh" && (response.status === 400 || response.status === 401);
			throw new LoginError(
				refused
					? `The ${NAME} login (openai-codex) was refused by the server (${describeFailure(response)}): it has expired or was revoked`
					: `${NAME} token ${operation} failed (${describeFailure(response)})`,
				refused || code === "invalid_grant",
			);
		}
		const body = asRecord(response.body);
		const { access_token: access, refresh_token: refresh, expires_in: expiresIn } = body;
		if (typeof access !== "string" || typeof refresh !== "string" || typeof expiresIn !== "number") {
			throw new LoginError(`${NAME} token ${operation}: the response lacks access_token, refresh_token or expires_in`);
		}
		const accountId = chatgptAccountId(access);
		if (!accountId) throw new LoginError(`${NAME} token ${operation}: the access token names no ChatGPT account`);
		return { type: "oauth", access, refresh, expires: Date.now() + expiresIn * 1000 - 60_000, accountId };
	};

	const exchange = (code: string, verifier: string, redirectUri: string, signal: AbortSignal) =>
		tokens(
			{
				grant_type: "authorization_code",
				client_id: OPENAI_CODEX_CLIENT_ID,
				code,
				code_verifier: verifier,
				redirect_uri: redirectUri,
			},
			signal,
			"exchange",
		);

	const browserLogin = async (interaction: LoginInteraction): Promise<OAuthCredential> => {
		const pkce = createPkce();
		const state = createState();
		const server = await startCallbackServer({
			port: cfg.callbackPort,
			path: "/auth/callback",
			state,
			providerName: NAME,
			timeoutMs: cfg.callbackTimeoutMs,
			signal: interaction.signal,
		}).catch((error: Error) => {
			if (error instanceof LoginCancelledError) throw error;
			// Port taken (often by Codex CLI itself): the pasted redirect URL still works.
			return undefined;
		});
		const redirectUri = `http://${cfg.redirectHost}:${server?.port ?? cfg.callbackPort}/auth/callback`;
		const url = new URL(`${cfg.authBase}/oauth/authorize`);
		url.search = new URLSearchParams({
			response_type: "code",
			client_id: OPENAI_CODEX_CLIENT_ID,
			redirect_uri: redirectUri,
			scope: SCOPE,
			code_challenge: pkce.challenge,
			code_challenge_method: "S256",
			state,
			id_token_add_organizations: "true",
			codex_cli_simplified_flow: "true",
			originator: "pi",
		}).toString();
		interaction.notify({
			type: "auth_url",
			url: url.toString(),
			instructions: server
				? "Sign in in the browser; pi continues when it is done."
				: `Port ${cfg.callbackPort} is busy: sign in, then paste the final redirect URL here.`,
		});
		const pasteAbort = new AbortController();
		const onCancel = () => pasteAbort.abort();
		interaction.signal.addEventListener("abort", onCancel, { once: true });
		try {
			const pasted = interaction
				.prompt({
					type: "manual_code",
					message: "Or paste the redirect URL (or code) from the browser:",
					signal: pasteAbort.signal,
				})
				.then(
					(text) => {
						const parsed = parsePastedAuthorization(text);
						if (parsed.state !== undefined && parsed.state !== state) {
							throw new LoginError("State mismatch: the pasted URL is not from this sign-in");
						}
						if (!parsed.code) throw new LoginError("No authorization code in the pasted text");
						return parsed.code;
					},
					// A runner that cannot ask leaves the browser callback as the only way in.
					(error: unknown) => (server ? new Promise<string>(() => {}) : Promise.reject(error)),
				);
			const candidates = server ? [server.code, pasted] : [pasted];
			const code = await Promise.race(candidates);
			return await exchange(code, pkce.verifier, redirectUri, interaction.signal);
		} finally {
			pasteAbort.abort();
			interaction.signal.removeEventListener("abort", onCancel);
			server?.close();
		}
	};

	const deviceLogin = async (interaction: LoginInteraction): Promise<OAuthCredential> => {
		const { signal } = interaction;
		const start = await requestJson(
			`${cfg.authBase}/api/accounts/deviceauth/usercode`,
			{ json: { client_id: OPENAI_CODEX_CLIENT_ID } },
			signal,
			`${NAME} device code`,
		);
		if (!start.ok) throw new LoginError(`${NAME} device code request failed (${describeFailure(start)})`);
		const body = asRecord(start.body);
		const interval = typeof body.interval === "string" ? Number(body.interval) : body.interval;
		if (typeof body.device_auth_id !== "string" || typeof body.user_code !== "string") {
			throw new LoginError(`${NAME} device code response lacks device_auth_id or user_code`);
		}
		const device = { id: body.device_auth_id, userCode: body.user_code };
		interaction.notify({
			type: "device_code",
			userCode: device.userCode,
			verificationUri: `${cfg.authBase}/codex/device`,
			expiresInSeconds: cfg.deviceExpiresInSeconds,
		});
		const granted = await pollDeviceCode<{ code: string; verifier: string }>({
			intervalSeconds: typeof interval === "number" && Number.isFinite(interval) ? interval : undefined,
			expiresInSeconds: cfg.deviceExpiresInSeconds,
			signal,
			timing: cfg.timing,
			poll: async () => {
				const r = await requestJson(
					`${cfg.authBase}/api/accounts/deviceauth/token`,
					{ json: { device_auth_id: device.id, user_code: device.userCode } },
					signal,
					`${NAME} device token`,
				);
				if (r.ok) {
					const b = asRecord(r.body);
					if (typeof b.authorization_code !== "string" || typeof b.code_verifier !== "string") {
						return { status: "failed", message: `${NAME} device token response lacks the authorization code` };
					}
					return { status: "complete", value: { code: b.authorization_code, verifier: b.code_verifier } };
				}
				const code = oauthErrorCode(r.body);
				if (r.status === 403 || r.status === 404 || code === "deviceauth_authorization_pending") {
					return { status: "pending" };
				}
				if (code === "slow_down") return { status: "slow_down" };
				return { status: "failed", message: `${NAME} device login failed (${describeFailure(r)})` };
			},
		});
		return exchange(granted.code, granted.verifier, `${cfg.authBase}/deviceauth/callback`, signal);
	};

	return {
		id: "openai-codex",
		name: "ChatGPT Plus/Pro (Codex)",
		login: (interaction) => (interaction.browser ? browserLogin(interaction) : deviceLogin(interaction)),
		refresh: (credential, signal) =>
			tokens(
				{ grant_type: "refresh_token", refresh_token: credential.refresh, client_id: OPENAI_CODEX_CLIENT_ID },
				signal,
				"refresh",
			),
		requestAuth: (credential) => ({ apiKey: credential.access }),
	};
}
