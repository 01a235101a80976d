// A fetch over node:http for plain-http provider URLs (local model servers:
// Ollama, llama.cpp, vLLM, LM Studio; the loopback fake provider in tests and
// benches). fetch's first use loads undici and compiles its WebAssembly HTTP
// parser: ~100 ms and ~35 MiB here, and process exit then waits for V8's
// background compilation of it. node:http is already in the process.
//
// It answers as fetch does where the SDKs and pi-ai look: a real `Response`
// (status, headers, a byte stream body), connection failures reject with
// `TypeError("fetch failed", { cause })`, a body cut short errors with
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

/** `fetch(url, init)` over node:http, or undefined when `init` needs fetch itself. */
export function httpFetch(url: URL, init: RequestInit): Promise<Response> | undefined {
	if (url.protocol !== "http:") return undefined;
	const body = bodyBytes(init.body);
	if (body === undefined) return undefined;
	const signal = init.signal ?? undefined;
	if (signal?.aborted) return Promise.reject(abortReason(signal));
	const method = (init.method ?? "GET").toUpperCase();
	const headers: Record<string, string> = {};
	for (const [key, value] of new Headers(init.headers)) headers[key] = value;
	if (body !== null && headers["content-length"] === undefined) {
		headers["content-length"] = String(typeof body === "string" ? Buffer.byteLength(body) : body.byteLength);
	}
	return new Promise<Response>((resolve, reject) => {
		const onAbort = () => {
			req.destroy();
			reject(abortReason(signal as AbortSignal));
		};
		const req = request(url, { method, headers, agent }, (res) => {
			signal?.removeEventListener("abort", onAbort);
			const status = res.statusCode ?? 0;
			const responseHeaders = new Headers();
			for (let i = 0; i + 1 < res.rawHeaders.length; i += 2)
				responseHeaders.append(res.rawHeaders[i], res.rawHeaders[i + 1]);
			const nullBody = method === "HEAD" || status === 204 || status === 205 || status === 304;
			if (nullBody) res.resume();
			const answer = (stream: Readable | null) => {
				try {
					resolve(
						new Response(stream ? webBody(stream, signal) : null, {
							status,
							statusText: res.statusMessage ?? "",
							headers: responseHeaders,
						}),
					);
				} catch (error) {
					// A status fetch cannot represent (outside 200–599).
					res.destroy();
					reject(new TypeError("fetch failed", { cause: error }));
				}
			};
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
