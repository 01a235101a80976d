import { accessSync, closeSync, constants, promises as fs, fstatSync, openSync, readFileSync, statSync } from "node:fs";
import type { AgentTool } from "@pi/agent-core";
import type { ImageContent, TextContent } from "@pi/ai";
import { type Static, Type } from "typebox";
import { detectImageMime, type ImageMime, prepareImage } from "./image.js";
import type { FileTracker } from "./shared/file-tracker.js";
import { describeFsError } from "./shared/fs-errors.js";
import { appendNotices, notices } from "./shared/notices.js";
import { onDisk, resolveExistingPath } from "./shared/paths.js";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, type TruncationResult, truncateHead } from "./shared/truncate.js";

const readSchema = Type.Object({
	path: Type.String({ description: "Path to the file (relative to the working directory, or absolute)" }),
	offset: Type.Optional(Type.Number({ description: "Line number to start reading from (1-indexed)" })),
	limit: Type.Optional(Type.Number({ description: "Maximum number of lines to read" })),
});

export type ReadToolInput = Static<typeof readSchema>;

export interface ReadToolDetails {
	truncation?: TruncationResult;
}

export interface FileStat {
	size: number;
	mtimeMs: number;
	isFile(): boolean;
	isDirectory(): boolean;
}

/** How read touches the file system; replace to read over ssh, in a container, etc. */
export interface ReadOperations {
	readFile(absolutePath: string): Promise<Buffer>;
	/** Throws when the file is not readable. */
	access(absolutePath: string): Promise<void>;
	/** Image MIME type, or null/undefined for non-images. Default: magic bytes of the content. */
	detectImageMimeType?(absolutePath: string): Promise<string | null | undefined>;
	/** Used to refuse directories and special files (FIFOs, devices) before reading. */
	stat?(absolutePath: string): Promise<FileStat>;
}

export interface ReadToolOptions {
	/** Downscale images larger than 2000x2000. Default: true. */
	autoResizeImages?: boolean;
	operations?: ReadOperations;
	/** Shared with edit so it can detect files changed on disk since they were read. */
	tracker?: FileTracker;
}

/** Up to this size a file is read synchronously; larger ones through the thread pool, so a long read does not hold the event loop. */
const SYNC_READ_BYTES = 1024 * 1024;

export function createLocalReadOperations(): ReadOperations {
	// stat and access are one system call each, and a small file's read a few: made synchronously,
	// each saves a round trip through libuv's thread pool (a thread wake-up both ways; ms when the
	// machine is loaded). The async wrappers keep failures as rejections.
	return {
		// onDisk: a name shown with U+FFFD (not valid UTF-8 on disk) opens the file it came from.
		readFile: async (p) => {
			const target = onDisk(p);
			// O_NONBLOCK, and the size taken from the open file: should the path have become a FIFO
			// since execute's stat, the open must not wait for a writer nor the read hold the loop.
			const fd = openSync(target, constants.O_RDONLY | constants.O_NONBLOCK);
			try {
				const st = fstatSync(fd);
				if (st.isFile() && st.size <= SYNC_READ_BYTES) return readFileSync(fd);
			} finally {
				closeSync(fd);
			}
			return fs.readFile(target);
		},
		access: async (p) => accessSync(onDisk(p), constants.R_OK),
		stat: async (p) => statSync(onDisk(p)),
	};
}

/** Files above this are refused whole; the model is pointed to offset/limit-friendly bash tools instead. */
const MAX_READ_FILE_BYTES = 256 * 1024 * 1024;
const BINARY_SNIFF_BYTES = 8192;

function looksBinary(data: Uint8Array): boolean {
	const n = Math.min(data.length, BINARY_SNIFF_BYTES);
	for (let i = 0; i < n; i++) if (data[i] === 0) return true;
	return false;
}

function textResult(text: string, details?: ReadToolDetails) {
	return { content: [{ type: "text" as const, text }], details };
}

/** Byte offset where 0-indexed line `line` starts (scanning from a known line/offset). */
function lineStart(buf: Buffer, fromLine: number, fromOffset: number, line: number): number {
	let off = fromOffset;
	for (let l = fromLine; l < line; l++) off = buf.indexOf(10, off) + 1;
	return off;
}

/**
 * Lines as the reference counts them (split on "\n"): a final newline starts
 * an empty last line, so a whole-file read returns the bytes exactly (a CRLF
 * file keeps its last "\r\n", a trailing newline is not dropped).
 */
function countLines(buf: Buffer, from: number): number {
	let n = 1;
	for (let i = buf.indexOf(10, from); i !== -1; i = buf.indexOf(10, i + 1)) n++;
	return n;
}

/**
 * Selects lines on the raw bytes and decodes only the window that can be
 * shown, so a 200 MB file costs a newline scan, not 200 MB of strings.
 */
function formatTextRead(
	buf: Buffer,
	bodyStart: number,
	displayPath: string,
	offset: number | undefined,
	limit: number | undefined,
): { text: string; details?: ReadToolDetails } {
	const total = countLines(buf, bodyStart);
	const start = offset !== undefined ? Math.max(0, Math.floor(offset) - 1) : 0;
	if (start > 0 && start >= total) throw new Error(`Offset ${offset} is beyond end of file (${total} lines total)`);
	const end = limit !== undefined ? Math.min(total, start + Math.max(1, Math.floor(limit))) : total;
	const startOff = lineStart(buf, 0, bodyStart, start);
	// One line more than can be shown tells truncateHead that it had to cut.
	const wanted = Math.min(end - start, DEFAULT_MAX_LINES + 1);
	let endOff = startOff;
	for (let l = 0; l < wanted && endOff <= buf.length; l++) {
		const nl = buf.indexOf(10, endOff);
		endOff = nl === -1 ? buf.length + 1 : nl + 1;
		if (endOff - startOff > DEFAULT_MAX_BYTES * 2) break;
	}
	const windowEnd = Math.min(endOff - 1, buf.length, startOff + DEFAULT_MAX_BYTES * 2 + 4);
	const truncation = truncateHead(buf.toString("utf8", startOff, Math.max(startOff, windowEnd)), {
		maxLines: DEFAULT_MAX_LINES,
		maxBytes: DEFAULT_MAX_BYTES,
	});
	if (truncation.firstLineExceedsLimit) {
		const nl = buf.indexOf(10, startOff);
		const lineBytes = (nl === -1 ? buf.length : nl) - startOff;
		return {
			text: `[${notices.readLineTooLong(start + 1, lineBytes, displayPath)}]`,
			details: { truncation: { ...truncation, totalLines: total, totalBytes: buf.length } },
		};
	}
	if (truncation.truncated) {
		const from = start + 1;
		const to = start + truncation.outputLines;
		const notice =
			truncation.truncatedBy === "lines"
				? notices.readLinesShown(from, to, total)
				: notices.readBytesShown(from, to, total);
		return {
			text: appendNotices(truncation.content, [notice]),
			details: { truncation: { ...truncation, totalLines: total, totalBytes: buf.length } },
		};
	}
	if (end < total) {
		return { text: appendNotices(truncation.content, [notices.readMoreLines(total - end, end + 1)]) };
	}
	return { text: truncation.content };
}

function imageNote(prepared: Awaited<ReturnType<typeof prepareImage>>): string {
	if (prepared.resized && prepared.original) {
		const { width: ow, height: oh } = prepared.original;
		const { width: rw, height: rh } = prepared.resized;
		return `\n[Image downscaled from ${ow}x${oh} to ${rw}x${rh}; multiply coordinates by ${(ow / rw).toFixed(2)} to map back to the original.]`;
	}
	if (prepared.resizeError)
		return `\n[Image could not be downscaled (${prepared.resizeError}); sent at original size.]`;
	return "";
}

export function createReadTool(
	cwd: string,
	options: ReadToolOptions = {},
): AgentTool<typeof readSchema, ReadToolDetails | undefined> {
	const ops = options.operations ?? createLocalReadOperations();
	const autoResize = options.autoResizeImages ?? true;
	return {
		name: "read",
		label: "read",
		description: `Read a file's contents. Text files come back as plain text (no line numbers); images (png, jpeg, gif, webp) come back as images, downscaled when larger than 2000x2000. Output stops at ${DEFAULT_MAX_LINES} lines or ${DEFAULT_MAX_BYTES / 1024}KB, whichever comes first, and ends with a note giving the offset to continue from. Use offset (1-indexed line) and limit to read a slice of a large file.`,
		parameters: readSchema,
		async execute(_id, { path, offset, limit }, signal) {
			signal?.throwIfAborted();
			const abs = resolveExistingPath(path, cwd);
			try {
				if (ops.stat) {
					const st = await ops.stat(abs);
					if (st.isDirectory()) throw new Error(`${path} is a directory, not a file. Use ls to list it.`);
					if (!st.isFile())
						throw new Error(`${path} is not a regular file (device, FIFO or socket); refusing to read it.`);
					if (st.size > MAX_READ_FILE_BYTES) {
						throw new Error(
							`${path} is too large to read (${(st.size / 1024 / 1024).toFixed(0)}MB). Use bash with head, tail, sed -n or grep to read parts of it.`,
						);
					}
				}
				await ops.access(abs);
			} catch (error) {
				if (error instanceof Error && !("code" in error)) throw error;
				throw new Error(describeFsError(error, path, "read"));
			}
			let data: Buffer;
			try {
				data = await ops.readFile(abs);
			} catch (error) {
				throw new Error(describeFsError(error, path, "read"));
			}
			signal?.throwIfAborted();
			const customMime = ops.detectImageMimeType ? await ops.detectImageMimeType(abs) : undefined;
			const mime = (customMime ?? detectImageMime(data)) as ImageMime | undefined;
			if (mime && ["image/png", "image/jpeg", "image/gif", "image/webp"].includes(mime)) {
				const prepared = await prepareImage(data, mime, autoResize);
				const content: (TextContent | ImageContent)[] = [
					{ type: "text", text: `Read image file [${prepared.mimeType}]${imageNote(prepared)}` },
					{ type: "image", data: Buffer.from(prepared.data).toString("base64"), mimeType: prepared.mimeType },
				];
				return { content, details: undefined };
			}
			if (looksBinary(data)) {
				throw new Error(
					`Cannot read ${path}: it is a binary file (${data.length} bytes). Use bash (e.g. file, xxd | head) to inspect it.`,
				);
			}
			if (options.tracker) {
				const mtimeMs = ops.stat ? (await ops.stat(abs)).mtimeMs : Date.now();
				options.tracker.record(abs, data, mtimeMs);
			}
			const hasBom = data.length >= 3 && data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf;
			const out = formatTextRead(data, hasBom ? 3 : 0, path, offset, limit);
			return textResult(out.text, out.details);
		},
	};
}
