// The content hash a session index keeps of the bytes it indexed (content-hash.ts, computed by the
// line-scan module): the same value however the bytes are cut into pieces and whichever scanner
// feeds them, a different one for any changed byte, and a fixed value for fixed bytes (index
// files store it: a change of the function must bump INDEX_FORMAT).
import { closeSync, openSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ContentHash, hashFilePrefix } from "../../src/session/content-hash.js";
import { acquireLineScanner, type LineScanner, releaseLineScanner } from "../../src/session/line-scan.js";
import { tempDir } from "./helpers.js";

/** Bytes 0..n-1 of a fixed pattern (every byte value occurs). */
function pattern(n: number): Buffer {
	const b = Buffer.alloc(n);
	for (let i = 0; i < n; i++) b[i] = (i * 131 + (i >> 8) * 7) & 0xff;
	return b;
}

/** The digest of `bytes` fed in pieces cut at `cuts` (ascending offsets), each through `scanner`'s buffer. */
function digestOf(bytes: Buffer, cuts: number[] = [], scanners?: LineScanner[]): string | undefined {
	const own = scanners ?? [acquireLineScanner() as LineScanner];
	try {
		const hash = new ContentHash();
		const edges = [0, ...cuts, bytes.length];
		for (let k = 0; k + 1 < edges.length; k++) {
			const scanner = own[k % own.length];
			const piece = bytes.subarray(edges[k], edges[k + 1]);
			// Not at the buffer's start, as a scan feeds the piece read after an unfinished line.
			const buf = scanner.buffer(piece.length + 5);
			piece.copy(buf, 5);
			hash.update(scanner, 5, 5 + piece.length);
		}
		return hash.digest();
	} finally {
		if (!scanners) for (const s of own) releaseLineScanner(s);
	}
}

describe("the content hash of a session index", () => {
	it("is one value for the same bytes however they are cut into pieces, on one scanner or several", () => {
		const bytes = pattern(5000);
		const whole = digestOf(bytes);
		expect(whole).toMatch(/^[0-9a-f]{16}$/);
		const a = acquireLineScanner() as LineScanner;
		const b = acquireLineScanner() as LineScanner;
		try {
			for (const cuts of [[1], [127], [128], [129], [1, 2, 3], [100, 300, 301, 4095], [64, 192, 320, 448]]) {
				expect(digestOf(bytes, cuts), `cuts ${cuts}`).toBe(whole);
				expect(digestOf(bytes, cuts, [a, b]), `cuts ${cuts}, two scanners`).toBe(whole);
			}
			const every7 = Array.from({ length: 700 }, (_, k) => (k + 1) * 7);
			expect(digestOf(bytes, every7, [a, b])).toBe(whole);
		} finally {
			releaseLineScanner(a);
			releaseLineScanner(b);
		}
	});

	it("changes with any one byte changed, at every place around the 128-byte blocks, and with the length", () => {
		const bytes = pattern(1100);
		const seen = new Set<string>([digestOf(bytes) as string]);
		let tried = 1;
		for (let at = 0; at < bytes.length; at++) {
			for (const flip of [0x01, 0x80, 0xff]) {
				const changed = Buffer.from(bytes);
				changed[at] ^= flip;
				seen.add(digestOf(changed) as string);
				tried++;
			}
		}
		// Every variant its own value (the tail past the last whole block included).
		expect(seen.size).toBe(tried);
		// A prefix, or the bytes with a zero byte more, is another value too.
		expect(digestOf(bytes.subarray(0, 1099))).not.toBe(digestOf(bytes));
		expect(digestOf(Buffer.concat([bytes, Buffer.alloc(1)]))).not.toBe(digestOf(bytes));
		expect(digestOf(Buffer.alloc(256))).not.toBe(digestOf(Buffer.alloc(384)));
	});

	it("keeps its value for fixed bytes (index files store it: changing it means bumping INDEX_FORMAT)", () => {
		expect(digestOf(Buffer.alloc(0))).toBe("d712f4ba4a766cb6");
		expect(digestOf(pattern(1000))).toBe("c5c4283603b5440a");
	});

	it("hashes a file's prefix as the bytes fed in pieces, and says when it cannot", () => {
		const dir = tempDir();
		const file = join(dir, "f.bin");
		const bytes = pattern(3 * 1024 * 1024 + 77);
		writeFileSync(file, bytes);
		const fd = openSync(file, "r");
		try {
			expect(hashFilePrefix(fd, bytes.length)?.digest()).toBe(digestOf(bytes, [1024 * 1024, 2 * 1024 * 1024]));
			expect(hashFilePrefix(fd, 1000)?.digest()).toBe(digestOf(bytes.subarray(0, 1000)));
			// Past the end of the file: not all the bytes can be read.
			expect(hashFilePrefix(fd, bytes.length + 1)).toBeUndefined();
		} finally {
			closeSync(fd);
		}
		const lost = new ContentHash();
		lost.lose();
		expect(lost.digest()).toBeUndefined();
	});
});
