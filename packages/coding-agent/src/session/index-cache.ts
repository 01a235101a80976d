// A persisted index of a session file's verified prefix: after a full scan of
// a clean file (no warning, no damaged or glued line, no migration, no renamed
// duplicate, every parent found) the tree's columns (tree.ts, id-index.ts),
// its labels, name and the header go into one file under the agent dir's cache
// (`<agentDir>/cache/session-index/<sha1 of the real path>.idx`), never beside
// the session. The next open of that session restores the tree from it and
// scans only the bytes appended since (load.ts):
//   - same file (dev, inode), same size, same mtime and ctime (ns): the bytes
//     are the ones indexed; restored without reading the session;
//   - same file, grown or with other times: the indexed prefix is read once
//     and its content hash (content-hash.ts: 64 bits, ~5 ms per 100 MB here,
//     where zlib's CRC-32 took ~16 and SHA-1 ~75) compared with the stored
//     one — a byte changed in it means a full scan, which finds and warns
//     about the damage as always;
//   - anything else (another inode, a shorter file, no index, an index that
//     is truncated, garbled, of another format version or of another file):
//     a full scan, as without an index, and the index is written again.
// The content hash detects every change within one aligned 4-byte word and
// misses any other accidental change with probability about 2^-32 (two
// changes that cancel within one of its 32 lanes) or less; an index is not a defence
// against someone rewriting the session on purpose (who can write the index
// as well). A stamp taken less than RACY_MS after the file's last change is
// not trusted on its own (a change in the same clock tick leaves mtime and
// ctime as they were): such an index is always verified by its content hash.
//
// The index is a cache: written atomically (temp file + rename), not synced,
// at most MAX_INDEXES of them (the least recently written go), and any failure
// to read or write one is silent — the open then scans, as it always did.
import type * as Crypto from "node:crypto";
import {
	closeSync,
	fstatSync,
	mkdirSync,
	openSync,
	readdirSync,
	realpathSync,
	renameSync,
	statSync,
	unlinkSync,
} from "node:fs";
import { join } from "node:path";
import type * as Zlib from "node:zlib";
import { nodeBuiltin } from "../lazy-cjs.js";
import { readFully, writeFully } from "./fd-io.js";
import type { TreeColumns } from "./tree-columns.js";
import type { SessionHeader } from "./types.js";

/**
 * Bumped whenever the layout or the meaning of a field changes (including the id hash of
 * id-index.ts, whose values are stored, and the interned-name codes of tree.ts): other versions
 * are ignored.
 */
export const INDEX_FORMAT = 2;
const MAGIC = Buffer.from("PI-SIDX\n", "latin1");
/** Index files kept in the cache directory (each ~6 % of its session's size). */
export const MAX_INDEXES = 32;
/** A file changed this recently may change again with the same mtime/ctime (coarse clocks, 1 s file systems). */
export const RACY_MS = 2000;

let indexDir: string | undefined;

/** Where index files go; undefined (the default, as for the SDK) writes and reads none. The CLI sets `<agentDir>/cache/session-index`. */
export function setSessionIndexDir(dir: string | undefined): void {
	indexDir = dir;
}

export function sessionIndexDir(): string | undefined {
	return indexDir;
}

let zlib: typeof Zlib | undefined;
/** zlib's CRC-32 (Node 20.15+; an older Node keeps no index). */
function crc32Fn(): ((data: Uint8Array, value?: number) => number) | undefined {
	zlib ??= nodeBuiltin<typeof Zlib>("node:zlib");
	return typeof zlib.crc32 === "function" ? zlib.crc32 : undefined;
}

/** What identifies the indexed file and its bytes. */
export interface IndexMeta {
	/** Real path of the session file. */
	path: string;
	dev: string;
	ino: string;
	/** Bytes indexed (a prefix of the file ending with "\n"), their content hash (content-hash.ts) and line count. */
	size: number;
	hash: string;
	lines: number;
	mtimeNs: string;
	ctimeNs: string;
	/** The stamp was taken too soon after the file's last change: check the content hash even when the stamp matches. */
	verify: boolean;
	header: SessionHeader;
	/** The load's object count (header included). */
	objectCount: number;
}

export interface StoredIndex {
	meta: IndexMeta;
	/** Arrays with room for more rows than `count`. */
	columns: TreeColumns;
	/** The stored body's CRC (for `writeIndexStamp`). */
	bodyCrc: number;
}

/** The stamp fields of a bigint stat, as an index stores them. */
export interface FileStamp {
	dev: bigint;
	ino: bigint;
	size: bigint;
	mtimeNs: bigint;
	ctimeNs: bigint;
}

export function sameStamp(a: FileStamp, b: FileStamp): boolean {
	return a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs;
}

/** Same file (device and inode), by the stored stamp. */
export function sameFile(meta: IndexMeta, s: FileStamp): boolean {
	return meta.dev === String(s.dev) && meta.ino === String(s.ino);
}

/** Same file, same size and times: its bytes are the indexed ones (unless the stamp was racy). */
export function unchanged(meta: IndexMeta, s: FileStamp): boolean {
	return (
		!meta.verify &&
		sameFile(meta, s) &&
		meta.size === Number(s.size) &&
		meta.mtimeNs === String(s.mtimeNs) &&
		meta.ctimeNs === String(s.ctimeNs)
	);
}

/**
 * Whether a stamp taken at `now` (ms) cannot be trusted on its own later: taken within RACY_MS of
 * the file's last change, or from a file system that keeps no inode number or times (zero).
 */
export function racy(s: FileStamp, now: number): boolean {
	if (s.ino === 0n || s.mtimeNs === 0n || s.ctimeNs === 0n) return true;
	const last = Math.max(Number(s.mtimeNs / 1_000_000n), Number(s.ctimeNs / 1_000_000n));
	return last > now - RACY_MS;
}

function indexFileFor(dir: string, realPath: string): string {
	const crypto = nodeBuiltin<typeof Crypto>("node:crypto");
	return join(dir, `${crypto.createHash("sha1").update(realPath).digest("hex")}.idx`);
}

/** The real path of a session file (undefined when it cannot be resolved: no index then). */
export function realSessionPath(file: string): string | undefined {
	try {
		return realpathSync(file);
	} catch {
		return undefined;
	}
}

// ---------------------------------------------------------------- layout
//
//   header (64 bytes): "PI-SIDX\n" | u32 format | u32 flags (1: verify) | u64 dev | u64 inode |
//     u64 size | i64 mtime ns | i64 ctime ns | u32 CRC-32 of the body | u32 CRC-32 of the header's first 60 bytes
//   body: u32 meta bytes | meta JSON | offsets f64[count] | parents, types, roles, providers, models,
//     lengths, lines, id starts, id lengths, id hashes: i32[count] each | id bytes
// Little-endian (the typed arrays are stored as they are in memory; a big-endian machine reads its
// own indexes only, and rejects others by their CRC). The header holds the file's stamp only, with
// its own CRC and the body's: when nothing but the stamp changed, only the header is rewritten (in
// place: a torn write fails its CRC, and a header written over another body fails the body CRC).

const HEADER = 64;
const INT_COLUMNS = 10;
/** Rows of room the restored columns get for the entries a resumed session appends (no copy for them). */
const ROOM = 1024;

interface MetaJson {
	path: string;
	size: number;
	hash: string;
	lines: number;
	header: SessionHeader;
	objectCount: number;
	count: number;
	idBytes: number;
	names: string[];
	labels: [string, string, string][];
	name: string | null;
}

function encodeHeader(meta: IndexMeta, bodyCrc: number, crc32: (d: Uint8Array, v?: number) => number): Buffer {
	const h = Buffer.alloc(HEADER);
	MAGIC.copy(h, 0);
	h.writeUInt32LE(INDEX_FORMAT, 8);
	h.writeUInt32LE(meta.verify ? 1 : 0, 12);
	h.writeBigUInt64LE(BigInt(meta.dev), 16);
	h.writeBigUInt64LE(BigInt(meta.ino), 24);
	h.writeBigUInt64LE(BigInt(meta.size), 32);
	h.writeBigInt64LE(BigInt(meta.mtimeNs), 40);
	h.writeBigInt64LE(BigInt(meta.ctimeNs), 48);
	h.writeUInt32LE(bodyCrc, 56);
	h.writeUInt32LE(crc32(h.subarray(0, 60)), 60);
	return h;
}

/** The index stored for `realPath`, or undefined (none, unreadable, or not a sound index of that file). */
export function readIndex(dir: string, realPath: string): StoredIndex | undefined {
	const crc32 = crc32Fn();
	if (!crc32) return undefined;
	let fd: number;
	try {
		fd = openSync(indexFileFor(dir, realPath), "r");
	} catch {
		return undefined;
	}
	try {
		const size = fstatSync(fd).size;
		if (size < HEADER + 4) return undefined;
		const readAll = (into: Uint8Array, at: number): boolean => readFully(fd, into, at) === into.length;
		const head = Buffer.allocUnsafe(HEADER + 4);
		if (!readAll(head, 0)) return undefined;
		for (let k = 0; k < MAGIC.length; k++) if (head[k] !== MAGIC[k]) return undefined;
		if (head.readUInt32LE(8) !== INDEX_FORMAT || head.readUInt32LE(60) !== crc32(head.subarray(0, 60))) {
			return undefined;
		}
		const metaBytes = head.readUInt32LE(HEADER);
		if (HEADER + 4 + metaBytes > size) return undefined;
		const metaBuf = Buffer.allocUnsafe(metaBytes);
		if (!readAll(metaBuf, HEADER + 4)) return undefined;
		let crc = crc32(metaBuf, crc32(head.subarray(HEADER, HEADER + 4)));
		const m = JSON.parse(metaBuf.toString("utf8")) as MetaJson;
		if (m.path !== realPath || !Number.isSafeInteger(m.count) || m.count < 0 || !Number.isSafeInteger(m.idBytes)) {
			return undefined;
		}
		if (m.idBytes < 0 || typeof m.header !== "object" || m.header === null || typeof m.hash !== "string") {
			return undefined;
		}
		if (!Array.isArray(m.names) || !Array.isArray(m.labels)) return undefined;
		const n = m.count;
		if (HEADER + 4 + metaBytes + n * (8 + 4 * INT_COLUMNS) + m.idBytes !== size) return undefined;
		if (Number(head.readBigUInt64LE(32)) !== m.size) return undefined;
		// Each column read straight into its array, with room for appends.
		let at = HEADER + 4 + metaBytes;
		const section = <T extends Float64Array | Int32Array | Uint8Array>(array: T, bytes: number): T | undefined => {
			const view = new Uint8Array(array.buffer, 0, bytes);
			if (!readAll(view, at)) return undefined;
			crc = crc32(view, crc);
			at += bytes;
			return array;
		};
		const offsets = section(new Float64Array(n + ROOM), n * 8);
		const ints: Int32Array<ArrayBuffer>[] = [];
		for (let k = 0; k < INT_COLUMNS; k++) {
			const col = section(new Int32Array(n + ROOM), n * 4);
			if (!col) return undefined;
			ints.push(col);
		}
		const arena = section(new Uint8Array(m.idBytes + ROOM * 16), m.idBytes);
		if (!offsets || !arena || crc !== head.readUInt32LE(56)) return undefined;
		const meta: IndexMeta = {
			path: m.path,
			dev: String(head.readBigUInt64LE(16)),
			ino: String(head.readBigUInt64LE(24)),
			size: m.size,
			hash: m.hash,
			lines: m.lines,
			mtimeNs: String(head.readBigInt64LE(40)),
			ctimeNs: String(head.readBigInt64LE(48)),
			verify: head.readUInt32LE(12) !== 0,
			header: m.header,
			objectCount: m.objectCount,
		};
		const columns: TreeColumns = {
			count: n,
			names: m.names,
			offsets,
			parents: ints[0],
			types: ints[1],
			roles: ints[2],
			providers: ints[3],
			models: ints[4],
			lengths: ints[5],
			lines: ints[6],
			ids: { starts: ints[7], lengths: ints[8], hashes: ints[9], arena },
			labels: m.labels,
			name: m.name ?? undefined,
		};
		return { meta, columns, bodyCrc: crc };
	} catch {
		return undefined;
	} finally {
		closeSync(fd);
	}
}

/**
 * Writes the index of `realPath` (temp file + rename; no sync: it is a cache), straight from the
 * columns. Silent on any failure.
 */
export function writeIndex(dir: string, meta: IndexMeta, c: TreeColumns): boolean {
	const crc32 = crc32Fn();
	if (!crc32) return false;
	let tmp: string | undefined;
	try {
		mkdirSync(dir, { recursive: true });
		const target = indexFileFor(dir, meta.path);
		tmp = `${target}.${process.pid}.tmp`;
		const json: MetaJson = {
			path: meta.path,
			size: meta.size,
			hash: meta.hash,
			lines: meta.lines,
			header: meta.header,
			objectCount: meta.objectCount,
			count: c.count,
			idBytes: c.ids.arena.length,
			names: c.names,
			labels: c.labels,
			name: c.name ?? null,
		};
		const metaText = Buffer.from(JSON.stringify(json), "utf8");
		const metaLength = Buffer.alloc(4);
		metaLength.writeUInt32LE(metaText.length);
		const parts: ArrayBufferView[] = [
			metaLength,
			metaText,
			c.offsets,
			c.parents,
			c.types,
			c.roles,
			c.providers,
			c.models,
			c.lengths,
			c.lines,
			c.ids.starts,
			c.ids.lengths,
			c.ids.hashes,
			c.ids.arena,
		];
		const fd = openSync(tmp, "w", 0o600);
		try {
			let crc = 0;
			let at = HEADER;
			for (const part of parts) {
				const bytes = new Uint8Array(part.buffer, part.byteOffset, part.byteLength);
				crc = crc32(bytes, crc);
				writeFully(fd, bytes, at);
				at += bytes.length;
			}
			writeFully(fd, encodeHeader(meta, crc, crc32), 0);
		} finally {
			closeSync(fd);
		}
		renameSync(tmp, target);
		tmp = undefined;
		evict(dir, target);
		return true;
	} catch {
		if (tmp) {
			try {
				unlinkSync(tmp);
			} catch {
				// nothing to clean up
			}
		}
		return false;
	}
}

/**
 * Rewrites only the header of the index `stored` came from, with the file's new stamp: for an open
 * that verified the indexed bytes and found nothing after them (the body is unchanged). In place
 * (64 bytes); silent on failure.
 */
export function writeIndexStamp(dir: string, meta: IndexMeta, bodyCrc: number): boolean {
	const crc32 = crc32Fn();
	if (!crc32) return false;
	try {
		const fd = openSync(indexFileFor(dir, meta.path), "r+");
		try {
			writeFully(fd, encodeHeader(meta, bodyCrc, crc32), 0);
		} finally {
			closeSync(fd);
		}
		return true;
	} catch {
		return false;
	}
}

/** Keeps the MAX_INDEXES most recently written files of `dir` (`keep` always). */
function evict(dir: string, keep: string): void {
	const names = readdirSync(dir);
	if (names.length <= MAX_INDEXES) return;
	const files: { path: string; mtime: number }[] = [];
	for (const name of names) {
		const path = join(dir, name);
		if (path === keep) continue;
		try {
			files.push({ path, mtime: statSync(path).mtimeMs });
		} catch {
			// gone meanwhile
		}
	}
	files.sort((a, b) => b.mtime - a.mtime);
	for (const f of files.slice(MAX_INDEXES - 1)) {
		try {
			unlinkSync(f.path);
		} catch {
			// another process evicted it
		}
	}
}
