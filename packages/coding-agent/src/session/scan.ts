// Reads a session file line by line without holding it in memory, and
// recovers what a crash can leave behind: a truncated last line, two objects
// glued on one line (a write that started before the previous one ended with
// "\n"), garbage. Every skipped span becomes a warning with line and byte
// offset; nothing is ever written back.
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { isJsonText } from "./json-check.js";
import type { SessionLoadWarning } from "./types.js";

/**
 * The fields of a line read without parsing it (lines of current-format files).
 * One object, refilled for each line: indexing 100k lines allocates nothing but
 * the strings the index keeps.
 */
export interface Envelope {
	type: string;
	/** The id's bytes: `[idStart, idEnd)` of the buffer given with the envelope. */
	idStart: number;
	idEnd: number;
	/** The parent id's bytes; `parentStart` -1 for a root (`"parentId":null`). */
	parentStart: number;
	parentEnd: number;
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

/** Read size: larger reads save no measurable CPU, and the buffer is resident memory while a session opens. */
const CHUNK = 1024 * 1024;

/**
 * Lines at least this long may be indexed without parsing (see `envelopeOf`);
 * a damaged one is found when its entry is first used.
 */
const FAST_PATH_MIN_BYTES = 512;
/**
 * Shorter lines (most of a session's lines: user prompts, small tool results,
 * custom entries) are indexed without parsing too, once `isJsonText` has
 * checked their bytes, so damage is still found and warned about at open.
 * Below this length the whole-line parse is as cheap and the entry stays in
 * memory (load.ts keeps entries of up to 256 bytes).
 */
const SHORT_LAZY_MIN_BYTES = 257;
const K_TYPE = Buffer.from('{"type":"');
const K_ID = Buffer.from(',"id":"');
const K_PARENT = Buffer.from(',"parentId":');
const K_NULL = Buffer.from("null");
const K_TIMESTAMP = Buffer.from(',"timestamp":"');
const K_ROLE = Buffer.from(',"message":{"role":"');
const K_PROVIDER = Buffer.from(',"provider":"');
const K_MODEL = Buffer.from(',"model":"');
/** Types whose lines need nothing beyond the envelope until used, most frequent first. */
const LAZY_TYPES: readonly string[] = ["message", "custom", "compaction", "branch_summary", "custom_message", "usage"];

/**
 * The ASCII bytes [at, end) as a string, or `known` itself when it holds the same characters: an
 * index of 100k entries would otherwise hold a copy of nearly every parent id (each line's parent
 * is almost always the line before it) and of each provider and model name.
 */
function asciiString(buf: Buffer, at: number, end: number, known: string | undefined): string {
	return known !== undefined && sameAscii(buf, at, end, known) ? known : buf.toString("latin1", at, end);
}

function sameAscii(buf: Buffer, at: number, end: number, s: string): boolean {
	if (s.length !== end - at) return false;
	for (let k = 0; k < s.length; k++) if (buf[at + k] !== s.charCodeAt(k)) return false;
	return true;
}

const KNOWN_ROLES: readonly string[] = ["assistant", "toolResult", "user"];

/** The name among `names` the bytes [at, end) spell (the same string object each time), or undefined. */
function knownName(buf: Buffer, at: number, end: number, names: readonly string[]): string | undefined {
	for (let k = 0; k < names.length; k++) if (sameAscii(buf, at, end, names[k])) return names[k];
	return undefined;
}

/** The strings of the previous envelope, reused when the next one repeats them. */
const previous: { provider?: string; model?: string } = {};

/** Where `envelopeOf` found the line's own `,"parentId":` key (valid after it returned true). */
let parentKeyAt = -1;

/** The envelope `envelopeOf` fills (one object for every line). */
const scratch: Envelope = {
	type: "",
	idStart: 0,
	idEnd: 0,
	parentStart: -1,
	parentEnd: -1,
	role: undefined,
	provider: undefined,
	model: undefined,
};

function hasAt(buf: Buffer, at: number, key: Buffer): boolean {
	if (at + key.length > buf.length) return false;
	for (let i = 0; i < key.length; i++) if (buf[at + i] !== key[i]) return false;
	return true;
}

/**
 * For a backward Horspool search of `key`: how far the window may move left
 * when its first byte is b (the nearest later position of b in the key, else
 * the key's length).
 */
function backwardShifts(key: Buffer): Uint8Array {
	const shift = new Uint8Array(256).fill(key.length);
	for (let k = key.length - 1; k >= 1; k--) shift[key[k]] = k;
	return shift;
}

const PROVIDER_SHIFTS = backwardShifts(K_PROVIDER);

/**
 * Start of the last `key` lying wholly inside [from, to), or -1: searched
 * backwards (the key is near `to`), skipping by `shifts` — most bytes of an
 * assistant line's tail (usage figures) are not in the key, so a step skips
 * several bytes instead of testing each.
 */
function lastKeyIn(buf: Buffer, key: Buffer, shifts: Uint8Array, from: number, to: number): number {
	for (let p = to - key.length; p >= from; p -= shifts[buf[p]]) if (hasAt(buf, p, key)) return p;
	return -1;
}

/**
 * A JSON string value of printable ASCII without escapes, starting at `at`
 * (just after its opening quote), bounded by `end`. Returns the index after
 * its closing quote, or -1.
 */
function stringEnd(buf: Buffer, at: number, end: number): number {
	for (let i = at; i < end; i++) {
		const c = buf[i];
		if (c === 34) return i > at ? i + 1 : -1;
		if (c < 0x20 || c > 0x7e || c === 92) return -1;
	}
	return -1;
}

/**
 * Index a line from its bytes without parsing it, into `scratch`; false when
 * it must be parsed. Parsing every line is most of the cost of opening a big
 * session and the entries are rarely all needed, so the full parse is
 * deferred to first use. Conditions keep this safe: the line ends with "}" (a
 * torn write almost never does, and then falls back to a full parse and a
 * warning), holds no glued second object, and starts with the envelope every
 * pi writes first. An assistant message also needs its provider and model,
 * which every pi writes after the content, near the end of the line. The
 * timestamp is checked but not kept: nothing reads it from the index (the
 * entry has it once parsed). Whether a second object is glued on the line is
 * the caller's check (`parentKeyAt` tells it where this line's envelope key is).
 */
function envelopeOf(buf: Buffer, start: number, end: number): boolean {
	let last = end - 1;
	while (last > start && (buf[last] === 13 || buf[last] === 32)) last--;
	if (buf[last] !== 125 /* } */) return false;
	const head = Math.min(end, start + 512);
	let i = start;
	if (!hasAt(buf, i, K_TYPE)) return false;
	let j = stringEnd(buf, (i += K_TYPE.length), head);
	if (j < 0) return false;
	const type = knownName(buf, i, j - 1, LAZY_TYPES);
	if (type === undefined || !hasAt(buf, j, K_ID)) return false;
	i = j + K_ID.length;
	j = stringEnd(buf, i, head);
	if (j < 0) return false;
	const idStart = i;
	const idEnd = j - 1;
	if (!hasAt(buf, j, K_PARENT)) return false;
	parentKeyAt = j;
	i = j + K_PARENT.length;
	let parentStart = -1;
	let parentEnd = -1;
	if (hasAt(buf, i, K_NULL)) {
		j = i + K_NULL.length;
	} else {
		if (buf[i] !== 34) return false;
		j = stringEnd(buf, i + 1, head);
		if (j < 0) return false;
		parentStart = i + 1;
		parentEnd = j - 1;
	}
	if (!hasAt(buf, j, K_TIMESTAMP)) return false;
	j = stringEnd(buf, j + K_TIMESTAMP.length, head);
	if (j < 0) return false;
	let role: string | undefined;
	let provider: string | undefined;
	let model: string | undefined;
	if (type === "message") {
		if (!hasAt(buf, j, K_ROLE)) return false;
		i = j + K_ROLE.length;
		j = stringEnd(buf, i, head);
		if (j < 0) return false;
		role = knownName(buf, i, j - 1, KNOWN_ROLES) ?? buf.toString("latin1", i, j - 1);
		if (role === "assistant") {
			const p = lastKeyIn(buf, K_PROVIDER, PROVIDER_SHIFTS, Math.max(j, end - 2048), last + 1);
			if (p < 0) return false;
			i = p + K_PROVIDER.length;
			j = stringEnd(buf, i, end);
			if (j < 0 || !hasAt(buf, j, K_MODEL)) return false;
			const pEnd = j - 1;
			const mStart = j + K_MODEL.length;
			const k = stringEnd(buf, mStart, end);
			if (k < 0) return false;
			provider = previous.provider = asciiString(buf, i, pEnd, previous.provider);
			model = previous.model = asciiString(buf, mStart, k - 1, previous.model);
		}
	}
	scratch.type = type;
	scratch.idStart = idStart;
	scratch.idEnd = idEnd;
	scratch.parentStart = parentStart;
	scratch.parentEnd = parentEnd;
	scratch.role = role;
	scratch.provider = provider;
	scratch.model = model;
	return true;
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
	/** Sees every byte read, in file order (`bytes[start, end)`), e.g. to checksum them. */
	onBytes?: (bytes: Buffer, start: number, end: number) => void,
): ScanSummary {
	const size = fstatSync(fd).size;
	let buf = Buffer.allocUnsafe(Math.min(CHUNK, Math.max(size - fromOffset, 1)));
	let filled = 0; // bytes in buf, starting at file offset `bufStart`
	let bufStart = fromOffset;
	let pos = fromOffset; // next file offset to read
	let line = firstLineNumber;
	let lastByte = -1;
	// Position in `view` of the next `,"parentId":` key at or after the last one looked up (-1: look again).
	let glueAt = -1;
	let view = buf;
	const handle = (start: number, end: number, unterminated: boolean) => {
		// start/end index into buf
		const lineOffset = bufStart + start;
		let s = start;
		if (lineOffset === 0 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) s += 3; // BOM from an editor
		if (index && !unterminated && end - s >= SHORT_LAZY_MIN_BYTES && allowFastPath()) {
			let indexed = false;
			if (end - s >= FAST_PATH_MIN_BYTES) {
				// Not checked as JSON (too costly for every large line), so a second object glued
				// on the line by a torn write must be ruled out: every writer puts the key
				// `,"parentId":` in each entry's envelope, and outside an entry's envelope it can
				// only be a nested object's key (a JSON string cannot hold it: its quotes would be
				// escaped). One search per line, usually ending in the next line's envelope; any
				// second occurrence on the line sends it to the full parse, which recovers the
				// objects or keeps the entry (a false alarm costs one parse).
				indexed = envelopeOf(buf, s, end);
				if (indexed) {
					if (glueAt <= parentKeyAt) {
						glueAt = view.indexOf(K_PARENT, parentKeyAt + K_PARENT.length);
						if (glueAt < 0) glueAt = Number.MAX_SAFE_INTEGER;
					}
					if (glueAt < end) indexed = false;
				}
			} else if (isJsonText(buf, s, end)) {
				// Well-formed, so one whole object (nothing glued): index it, parse on use.
				indexed = envelopeOf(buf, s, end);
			}
			if (indexed) {
				index(scratch, buf, line, bufStart + s, end - s);
				line++;
				return;
			}
		}
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
	while (pos < size) {
		if (filled === buf.length) {
			// A line longer than the buffer: grow it.
			const bigger = Buffer.allocUnsafe(buf.length * 2);
			buf.copy(bigger, 0, 0, filled);
			buf = bigger;
		}
		const n = readSync(fd, buf, filled, Math.min(buf.length - filled, size - pos), pos);
		if (n === 0) break; // file shrank under us; treat what we have as the end
		onBytes?.(buf, filled, filled + n);
		pos += n;
		filled += n;
		lastByte = buf[filled - 1];
		view = buf.subarray(0, filled);
		glueAt = -1;
		let start = 0;
		for (let nl = view.indexOf(10, start); nl >= 0; nl = view.indexOf(10, start)) {
			handle(start, nl, false);
			start = nl + 1;
		}
		// Keep the unfinished line at the front of the buffer.
		if (start > 0) {
			buf.copy(buf, 0, start, filled);
			filled -= start;
			bufStart += start;
		}
	}
	if (filled > 0) handle(0, filled, true);
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
