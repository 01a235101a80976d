// The account logins pi offers, by provider id, and their hooks into the
// credential store: refreshing an expired token and adding the account's
// endpoint and headers to requests. API keys for any provider need no flow
// (see api-key.ts).
import type { AuthStorageOptions, OAuthCredential } from "../config/auth.js";
import { createGitHubCopilotLogin } from "./github-copilot.js";
import { LoginError } from "./interaction.js";
import { createOpenAICodexLogin } from "./openai-codex.js";
import type { LoginFlow } from "./types.js";

const builtins: LoginFlow[] = [createOpenAICodexLogin(), createGitHubCopilotLogin()];
const flows = new Map<string, LoginFlow>(builtins.map((f) => [f.id, f]));
/** Flows a setLoginFlow replaced, restored by removeLoginFlow (an extension's provider unregistered). */
const replaced = new Map<string, LoginFlow | undefined>();

export function loginFlows(): LoginFlow[] {
	return [...flows.values()];
}

export function findLoginFlow(provider: string): LoginFlow | undefined {
	return flows.get(provider);
}

/** Replaces a flow (tests point flows at a fake authorization server). */
export function setLoginFlow(flow: LoginFlow): void {
	if (!replaced.has(flow.id)) replaced.set(flow.id, flows.get(flow.id));
	flows.set(flow.id, flow);
}

/** Removes a flow set with setLoginFlow; the one it replaced (a built-in) comes back. */
export function removeLoginFlow(id: string): void {
	if (!replaced.has(id)) return;
	const previous = replaced.get(id);
	replaced.delete(id);
	if (previous) flows.set(id, previous);
	else flows.delete(id);
}

export function loginAgainHint(provider: string): string {
	return `Log in again: /login ${provider} in pi, or \`pi auth login ${provider}\`.`;
}

/** AuthStorage's refresher: the provider's own flow; a refused refresh token says to log in again. */
export async function refreshWithLoginFlow(provider: string, credential: OAuthCredential): Promise<OAuthCredential> {
	const flow = flows.get(provider);
	if (!flow) throw new LoginError(`pi has no login flow for "${provider}" to refresh it. ${loginAgainHint(provider)}`);
	try {
		return await flow.refresh(credential);
	} catch (error) {
		if (error instanceof LoginError && error.loginAgain) {
			throw new LoginError(`${error.message}. ${loginAgainHint(provider)}`, true);
		}
		throw error;
	}
}

/** Store options that plug the login flows in (refresh, per-account endpoint and headers). */
export function withLoginFlows(options: AuthStorageOptions = {}): AuthStorageOptions {
	return {
		...options,
		refreshOAuth: options.refreshOAuth ?? refreshWithLoginFlow,
		oauthRequest:
			options.oauthRequest ??
			((provider, credential) => {
				const auth = flows.get(provider)?.requestAuth(credential);
				return auth ? { apiKey: auth.apiKey, baseUrl: auth.baseUrl, headers: auth.headers } : undefined;
			}),
	};
}
