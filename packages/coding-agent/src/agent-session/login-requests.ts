// Requests made with a stored account login (OAuth): the key is resolved here
// rather than in the loop's getApiKey hook, so a failed refresh ends the
// request as an `auth` error event naming the provider (the session gets an
// ordinary error reply, nothing else changes). A 401 for a token that had not
// expired yet (revoked, rotated elsewhere) gets exactly one refresh under the
// store's lock and one more try; a second refusal is a clear error.
import type { StreamFn } from "@pi/agent-core";
import { type AssistantMessageEvent, AssistantMessageEventStream, failedStream, type Model } from "@pi/ai";
import type { AuthStorage } from "../config/auth.js";

function loginAgain(provider: string): string {
	return `Log in again: /login ${provider} in pi, or \`pi auth login ${provider}\`.`;
}

function describe(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/** A rejection of the credential itself, before the model produced anything. */
function isRejection(event: AssistantMessageEvent, sawContent: boolean): boolean {
	return !sawContent && event.type === "error" && event.reason === "error" && event.error.errorInfo?.kind === "auth";
}

export function withLoginCredentials(base: () => StreamFn, auth: AuthStorage): StreamFn {
	return async (model, context, options) => {
		const provider = model.provider;
		if (!auth.usesOAuth(provider)) return base()(model, context, options);
		let key: string | undefined;
		try {
			key = await auth.getApiKey(provider);
		} catch (error) {
			return failedStream(model, `${describe(error)}`, {
				kind: "auth",
				code: "login_refresh_failed",
				retryable: false,
			});
		}
		if (!key) return base()(model, context, options);
		const attempt = (apiKey: string) => {
			const extras = auth.getRequestExtras(provider);
			const target: Model = extras?.baseUrl ? { ...model, baseUrl: extras.baseUrl } : model;
			const headers = extras?.headers ? { ...extras.headers, ...options?.headers } : options?.headers;
			return Promise.resolve(base()(target, context, { ...options, apiKey, headers }));
		};
		const out = new AssistantMessageEventStream();
		void relay(out, provider, key, attempt, auth, model).catch((error: unknown) => {
			void failedStream(model, describe(error), { kind: "unknown", retryable: false })
				.result()
				.then((message) => out.push({ type: "error", reason: "error", error: message }));
		});
		return out;
	};
}

async function relay(
	out: AssistantMessageEventStream,
	provider: string,
	key: string,
	attempt: (apiKey: string) => Promise<AssistantMessageEventStream>,
	auth: AuthStorage,
	model: Model,
): Promise<void> {
	// Hold back events until the response shows it was accepted: a rejected first try leaves no trace.
	const held: AssistantMessageEvent[] = [];
	let sawContent = false;
	let rejected = false;
	for await (const event of await attempt(key)) {
		if (!sawContent && event.type !== "start" && event.type !== "error") {
			sawContent = true;
			for (const h of held.splice(0)) out.push(h);
		}
		if (isRejection(event, sawContent)) {
			rejected = true;
			break;
		}
		if (sawContent || event.type === "error" || event.type === "done") {
			for (const h of held.splice(0)) out.push(h);
			out.push(event);
		} else held.push(event);
	}
	if (!rejected) return;
	let fresh: string;
	try {
		fresh = await auth.refreshAfterRejection(provider, key);
	} catch (error) {
		const message = await failedStream(model, describe(error), {
			kind: "auth",
			code: "login_refresh_failed",
			retryable: false,
		}).result();
		out.push({ type: "error", reason: "error", error: message });
		return;
	}
	for await (const event of await attempt(fresh)) {
		if (event.type === "error" && isRejection(event, false) && event.error.content.length === 0) {
			const errorMessage = `${provider} refused the login even after a refresh (${event.error.errorMessage ?? "unauthorized"}). ${loginAgain(provider)}`;
			out.push({ ...event, error: { ...event.error, errorMessage } });
		} else out.push(event);
	}
}
