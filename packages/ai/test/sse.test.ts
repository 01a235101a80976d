import { describe, expect, it } from "vitest";
import { iterateSse, type SseEvent, SseParser } from "../src/sse.js";

const stream = [
	": keep-alive comment",
	"",
	"event: message_start",
	'data: {"type":"message_start","text":"héllo ✓ 😀"}',
	"",
	"data: line one",
	"data:line two",
	"data",
	"",
	"id: 42",
	"retry: 1000",
	"unknown: field",
	"data: [DONE]",
	"",
	"data: dropped because the stream ends before its blank line",
].join("\n");

const expected: SseEvent[] = [
	{ event: "message_start", data: '{"type":"message_start","text":"héllo ✓ 😀"}' },
	{ event: "", data: "line one\nline two\n" },
	{ event: "", data: "[DONE]", id: "42" },
];

function parseInPieces(bytes: Uint8Array, cuts: number[]): SseEvent[] {
	const parser = new SseParser();
	const out: SseEvent[] = [];
	let start = 0;
	for (const cut of [...cuts, bytes.length]) {
		out.push(...parser.pushBytes(bytes.subarray(start, cut)));
		start = cut;
	}
	out.push(...parser.end());
	return out;
}

describe("SseParser", () => {
	for (const [name, eol] of [
		["LF", "\n"],
		["CRLF", "\r\n"],
		["CR", "\r"],
	] as const) {
		const bytes = new TextEncoder().encode(stream.replace(/\n/g, eol));

		it(`parses ${name} line endings whole`, () => {
			expect(parseInPieces(bytes, [])).toEqual(expected);
		});

		it(`gives identical events for every two-piece byte split (${name})`, () => {
			for (let at = 1; at < bytes.length; at++) expect(parseInPieces(bytes, [at]), `split at ${at}`).toEqual(expected);
		});

		it(`gives identical events when fed one byte at a time (${name})`, () => {
			const cuts = Array.from({ length: bytes.length - 1 }, (_, i) => i + 1);
			expect(parseInPieces(bytes, cuts)).toEqual(expected);
		});
	}

	it("iterates a body of byte pieces", async () => {
		const bytes = new TextEncoder().encode("data: a\n\ndata: b\n\n");
		async function* body() {
			yield bytes.subarray(0, 7);
			yield bytes.subarray(7);
		}
		const events: SseEvent[] = [];
		for await (const event of iterateSse(body())) events.push(event);
		expect(events).toEqual([
			{ event: "", data: "a" },
			{ event: "", data: "b" },
		]);
	});

	// Scanning is linear: a quadratic parser (rescanning the unfinished line on every piece, or
	// searching for LF past every CR-terminated line) takes minutes on these inputs.
	it("parses a 4 MiB event line arriving in 64-byte pieces in linear time", () => {
		const payload = "x".repeat(4 * 1024 * 1024);
		const bytes = new TextEncoder().encode(`data: ${payload}\n\ndata: tail\n\n`);
		const parser = new SseParser();
		const out: SseEvent[] = [];
		const started = performance.now();
		for (let at = 0; at < bytes.length; at += 64) out.push(...parser.pushBytes(bytes.subarray(at, at + 64)));
		out.push(...parser.end());
		const ms = performance.now() - started;
		expect(out.map((e) => e.data.length)).toEqual([payload.length, 4]);
		expect(out[0]?.data === payload).toBe(true);
		expect(ms).toBeLessThan(2000);
	});

	it("parses 200k CR-terminated events in one piece in linear time", () => {
		const text = "data: x\r\r".repeat(200_000);
		const parser = new SseParser();
		const started = performance.now();
		const out = [...parser.pushText(text), ...parser.end()];
		const ms = performance.now() - started;
		expect(out.length).toBe(200_000);
		expect(out.every((e) => e.data === "x" && e.event === "")).toBe(true);
		expect(ms).toBeLessThan(2000);
	});

	it("parses 300k colon-less field lines in one piece in linear time", () => {
		const text = "data\n\n".repeat(300_000);
		const parser = new SseParser();
		const started = performance.now();
		const out = [...parser.pushText(text), ...parser.end()];
		const ms = performance.now() - started;
		expect(out.length).toBe(300_000);
		expect(out.every((e) => e.data === "" && e.event === "")).toBe(true);
		expect(ms).toBeLessThan(2000);
	});
});
