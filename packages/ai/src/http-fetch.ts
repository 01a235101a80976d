// A fetch over node:http for plain-http provider URLs (local model servers:
// Ollama, llama.cpp, vLLM, LM Studio; the loopback fake provider in tests and
// benches). fetch's first use loads undici and compiles its WebAssembly HTTP
// parser: ~100 ms and ~35 MiB here, and process exit then waits for V8's
// background compilation of it. node:http is already in the process.
//
// Two faces. `httpFetch` answers as fetch does where the SDKs look: a real
// `Response` (status, headers, a byte stream body). `httpRequest` answers with
// an `HttpResponse`, the part of a Response that pi-ai's own raw adapters read,
// built without touching `Headers`/`Response`: on Node 20 the first use of any
// of fetch's classes loads all of undici (~40 ms of CPU and ~12 MiB at start),
// even when the bytes go over node:http. Its body is read as node:http gives
// it (`bodyChunks`, NodeBody), not through a web stream. Both: connection failures reject
// with `TypeError("fetch failed", { cause })`, a body cut short errors with
// `TypeError("terminated", { cause })`, an abort rejects (or errors the body)
// with the signal's reason. Redirects are never followed (providerFetch does
// that). Bodies other than text and bytes go to fetch (`undefined` here).
import { Agent, request } from "node:http";
import type { Readable } from "node:stream";

/** Reused connections, as fetch keeps them; idle sockets do not hold the process open. */
const agent = new Agent({ keepAlive: true });

function abortReason(signal: AbortSignal): unknown {
	return signal.reason ?? new DOMException("This operation was aborted", "AbortError");
}

function bodyBytes(body: RequestInit["body"]): Uint8Array | string | null | undefined {
	if (body === undefined || body === null) return null;
	if (typeof body === "string") return body;
	if (body instanceof ArrayBuffer) return new Uint8Array(body);
	if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
	return undefined;
}

/**
 * A response body read straight from node:http: byte chunks through an async iterator, the
 * stream paused while the reader is behind. Not a web `ReadableStream`: on Node 20 the first
 * web stream loads the webstreams modules, and ending a `for await` over one (releaseLock)
 * builds a whole new V8 context for an error it may throw — CPU an SSE response does not need.
 * The web stream fetch's `Response` wants is made from this one when asked for (HttpResponse.body).
 * Errors as fetch's body: a cut `TypeError("terminated", { cause })`, an abort the signal's reason.
 */
export class NodeBody implements AsyncIterableIterator<Uint8Array> {
	private readonly queue: Uint8Array[] = [];
	private ended = false;
	private failure: { error: unknown } | undefined;
	private waiter: { resolve: (r: IteratorResult<Uint8Array>) => void; reject: (e: unknown) => void } | undefined;

	constructor(
		private readonly res: Readable,
		signal: AbortSignal | undefined,
	) {
		res.on("data", (chunk: Buffer) => {
			if (this.ended || this.failure) return;
			const bytes = new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
			if (this.waiter) this.settle({ done: false, value: bytes });
			else {
				this.queue.push(bytes);
				if (this.queue.length >= 16) res.pause();
			}
		});
		res.on("end", () => {
			if (this.ended || this.failure) return;
			this.ended = true;
			if (this.waiter) this.settle({ done: true, value: undefined });
		});
		res.on("error", (error) =>
			this.fail(signal?.aborted ? abortReason(signal) : new TypeError("terminated", { cause: error })),
		);
		res.on("close", () => {
			if (!this.ended)
				this.fail(
					signal?.aborted
						? abortReason(signal)
						: new TypeError("terminated", { cause: new Error("other side closed") }),
				);
		});
		signal?.addEventListener(
			"abort",
			() => {
				this.fail(abortReason(signal));
				res.destroy();
			},
			{ once: true },
		);
	}

	private settle(result: IteratorResult<Uint8Array>): void {
		const waiter = this.waiter;
		this.waiter = undefined;
		waiter?.resolve(result);
	}

	private fail(error: unknown): void {
		if (this.ended || this.failure) return;
		this.failure = { error };
		const waiter = this.waiter;
		this.waiter = undefined;
		waiter?.reject(error);
	}

	next(): Promise<IteratorResult<Uint8Array>> {
		const value = this.queue.shift();
		if (value) {
			if (this.queue.length === 0) this.res.resume();
			return Promise.resolve({ done: false, value });
		}
		if (this.failure) return Promise.reject(this.failure.error);
		if (this.ended) return Promise.resolve({ done: true, value: undefined });
		this.res.resume();
		return new Promise((resolve, reject) => {
			this.waiter = { resolve, reject };
		});
	}

	/** The reader stopped early (break, cancel): the rest is not read and the connection is closed. */
	return(): Promise<IteratorResult<Uint8Array>> {
		this.cancel();
		return Promise.resolve({ done: true, value: undefined });
	}

	cancel(): void {
		if (this.ended || this.failure) return;
		this.ended = true;
		this.queue.length = 0;
		this.res.destroy();
	}

	[Symbol.asyncIterator](): this {
		return this;
	}
}

/** A web byte stream over a NodeBody, for fetch's `Response` and the rare readers that want one. */
function webBody(source: NodeBody): ReadableStream<Uint8Array> {
	return new ReadableStream<Uint8Array>(
		{
			async pull(controller) {
				const { done, value } = await source.next();
				if (done) controller.close();
				else controller.enqueue(value);
			},
			cancel() {
				source.cancel();
			},
		},
		{ highWaterMark: 0 },
	);
}

/** The reading side of fetch's `Headers`. */
export interface HeaderReader extends Iterable<[string, string]> {
	get(name: string): string | null;
	has(name: string): boolean;
	forEach(callback: (value: string, key: string) => void): void;
}

/** A response's headers, read as fetch's `Headers` reads them (names lowercase, repeats joined). */
export class HttpHeaders implements HeaderReader {
	private readonly map = new Map<string, string>();

	constructor(rawHeaders: readonly string[] = []) {
		for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
			const key = rawHeaders[i].toLowerCase();
			const value = rawHeaders[i + 1].trim();
			const before = this.map.get(key);
			this.map.set(key, before === undefined ? value : `${before}, ${value}`);
		}
	}

	get(name: string): string | null {
		return this.map.get(name.toLowerCase()) ?? null;
	}

	has(name: string): boolean {
		return this.map.has(name.toLowerCase());
	}

	forEach(callback: (value: string, key: string) => void): void {
		for (const [key, value] of this.entries()) callback(value, key);
	}

	/** In name order, as `Headers` iterates. */
	*entries(): IterableIterator<[string, string]> {
		yield* [...this.map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
	}

	*keys(): IterableIterator<string> {
		for (const [key] of this.entries()) yield key;
	}

	*values(): IterableIterator<string> {
		for (const [, value] of this.entries()) yield value;
	}

	[Symbol.iterator](): IterableIterator<[string, string]> {
		return this.entries();
	}
}

/** What pi-ai's raw adapters and providerFetch read of a response; a fetch `Response` has all of it. */
export interface ProviderResponse {
	readonly status: number;
	readonly statusText: string;
	readonly ok: boolean;
	readonly headers: HeaderReader;
	readonly body: ReadableStream<Uint8Array> | null;
	text(): Promise<string>;
}

/** A node:http answer in the shape of {@link ProviderResponse}. */
export class HttpResponse implements ProviderResponse {
	private web: ReadableStream<Uint8Array> | null | undefined;

	constructor(
		readonly status: number,
		readonly statusText: string,
		readonly headers: HttpHeaders,
		/** The body as node:http delivers it; read with {@link bodyChunks}. */
		readonly source: NodeBody | null,
	) {}

	/** The body as a web stream, made on first use (see NodeBody for why it is not the default). */
	get body(): ReadableStream<Uint8Array> | null {
		if (this.web === undefined) this.web = this.source ? webBody(this.source) : null;
		return this.web;
	}

	get ok(): boolean {
		return this.status >= 200 && this.status <= 299;
	}

	async text(): Promise<string> {
		const chunks = bodyChunks(this);
		if (!chunks) return "";
		const decoder = new TextDecoder();
		let text = "";
		for await (const chunk of chunks) text += decoder.decode(chunk, { stream: true });
		return text + decoder.decode();
	}

	async json(): Promise<unknown> {
		return JSON.parse(await this.text());
	}
}

/**
 * A response's body as byte chunks: an HttpResponse's straight from node:http (no web stream),
 * a fetch Response's body stream otherwise. Null when there is no body.
 */
export function bodyChunks(response: ProviderResponse): AsyncIterable<Uint8Array> | null {
	if (response instanceof HttpResponse) return response.source;
	return response.body as unknown as AsyncIterable<Uint8Array> | null;
}

/** Request headers as one lowercase record, merged as `new Headers(init)` merges them (repeats joined). */
export function headerRecord(init: RequestInit["headers"]): Record<string, string> {
	const out: Record<string, string> = {};
	const add = (key: string, value: string) => {
		const name = key.toLowerCase();
		const v = String(value).trim();
		out[name] = out[name] === undefined ? v : `${out[name]}, ${v}`;
	};
	if (!init) return out;
	if (Array.isArray(init)) for (const [key, value] of init) add(key, value);
	else if (typeof (init as { forEach?: unknown }).forEach === "function")
		// A Headers (or anything iterating like it): names already lowercase, repeats already joined.
		(init as Headers).forEach((value, key) => {
			add(key, value);
		});
	else for (const [key, value] of Object.entries(init)) add(key, value);
	return out;
}

/** `fetch(url, init)` over node:http, or undefined when `init` needs fetch itself. */
export function httpFetch(url: URL, init: RequestInit): Promise<Response> | undefined {
	return httpRequest(url, init)?.then((answer) => {
		try {
			return new Response(answer.body, {
				status: answer.status,
				statusText: answer.statusText,
				headers: [...answer.headers],
			});
		} catch (error) {
			// A status fetch cannot represent (outside 200–599).
			void answer.body?.cancel().catch(() => {});
			throw new TypeError("fetch failed", { cause: error });
		}
	});
}

/** A plain-http request over node:http without fetch's classes, or undefined when `init` needs fetch itself. */
export function httpRequest(url: URL, init: RequestInit): Promise<HttpResponse> | undefined {
	if (url.protocol !== "http:") return undefined;
	const body = bodyBytes(init.body);
	if (body === undefined) return undefined;
	const signal = init.signal ?? undefined;
	if (signal?.aborted) return Promise.reject(abortReason(signal));
	const method = (init.method ?? "GET").toUpperCase();
	const headers = headerRecord(init.headers);
	if (body !== null && headers["content-length"] === undefined) {
		headers["content-length"] = String(typeof body === "string" ? Buffer.byteLength(body) : body.byteLength);
	}
	return new Promise<HttpResponse>((resolve, reject) => {
		const onAbort = () => {
			req.destroy();
			reject(abortReason(signal as AbortSignal));
		};
		const req = request(url, { method, headers, agent }, (res) => {
			signal?.removeEventListener("abort", onAbort);
			const status = res.statusCode ?? 0;
			const responseHeaders = new HttpHeaders(res.rawHeaders);
			const nullBody = method === "HEAD" || status === 204 || status === 205 || status === 304;
			if (nullBody) res.resume();
			const answer = (stream: Readable | null) =>
				resolve(
					new HttpResponse(
						status,
						res.statusMessage ?? "",
						responseHeaders,
						stream ? new NodeBody(stream, signal) : null,
					),
				);
			// Nothing asks for compression, but a server may compress anyway: decoded as fetch does.
			const encoding = String(res.headers["content-encoding"] ?? "")
				.trim()
				.toLowerCase();
			if (nullBody || !["gzip", "x-gzip", "deflate", "br"].includes(encoding)) return answer(nullBody ? null : res);
			void import("node:zlib").then((zlib) => {
				const decoder =
					encoding === "br"
						? zlib.createBrotliDecompress()
						: encoding === "deflate"
							? zlib.createInflate()
							: zlib.createGunzip();
				res.on("error", (error) => decoder.destroy(error));
				res.on("close", () => {
					if (!res.complete) decoder.destroy(new Error("other side closed"));
				});
				answer(res.pipe(decoder));
			}, reject);
		});
		req.on("error", (error) => {
			signal?.removeEventListener("abort", onAbort);
			if (signal?.aborted) reject(abortReason(signal));
			else reject(new TypeError("fetch failed", { cause: error }));
		});
		signal?.addEventListener("abort", onAbort, { once: true });
		req.end(body ?? undefined);
	});
}
