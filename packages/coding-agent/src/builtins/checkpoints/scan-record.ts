// What the last full scan left in the shadow store, kept across runs: the
// shadow index's checksum right after its `write-tree`, and the tree and
// commit made from it. Most runs start in a folder that has not changed since
// the last one: their first snapshot's `ls-files` lists nothing, the index is
// not touched, and its checksum (the SHA-1 of its whole content, git's own
// trailer) still matches — so the tree is the recorded one and `git
// write-tree` (a process forked from pi, on the way to the reply) is not
// needed. A record that does not match, or cannot be read, costs only that
// process.
import { closeSync, fstatSync, openSync, readFileSync, readSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface ScanRecord {
	/** The index's trailing checksum (hex) after the scan's write-tree. */
	index: string;
	tree: string;
	commit: string;
	/** When `commit` was made (ms). */
	at: number;
}

const FILE = "last-scan";
const SHA1_BYTES = 20;

/**
 * The index's trailing SHA-1 (a SHA-1 store's index); undefined without an index, or when git was
 * told to skip it (`index.skipHash` writes zeros: then nothing vouches for the content).
 */
export function indexChecksum(gitDir: string): string | undefined {
	let fd: number | undefined;
	try {
		fd = openSync(join(gitDir, "index"), "r");
		const size = fstatSync(fd).size;
		if (size < 12 + SHA1_BYTES) return undefined;
		const sum = Buffer.alloc(SHA1_BYTES);
		if (readSync(fd, sum, 0, SHA1_BYTES, size - SHA1_BYTES) !== SHA1_BYTES) return undefined;
		return sum.every((b) => b === 0) ? undefined : sum.toString("hex");
	} catch {
		return undefined;
	} finally {
		if (fd !== undefined) closeSync(fd);
	}
}

export function readScanRecord(gitDir: string): ScanRecord | undefined {
	try {
		const r = JSON.parse(readFileSync(join(gitDir, FILE), "utf8")) as Partial<ScanRecord>;
		const hex = (v: unknown, n: number) => typeof v === "string" && v.length === n && /^[0-9a-f]+$/.test(v);
		if (!hex(r.index, 40) || !hex(r.tree, 40) || !hex(r.commit, 40) || typeof r.at !== "number") return undefined;
		return r as ScanRecord;
	} catch {
		return undefined;
	}
}

/** Written aside and renamed: a reader sees the old record or the new one. Not synced: it is a cache. */
export function writeScanRecord(gitDir: string, record: ScanRecord): void {
	const file = join(gitDir, FILE);
	const tmp = `${file}.${process.pid}.tmp`;
	try {
		writeFileSync(tmp, `${JSON.stringify(record)}\n`);
		renameSync(tmp, file);
	} catch {
		// Only the next run's write-tree depends on it.
	}
}
