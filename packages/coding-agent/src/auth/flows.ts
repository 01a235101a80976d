// The account logins pi offers, by provider id, and their hooks into the
// credential store: refreshing an expired token and adding the account's
// endpoint and headers to requests. API keys for any provider need no flow
// (see api-key.ts). pi's own flows (builtin-flows.ts) are loaded by
// loadLoginFlows(): a login, a refresh and a request with a stored login
// load them first; a run with API keys only never does (issue 25).
import type { AuthStorageOptions, OAuthCredential } from "../config/auth.js";
import { LoginError } from "./interaction.js";
import type { LoginFlow } from "./types.js";

let flows = new Map<string, LoginFlow>();
/** Flows a setLoginFlow replaced, restored by removeLoginFlow (an extension's provider unregistered). */
const replaced = new Map<string, LoginFlow | undefined>();
let builtinsLoaded: Promise<void> | undefined;

/**
 * Adds pi's own flows (once). They come first, as if loaded at start: a flow a setLoginFlow
 * put in before them keeps its place over the built-in of its id, which removeLoginFlow
 * then brings back.
 */
export function loadLoginFlows(): Promise<void> {
	builtinsLoaded ??= import("./builtin-flows.js").then(({ builtinLoginFlows }) => {
		const ordered = new Map<string, LoginFlow>();
		for (const flow of builtinLoginFlows()) {
			if (!replaced.has(flow.id)) ordered.set(flow.id, flow);
			else {
				const current = flows.get(flow.id);
				if (current) ordered.set(flow.id, current);
				if (replaced.get(flow.id) === undefined) replaced.set(flow.id, flow);
			}
		}
		for (const [id, flow] of flows) if (!ordered.has(id)) ordered.set(id, flow);
		flows = ordered;
	});
	return builtinsLoaded;
}

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
	await loadLoginFlows();
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
		// A stored login's key and request extras come from its flow (oauthRequest, synchronous).
		beforeOAuth: options.beforeOAuth ?? loadLoginFlows,
		oauthRequest:
			options.oauthRequest ??
			((provider, credential) => {
				const auth = flows.get(provider)?.requestAuth(credential);
				return auth ? { apiKey: auth.apiKey, baseUrl: auth.baseUrl, headers: auth.headers } : undefined;
			}),
	};
}
