/**
 * Remembers what the model last saw of each file (via read, write or edit),
 * so edit can refuse to patch a file that changed on disk since: the model's
 * oldText would be reasoning about stale content.
 */
import { createHash } from "node:crypto";

export interface FileSnapshot {
	size: number;
	mtimeMs: number;
	hash: string;
}

export function hashContent(data: Uint8Array): string {
	return createHash("sha256").update(data).digest("hex");
}

export class FileTracker {
	private readonly seen = new Map<string, FileSnapshot>();

	record(absPath: string, data: Uint8Array, mtimeMs: number): void {
		this.seen.set(absPath, { size: data.length, mtimeMs, hash: hashContent(data) });
	}

	forget(absPath: string): void {
		this.seen.delete(absPath);
	}

	get(absPath: string): FileSnapshot | undefined {
		return this.seen.get(absPath);
	}

	/** True when the file was seen before and its content is now different. Same bytes with a new mtime is not a change. */
	changedSince(absPath: string, data: Uint8Array): boolean {
		const prev = this.seen.get(absPath);
		if (!prev) return false;
		return prev.size !== data.length || prev.hash !== hashContent(data);
	}
}
