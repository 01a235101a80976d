// Whole reads and writes at a position of a file descriptor. readSync and
// writeSync may move fewer bytes than asked (a signal, a file's end), so each
// caller would otherwise carry its own loop.
import { readSync, writeSync } from "node:fs";

/** Reads into `into` from `position` until it is full or the file ends; returns the bytes read. */
export function readFully(fd: number, into: Uint8Array, position: number): number {
	let got = 0;
	while (got < into.length) {
		const n = readSync(fd, into, got, into.length - got, position + got);
		if (n <= 0) break;
		got += n;
	}
	return got;
}

/** Writes all of `bytes` at `position`, or at the descriptor's own offset when null (appends). */
export function writeFully(fd: number, bytes: Uint8Array, position: number | null = null): void {
	for (let done = 0; done < bytes.length; ) {
		done += writeSync(fd, bytes, done, bytes.length - done, position === null ? null : position + done);
	}
}
