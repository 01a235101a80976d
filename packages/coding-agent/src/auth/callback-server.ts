// The loopback redirect target of a browser login. It listens on 127.0.0.1
// only (never on all interfaces: the code must not be reachable from the
// network), accepts exactly one GET on its path whose `state` matches, and
// gives up after a timeout or when the login is cancelled.
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { LoginCancelledError, LoginError } from "./interaction.js";

export interface CallbackServerOptions {
	/** Port the provider's registered redirect URI names; 0 picks a free one (tests). */
	port: number;
	path: string;
	/** The state sent with the authorization request; other values are refused. */
	state: string;
	providerName: string;
	timeoutMs: number;
	signal: AbortSignal;
}

export interface CallbackServer {
	port: number;
	/** Resolves with the authorization code; rejects on timeout, cancel, provider error or close. */
	code: Promise<string>;
	close(): void;
}

const LOOPBACK = "127.0.0.1";

function page(res: ServerResponse, status: number, text: string): void {
	res.writeHead(status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
	const escaped = text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
	res.end(
		`<!doctype html><meta charset="utf-8"><title>pi</title><body style="font-family:sans-serif"><p>${escaped}</p>`,
	);
}

export async function startCallbackServer(options: CallbackServerOptions): Promise<CallbackServer> {
	if (options.signal.aborted) throw new LoginCancelledError();
	let settle: { resolve: (code: string) => void; reject: (error: Error) => void } | undefined;
	const code = new Promise<string>((resolve, reject) => {
		settle = { resolve, reject };
	});
	code.catch(() => {}); // observed by the caller; never an unhandled rejection
	let done = false;
	const finish = (result: { code: string } | { error: Error }) => {
		if (done) return;
		done = true;
		clearTimeout(timer);
		options.signal.removeEventListener("abort", onAbort);
		if ("code" in result) settle?.resolve(result.code);
		else settle?.reject(result.error);
		server.close();
		server.closeAllConnections?.();
	};
	const server = createServer((req, res) => {
		const url = new URL(req.url ?? "/", `http://${LOOPBACK}`);
		if (req.method !== "GET" || url.pathname !== options.path) return page(res, 404, "Not found.");
		if (url.searchParams.get("state") !== options.state) {
			// A request without our state is not our browser's redirect: refuse it and keep waiting.
			return page(res, 400, "State mismatch: this sign-in link is not the one pi started.");
		}
		if (done) return page(res, 409, "This sign-in has already been handled.");
		const error = url.searchParams.get("error");
		if (error) {
			const description = url.searchParams.get("error_description") ?? error;
			page(res, 400, `${options.providerName} sign-in failed: ${description}`);
			return finish({ error: new LoginError(`${options.providerName} sign-in failed: ${description}`) });
		}
		const value = url.searchParams.get("code");
		if (!value) return page(res, 400, "The redirect carries no authorization code.");
		page(res, 200, `Signed in to ${options.providerName}. You can close this page and return to pi.`);
		// Let the page reach the browser before the server closes.
		res.on("finish", () => finish({ code: value }));
	});
	const onAbort = () => finish({ error: new LoginCancelledError() });
	await new Promise<void>((resolve, reject) => {
		server.once("error", reject);
		server.listen(options.port, LOOPBACK, () => {
			server.off("error", reject);
			resolve();
		});
	});
	server.on("error", (error) => finish({ error }));
	const timer = setTimeout(
		() =>
			finish({
				error: new LoginError(
					`${options.providerName} sign-in timed out after ${Math.round(options.timeoutMs / 1000)} s without a browser callback`,
				),
			}),
		options.timeoutMs,
	);
	timer.unref?.();
	options.signal.addEventListener("abort", onAbort, { once: true });
	return {
		port: (server.address() as AddressInfo).port,
		code,
		close: () => finish({ error: new LoginError("The sign-in callback server was closed") }),
	};
}
