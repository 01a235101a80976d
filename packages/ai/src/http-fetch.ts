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
// even when the bytes go over node:http. Both: connection failures reject
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

/** The response body as a web byte stream, paused while the reader is behind. */
function webBody(res: Readable, signal: AbortSignal | undefined): ReadableStream<Uint8Array> {
	let ended = false;
	return new ReadableStream<Uint8Array>(
		{
			start(controller) {
				const fail = (error: unknown) => {
					if (ended) return;
					ended = true;
					controller.error(error);
				};
				res.on("data", (chunk: Buffer) => {
					if (ended) return;
					controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
					if ((controller.desiredSize ?? 1) <= 0) res.pause();
				});
				res.on("end", () => {
					if (ended) return;
					ended = true;
					controller.close();
				});
				res.on("error", (error) =>
					fail(signal?.aborted ? abortReason(signal) : new TypeError("terminated", { cause: error })),
				);
				res.on("close", () => {
					if (!ended)
						fail(
							signal?.aborted
								? abortReason(signal)
								: new TypeError("terminated", { cause: new Error("other side closed") }),
						);
				});
				signal?.addEventListener(
					"abort",
					() => {
						fail(abortReason(signal));
						res.destroy();
					},
					{ once: true },
				);
			},
			pull() {
				res.resume();
			},
			cancel() {
				ended = true;
				res.destroy();
			},
		},
		{ highWaterMark: 16 },
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
	constructor(
		readonly status: number,
		readonly statusText: string,
		readonly headers: HttpHeaders,
		readonly body: ReadableStream<Uint8Array> | null,
	) {}

	get ok(): boolean {
		return this.status >= 200 && this.status <= 299;
	}

	async text(): Promise<string> {
		if (!this.body) return "";
		const decoder = new TextDecoder();
		let text = "";
		for await (const chunk of this.body as unknown as AsyncIterable<Uint8Array>)
			text += decoder.decode(chunk, { stream: true });
		return text + decoder.decode();
	}

	async json(): Promise<unknown> {
		return JSON.parse(await this.text());
	}
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
					new HttpResponse(status, res.statusMessage ?? "", responseHeaders, stream ? webBody(stream, signal) : null),
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
