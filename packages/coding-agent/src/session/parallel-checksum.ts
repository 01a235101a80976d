// The CRC-32 of a file's first bytes computed on a second thread while this
// one goes on (the machine's other core): a resume checks its index's prefix
// (~35–45 ms of zlib's crc32 for 100 MB) while it builds the first context
// from that index.
//
// The bytes are cut into CHUNK-sized pieces that either thread takes, in
// order, through one shared counter: a worker (worker_threads, its own fd on
// the path, checked to be the same file) takes pieces as soon as it has
// started (~25–30 ms of the other core on Node 20); `settle()` makes this
// thread take the pieces still left, waits for the one the worker is on, and
// joins the pieces' CRCs (crc32_combine, as zlib does it). So a worker that
// starts late (a loaded machine) costs nothing but its start: this thread
// never waits for it to boot, only for at most one piece it has taken.
// A worker that fails (read error, another file at the path) makes the sum
// unknown (-1): the caller then trusts nothing, as for a mismatch.
import { closeSync, fstatSync, openSync, readFileSync, readSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import type * as WorkerThreads from "node:worker_threads";
import { nodeBuiltin } from "../lazy-cjs.js";
import { newChecksum } from "./index-cache.js";

/** Bytes per piece: the unit either thread takes (one read, one crc32 call). */
export const CHUNK = 1024 * 1024;

export interface ParallelChecksumPolicy {
	/**
	 * Prefixes below this are checksummed on the caller's thread: starting a worker costs that thread
	 * ~3–4 ms (and the other core ~25 ms), what crc32 takes for ~8 MB.
	 */
	minBytes: number;
	/**
	 * Whether to ask the machine for a core to spare (else: always a worker). On a busy machine the
	 * worker shares a core with the caller's thread, which then waits on the run queue for about as
	 * long as the worker runs (measured: 100–200 ms of a resume at load 3 on 2 cores, vs 6–25 ms).
	 */
	onlyWithSpareCore: boolean;
}

const policy: ParallelChecksumPolicy = { minBytes: 16 * 1024 * 1024, onlyWithSpareCore: true };

/** Changes the policy (tests: `{ minBytes: 0, onlyWithSpareCore: false }` for a worker every time); returns the previous one. */
export function setParallelChecksumPolicy(change: Partial<ParallelChecksumPolicy>): ParallelChecksumPolicy {
	const previous = { ...policy };
	Object.assign(policy, change);
	return previous;
}

/**
 * Whether a machine of `cpus` cores has one to spare now for the worker: four or more, a 1-minute
 * load average below `cpus - 1`, and fewer threads running this moment than `cpus - 1` (the caller
 * included). One core is left to V8's own threads: on 2 cores (the only machine measured) the worker
 * never won, even at rest — a resume's GC and compiler threads use ~100 ms of the second core, and
 * the worker's start (~25 ms) and reads then share it (A/B at load 1.3–1.5: 259 ms with the worker vs
 * 253 without, CPU 370 vs 310, peak RSS 95.8 vs 93.1 MiB). `procLoadavg`: the text of Linux's
 * /proc/loadavg ("0.52 0.58 0.59 2/171 8636": averages, running/all threads, last pid); without
 * it, `loadavg1` alone.
 */
export function hasSpareCore(cpus: number, procLoadavg: string | undefined, loadavg1: () => number): boolean {
	if (cpus < 4) return false;
	const free = cpus - 1;
	if (!procLoadavg) return loadavg1() < free;
	const fields = procLoadavg.split(" ");
	const running = Number.parseInt(fields[3] ?? "", 10);
	return Number(fields[0]) < free && !(running >= free);
}

function spareCore(): boolean {
	let text: string | undefined;
	try {
		text = readFileSync("/proc/loadavg", "latin1");
	} catch {
		// not Linux
	}
	return hasSpareCore(availableParallelism(), text, () => loadavg()[0]);
}

// Shared control words (Int32, in the SharedArrayBuffer before the per-piece CRCs).
const NEXT = 0; // next piece to take
const DONE = 1; // pieces finished (by either thread)
const FAILED = 2; // the worker could not read (1): the sum is unknown
const WORKER_DONE = 3; // pieces the worker finished
const PRIORITY = 4; // the worker thread's nice value once set (0 until then, or where it cannot be)
const CONTROL = 5;

/** How long `settle` waits without the worker finishing a piece before it gives up on the sum. */
const STALL_MS = 5000;
const WAIT_MS = 100;

// The worker's whole program: plain CommonJS, evaluated (no file to find in a bundle).
const WORKER_SOURCE = `"use strict";
const { workerData } = require("node:worker_threads");
const { openSync, readSync, fstatSync, closeSync } = require("node:fs");
const { crc32 } = require("node:zlib");
const { path, dev, ino, size, chunk, pieces, shared } = workerData;
// This thread at the lowest priority (Linux: a thread id is a "pid" to setpriority): it runs on a
// core nobody else wants, and on a busy one yields to the thread that started it, which then takes
// the pieces itself.
const ctl = new Int32Array(shared, 0, ${CONTROL});
try {
	const tid = Number(require("node:fs").readlinkSync("/proc/thread-self").split("/").pop());
	if (tid > 0) {
		require("node:os").setPriority(tid, 19);
		Atomics.store(ctl, ${PRIORITY}, require("node:os").getPriority(tid));
	}
} catch {}
const crcs = new Int32Array(shared, ${CONTROL * 4}, pieces);
let fd = -1;
try {
	fd = openSync(path, "r");
	const s = fstatSync(fd, { bigint: true });
	if (String(s.dev) !== dev || String(s.ino) !== ino || Number(s.size) < size) throw new Error("another file");
	const buf = Buffer.allocUnsafe(Math.min(chunk, size));
	for (;;) {
		const k = Atomics.add(ctl, ${NEXT}, 1);
		if (k >= pieces) break;
		const from = k * chunk;
		const n = Math.min(chunk, size - from);
		for (let got = 0; got < n; ) {
			const r = readSync(fd, buf, got, n - got, from + got);
			if (r <= 0) throw new Error("short read");
			got += r;
		}
		crcs[k] = crc32(buf.subarray(0, n));
		Atomics.add(ctl, ${WORKER_DONE}, 1);
		Atomics.add(ctl, ${DONE}, 1);
		Atomics.notify(ctl, ${DONE});
	}
} catch {
	Atomics.store(ctl, ${FAILED}, 1);
	Atomics.notify(ctl, ${DONE});
} finally {
	if (fd >= 0) closeSync(fd);
}
`;

export interface ParallelChecksum {
	/** Bytes covered (the file's first `size`). */
	readonly size: number;
	/** The CRC-32 of those bytes (unsigned), or -1 when it could not be computed. Waits at most for one piece; idempotent. */
	settle(): number;
	/** Whether `settle()` would not have to compute or wait for anything. */
	readonly ready: boolean;
	/** The worker thread's nice value (19 once it has lowered it; 0 before, or where it cannot). */
	readonly workerPriority: number;
}

/** The file: its path and the device and inode it must be found at (else the sum is unknown). */
export interface ChecksumSource {
	path: string;
	dev: bigint;
	ino: bigint;
}

/** A descriptor on `file.path` when that is still the file (dev, inode) and holds `size` bytes, else -1. */
function openSame(file: ChecksumSource, size: number): number {
	let fd = -1;
	try {
		fd = openSync(file.path, "r");
		const s = fstatSync(fd, { bigint: true });
		if (s.dev === file.dev && s.ino === file.ino && Number(s.size) >= size) return fd;
	} catch {
		// unreadable: unknown sum
	}
	if (fd >= 0) closeSync(fd);
	return -1;
}

/**
 * Starts the CRC-32 of the first `size` bytes of `file` on a worker; undefined when `size` is
 * below the policy's threshold, the machine has no core to spare, or this Node has no crc32 or
 * worker threads (the caller then computes it itself).
 */
export function startParallelChecksum(file: ChecksumSource, size: number): ParallelChecksum | undefined {
	if (size < policy.minBytes || size <= 0 || (policy.onlyWithSpareCore && !spareCore())) return undefined;
	const sum = newChecksum();
	if (!sum) return undefined;
	let wt: typeof WorkerThreads;
	try {
		wt = nodeBuiltin<typeof WorkerThreads>("node:worker_threads");
	} catch {
		return undefined;
	}
	const pieces = Math.ceil(size / CHUNK);
	const shared = new SharedArrayBuffer((CONTROL + pieces) * 4);
	const ctl = new Int32Array(shared, 0, CONTROL);
	const crcs = new Int32Array(shared, CONTROL * 4, pieces);
	try {
		const worker = new wt.Worker(WORKER_SOURCE, {
			eval: true,
			workerData: { path: file.path, dev: String(file.dev), ino: String(file.ino), size, chunk: CHUNK, pieces, shared },
			// Nothing of the parent's: no Node options (preloads, profilers), no stdio to forward (the
			// parent's process.stdout is not made for it), no env copy, a small heap.
			execArgv: [],
			stdout: true,
			stderr: true,
			env: {},
			resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 4 },
		});
		worker.unref();
		// A worker that could not start took no piece (this thread takes them all); one that died on a
		// piece is seen as stalled by settle(). Its error event must not become an uncaught exception.
		worker.on("error", () => {});
	} catch {
		return undefined;
	}
	let result: number | undefined;
	return {
		size,
		get workerPriority() {
			return Atomics.load(ctl, PRIORITY);
		},
		get ready() {
			return result !== undefined || Atomics.load(ctl, DONE) === pieces || Atomics.load(ctl, FAILED) !== 0;
		},
		settle() {
			if (result !== undefined) return result;
			// Take what the worker has not, through a descriptor of this thread's own.
			let buf: Buffer | undefined;
			let fd = -1;
			for (;;) {
				if (Atomics.load(ctl, FAILED) !== 0) break;
				const k = Atomics.add(ctl, NEXT, 1);
				if (k >= pieces) break;
				if (fd < 0) {
					fd = openSame(file, size);
					if (fd < 0) {
						Atomics.store(ctl, FAILED, 1);
						break;
					}
				}
				buf ??= Buffer.allocUnsafe(Math.min(CHUNK, size));
				const from = k * CHUNK;
				const n = Math.min(CHUNK, size - from);
				const c = newChecksum() as NonNullable<ReturnType<typeof newChecksum>>;
				let got = 0;
				try {
					while (got < n) {
						const r = readSync(fd, buf, got, n - got, from + got);
						if (r <= 0) break;
						got += r;
					}
				} catch {
					// unreadable (EIO): no sum, as for a short file; the caller's full scan meets it again
				}
				if (got < n) {
					Atomics.store(ctl, FAILED, 1);
					break;
				}
				c.add(buf, 0, n);
				crcs[k] = c.value;
				Atomics.add(ctl, DONE, 1);
			}
			if (fd >= 0) closeSync(fd);
			// Wait for the pieces the worker took (at most the one it is on), unless it stalls.
			// (Counted in timed-out waits: no clock, and no perf_hooks loaded for one.)
			let idle = 0;
			for (;;) {
				const done = Atomics.load(ctl, DONE);
				if (done >= pieces || Atomics.load(ctl, FAILED) !== 0) break;
				if (Atomics.wait(ctl, DONE, done, WAIT_MS) !== "timed-out") idle = 0;
				else if (++idle * WAIT_MS >= STALL_MS) Atomics.store(ctl, FAILED, 1);
			}
			if (Atomics.load(ctl, FAILED) !== 0) {
				result = -1;
				return result;
			}
			let crc = crcs[0] >>> 0;
			const step = x2nmodp(CHUNK, 3);
			for (let k = 1; k < pieces; k++) {
				const len = Math.min(CHUNK, size - k * CHUNK);
				crc = (multmodp(len === CHUNK ? step : x2nmodp(len, 3), crc) ^ (crcs[k] >>> 0)) >>> 0;
			}
			result = crc;
			return result;
		},
	};
}

// ---------------------------------------------------------------- crc32_combine (zlib's crc32.c)

const POLY = 0xedb88320;

/** a(x) * b(x) modulo p(x), reflected (zlib's multmodp). */
function multmodp(a: number, b: number): number {
	let m = 0x80000000;
	let p = 0;
	for (;;) {
		if ((a & m) !== 0) {
			p ^= b;
			if ((a & (m - 1)) === 0) break;
		}
		m >>>= 1;
		b = b & 1 ? (b >>> 1) ^ POLY : b >>> 1;
	}
	return p >>> 0;
}

let x2nTable: Uint32Array | undefined;

/** x^(n * 2^k) modulo p(x) (zlib's x2nmodp). */
function x2nmodp(n: number, k: number): number {
	if (!x2nTable) {
		x2nTable = new Uint32Array(32);
		let p = 0x40000000; // x^1
		x2nTable[0] = p;
		for (let i = 1; i < 32; i++) x2nTable[i] = p = multmodp(p, p);
	}
	let p = 0x80000000; // x^0
	while (n > 0) {
		if (n & 1) p = multmodp(x2nTable[k & 31], p);
		n = Math.floor(n / 2);
		k++;
	}
	return p;
}

/** The CRC-32 of A followed by B, from CRC(A), CRC(B) and B's length (zlib's crc32_combine). */
export function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
	return (multmodp(x2nmodp(lengthB, 3), crcA >>> 0) ^ (crcB >>> 0)) >>> 0;
}
