// Reads a session file line by line without holding it in memory, and
// recovers what a crash can leave behind: a truncated last line, two objects
// glued on one line (a write that started before the previous one ended with
// "\n"), garbage. Every skipped span becomes a warning with line and byte
// offset; nothing is ever written back.
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import type { ContentHash } from "./content-hash.js";
import {
	acquireLineScanner,
	asciiString,
	type IndexedRun,
	LAZY_TYPE_NAMES,
	type LineScanner,
	R_CODE,
	R_END,
	R_ID_END,
	R_ID_HASH,
	R_ID_START,
	R_MODEL_END,
	R_MODEL_START,
	R_PARENT_END,
	R_PARENT_HASH,
	R_PARENT_START,
	R_PROVIDER_END,
	R_PROVIDER_START,
	R_ROLE_CODE,
	R_ROLE_END,
	R_ROLE_START,
	R_START,
	ROLE_NAMES,
	releaseLineScanner,
	SCAN_READ_BYTES,
} from "./line-scan.js";
import type { SessionLoadWarning } from "./types.js";

/**
 * The fields of a line read without parsing it (lines of current-format files).
 * One object, refilled for each line: indexing 100k lines allocates nothing but
 * the strings the index keeps.
 */
export interface Envelope {
	type: string;
	/** The id's bytes: `[idStart, idEnd)` of the buffer given with the envelope, and their `idBytesHash` (id-index.ts). */
	idStart: number;
	idEnd: number;
	idHash: number;
	/** The parent id's bytes and hash; `parentStart` -1 for a root (`"parentId":null`). */
	parentStart: number;
	parentEnd: number;
	parentHash: number;
	/** Message role, for `message` lines. */
	role: string | undefined;
	/** provider/model of assistant messages. */
	provider: string | undefined;
	model: string | undefined;
}

/**
 * Receives each line indexed from its envelope (valid only during the call, as are the bytes of
 * `buf` it points into) with its place in the file.
 */
export type IndexSink = (env: Envelope, buf: Buffer, line: number, offset: number, length: number) => void;

/**
 * Takes a run of lines indexed from their envelope in one go, from the first of them; returns how
 * many it took (the rest go to the `IndexSink` one by one, and the next run starts after that).
 */
export type RunSink = (run: IndexedRun) => number;

/** One JSON object found in the file (parsed; lines indexed from their envelope go to an `IndexSink`). */
export interface ScannedObject {
	value?: Record<string, unknown>;
	/** 1-based line number. */
	line: number;
	/** Byte offset and length of the object's own bytes (for lazy re-reads). */
	offset: number;
	length: number;
	/** Recovered from a damaged line; its bytes are not a whole line. */
	recovered: boolean;
	/**
	 * Set (with no value or envelope) for a damaged entry that could not be
	 * recovered: its id and parent when its first bytes still show them, so
	 * entries that name it as their parent can be attached to its parent.
	 */
	torn?: { id?: string; parentId?: string | null };
}

export interface ScanSummary {
	/** Bytes read (the file size at the time of the scan). */
	size: number;
	/** False when the last byte is not "\n": the next append must start a fresh line. */
	endsWithNewline: boolean;
	lines: number;
}

const ENTRY_TYPES = new Set([
	"session",
	"message",
	"model_change",
	"thinking_level_change",
	"usage",
	"compaction",
	"branch_summary",
	"custom",
	"custom_message",
	"context_edit",
	"label",
	"session_info",
]);

function isRecord(v: unknown): v is Record<string, unknown> {
	return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** An object that can be a session line, as opposed to a nested content block. */
function looksLikeEntry(v: unknown): v is Record<string, unknown> {
	if (!isRecord(v) || typeof v.type !== "string") return false;
	return ENTRY_TYPES.has(v.type) || (typeof v.id === "string" && "parentId" in v);
}

/** Index just past the JSON value starting at `start` (string-aware bracket matching), or -1. */
function matchObjectEnd(text: string, start: number): number {
	let depth = 0;
	let inString = false;
	for (let i = start; i < text.length; i++) {
		const c = text.charCodeAt(i);
		if (inString) {
			if (c === 92 /* \ */) i++;
			else if (c === 34 /* " */) inString = false;
			continue;
		}
		if (c === 34) inString = true;
		else if (c === 123 /* { */ || c === 91 /* [ */) depth++;
		else if (c === 125 /* } */ || c === 93 /* ] */) {
			depth--;
			if (depth === 0) return i + 1;
			if (depth < 0) return -1;
		}
	}
	return -1;
}

/**
 * Complete entry objects inside a line that does not parse as a whole. Starts
 * are the line start and every `{"type":` (which cannot occur unescaped inside a
 * JSON string, so it always opens an object); nested content blocks are
 * rejected by `looksLikeEntry`.
 */
export function recoverObjects(text: string): { value: Record<string, unknown>; start: number; end: number }[] {
	const found: { value: Record<string, unknown>; start: number; end: number }[] = [];
	const starts: number[] = [];
	if (text.startsWith("{")) starts.push(0);
	for (let i = text.indexOf('{"type":'); i >= 0; i = text.indexOf('{"type":', i + 1)) {
		if (i !== 0) starts.push(i);
	}
	let consumedTo = 0;
	for (const start of starts) {
		if (start < consumedTo) continue;
		const end = matchObjectEnd(text, start);
		if (end < 0) continue;
		let value: unknown;
		try {
			value = JSON.parse(text.slice(start, end));
		} catch {
			continue;
		}
		if (!looksLikeEntry(value)) continue;
		found.push({ value, start, end });
		consumedTo = end;
	}
	return found;
}

/** The id and parent a damaged entry's first bytes still show (every pi writes them first). */
const TORN_HEAD = /^\s*\{"type":"[^"\\]{1,64}","id":"([^"\\]{1,128})","parentId":(?:null|"([^"\\]{1,128})")/;

function tornHead(text: string): { id?: string; parentId?: string | null } {
	const m = TORN_HEAD.exec(text.length > 1024 ? text.slice(0, 1024) : text);
	return m ? { id: m[1], parentId: m[2] ?? null } : {};
}

export type ObjectSink = (obj: ScannedObject) => void;
export type WarningSink = (w: SessionLoadWarning) => void;

/**
 * Parse one line's text. Emits each object found; returns a warning text when
 * bytes had to be skipped.
 */
function parseLineText(
	text: string,
	line: number,
	offset: number,
	byteLength: number,
	isLastUnterminated: boolean,
	emit: ObjectSink,
): string | undefined {
	try {
		const value: unknown = JSON.parse(text);
		if (isRecord(value)) {
			emit({ value, line, offset, length: byteLength, recovered: false });
			return undefined;
		}
		return `not a JSON object (${byteLength} bytes skipped)`;
	} catch {
		// fall through to recovery
	}
	const parts = recoverObjects(text);
	if (parts.length === 0 || parts[0].start > 0) {
		// The damaged entry at the start of the line: tell the loader what it was.
		emit({ torn: tornHead(text), line, offset, length: 0, recovered: true });
	}
	if (parts.length === 0) {
		return isLastUnterminated
			? `incomplete last line (${byteLength} bytes, no trailing newline) skipped; the bytes stay in the file`
			: `unparsable line (${byteLength} bytes) skipped: the entry on it is left out of the context; the entries before and after it are kept (the bytes stay in the file)`;
	}
	let covered = 0;
	for (const p of parts) {
		const pOffset = offset + Buffer.byteLength(text.slice(0, p.start));
		const pLength = Buffer.byteLength(text.slice(p.start, p.end));
		covered += pLength;
		emit({ value: p.value, line, offset: pOffset, length: pLength, recovered: true });
	}
	const skipped = byteLength - covered;
	return `damaged line: recovered ${parts.length} object(s)${skipped > 0 ? `, ${skipped} bytes skipped` : ""}`;
}

function isBlank(buf: Buffer, start: number, end: number): boolean {
	for (let i = start; i < end; i++) {
		const c = buf[i];
		if (c !== 32 && c !== 9 && c !== 13) return false;
	}
	return true;
}

/** Read size (the buffer is resident memory while a session opens). */
const CHUNK = SCAN_READ_BYTES;

// Which lines are indexed without parsing (their entry is read from the file on first use), as
// decided by the line-scan module (wasm/line-scan.ts) for current-format files. A line of 512
// bytes or more: when it ends with "}" (a torn write almost never does, and then falls back to a
// full parse and a warning), starts with the envelope every pi writes first (type, id, parentId,
// timestamp; a message's role; an assistant message's provider and model, written after the
// content near the end of the line), and holds no second `,"parentId":` key after its own. It is
// not checked as JSON (too costly for every large line), so that key rules out a second object
// glued on the line by a torn write: every writer puts it in each entry's envelope, and outside
// an envelope it can only be a nested object's key (a JSON string cannot hold it: its quotes
// would be escaped); a false alarm costs one parse. A shorter line (user prompts, small tool
// results, custom entries) from 257 bytes: when it is one well-formed JSON value (so damage is
// still found and warned about at open) and its envelope reads. Below that the whole-line parse
// is as cheap and the entry stays in memory (load.ts keeps entries of up to 256 bytes).
// Parsing every line is most of the cost of opening a big session and the entries are rarely
// all needed, so the parse is deferred to first use.

/** The strings of the previous envelope, reused when the next one repeats them. */
const previous: { provider?: string; model?: string } = {};

/** The envelope `envelopeOf` fills (one object for every line). */
const scratch: Envelope = {
	type: "",
	idStart: 0,
	idEnd: 0,
	idHash: 0,
	parentStart: -1,
	parentEnd: -1,
	parentHash: 0,
	role: undefined,
	provider: undefined,
	model: undefined,
};

/** Fills `scratch` from the record at `r` of an indexed line (positions made buffer offsets). */
export function envelopeOf(records: Int32Array, r: number, base: number, buf: Buffer): Envelope {
	scratch.type = LAZY_TYPE_NAMES[records[r + R_CODE] - 1];
	scratch.idStart = records[r + R_ID_START] - base;
	scratch.idEnd = records[r + R_ID_END] - base;
	scratch.idHash = records[r + R_ID_HASH];
	const parentStart = records[r + R_PARENT_START];
	scratch.parentStart = parentStart < 0 ? -1 : parentStart - base;
	scratch.parentEnd = parentStart < 0 ? -1 : records[r + R_PARENT_END] - base;
	scratch.parentHash = records[r + R_PARENT_HASH];
	const roleStart = records[r + R_ROLE_START];
	const roleCode = records[r + R_ROLE_CODE];
	if (roleCode > 0) scratch.role = ROLE_NAMES[roleCode - 1];
	else if (roleStart < 0) scratch.role = undefined;
	else scratch.role = buf.toString("latin1", roleStart - base, records[r + R_ROLE_END] - base);
	const providerStart = records[r + R_PROVIDER_START];
	if (providerStart < 0) {
		scratch.provider = undefined;
		scratch.model = undefined;
	} else {
		const providerEnd = records[r + R_PROVIDER_END] - base;
		scratch.provider = previous.provider = asciiString(buf, providerStart - base, providerEnd, previous.provider);
		const modelStart = records[r + R_MODEL_START] - base;
		const modelEnd = records[r + R_MODEL_END] - base;
		scratch.model = previous.model = asciiString(buf, modelStart, modelEnd, previous.model);
	}
	return scratch;
}

/** Scan a file from `fromOffset` (a line start) to its current end. */
export function scanSessionFile(
	file: string,
	emit: ObjectSink,
	warn: WarningSink,
	fromOffset = 0,
	firstLineNumber = 1,
): ScanSummary {
	const fd = openSync(file, "r");
	try {
		return scanFd(fd, file, emit, warn, fromOffset, firstLineNumber);
	} finally {
		closeSync(fd);
	}
}

export function scanFd(
	fd: number,
	file: string,
	emit: ObjectSink,
	warn: WarningSink,
	fromOffset = 0,
	firstLineNumber = 1,
	/** Whether lines may be indexed without parsing (current-format files only). */
	allowFastPath: () => boolean = () => false,
	/** Where lines indexed from their envelope go (without it every line is parsed). */
	index?: IndexSink,
	/** Fed every byte read, in file order (lost when lines are not read through the line scanner). */
	hash?: ContentHash,
	/** Takes runs of indexed lines before `index` sees them one by one. */
	indexRun?: RunSink,
): ScanSummary {
	// Lines are indexed from their envelope by the line-scan module, which reads them in its own
	// memory: the file is read into it. Without WebAssembly every line is parsed.
	const lines = index ? acquireLineScanner() : undefined;
	try {
		return scanWith(lines, fd, file, emit, warn, fromOffset, firstLineNumber, allowFastPath, index, hash, indexRun);
	} finally {
		if (lines) releaseLineScanner(lines);
	}
}

function scanWith(
	lines: LineScanner | undefined,
	fd: number,
	file: string,
	emit: ObjectSink,
	warn: WarningSink,
	fromOffset: number,
	firstLineNumber: number,
	allowFastPath: () => boolean,
	index: IndexSink | undefined,
	hash: ContentHash | undefined,
	indexRun: RunSink | undefined,
): ScanSummary {
	const size = fstatSync(fd).size;
	const first = Math.min(CHUNK, Math.max(size - fromOffset, 1));
	let buf = lines ? lines.buffer(first) : Buffer.allocUnsafe(first);
	let filled = 0; // bytes in buf, starting at file offset `bufStart`
	let bufStart = fromOffset;
	let pos = fromOffset; // next file offset to read
	let line = firstLineNumber;
	let lastByte = -1;
	/** A line parsed in full (start/end index into buf). */
	const parse = (start: number, end: number, unterminated: boolean) => {
		const lineOffset = bufStart + start;
		let s = start;
		if (lineOffset === 0 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) s += 3; // BOM from an editor
		if (!isBlank(buf, s, end)) {
			const text = buf.toString("utf8", s, end);
			// The line's warning first, then what was recovered from it (whose own warnings refer to it).
			const found: ScannedObject[] = [];
			const problem = parseLineText(text, line, bufStart + s, end - s, unterminated, (o) => found.push(o));
			if (problem) warn({ file, line, byteOffset: lineOffset, message: problem });
			for (const o of found) emit(o);
		}
		line++;
	};
	/** The complete lines in buf[0, filled), recorded by the line scanner; returns where the rest starts. */
	/** One object for every run handed to `indexRun`. */
	const run: IndexedRun = { records: new Int32Array(0), stride: 0, from: 0, to: 0, base: 0, buf, bufStart: 0, line: 0 };
	/** The complete lines in buf[0, filled), recorded by the line scanner; returns where the rest starts. */
	const scanned = (lines: LineScanner): number => {
		const records = lines.records;
		const base = lines.base;
		const step = lines.recordInts;
		let start = 0;
		for (;;) {
			// Until the header is read (`allowFastPath` turns true), one line per call.
			const fast = index !== undefined && allowFastPath();
			const n = lines.scan(start, filled, fast ? Number.POSITIVE_INFINITY : 1, fast);
			for (let k = 0, r = 0; k < n; k++, r += step) {
				if (records[r + R_CODE] === 0) {
					parse(records[r + R_START] - base, records[r + R_END] - base, false);
					continue;
				}
				if (indexRun !== undefined) {
					run.records = records;
					run.stride = step;
					run.from = k;
					run.to = n;
					run.base = base;
					run.buf = buf;
					run.bufStart = bufStart;
					run.line = line;
					const taken = indexRun(run);
					if (taken > 0) {
						line += taken;
						k += taken - 1;
						r += (taken - 1) * step;
						continue;
					}
				}
				const at = records[r + R_START] - base;
				(index as IndexSink)(
					envelopeOf(records, r, base, buf),
					buf,
					line,
					bufStart + at,
					records[r + R_END] - base - at,
				);
				line++;
			}
			start = lines.consumed;
			if (n === 0) return start;
		}
	};
	while (pos < size) {
		if (filled === buf.length) {
			// A line longer than the buffer: grow it (the line scanner's keeps its bytes).
			if (lines) buf = lines.buffer(buf.length * 2);
			else {
				const bigger = Buffer.allocUnsafe(buf.length * 2);
				buf.copy(bigger, 0, 0, filled);
				buf = bigger;
			}
		}
		const n = readSync(fd, buf, filled, Math.min(buf.length - filled, size - pos), pos);
		if (n === 0) break; // file shrank under us; treat what we have as the end
		if (hash) {
			if (lines) hash.update(lines, filled, filled + n);
			else hash.lose();
		}
		pos += n;
		filled += n;
		lastByte = buf[filled - 1];
		let start = 0;
		if (lines) start = scanned(lines);
		else {
			for (let nl = buf.indexOf(10, start); nl >= 0 && nl < filled; nl = buf.indexOf(10, start)) {
				parse(start, nl, false);
				start = nl + 1;
			}
		}
		// Keep the unfinished line at the front of the buffer.
		if (start > 0) {
			buf.copy(buf, 0, start, filled);
			filled -= start;
			bufStart += start;
		}
	}
	if (filled > 0) parse(0, filled, true);
	return { size: pos, endsWithNewline: pos === fromOffset || lastByte === 10, lines: line - firstLineNumber };
}

/** Parse session text already in memory (tests, imports). Same recovery as files. */
export function scanSessionText(text: string, emit: ObjectSink, warn: WarningSink, file = "<memory>"): void {
	const lines = text.split("\n");
	let offset = 0;
	for (let i = 0; i < lines.length; i++) {
		const raw = lines[i];
		const bytes = Buffer.byteLength(raw);
		const unterminated = i === lines.length - 1;
		if (raw.trim()) {
			const found: ScannedObject[] = [];
			const problem = parseLineText(raw, i + 1, offset, bytes, unterminated, (o) => found.push(o));
			if (problem) warn({ file, line: i + 1, byteOffset: offset, message: problem });
			for (const o of found) emit(o);
		}
		offset += bytes + 1;
	}
}
