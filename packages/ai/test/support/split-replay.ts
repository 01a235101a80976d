/**
 * Byte-split replay for adapters: a global `fetch` that answers from memory
 * with a body delivered in exactly the given pieces (one `read()` per piece),
 * and split plans that cut every byte boundary. Over a socket the kernel may
 * merge small writes, so only this makes "split at every boundary"
 * deterministic; the parsing path (SSE parser → adapter → writer) is the real one.
 */
import { readSseBody } from "../../src/adapters/sse-body.js";
import { AssistantStreamWriter } from "../../src/stream-writer.js";
import type { AssistantMessageEvent, Model } from "../../src/types.js";
import { type SseFrame, sseBytes } from "./fake-provider/server.js";

export interface MemoryFetch {
	/** Pieces for the next response (consumed in order). */
	respond(pieces: Uint8Array[], status?: number, headers?: Record<string, string>): void;
	restore(): void;
}

export function installMemoryFetch(): MemoryFetch {
	const original = globalThis.fetch;
	const queue: { pieces: Uint8Array[]; status: number; headers: Record<string, string> }[] = [];
	globalThis.fetch = (async (_input: unknown, init?: RequestInit) => {
		const next = queue.shift();
		if (!next) return new Response(JSON.stringify({ error: { message: "no scripted body" } }), { status: 500 });
		let i = 0;
		const body = new ReadableStream<Uint8Array>({
			pull(controller) {
				const piece = next.pieces[i++];
				if (piece === undefined) controller.close();
				else controller.enqueue(piece);
			},
		});
		init?.signal?.throwIfAborted();
		return new Response(body, {
			status: next.status,
			headers: { "content-type": "text/event-stream", ...next.headers },
		});
	}) as typeof fetch;
	return {
		respond: (pieces, status = 200, headers = {}) => {
			queue.push({ pieces, status, headers });
		},
		restore: () => {
			globalThis.fetch = original;
		},
	};
}

/** Pieces of `bytes` ending at each of `cuts` (ascending, exclusive of 0 and length). */
export function splitBytes(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
	const pieces: Uint8Array[] = [];
	let start = 0;
	for (const cut of [...cuts, bytes.length]) {
		if (cut <= start || cut > bytes.length) continue;
		pieces.push(bytes.subarray(start, cut));
		start = cut;
	}
	return pieces;
}

/** Events projected to what must not depend on chunking (no timestamps, no live `partial`). */
export function projectEvents(events: AssistantMessageEvent[]): string[] {
	return events.map((event) => {
		switch (event.type) {
			case "text_delta":
			case "thinking_delta":
			case "toolcall_delta":
				return `${event.type}:${event.contentIndex}:${event.delta}`;
			case "text_end":
			case "thinking_end":
				return `${event.type}:${event.contentIndex}:${event.content}`;
			case "toolcall_end":
				return `${event.type}:${event.contentIndex}:${JSON.stringify(event.toolCall)}`;
			case "done": {
				// Wall-clock facts (start time, how long it took) differ run to run; the rest must not.
				const { timestamp: _t, durationMs: _d, ...rest } = event.message;
				return `done:${event.reason}:${JSON.stringify(rest)}`;
			}
			case "error": {
				const { timestamp: _t, durationMs: _d, ...rest } = event.error;
				return `error:${event.reason}:${JSON.stringify(rest)}`;
			}
			default:
				return "contentIndex" in event ? `${event.type}:${event.contentIndex}` : event.type;
		}
	});
}

/** A streaming `Response` whose body yields exactly these pieces. */
export function responseFromPieces(pieces: Uint8Array[]): Response {
	let i = 0;
	const body = new ReadableStream<Uint8Array>({
		pull(controller) {
			const piece = pieces[i++];
			if (piece === undefined) controller.close();
			else controller.enqueue(piece);
		},
	});
	return new Response(body, { headers: { "content-type": "text/event-stream" } });
}

/**
 * A raw-body adapter's parse path without the request: the pieces read with the
 * adapters' SSE body reader, each event's JSON handed to the adapter's wire
 * mapper, and the resulting events projected for comparison.
 */
export async function decodePieces<Payload>(
	model: Model,
	mapperFor: (writer: AssistantStreamWriter) => { handle(payload: Payload): void; end(): void },
	pieces: Uint8Array[],
): Promise<string[]> {
	const writer = new AssistantStreamWriter(model);
	const mapper = mapperFor(writer);
	const events: AssistantMessageEvent[] = [];
	const drain = (async () => {
		for await (const event of writer.stream) events.push(event);
	})();
	const body = responseFromPieces(pieces).body as unknown as AsyncIterable<Uint8Array>;
	if (
		await readSseBody(
			body,
			writer,
			() => {},
			(data) => mapper.handle(JSON.parse(data) as Payload),
		)
	)
		mapper.end();
	await drain;
	return projectEvents(events);
}

/** SSE bytes of `frames` and the byte range each frame occupies. */
export function framedBytes(frames: SseFrame[]): { bytes: Buffer; ranges: [number, number][] } {
	const parts = frames.map((frame) => sseBytes([frame]));
	const ranges: [number, number][] = [];
	let at = 0;
	for (const part of parts) {
		ranges.push([at, at + part.length]);
		at += part.length;
	}
	return { bytes: Buffer.concat(parts), ranges };
}

/**
 * Split plans that together cut every byte boundary: plan `r` cuts each frame
 * at its offsets r, r + period, r + 2·period… (plan 0 cuts at the frame
 * starts). A split only affects the frame it falls in, so cutting all frames
 * at once in one run tests each boundary as a split point while needing only
 * `min(longest frame, period)` runs instead of one run per byte.
 */
export function everyBoundaryPlans(ranges: [number, number][], period: number): number[][] {
	const longest = Math.max(...ranges.map(([start, end]) => end - start));
	const runs = Math.min(longest, period);
	const plans: number[][] = [];
	for (let r = 0; r < runs; r++) {
		const cuts: number[] = [];
		for (const [start, end] of ranges) {
			for (let offset = r; offset < end - start; offset += period) if (start + offset > 0) cuts.push(start + offset);
		}
		plans.push(cuts);
	}
	return plans;
}
