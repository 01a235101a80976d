/**
 * Remembers what the model last saw of each file (via read, write or edit),
 * so edit can refuse to patch a file that changed on disk since: the model's
 * oldText would be reasoning about stale content.
 *
 * The content is only ever compared by a later edit, so nothing is computed
 * on the tool's way to its result. Small files (the usual case) are kept as
 * they are, up to a budget, and compared byte for byte: no hash at all (the
 * first SHA-256 of a process costs ~0.4 ms: OpenSSL looks up the digest and
 * Node compiles its hash code; a `-p` run that writes and reads a file never
 * needs one). Larger ones, or once the budget is spent, are hashed on the
 * next turn of the event loop (setImmediate), by then the result is on its
 * way to the model — or at once when `get` or `changedSince` asks first. The
 * bytes passed to `record` must not be changed afterwards; every caller passes
 * a buffer of its own.
 */
import { createHash } from "node:crypto";

export interface FileSnapshot {
	size: number;
	mtimeMs: number;
	hash: string;
}

interface Seen {
	size: number;
	mtimeMs: number;
	/** Set once hashed; until then `data` holds the bytes. */
	hash: string | undefined;
	data: Uint8Array | undefined;
	/** Kept as bytes for good (small, within the budget): compared, never hashed unless `get` asks. */
	kept: boolean;
}

/** Files up to this size are kept as bytes instead of hashed… */
const KEEP_MAX_BYTES = 16 * 1024;
/** …while all kept bytes together stay under this. */
const KEEP_BUDGET_BYTES = 4 * 1024 * 1024;

export function hashContent(data: Uint8Array): string {
	return createHash("sha256").update(data).digest("hex");
}

function hashOf(seen: Seen): string {
	if (seen.hash === undefined) {
		seen.hash = hashContent(seen.data as Uint8Array);
		if (!seen.kept) seen.data = undefined;
	}
	return seen.hash;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
	return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b);
}

export class FileTracker {
	private readonly seen = new Map<string, Seen>();
	private unhashed: [string, Seen][] = [];
	private scheduled = false;
	/** Bytes of the entries kept as bytes. */
	private keptBytes = 0;

	record(absPath: string, data: Uint8Array, mtimeMs: number): void {
		this.drop(this.seen.get(absPath));
		const kept = data.length <= KEEP_MAX_BYTES && this.keptBytes + data.length <= KEEP_BUDGET_BYTES;
		const seen: Seen = { size: data.length, mtimeMs, hash: undefined, data, kept };
		this.seen.set(absPath, seen);
		if (kept) {
			this.keptBytes += data.length;
			return;
		}
		this.unhashed.push([absPath, seen]);
		if (!this.scheduled) {
			this.scheduled = true;
			// Unref'd: a process that is done does not wait for hashes nobody will compare.
			setImmediate(() => this.hashPending()).unref();
		}
	}

	forget(absPath: string): void {
		this.drop(this.seen.get(absPath));
		this.seen.delete(absPath);
	}

	/** An entry replaced or forgotten gives its kept bytes back to the budget. */
	private drop(seen: Seen | undefined): void {
		if (!seen?.kept) return;
		seen.kept = false;
		this.keptBytes -= seen.size;
		if (seen.hash !== undefined) seen.data = undefined;
	}

	get(absPath: string): FileSnapshot | undefined {
		const seen = this.seen.get(absPath);
		return seen ? { size: seen.size, mtimeMs: seen.mtimeMs, hash: hashOf(seen) } : undefined;
	}

	/** True when the file was seen before and its content is now different. Same bytes with a new mtime is not a change. */
	changedSince(absPath: string, data: Uint8Array): boolean {
		const prev = this.seen.get(absPath);
		if (!prev) return false;
		if (prev.size !== data.length) return true;
		if (prev.kept) return !sameBytes(prev.data as Uint8Array, data);
		return hashOf(prev) !== hashContent(data);
	}

	/** Hashes what `record` kept since the last time; an entry replaced or forgotten meanwhile only lets go of its bytes. */
	private hashPending(): void {
		this.scheduled = false;
		const pending = this.unhashed;
		this.unhashed = [];
		for (const [absPath, seen] of pending) {
			if (this.seen.get(absPath) === seen) hashOf(seen);
			else seen.data = undefined;
		}
	}
}
