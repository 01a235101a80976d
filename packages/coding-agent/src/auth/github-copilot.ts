// GitHub Copilot login: GitHub's device flow (RFC 8628) gives a GitHub token,
// which is exchanged for a short-lived Copilot token. The GitHub token is kept
// as the "refresh" token: refreshing is simply exchanging it again. The Copilot
// token names the account's API host (`proxy-ep=`), which requests then use.
import type { OAuthCredential } from "../config/auth.js";
import { pollDeviceCode } from "./device-code.js";
import { asRecord, describeFailure, oauthErrorCode, requestJson } from "./http.js";
import { LoginError, type LoginInteraction, throwIfCancelled } from "./interaction.js";
import type { LoginFlow, RequestAuth } from "./types.js";

/** The public OAuth app id of the VS Code Copilot extension, which Copilot's token endpoint accepts. */
export const GITHUB_COPILOT_CLIENT_ID = "Iv1.b507a08c87ecfe98";
/** Headers Copilot's API expects from an editor integration. */
export const COPILOT_HEADERS: Record<string, string> = {
	"User-Agent": "GitHubCopilotChat/0.35.0",
	"Editor-Version": "vscode/1.107.0",
	"Editor-Plugin-Version": "copilot-chat/0.35.0",
	"Copilot-Integration-Id": "vscode-chat",
};
const DEFAULT_API = "https://api.individual.githubcopilot.com";

export interface GitHubCopilotEndpoints {
	/** Where github.com (or an enterprise host) answers: https://<domain>. */
	githubBase: (domain: string) => string;
	/** Where its REST API answers: https://api.<domain>. */
	apiBase: (domain: string) => string;
	timing?: { secondMs?: number; minIntervalMs?: number };
}

const DEFAULTS: GitHubCopilotEndpoints = {
	githubBase: (domain) => `https://${domain}`,
	apiBase: (domain) => `https://api.${domain}`,
};

/** "company.ghe.com" from a URL or bare host; undefined for blank; throws for junk. */
export function normalizeEnterpriseDomain(input: string): string | undefined {
	const trimmed = input.trim();
	if (!trimmed) return undefined;
	try {
		return new URL(trimmed.includes("://") ? trimmed : `https://${trimmed}`).hostname;
	} catch {
		throw new LoginError(`"${trimmed}" is not a GitHub Enterprise URL or domain`);
	}
}

/** The API base named by a Copilot token (`proxy-ep=proxy.x` → https://api.x). */
export function copilotBaseUrl(token: string, enterpriseDomain?: string): string {
	const proxy = /(?:^|;)proxy-ep=([^;]+)/.exec(token)?.[1];
	if (proxy && /^[A-Za-z0-9.-]+$/.test(proxy)) return `https://${proxy.replace(/^proxy\./, "api.")}`;
	return enterpriseDomain ? `https://copilot-api.${enterpriseDomain}` : DEFAULT_API;
}

export function createGitHubCopilotLogin(overrides: Partial<GitHubCopilotEndpoints> = {}): LoginFlow {
	const cfg = { ...DEFAULTS, ...overrides };

	const exchange = async (
		githubToken: string,
		domain: string | undefined,
		signal: AbortSignal | undefined,
		refreshing: boolean,
	): Promise<OAuthCredential> => {
		const r = await requestJson(
			`${cfg.apiBase(domain ?? "github.com")}/copilot_internal/v2/token`,
			{ headers: { authorization: `Bearer ${githubToken}`, ...COPILOT_HEADERS } },
			signal,
			"Copilot token exchange",
		);
		if (!r.ok) {
			const refused = r.status === 401;
			throw new LoginError(
				refused
					? `The GitHub Copilot login (github-copilot) was refused (${describeFailure(r)}): the GitHub token has expired or was revoked`
					: r.status === 403 || r.status === 404
						? `This GitHub account has no Copilot access (${describeFailure(r)})`
						: `Copilot token exchange failed (${describeFailure(r)})`,
				refreshing && refused,
			);
		}
		const body = asRecord(r.body);
		if (typeof body.token !== "string" || typeof body.expires_at !== "number") {
			throw new LoginError("Copilot token exchange: the response lacks token or expires_at");
		}
		const credential: OAuthCredential = {
			type: "oauth",
			access: body.token,
			refresh: githubToken,
			// Renew five minutes early: the token lives about half an hour.
			expires: body.expires_at * 1000 - 5 * 60_000,
		};
		if (domain) credential.enterpriseUrl = domain;
		return credential;
	};

	const login = async (interaction: LoginInteraction): Promise<OAuthCredential> => {
		const { signal } = interaction;
		const domain = normalizeEnterpriseDomain(
			await interaction.prompt({
				type: "text",
				message: "GitHub Enterprise URL or domain (blank for github.com):",
				placeholder: "company.ghe.com",
			}),
		);
		throwIfCancelled(signal);
		const github = cfg.githubBase(domain ?? "github.com");
		const form = { client_id: GITHUB_COPILOT_CLIENT_ID, scope: "read:user" };
		const start = await requestJson(
			`${github}/login/device/code`,
			{ form, headers: { "user-agent": COPILOT_HEADERS["User-Agent"] } },
			signal,
			"GitHub device code",
		);
		const d = asRecord(start.body);
		if (
			!start.ok ||
			typeof d.device_code !== "string" ||
			typeof d.user_code !== "string" ||
			typeof d.verification_uri !== "string" ||
			typeof d.expires_in !== "number"
		) {
			throw new LoginError(`GitHub device code request failed (${describeFailure(start)})`);
		}
		const verification = new URL(d.verification_uri);
		if (verification.protocol !== "https:" && verification.hostname !== "127.0.0.1") {
			throw new LoginError("GitHub answered with an untrusted verification address");
		}
		interaction.notify({
			type: "device_code",
			userCode: d.user_code,
			verificationUri: verification.toString(),
			expiresInSeconds: d.expires_in,
		});
		const deviceCode = d.device_code;
		const githubToken = await pollDeviceCode<string>({
			intervalSeconds: typeof d.interval === "number" ? d.interval : undefined,
			expiresInSeconds: d.expires_in,
			waitFirst: true,
			signal,
			timing: cfg.timing,
			poll: async () => {
				const r = await requestJson(
					`${github}/login/oauth/access_token`,
					{
						form: {
							client_id: GITHUB_COPILOT_CLIENT_ID,
							device_code: deviceCode,
							grant_type: "urn:ietf:params:oauth:grant-type:device_code",
						},
						headers: { "user-agent": COPILOT_HEADERS["User-Agent"] },
					},
					signal,
					"GitHub device token",
				);
				const b = asRecord(r.body);
				if (r.ok && typeof b.access_token === "string") return { status: "complete", value: b.access_token };
				const error = oauthErrorCode(r.body);
				if (error === "authorization_pending") return { status: "pending" };
				if (error === "slow_down") {
					return { status: "slow_down", intervalSeconds: typeof b.interval === "number" ? b.interval : undefined };
				}
				if (error === "access_denied") return { status: "failed", message: "The GitHub login was denied" };
				if (error === "expired_token") return { status: "failed", message: "The device code expired; start again" };
				return { status: "failed", message: `GitHub device login failed (${describeFailure(r)})` };
			},
		});
		interaction.notify({ type: "progress", message: "Exchanging the GitHub token for a Copilot token…" });
		return exchange(githubToken, domain, signal, false);
	};

	return {
		id: "github-copilot",
		name: "GitHub Copilot",
		login,
		refresh: (credential, signal) =>
			exchange(
				credential.refresh,
				typeof credential.enterpriseUrl === "string" ? credential.enterpriseUrl : undefined,
				signal,
				true,
			),
		requestAuth: (credential): RequestAuth => ({
			apiKey: credential.access,
			baseUrl: copilotBaseUrl(
				credential.access,
				typeof credential.enterpriseUrl === "string" ? credential.enterpriseUrl : undefined,
			),
			headers: { ...COPILOT_HEADERS },
		}),
	};
}
