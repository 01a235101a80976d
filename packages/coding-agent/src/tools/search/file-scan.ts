/**
 * Bounded reading for the JS grep engine. A file is read into one reused
 * buffer of at most 4 MB: a file that fits is searched whole (the fast path);
 * a larger one is searched a buffer of complete lines at a time; a line longer
 * than the buffer is scanned in 1 MB windows that overlap by 64 KB, so its
 * matches shorter than the overlap are found (rg would find any match; a
 * match spanning more than 64 KB inside a line of more than 4 MB is the one
 * thing missed). Memory is bounded whatever the file: a 2 GB sparse file
 * stops at its first NUL (binary), a 200 MB single line costs ~4 MB.
 * Opens use O_NONBLOCK so a FIFO never blocks the search.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import type { GrepMatch } from "./types.js";

export const SCAN_BUFFER_BYTES = 4 << 20;
const FIRST_BUFFER_BYTES = 1 << 20;
export const LONG_LINE_WINDOW_BYTES = 1 << 20;
export const LONG_LINE_OVERLAP_BYTES = 64 << 10;
/** What is reported of a line too long to hold: its start (the tool shows 500 characters anyway). */
const LONG_LINE_TEXT_BYTES = 4096;

/** Searches complete lines; `firstLine` is the line number of buf[0]. */
export type FileSearcher = (buf: Buffer, rel: string, out: GrepMatch[], max: number, firstLine?: number) => void;
/** Whether a piece of one line (no "\n" in it) matches; the flags say whether it is the line's start / end. */
export type SegmentMatcher = (segment: Buffer, atLineStart: boolean, atLineEnd: boolean) => boolean;

function countNewlines(buf: Buffer, end: number): number {
	let n = 0;
	for (let i = buf.indexOf(10); i !== -1 && i < end; i = buf.indexOf(10, i + 1)) n++;
	return n;
}

/** Cuts `bytes` back to a UTF-8 character boundary. */
function charBoundary(buf: Buffer, bytes: number): number {
	let end = Math.min(bytes, buf.length);
	while (end > 0 && end < buf.length && (buf[end] & 0xc0) === 0x80) end--;
	return end;
}

/** Sizes, changeable so tests can drive the long-line path with small inputs. */
export interface ScanLimits {
	bufferBytes: number;
	windowBytes: number;
	overlapBytes: number;
}

export class FileScanner {
	private buf: Buffer;
	private len = 0;
	private eof = false;
	private readonly limits: ScanLimits;

	constructor(
		private readonly search: FileSearcher,
		private readonly segment: SegmentMatcher,
		limits: Partial<ScanLimits> = {},
	) {
		this.limits = {
			bufferBytes: limits.bufferBytes ?? SCAN_BUFFER_BYTES,
			windowBytes: limits.windowBytes ?? LONG_LINE_WINDOW_BYTES,
			overlapBytes: limits.overlapBytes ?? LONG_LINE_OVERLAP_BYTES,
		};
		this.buf = Buffer.allocUnsafe(Math.min(FIRST_BUFFER_BYTES, this.limits.bufferBytes));
	}

	/** Searches one file; unreadable files and (with `requireRegular`) non-regular ones are skipped. */
	scan(path: string | Buffer, rel: string, out: GrepMatch[], max: number, requireRegular = false): void {
		let fd: number;
		try {
			fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
		} catch {
			return;
		}
		try {
			if (requireRegular && !fstatSync(fd).isFile()) return;
			this.scanFd(fd, rel, out, max);
		} catch {
			// Unreadable part-way (EIO, EAGAIN from a pipe swapped in): keep what was found.
		} finally {
			closeSync(fd);
		}
	}

	/** Reads until the buffer is full (growing it up to the cap) or EOF. */
	private fill(fd: number): void {
		while (!this.eof) {
			if (this.len === this.buf.length) {
				if (this.buf.length >= this.limits.bufferBytes) return;
				const bigger = Buffer.allocUnsafe(Math.min(this.limits.bufferBytes, this.buf.length * 2));
				this.buf.copy(bigger, 0, 0, this.len);
				this.buf = bigger;
			}
			const n = readSync(fd, this.buf, this.len, this.buf.length - this.len, null);
			if (n === 0) this.eof = true;
			else this.len += n;
		}
	}

	private shift(from: number): void {
		this.buf.copy(this.buf, 0, from, this.len);
		this.len -= from;
	}

	private scanFd(fd: number, rel: string, out: GrepMatch[], max: number): void {
		this.len = 0;
		this.eof = false;
		this.fill(fd);
		if (this.eof) {
			this.search(this.buf.subarray(0, this.len), rel, out, max, 1);
			return;
		}
		const first = out.length;
		let line = 1;
		for (;;) {
			const data = this.buf.subarray(0, this.len);
			// Binary, as in the whole-file path: a NUL anywhere drops the file.
			if (data.indexOf(0) !== -1) {
				out.length = first;
				return;
			}
			const end = this.eof ? this.len : data.lastIndexOf(10) + 1;
			if (end > 0) {
				this.search(data.subarray(0, end), rel, out, max, line);
				if (out.length >= max || this.eof) return;
				line += countNewlines(data, end);
				this.shift(end);
			} else {
				const r = this.scanLongLine(fd, rel, out, max, line);
				if (r === "binary") {
					out.length = first;
					return;
				}
				if (r === "done" || out.length >= max) return;
				line++;
			}
			this.fill(fd);
			if (this.len === 0 && this.eof) return;
		}
	}

	/**
	 * The buffer is full and holds no newline: a line longer than the buffer.
	 * Scans it in overlapping windows, reading on until its newline.
	 */
	private scanLongLine(
		fd: number,
		rel: string,
		out: GrepMatch[],
		max: number,
		line: number,
	): "binary" | "done" | "next" {
		const head = this.buf.toString("utf8", 0, charBoundary(this.buf.subarray(0, this.len), LONG_LINE_TEXT_BYTES));
		let matched = false;
		let atStart = true;
		const { windowBytes, overlapBytes } = this.limits;
		for (;;) {
			const data = this.buf.subarray(0, this.len);
			const nl = data.indexOf(10);
			const lineEnd = nl === -1 ? this.len : nl;
			const complete = nl !== -1 || this.eof;
			for (let w = 0; !matched; w = Math.max(w + 1, w + windowBytes - overlapBytes)) {
				const wEnd = Math.min(lineEnd, w + windowBytes);
				if (this.segment(data.subarray(w, wEnd), atStart && w === 0, complete && wEnd === lineEnd)) {
					matched = true;
					out.push({ rel, line, text: head });
					if (out.length >= max) return "done";
				}
				if (wEnd === lineEnd) break;
			}
			if (nl !== -1) {
				this.shift(nl + 1);
				return "next";
			}
			if (this.eof) {
				this.len = 0;
				return "done";
			}
			// Keep an overlap so a match across the refill is still seen whole.
			this.shift(matched ? this.len : this.len - Math.min(overlapBytes, this.len));
			atStart = false;
			const before = this.len;
			this.fill(fd);
			if (this.buf.subarray(before, this.len).indexOf(0) !== -1) return "binary";
		}
	}
}
