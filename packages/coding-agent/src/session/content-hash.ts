// The hash a session index keeps of the bytes it indexed (index-cache.ts), so a
// later open can tell that they are still the same. Computed by the line-scan
// module (wasm/line-scan.ts, "content hash": XXH32 rounds on 32 lanes at once,
// merged to 64 bits) on the bytes a scan has just read into the module's
// memory: ~5 ms per 100 MB here, where zlib's CRC-32 of the same pieces took
// ~16. The running state is kept here between pieces, so a scan can go on from
// the state a verification of the indexed prefix left.
import { readSync } from "node:fs";
import { acquireLineScanner, type LineScanner, releaseLineScanner, SCAN_READ_BYTES } from "./line-scan.js";

/** A content hash over bytes fed in file order (a fresh one has been fed nothing). */
export class ContentHash {
	private state: Uint8Array | undefined;
	private lost = false;

	/** Feeds `[from, to)` of `scanner`'s buffer. */
	update(scanner: LineScanner, from: number, to: number): void {
		scanner.loadHashState(this.state);
		scanner.hashUpdate(from, to);
		this.state = scanner.saveHashState(this.state);
	}

	/** Some bytes went by without a scanner (no WebAssembly): the hash cannot cover them. */
	lose(): void {
		this.lost = true;
	}

	/** The hash (16 hex digits) of the bytes fed, or undefined when some were lost or there is no WebAssembly. */
	digest(): string | undefined {
		if (this.lost) return undefined;
		const scanner = acquireLineScanner();
		if (!scanner) return undefined;
		try {
			scanner.loadHashState(this.state);
			return scanner.hashDigest();
		} finally {
			releaseLineScanner(scanner);
		}
	}
}

/**
 * The content hash of the file's first `size` bytes (read through a scanner's memory), to go on
 * from; undefined when they cannot all be read or there is no WebAssembly.
 */
export function hashFilePrefix(fd: number, size: number): ContentHash | undefined {
	const scanner = acquireLineScanner();
	if (!scanner) return undefined;
	try {
		const hash = new ContentHash();
		const buf = scanner.buffer(Math.min(SCAN_READ_BYTES, Math.max(size, 1)));
		for (let pos = 0; pos < size; ) {
			const n = readSync(fd, buf, 0, Math.min(buf.length, size - pos), pos);
			if (n <= 0) return undefined;
			hash.update(scanner, 0, n);
			pos += n;
		}
		return hash;
	} finally {
		releaseLineScanner(scanner);
	}
}
