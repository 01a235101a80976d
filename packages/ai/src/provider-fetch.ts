// The fetch every adapter hands its SDK. Two things are checked here, below
// every SDK, so each adapter gets them the same way:
//
// - Redirects are followed here, not by fetch itself: fetch forwards every
//   request header to wherever a redirect points (only `Authorization` is
//   dropped across origins), so a provider or proxy answering 307 to another
//   host would receive `x-api-key`, `x-goog-api-key` and every secret header
//   from models.json. Same-origin redirects are followed; a redirect to
//   another origin is refused with an error naming both origins.
// - A 2xx answer must be an event stream. A captive portal, a proxy's login
//   page or a gateway's JSON error often comes back as 200; read as SSE it
//   looks like a stream that ended without a stop reason and gets retried.
//   It becomes a non-retryable error with the status, content type and the
//   start of the body instead.
import { ProviderFault } from "./errors.js";
import { startupFetch } from "./fetch-origin.js";
import { bodyChunks, HttpResponse, headerRecord, httpFetch, httpRequest, type ProviderResponse } from "./http-fetch.js";
import type { Model, StreamOptions } from "./types.js";

const MAX_REDIRECTS = 5;
const EXCERPT_BYTES = 500;

export class CrossOriginRedirectError extends ProviderFault {
	constructor(
		readonly from: string,
		readonly to: string,
		status: number,
	) {
		super(
			`The provider at ${from} redirected the request (${status}) to another origin (${to}); it was not followed, so the credentials are not sent there. Set the model's baseUrl to the final address if that server is meant.`,
			{ kind: "provider", status, code: "cross_origin_redirect", retryable: false },
		);
		this.name = "CrossOriginRedirectError";
	}
}

function isRedirect(status: number): boolean {
	return status === 301 || status === 302 || status === 303 || status === 307 || status === 308;
}

export type ProviderFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;
/** providerFetch for pi-ai's own raw adapters: a URL in, the part of a Response they read out. */
export type ProviderRequest = (input: string | URL, init?: RequestInit) => Promise<ProviderResponse>;
type HeaderEdit = (headers: Record<string, string>) => ReturnType<NonNullable<StreamOptions["onHeaders"]>>;

/**
 * The fetch for one request of `model`: `providerFetch`, plus the caller's
 * `onHeaders` edit when there is one. The SDKs assemble the headers (auth,
 * user agent, the model's and the caller's), so the edit is applied here, on
 * what is really sent; redirects re-send the edited headers without asking again.
 */
export function providerFetchFor(options: Pick<StreamOptions, "onHeaders">, model: Model): ProviderFetch {
	const onHeaders = options.onHeaders;
	if (!onHeaders) return providerFetch;
	return (input, init) => providerFetch(input, init, (headers) => onHeaders(headers, model));
}

/**
 * providerRequest for one request of `model` (see providerFetchFor). Adapters that read the body
 * themselves take this one: over plain http it never touches fetch's classes (http-fetch.ts).
 */
export function providerRequestFor(options: Pick<StreamOptions, "onHeaders">, model: Model): ProviderRequest {
	const onHeaders = options.onHeaders;
	if (!onHeaders) return providerRequest;
	return (input, init) => providerRequest(input, init, (headers) => onHeaders(headers, model));
}

/**
 * Applies a header edit: the edit answers with the whole set; null or a missing key removes that
 * header (names case-insensitive). Plain records, no `Headers`: see http-fetch.ts.
 */
async function editHeaders(init: RequestInit, edit: HeaderEdit): Promise<RequestInit> {
	const edited = await edit(headerRecord(init.headers));
	if (!edited) return init;
	const after: Record<string, string> = {};
	for (const [key, value] of Object.entries(edited)) {
		if (value !== null && value !== undefined) after[key.toLowerCase()] = value;
		else delete after[key.toLowerCase()];
	}
	return { ...init, headers: after };
}

/** Plain-http URLs go over node:http (http-fetch.ts: no undici start-up); everything else through fetch. */
function send(url: URL, init: RequestInit): Promise<Response> {
	return (globalThis.fetch === startupFetch ? httpFetch(url, init) : undefined) ?? fetch(url, init);
}

/** As send, answering plain http without fetch's classes. */
function sendRaw(url: URL, init: RequestInit): Promise<ProviderResponse> {
	return (globalThis.fetch === startupFetch ? httpRequest(url, init) : undefined) ?? fetch(url, init);
}

/** `fetch` with credential-safe redirects and a checked content type (see the file comment). */
export async function providerFetch(
	input: string | URL | Request,
	init: RequestInit = {},
	edit?: HeaderEdit,
): Promise<Response> {
	let url: URL;
	if (typeof input !== "string" && !(input instanceof URL) && input instanceof Request) {
		// Unpacked once, so every hop can re-send it (a Request's body is read only once).
		url = new URL(input.url);
		init = {
			method: input.method,
			headers: input.headers,
			body: input.method === "GET" || input.method === "HEAD" ? undefined : await input.arrayBuffer(),
			signal: input.signal,
			...init,
		};
	} else url = new URL(String(input));
	return follow(url, init, edit, send);
}

/** providerFetch for a URL, answering plain http without fetch's classes (see providerRequestFor). */
export function providerRequest(
	input: string | URL,
	init: RequestInit = {},
	edit?: HeaderEdit,
): Promise<ProviderResponse> {
	return follow(new URL(String(input)), init, edit, sendRaw);
}

async function follow<R extends ProviderResponse>(
	url: URL,
	init: RequestInit,
	edit: HeaderEdit | undefined,
	sendOnce: (url: URL, init: RequestInit) => Promise<R>,
): Promise<R> {
	if (edit) init = await editHeaders(init, edit);
	for (let hop = 0; ; hop++) {
		const response = await sendOnce(url, { ...init, redirect: "manual" });
		const location = response.headers.get("location");
		if (!isRedirect(response.status) || !location) return checkEventStream(url, response);
		const next = new URL(location, url);
		await discardBody(response);
		if (next.origin !== url.origin) throw new CrossOriginRedirectError(url.origin, next.origin, response.status);
		if (hop >= MAX_REDIRECTS) {
			throw new ProviderFault(`Too many redirects from ${url.origin} (more than ${MAX_REDIRECTS})`, {
				kind: "provider",
				status: response.status,
				code: "too_many_redirects",
				retryable: false,
			});
		}
		// As fetch does: 303, and 301/302 after a POST, continue as a GET without a body.
		if (response.status === 303 || ((response.status === 301 || response.status === 302) && init.method === "POST")) {
			init = { ...init, method: "GET", body: undefined };
		}
		url = next;
	}
}

/**
 * Every adapter asks for a stream, so a 2xx whose declared type is something
 * else (HTML, JSON, plain text) is the provider or a proxy answering with an
 * error page. No content type at all is let through (some local servers omit it).
 */
async function checkEventStream<R extends ProviderResponse>(url: URL, response: R): Promise<R> {
	if (!response.ok) return response; // the SDK maps HTTP errors
	const type = response.headers.get("content-type");
	// Server-sent events, or AWS's binary event stream (Bedrock).
	if (!type || /text\/event-stream|application\/vnd\.amazon\.eventstream/i.test(type)) return response;
	const excerpt = await readExcerpt(response);
	throw new ProviderFault(
		`The provider at ${url.origin} answered ${response.status} with ${type} instead of an event stream${excerpt ? `: ${excerpt}` : " (empty body)"}`,
		{ kind: "provider", status: response.status, code: "not_event_stream", retryable: false },
	);
}

/** Closes a body that will not be read (a redirect's). */
async function discardBody(response: ProviderResponse): Promise<void> {
	if (response instanceof HttpResponse) response.source?.cancel();
	else await response.body?.cancel().catch(() => {});
}

/** The first bytes of the body as one line of text; the rest is not read. */
async function readExcerpt(response: ProviderResponse): Promise<string> {
	const chunks = bodyChunks(response)?.[Symbol.asyncIterator]();
	if (!chunks) return "";
	const read: Uint8Array[] = [];
	let size = 0;
	try {
		while (size < EXCERPT_BYTES) {
			const { done, value } = await chunks.next();
			if (done) break;
			read.push(value);
			size += value.length;
		}
	} catch {
		// What arrived is enough for the message.
	} finally {
		await chunks.return?.()?.catch(() => {});
	}
	const bytes = new Uint8Array(size);
	let at = 0;
	for (const chunk of read) {
		bytes.set(chunk, at);
		at += chunk.length;
	}
	const text = new TextDecoder().decode(bytes.subarray(0, EXCERPT_BYTES));
	const line = text.replace(/\s+/g, " ").trim();
	return size > EXCERPT_BYTES ? `${line}…` : line;
}
