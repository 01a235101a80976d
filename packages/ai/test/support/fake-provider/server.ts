/**
 * A scripted fake LLM provider: a real HTTP server on 127.0.0.1 (random port)
 * for tests and benchmarks of every package. No network beyond loopback.
 *
 *   const fake = await startFakeProvider();
 *   fake.enqueue(sse(frames));                       // next request gets this SSE stream
 *   fake.enqueue(json(429, body, { "retry-after": "2" }));
 *   fake.enqueueFor("/messages", sse(...));           // only requests whose path ends so
 *   const model = { ...someModel, baseUrl: `${fake.url}/v1` };
 *   ... run the code under test ...
 *   fake.requests[0].body                             // parsed JSON request body
 *   await fake.close();
 *
 * Each request pops the next scripted response (a route queue first, then the
 * shared queue); with nothing queued it answers 500 with a clear message.
 * SSE responses can be written in fixed-size or chosen byte pieces, slowly,
 * cut (socket destroyed) after N bytes, or left hanging until the client goes.
 * Wire-format builders live next to this file (openai-chat.ts, …).
 */
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One SSE event. `data` objects are JSON-encoded; `comment` writes `: text`; `raw` is written verbatim. */
export type SseFrame = { event?: string; data: string | object; id?: string } | { comment: string } | { raw: string };

export interface SseScript {
	kind: "sse";
	status?: number;
	headers?: Record<string, string>;
	/** The stream bytes; use `sse()` to build from frames. */
	bytes: Buffer;
	/** Write in pieces of this many bytes (default: all at once). */
	chunkSize?: number;
	/** Or write pieces ending at these byte offsets (ascending). */
	splitAt?: number[];
	/** Wait this long before each piece after the first. */
	delayMs?: number;
	/** Destroy the socket after this many bytes were written. */
	cutAfterBytes?: number;
	/** Write this many bytes, then keep the response open until the client closes (abort tests). */
	hangAfterBytes?: number;
}

export interface JsonScript {
	kind: "json";
	status: number;
	headers?: Record<string, string>;
	/** JSON body; or `bodyText` for a raw/empty body. */
	body?: unknown;
	bodyText?: string;
	/** Wait before answering. */
	delayMs?: number;
}

/** Answer computed from the request (e.g. echo, or assertions inside the server). */
export type HandlerScript = {
	kind: "handler";
	handle: (req: RecordedRequest, res: ServerResponse) => void | Promise<void>;
};

export type Script = SseScript | JsonScript | HandlerScript;

export interface RecordedRequest {
	method: string;
	path: string;
	/** The query string without `?` ("" when none). */
	query: string;
	headers: Record<string, string | string[] | undefined>;
	/** Parsed JSON body (undefined when empty or not JSON). */
	body: unknown;
	rawBody: string;
}

export interface FakeProvider {
	/** `http://127.0.0.1:<port>` without trailing slash. */
	url: string;
	/** Every request received, in order. */
	requests: RecordedRequest[];
	enqueue(...scripts: Script[]): void;
	/** Scripts only for requests whose path ends with `pathSuffix` (or matches the RegExp). */
	enqueueFor(path: string | RegExp, ...scripts: Script[]): void;
	/** Scripts not yet consumed. */
	pending(): number;
	close(): Promise<void>;
}

export function sse(frames: SseFrame[], options: Omit<SseScript, "kind" | "bytes"> = {}): SseScript {
	return { kind: "sse", bytes: sseBytes(frames), ...options };
}

export function json(status: number, body?: unknown, headers?: Record<string, string>): JsonScript {
	return { kind: "json", status, body, headers };
}

/** Byte offsets just after each frame ("\n\n"), for `splitAt`: one frame per write. */
export function frameEnds(bytes: Buffer): number[] {
	const ends: number[] = [];
	for (let at = bytes.indexOf("\n\n"); at >= 0; at = bytes.indexOf("\n\n", at + 2)) ends.push(at + 2);
	return ends;
}

/** Encodes frames as an SSE byte stream. */
export function sseBytes(frames: SseFrame[]): Buffer {
	let text = "";
	for (const frame of frames) {
		if ("raw" in frame) text += frame.raw;
		else if ("comment" in frame) text += `: ${frame.comment}\n\n`;
		else {
			if (frame.event !== undefined) text += `event: ${frame.event}\n`;
			if (frame.id !== undefined) text += `id: ${frame.id}\n`;
			const data = typeof frame.data === "string" ? frame.data : JSON.stringify(frame.data);
			for (const line of data.split("\n")) text += `data: ${line}\n`;
			text += "\n";
		}
	}
	return Buffer.from(text, "utf8");
}

export async function startFakeProvider(): Promise<FakeProvider> {
	const shared: Script[] = [];
	const routes: { match: string | RegExp; scripts: Script[] }[] = [];
	const requests: RecordedRequest[] = [];
	const sockets = new Set<import("node:net").Socket>();

	const take = (path: string): Script | undefined => {
		for (const route of routes) {
			const hit = typeof route.match === "string" ? path.endsWith(route.match) : route.match.test(path);
			if (hit && route.scripts.length > 0) return route.scripts.shift();
		}
		return shared.shift();
	};

	const server: Server = createServer({ noDelay: true }, (req, res) => {
		void handle(req, res);
	});
	server.on("connection", (socket) => {
		sockets.add(socket);
		socket.on("close", () => sockets.delete(socket));
	});

	const handle = async (req: IncomingMessage, res: ServerResponse) => {
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		const rawBody = Buffer.concat(chunks).toString("utf8");
		let body: unknown;
		try {
			body = rawBody === "" ? undefined : JSON.parse(rawBody);
		} catch {
			body = undefined;
		}
		const [path = "/", query = ""] = (req.url ?? "/").split("?");
		const recorded: RecordedRequest = { method: req.method ?? "GET", path, query, headers: req.headers, body, rawBody };
		requests.push(recorded);
		const script = take(path);
		try {
			if (!script) {
				writeJson(res, 500, { error: { message: `fake provider: no scripted response for ${path}` } });
			} else if (script.kind === "json") {
				if (script.delayMs) await sleep(script.delayMs);
				if (script.bodyText !== undefined) {
					res.writeHead(script.status, { "content-type": "text/plain", ...script.headers });
					res.end(script.bodyText);
				} else writeJson(res, script.status, script.body, script.headers);
			} else if (script.kind === "handler") {
				await script.handle(recorded, res);
			} else {
				await writeSse(req, res, script);
			}
		} catch {
			res.destroy();
		}
	};

	// Never close idle keep-alive sockets: a client whose event loop was busy (a slow benchmark
	// run) could otherwise send its next request on a socket the server just closed.
	server.keepAliveTimeout = 0;
	server.listen(0, "127.0.0.1");
	await once(server, "listening");
	const { port } = server.address() as AddressInfo;

	return {
		url: `http://127.0.0.1:${port}`,
		requests,
		enqueue: (...scripts) => {
			shared.push(...scripts);
		},
		enqueueFor: (match, ...scripts) => {
			const route = routes.find((r) => String(r.match) === String(match));
			if (route) route.scripts.push(...scripts);
			else routes.push({ match, scripts: [...scripts] });
		},
		pending: () => shared.length + routes.reduce((n, r) => n + r.scripts.length, 0),
		close: async () => {
			for (const socket of sockets) socket.destroy();
			server.close();
			await once(server, "close");
		},
	};
}

function writeJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
	const text = body === undefined ? "" : JSON.stringify(body);
	res.writeHead(status, { "content-type": "application/json", ...headers });
	res.end(text);
}

async function writeSse(req: IncomingMessage, res: ServerResponse, script: SseScript) {
	res.writeHead(script.status ?? 200, {
		"content-type": "text/event-stream",
		"cache-control": "no-cache",
		connection: "keep-alive",
		...script.headers,
	});
	res.flushHeaders();
	const total = script.bytes.length;
	const limit = Math.min(total, script.cutAfterBytes ?? script.hangAfterBytes ?? total);
	const ends = pieceEnds(limit, script);
	let clientGone = false;
	res.on("close", () => {
		clientGone = true;
	});
	let start = 0;
	for (const [i, end] of ends.entries()) {
		if (clientGone) return;
		if (i > 0 && script.delayMs) await sleep(script.delayMs);
		else if (i > 0 && ends.length > 1 && script.splitAt) await new Promise((r) => setImmediate(r));
		if (!res.write(script.bytes.subarray(start, end))) await drained(res);
		start = end;
	}
	if (script.cutAfterBytes !== undefined) {
		// Let the bytes leave before tearing the connection down mid-stream.
		await new Promise((r) => setTimeout(r, 5));
		req.socket.destroy();
		return;
	}
	if (script.hangAfterBytes !== undefined) {
		if (!clientGone) await once(res, "close");
		return;
	}
	res.end();
}

/** Resolves on drain or close, removing both listeners (a long stream waits thousands of times). */
function drained(res: ServerResponse): Promise<void> {
	return new Promise((resolve) => {
		const done = () => {
			res.off("drain", done);
			res.off("close", done);
			resolve();
		};
		res.on("drain", done);
		res.on("close", done);
	});
}

function pieceEnds(limit: number, script: SseScript): number[] {
	if (script.splitAt) {
		const ends = script.splitAt.filter((n) => n > 0 && n < limit);
		return [...ends, limit];
	}
	if (script.chunkSize && script.chunkSize > 0) {
		const ends: number[] = [];
		for (let n = script.chunkSize; n < limit; n += script.chunkSize) ends.push(n);
		ends.push(limit);
		return ends;
	}
	return [limit];
}

function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}
