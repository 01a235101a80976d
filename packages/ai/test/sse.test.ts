import { describe, expect, it } from "vitest";
import { iterateSse, type SseEvent, SseParser, Utf8Stream } from "../src/sse.js";

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

describe("Utf8Stream", () => {
	// What a streaming TextDecoder("utf-8") gives for the same pieces: the reference.
	const reference = (pieces: Uint8Array[]) => {
		const decoder = new TextDecoder("utf-8");
		return pieces.map((p) => decoder.decode(p, { stream: true })).join("") + decoder.decode();
	};
	const ours = (pieces: Uint8Array[]) => {
		const decoder = new Utf8Stream();
		return pieces.map((p) => decoder.decode(p)).join("") + decoder.end();
	};
	const bytesOf = (...parts: (string | number[])[]) =>
		Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p, "utf8") : Buffer.from(p))));
	const cases: [string, Uint8Array][] = [
		["BOM first, U+FEFF later kept", bytesOf([0xef, 0xbb, 0xbf], "a\uFEFFb ✓ 😀", [0xef, 0xbb, 0xbf], "c")],
		[
			"malformed: lone continuations, cut sequences, overlong, surrogate, F8",
			bytesOf(
				"x",
				[0x80, 0xbf],
				"é",
				[0xe2, 0x82],
				"y",
				[0xf0, 0x9f, 0x98],
				"z",
				[0xe0, 0x80, 0x41],
				[0xed, 0xa0, 0x80],
				[0xf8, 0x88, 0x80, 0x80, 0x80],
				"end",
			),
		],
		["ends inside a character", bytesOf("ok ", [0xf0, 0x9f, 0x98])],
		["only a BOM split in three", bytesOf([0xef, 0xbb, 0xbf])],
	];
	for (const [name, bytes] of cases) {
		it(`decodes like a streaming TextDecoder at every split and byte by byte (${name})`, () => {
			expect(ours([bytes])).toBe(reference([bytes]));
			for (let at = 0; at <= bytes.length; at++) {
				const pieces = [bytes.subarray(0, at), bytes.subarray(at)];
				expect(ours(pieces), `split at ${at}`).toBe(reference(pieces));
			}
			const single = Array.from(bytes, (b) => Uint8Array.of(b));
			expect(ours(single)).toBe(reference(single));
		});
	}

	it("does not keep a view of a piece the caller reuses", () => {
		const decoder = new Utf8Stream();
		const piece = Buffer.from([0x61, 0xe2, 0x82]); // "a" + the first two bytes of "€"
		expect(decoder.decode(piece)).toBe("a");
		piece.fill(0);
		expect(decoder.decode(Uint8Array.of(0xac))).toBe("€");
	});
});
