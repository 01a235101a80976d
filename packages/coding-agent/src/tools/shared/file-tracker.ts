/**
 * Remembers what the model last saw of each file (via read, write or edit),
 * so edit can refuse to patch a file that changed on disk since: the model's
 * oldText would be reasoning about stale content.
 *
 * The content's hash is only ever compared by a later edit, so it is not
 * computed on the tool's way to its result: `record` keeps the bytes and
 * hashes them on the next turn of the event loop (setImmediate), by then the
 * result is on its way to the model — or at once when `get` or `changedSince`
 * asks first. (The first SHA-256 of a process costs ~0.4 ms: OpenSSL looks up
 * the digest and Node compiles its hash code.) The bytes passed to `record`
 * must not be changed afterwards; every caller passes a buffer of its own.
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
}

export function hashContent(data: Uint8Array): string {
	return createHash("sha256").update(data).digest("hex");
}

function hashOf(seen: Seen): string {
	if (seen.hash === undefined) {
		seen.hash = hashContent(seen.data as Uint8Array);
		seen.data = undefined;
	}
	return seen.hash;
}

export class FileTracker {
	private readonly seen = new Map<string, Seen>();
	private unhashed: [string, Seen][] = [];
	private scheduled = false;

	record(absPath: string, data: Uint8Array, mtimeMs: number): void {
		const seen: Seen = { size: data.length, mtimeMs, hash: undefined, data };
		this.seen.set(absPath, seen);
		this.unhashed.push([absPath, seen]);
		if (!this.scheduled) {
			this.scheduled = true;
			// Unref'd: a process that is done does not wait for hashes nobody will compare.
			setImmediate(() => this.hashPending()).unref();
		}
	}

	forget(absPath: string): void {
		this.seen.delete(absPath);
	}

	get(absPath: string): FileSnapshot | undefined {
		const seen = this.seen.get(absPath);
		return seen ? { size: seen.size, mtimeMs: seen.mtimeMs, hash: hashOf(seen) } : undefined;
	}

	/** True when the file was seen before and its content is now different. Same bytes with a new mtime is not a change. */
	changedSince(absPath: string, data: Uint8Array): boolean {
		const prev = this.seen.get(absPath);
		if (!prev) return false;
		return prev.size !== data.length || hashOf(prev) !== hashContent(data);
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
