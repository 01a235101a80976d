// Issue 25: the CRC-32 of a file's prefix computed on a worker thread while the
// caller goes on (session/parallel-checksum.ts): the pieces' CRCs joined as
// zlib joins them, the same sum as zlib over the whole prefix whichever thread
// took which piece, and no sum (-1) when the path no longer names the file.
import { readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { crc32 } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import {
	CHUNK,
	crc32Combine,
	hasSpareCore,
	type ParallelChecksumPolicy,
	setParallelChecksumPolicy,
	startParallelChecksum,
} from "../../src/session/parallel-checksum.js";
import { tempDir } from "./helpers.js";

let restorePolicy: ParallelChecksumPolicy | undefined;
afterEach(() => {
	if (restorePolicy) setParallelChecksumPolicy(restorePolicy);
	restorePolicy = undefined;
});

/** A worker for every prefix, whatever its size and the machine's load. */
function always(): void {
	restorePolicy ??= setParallelChecksumPolicy({ minBytes: 0, onlyWithSpareCore: false });
}

/** Deterministic bytes that are not all alike. */
function bytes(n: number, seed = 7): Buffer {
	const b = Buffer.allocUnsafe(n);
	let x = seed;
	for (let i = 0; i < n; i++) {
		x = (x * 1103515245 + 12345) & 0x7fffffff;
		b[i] = x >>> 16;
	}
	return b;
}

function source(path: string) {
	const s = statSync(path, { bigint: true });
	return { path, dev: s.dev, ino: s.ino };
}

describe("parallel checksum", () => {
	it("crc32Combine joins two CRCs as the CRC of the bytes joined", () => {
		const data = bytes(70_000);
		for (const cut of [0, 1, 2, 3, 4, 1000, 65_536, 69_999, 70_000]) {
			const a = data.subarray(0, cut);
			const b = data.subarray(cut);
			expect(crc32Combine(crc32(a), crc32(b), b.length)).toBe(crc32(data));
		}
	});

	it("gives zlib's CRC-32 of the prefix, whether the worker or the caller takes the pieces", async () => {
		const dir = tempDir();
		const file = join(dir, "f");
		const data = bytes(3 * CHUNK + 12_345);
		writeFileSync(file, data);
		always();
		for (const size of [data.length, 2 * CHUNK, CHUNK + 1, 17]) {
			// Settled at once: the caller takes what the worker has not started on.
			const now = startParallelChecksum(source(file), size);
			expect(now).toBeDefined();
			expect(now?.settle()).toBe(crc32(data.subarray(0, size)));
			// Settled after the worker had time to take every piece.
			const later = startParallelChecksum(source(file), size);
			for (let i = 0; i < 200 && !later?.ready; i++) await new Promise((r) => setTimeout(r, 10));
			expect(later?.ready).toBe(true);
			expect(later?.settle()).toBe(crc32(data.subarray(0, size)));
			expect(later?.settle()).toBe(crc32(data.subarray(0, size)));
		}
	});

	it.runIf(process.platform === "linux")(
		"runs the worker at the lowest priority (it yields a busy core to the caller)",
		async () => {
			const dir = tempDir();
			const file = join(dir, "f");
			writeFileSync(file, bytes(2 * CHUNK));
			always();
			const check = startParallelChecksum(source(file), 2 * CHUNK);
			for (let i = 0; i < 200 && check?.workerPriority !== 19; i++) await new Promise((r) => setTimeout(r, 10));
			expect(check?.workerPriority).toBe(19);
			expect(check?.settle()).toBe(crc32(readFileSync(file)));
		},
	);

	it("is no sum (-1) when the path names another file or the file is shorter", () => {
		const dir = tempDir();
		const file = join(dir, "f");
		writeFileSync(file, bytes(CHUNK + 100));
		always();
		const before = source(file);
		writeFileSync(join(dir, "g"), bytes(CHUNK + 100, 9));
		renameSync(join(dir, "g"), file);
		expect(startParallelChecksum(before, CHUNK + 100)?.settle()).toBe(-1);
		expect(startParallelChecksum(source(file), CHUNK + 101)?.settle()).toBe(-1);
		expect(startParallelChecksum(source(file), CHUNK + 100)?.settle()).toBe(crc32(readFileSync(file)));
	});

	it("is not started below its threshold", () => {
		const dir = tempDir();
		const file = join(dir, "f");
		writeFileSync(file, bytes(1000));
		restorePolicy = setParallelChecksumPolicy({ minBytes: 1001, onlyWithSpareCore: false });
		expect(startParallelChecksum(source(file), 1000)).toBeUndefined();
		setParallelChecksumPolicy({ minBytes: 1000 });
		expect(startParallelChecksum(source(file), 1000)?.settle()).toBe(crc32(bytes(1000)));
	});

	it("finds a core to spare only on a machine of four or more (one left to V8's threads) that is not busy", () => {
		const never = () => {
			throw new Error("not asked");
		};
		expect(hasSpareCore(4, "0.52 0.58 0.59 1/171 8636\n", never)).toBe(true);
		expect(hasSpareCore(2, "0.00 0.00 0.00 1/171 8636\n", never)).toBe(false);
		expect(hasSpareCore(1, "0.00 0.00 0.00 1/171 8636\n", never)).toBe(false);
		// Threads running this moment: on 4 cores, two besides the caller leave none to spare.
		expect(hasSpareCore(4, "0.52 0.58 0.59 2/171 8636\n", never)).toBe(true);
		expect(hasSpareCore(4, "0.52 0.58 0.59 3/171 8636\n", never)).toBe(false);
		expect(hasSpareCore(8, "0.52 0.58 0.59 6/171 8636\n", never)).toBe(true);
		// Busy on average (the 1-minute load at or above the cores less one).
		expect(hasSpareCore(4, "3.10 1.58 0.59 1/171 8636\n", never)).toBe(false);
		expect(hasSpareCore(4, undefined, () => 0.5)).toBe(true);
		expect(hasSpareCore(4, undefined, () => 3.5)).toBe(false);
	});
});
