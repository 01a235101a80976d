// Session discovery for --continue, --resume and /resume. A listing must stay
// fast with thousands of files, so a file is never JSON-parsed as a whole:
// the header and the first user message come from the first lines, counts
// and the latest name from a byte scan for line prefixes, and results are
// cached per file (size, mtime, inode); a grown file is scanned only from
// where the cached scan stopped, since sessions are append-only.
import { closeSync, openSync, readdirSync, readSync, type Stats, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { encodeCwd, sessionIdFromFileName } from "./paths.js";

export interface SessionInfo {
	path: string;
	id: string;
	/** Working directory recorded in the header ("" for very old files). */
	cwd: string;
	name?: string;
	parentSessionPath?: string;
	created: Date;
	/** File modification time. */
	modified: Date;
	/** `message` entries. */
	messageCount: number;
	/** All entries (header excluded). */
	entryCount: number;
	/** Text of the first user message, "(no messages)" when there is none. */
	firstMessage: string;
}

interface CacheEntry {
	size: number;
	mtimeMs: number;
	ino: number;
	header: Record<string, unknown>;
	entryCount: number;
	messageCount: number;
	firstMessage: string;
	name: string | undefined;
	/** Scan state at `size`: bytes after the last "\n" (a partial last line). */
	tail: Buffer;
}

const cache = new Map<string, CacheEntry>();
const MESSAGE_PREFIX = Buffer.from('{"type":"message"');
const INFO_PREFIX = Buffer.from('{"type":"session_info"');
const CHUNK = 1 << 20;
/** Bytes scanned for the first user message before giving up on it. */
const FIRST_MESSAGE_SCAN = 4 << 20;

function textOf(content: unknown): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	return content
		.filter((b) => b && typeof b === "object" && (b as { type?: unknown }).type === "text")
		.map((b) => String((b as { text?: unknown }).text ?? ""))
		.join(" ");
}

function parseLine(line: Buffer): Record<string, unknown> | undefined {
	try {
		const v: unknown = JSON.parse(line.toString("utf8"));
		return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
	} catch {
		return undefined;
	}
}

function startsWithAt(buf: Buffer, at: number, prefix: Buffer): boolean {
	return buf.length - at >= prefix.length && buf.compare(prefix, 0, prefix.length, at, at + prefix.length) === 0;
}

/** Scan complete lines of `data` into `entry`; returns the bytes after the last newline. */
function scanLines(entry: CacheEntry, data: Buffer, firstLineIsHeader: boolean, scannedBefore: number): Buffer {
	let start = 0;
	let first = firstLineIsHeader;
	for (let nl = data.indexOf(10, start); nl >= 0; nl = data.indexOf(10, start)) {
		if (nl > start) {
			if (first) {
				first = false;
				const h = parseLine(data.subarray(start, nl));
				if (h) entry.header = h;
			} else {
				entry.entryCount++;
				if (startsWithAt(data, start, MESSAGE_PREFIX)) {
					entry.messageCount++;
					if (!entry.firstMessage && scannedBefore + start < FIRST_MESSAGE_SCAN) {
						const v = parseLine(data.subarray(start, nl));
						const m = v?.message as { role?: unknown; content?: unknown } | undefined;
						if (m?.role === "user") entry.firstMessage = textOf(m.content);
					}
				} else if (startsWithAt(data, start, INFO_PREFIX)) {
					const v = parseLine(data.subarray(start, nl));
					if (v) entry.name = typeof v.name === "string" ? v.name.trim() || undefined : undefined;
				}
			}
		}
		start = nl + 1;
	}
	return data.subarray(start);
}

function scanFile(path: string, st: Stats, previous: CacheEntry | undefined): CacheEntry | undefined {
	const resume = previous && previous.ino === st.ino && st.size >= previous.size ? previous : undefined;
	const entry: CacheEntry = resume
		? { ...resume, size: st.size, mtimeMs: st.mtimeMs }
		: {
				size: st.size,
				mtimeMs: st.mtimeMs,
				ino: st.ino,
				header: {},
				entryCount: 0,
				messageCount: 0,
				firstMessage: "",
				name: undefined,
				tail: Buffer.alloc(0),
			};
	let pos = resume ? resume.size : 0;
	let carry = resume ? resume.tail : Buffer.alloc(0);
	let headerPending = !resume;
	const fd = openSync(path, "r");
	try {
		const buf = Buffer.allocUnsafe(Math.min(CHUNK, Math.max(st.size - pos, 1)));
		while (pos < st.size) {
			const n = readSync(fd, buf, 0, Math.min(buf.length, st.size - pos), pos);
			if (n === 0) break;
			const data = carry.length > 0 ? Buffer.concat([carry, buf.subarray(0, n)]) : buf.subarray(0, n);
			const scannedBefore = pos - carry.length;
			pos += n;
			const rest = scanLines(entry, data, headerPending, scannedBefore);
			if (headerPending && rest.length < data.length) headerPending = false;
			carry = Buffer.from(rest); // copy: buf is reused
		}
	} finally {
		closeSync(fd);
	}
	if (headerPending && carry.length > 0) {
		// A file holding only a header without a trailing newline.
		const h = parseLine(carry);
		if (h) entry.header = h;
	}
	entry.tail = carry;
	if (entry.header.type !== "session" || typeof entry.header.id !== "string") return undefined;
	return entry;
}

/** Summary of one session file, or undefined when it is not a session (no valid header). */
export function readSessionInfo(path: string, st: Stats = statSync(path)): SessionInfo | undefined {
	const key = resolve(path);
	const cached = cache.get(key);
	let entry = cached;
	if (!cached || cached.size !== st.size || cached.mtimeMs !== st.mtimeMs || cached.ino !== st.ino) {
		entry = scanFile(key, st, cached);
		if (entry) cache.set(key, entry);
		else cache.delete(key);
	}
	if (!entry) return undefined;
	const h = entry.header;
	return {
		path: key,
		id: String(h.id),
		cwd: typeof h.cwd === "string" ? h.cwd : "",
		name: entry.name,
		parentSessionPath: typeof h.parentSession === "string" ? h.parentSession : undefined,
		created: new Date(typeof h.timestamp === "string" ? h.timestamp : st.birthtimeMs),
		modified: st.mtime,
		messageCount: entry.messageCount,
		entryCount: entry.entryCount,
		firstMessage: entry.firstMessage || "(no messages)",
	};
}

function sessionFiles(dir: string): string[] {
	try {
		return readdirSync(dir)
			.filter((f) => f.endsWith(".jsonl"))
			.map((f) => join(dir, f));
	} catch {
		return [];
	}
}

function byModifiedDesc(a: SessionInfo, b: SessionInfo): number {
	return b.modified.getTime() - a.modified.getTime();
}

/** Sessions in one directory, most recently modified first. Unreadable files are skipped. */
export function listSessions(dir: string): SessionInfo[] {
	const out: SessionInfo[] = [];
	for (const file of sessionFiles(dir)) {
		try {
			const info = readSessionInfo(file);
			if (info) out.push(info);
		} catch {
			// deleted or unreadable meanwhile: not listed
		}
	}
	return out.sort(byModifiedDesc);
}

/** Sessions of every project under the sessions root, most recently modified first. */
export function listAllSessions(sessionsRoot: string): SessionInfo[] {
	const out: SessionInfo[] = [];
	let dirs: string[];
	try {
		dirs = readdirSync(sessionsRoot, { withFileTypes: true })
			.filter((d) => d.isDirectory())
			.map((d) => join(sessionsRoot, d.name));
	} catch {
		return [];
	}
	for (const dir of dirs) out.push(...listSessions(dir));
	return out.sort(byModifiedDesc);
}

/** Most recently modified valid session file in `dir` (optionally only for `cwd`), by mtime. */
export function findMostRecentSession(dir: string, cwd?: string): string | undefined {
	const files: { path: string; mtime: number }[] = [];
	for (const path of sessionFiles(dir)) {
		try {
			files.push({ path, mtime: statSync(path).mtimeMs });
		} catch {
			// gone
		}
	}
	files.sort((a, b) => b.mtime - a.mtime);
	const wanted = cwd ? resolve(cwd) : undefined;
	for (const { path } of files) {
		const header = readHeader(path);
		if (!header) continue;
		if (wanted && (typeof header.cwd !== "string" || resolve(header.cwd) !== wanted)) continue;
		return path;
	}
	return undefined;
}

/** The header of a session file from its first line (read in bounded chunks), or undefined. */
export function readHeader(path: string): Record<string, unknown> | undefined {
	let fd: number;
	try {
		fd = openSync(path, "r");
	} catch {
		return undefined;
	}
	try {
		const chunks: Buffer[] = [];
		let pos = 0;
		const buf = Buffer.allocUnsafe(4096);
		while (pos < CHUNK) {
			const n = readSync(fd, buf, 0, buf.length, pos);
			if (n === 0) break;
			const nl = buf.subarray(0, n).indexOf(10);
			chunks.push(Buffer.from(buf.subarray(0, nl >= 0 ? nl : n)));
			pos += n;
			if (nl >= 0) break;
		}
		const h = parseLine(Buffer.concat(chunks));
		return h && h.type === "session" && typeof h.id === "string" ? h : undefined;
	} finally {
		closeSync(fd);
	}
}

export interface SessionMatch {
	path: string;
	id: string;
	/** True when found in the current project's directory. */
	local: boolean;
}

/**
 * Sessions whose id starts with `prefix`: the project's directory first, then
 * every other project. Uses file names only (`<timestamp>_<id>.jsonl`).
 */
export function findSessionsByIdPrefix(prefix: string, cwd: string, sessionsRoot: string): SessionMatch[] {
	const localDir = join(sessionsRoot, encodeCwd(cwd));
	const matches: SessionMatch[] = [];
	const scan = (dir: string, local: boolean) => {
		for (const path of sessionFiles(dir)) {
			const id = sessionIdFromFileName(path.slice(dir.length + 1));
			if (id?.startsWith(prefix)) matches.push({ path, id, local });
		}
	};
	scan(localDir, true);
	if (matches.length > 0) return matches;
	let dirs: string[] = [];
	try {
		dirs = readdirSync(sessionsRoot, { withFileTypes: true })
			.filter((d) => d.isDirectory() && join(sessionsRoot, d.name) !== localDir)
			.map((d) => join(sessionsRoot, d.name));
	} catch {
		return matches;
	}
	for (const dir of dirs) scan(dir, false);
	return matches;
}

/** Drop cached summaries (tests, or after deleting files). */
export function clearSessionListingCache(): void {
	cache.clear();
}
