/**
 * Bounded collector for streamed command output. Memory stays O(limit):
 * only a raw tail window is kept; once the output passes the line or byte
 * limit, everything (from the first byte) is also streamed to a temp file so
 * the full output stays available by path.
 */
import { randomBytes } from "node:crypto";
import { closeSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, type TruncationResult, truncateTail } from "./shared/truncate.js";

export interface OutputSnapshot {
	/** Display text: the kept tail, sanitised (no ANSI escapes or control characters). */
	text: string;
	truncation: TruncationResult;
	/** Set once the output exceeded the limits. */
	fullOutputPath?: string;
}

const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g;
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f]/g;

/** Makes arbitrary process output safe to show and send: drops escapes and control characters, keeps \n and \t. */
export function sanitizeOutput(text: string): string {
	return text.replace(/\r\n/g, "\n").replace(ANSI, "").replace(CONTROL, "");
}

export class OutputAccumulator {
	private readonly maxLines: number;
	private readonly maxBytes: number;
	private readonly windowBytes: number;
	private chunks: Buffer[] = [];
	private chunkBytes = 0;
	/** Offset of chunks[0] in the whole output; > 0 once the window slid. */
	private windowStart = 0;
	private totalBytes = 0;
	private newlines = 0;
	private lastByte = -1;
	private fd: number | undefined;
	private path: string | undefined;
	private readonly prefix: string;
	private finished = false;

	constructor(options: { maxLines?: number; maxBytes?: number; tempFilePrefix?: string } = {}) {
		this.maxLines = options.maxLines ?? DEFAULT_MAX_LINES;
		this.maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
		this.windowBytes = this.maxBytes * 2 + 8;
		this.prefix = options.tempFilePrefix ?? "pi-bash";
	}

	get fullOutputPath(): string | undefined {
		return this.path;
	}

	get bytes(): number {
		return this.totalBytes;
	}

	/** Bytes held in memory right now (bounded by a small multiple of maxBytes). */
	get retainedBytes(): number {
		return this.chunkBytes;
	}

	append(data: Buffer): void {
		if (data.length === 0) return;
		for (let i = data.indexOf(10); i !== -1; i = data.indexOf(10, i + 1)) this.newlines++;
		this.totalBytes += data.length;
		this.lastByte = data[data.length - 1];
		if (this.fd !== undefined && this.fd >= 0) writeSync(this.fd, data);
		this.chunks.push(data);
		this.chunkBytes += data.length;
		if (this.fd === undefined && (this.totalBytes > this.maxBytes || this.newlines >= this.maxLines)) {
			// Past the limits: persist everything seen so far, then keep streaming.
			this.path = join(tmpdir(), `${this.prefix}-${randomBytes(8).toString("hex")}.log`);
			this.fd = openSync(this.path, "w", 0o600);
			for (const c of this.chunks) writeSync(this.fd, c);
		}
		if (this.fd !== undefined && this.chunkBytes > this.windowBytes * 2) this.slide();
	}

	private slide(): void {
		const all = Buffer.concat(this.chunks);
		const keep = all.subarray(all.length - this.windowBytes);
		this.windowStart += all.length - keep.length;
		this.chunks = [Buffer.from(keep)];
		this.chunkBytes = keep.length;
	}

	/** Closes the temp file; call once the process is done. */
	finish(): void {
		if (this.fd !== undefined && this.fd >= 0) closeSync(this.fd);
		this.fd = -1;
		this.finished = true;
	}

	snapshot(): OutputSnapshot {
		let raw = Buffer.concat(this.chunks);
		if (this.windowStart > 0) {
			let s = 0;
			while (s < raw.length && (raw[s] & 0xc0) === 0x80) s++;
			raw = raw.subarray(s);
		}
		let text = sanitizeOutput(new TextDecoder("utf-8").decode(raw));
		const endsWithNewline = this.lastByte === 10;
		if (endsWithNewline && text.endsWith("\n")) text = text.slice(0, -1);
		const totalLines = this.totalBytes === 0 ? 0 : this.newlines + (endsWithNewline ? 0 : 1);
		const truncation = truncateTail(text, { maxLines: this.maxLines, maxBytes: this.maxBytes });
		const truncated = truncation.truncated || this.windowStart > 0;
		if (!truncated && this.finished && this.path) {
			// Opened conservatively but the output fit after all: no need to keep it.
			rmSync(this.path, { force: true });
			this.path = undefined;
		}
		return {
			text: truncation.content,
			truncation: {
				...truncation,
				truncated,
				truncatedBy: truncation.truncatedBy ?? (truncated ? "bytes" : null),
				totalLines,
				totalBytes: this.totalBytes,
			},
			fullOutputPath: this.path,
		};
	}
}
