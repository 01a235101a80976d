// Session discovery for --continue, --resume and /resume. A listing must stay
// fast with thousands of files, so a file is never JSON-parsed as a whole:
// the header and the first user message come from the first lines, counts
// and the latest name from a byte scan for line prefixes, and results are
// cached per file (size, mtime, inode); a grown file is scanned only from
// where the cached scan stopped, since sessions are append-only.
import {
	closeSync,
	mkdirSync,
	openSync,
	readdirSync,
	readFileSync,
	readSync,
	renameSync,
	type Stats,
	statSync,
	unlinkSync,
	writeFileSync,
} from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
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
	/** False when the file is not a session (cached too, so junk is not re-read). */
	valid: boolean;
	id: string;
	cwd: string;
	created: string;
	parentSession?: string;
	entryCount: number;
	messageCount: number;
	firstMessage: string;
	name?: string;
	/** Base64 of the bytes after the last "\n" at `size` (a partial last line), usually "". */
	tail: string;
	/** Base64 of the last bytes before `size`: a grown file is only resumed if they are unchanged. */
	edge: string;
}

interface DirIndex {
	version: 2;
	/** mtime of the session directory when its file names were read: unchanged means same names. */
	dirMtimeMs: number;
	files: Record<string, CacheEntry>;
}

const cache = new Map<string, CacheEntry>();
const loadedIndexes = new Map<string, DirIndex | undefined>();
/**
 * Per-directory index files, kept next to the project directories (not in
 * them, so writing an index does not change the directory's mtime, which
 * tells whether its file names changed): `<sessions>/.pi-index/<dir>.json`.
 */
export const LISTING_INDEX_DIR = ".pi-index";

export function listingIndexPath(dir: string): string {
	return join(dirname(dir), LISTING_INDEX_DIR, `${basename(dir)}.json`);
}
const MESSAGE_PREFIX = Buffer.from('{"type":"message"');
const INFO_PREFIX = Buffer.from('{"type":"session_info"');
const CHUNK = 256 * 1024;
/** Bytes scanned for the first user message before giving up on it. */
const FIRST_MESSAGE_SCAN = 4 << 20;
/** Longer first messages (pasted files) are cut: listings show one line. */
const FIRST_MESSAGE_MAX = 2000;
let shared = Buffer.allocUnsafe(CHUNK);

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

function applyHeader(entry: CacheEntry, line: Buffer): void {
	const h = parseLine(line);
	if (h?.type !== "session" || typeof h.id !== "string") return;
	entry.valid = true;
	entry.id = h.id;
	entry.cwd = typeof h.cwd === "string" ? h.cwd : "";
	entry.created = typeof h.timestamp === "string" ? h.timestamp : "";
	if (typeof h.parentSession === "string") entry.parentSession = h.parentSession;
}

/** Scan complete lines of `data` into `entry`; returns the bytes after the last newline. */
function scanLines(entry: CacheEntry, data: Buffer, headerPending: boolean, scannedBefore: number): Buffer {
	let start = 0;
	let first = headerPending;
	for (let nl = data.indexOf(10, start); nl >= 0; nl = data.indexOf(10, start)) {
		if (nl > start) {
			if (first) {
				first = false;
				applyHeader(entry, data.subarray(start, nl));
			} else {
				entry.entryCount++;
				if (startsWithAt(data, start, MESSAGE_PREFIX)) {
					entry.messageCount++;
					if (!entry.firstMessage && scannedBefore + start < FIRST_MESSAGE_SCAN) {
						const v = parseLine(data.subarray(start, nl));
						const m = v?.message as { role?: unknown; content?: unknown } | undefined;
						if (m?.role === "user") entry.firstMessage = textOf(m.content).slice(0, FIRST_MESSAGE_MAX);
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

const EDGE_BYTES = 32;

/** Whether the bytes before `prev.size` are still the ones scanned (not an in-place rewrite). */
function edgeUnchanged(fd: number, prev: CacheEntry): boolean {
	const edge = Buffer.from(prev.edge ?? "", "base64");
	const now = Buffer.allocUnsafe(edge.length);
	return readSync(fd, now, 0, edge.length, prev.size - edge.length) === edge.length && now.equals(edge);
}

function scanFile(path: string, st: Stats, previous: CacheEntry | undefined): CacheEntry {
	const fd = openSync(path, "r");
	try {
		const grown = previous?.valid && previous.ino === st.ino && st.size >= previous.size;
		return scanOpenFile(fd, st, grown && edgeUnchanged(fd, previous) ? previous : undefined);
	} finally {
		closeSync(fd);
	}
}

function scanOpenFile(fd: number, st: Stats, resume: CacheEntry | undefined): CacheEntry {
	const entry: CacheEntry = resume
		? { ...resume, size: st.size, mtimeMs: st.mtimeMs }
		: {
				size: st.size,
				mtimeMs: st.mtimeMs,
				ino: st.ino,
				valid: false,
				id: "",
				cwd: "",
				created: "",
				entryCount: 0,
				messageCount: 0,
				firstMessage: "",
				tail: "",
				edge: "",
			};
	let pos = resume ? resume.size : 0;
	let carry = resume?.tail ? Buffer.from(resume.tail, "base64") : Buffer.alloc(0);
	let headerPending = !resume;
	let last: Buffer | undefined;
	while (pos < st.size) {
		// One read covers most files; the shared buffer avoids an allocation per file.
		const want = st.size - pos + carry.length;
		if (shared.length < Math.min(want, 4 * CHUNK)) shared = Buffer.allocUnsafe(Math.min(want, 4 * CHUNK));
		carry.copy(shared, 0);
		const n = readSync(fd, shared, carry.length, Math.min(shared.length - carry.length, st.size - pos), pos);
		if (n === 0) break;
		const data = shared.subarray(0, carry.length + n);
		last = data;
		const scannedBefore = pos - carry.length;
		pos += n;
		const rest = scanLines(entry, data, headerPending, scannedBefore);
		if (headerPending && rest.length < data.length) headerPending = false;
		if (rest.length === data.length && data.length === shared.length) {
			shared = Buffer.allocUnsafe(shared.length * 2); // one line longer than the buffer
		}
		carry = Buffer.from(rest); // copy: the shared buffer is reused
	}
	if (last) entry.edge = last.subarray(Math.max(0, last.length - EDGE_BYTES)).toString("base64");
	if (headerPending && carry.length > 0) applyHeader(entry, carry); // a lone header without "\n"
	entry.tail = carry.length > 0 ? carry.toString("base64") : "";
	return entry;
}

function loadDirIndex(dir: string): DirIndex | undefined {
	if (loadedIndexes.has(dir)) return loadedIndexes.get(dir);
	let index: DirIndex | undefined;
	try {
		index = JSON.parse(readFileSync(listingIndexPath(dir), "utf8")) as DirIndex;
		if (index?.version !== 2 || typeof index.files !== "object") index = undefined;
	} catch {
		index = undefined; // none yet, or unreadable: rebuilt by scanning
	}
	loadedIndexes.set(dir, index);
	if (index) {
		for (const [name, entry] of Object.entries(index.files)) {
			const key = join(dir, name);
			if (!cache.has(key)) cache.set(key, entry);
		}
	}
	return index;
}

function saveDirIndex(dir: string, dirMtimeMs: number, names: string[]): void {
	const files: Record<string, CacheEntry> = {};
	for (const name of names) {
		const e = cache.get(join(dir, name));
		if (e) files[name] = e;
	}
	const index: DirIndex = { version: 2, dirMtimeMs, files };
	const target = listingIndexPath(dir);
	const tmp = `${target}.${process.pid}.tmp`;
	try {
		mkdirSync(dirname(target), { recursive: true });
		writeFileSync(tmp, JSON.stringify(index));
		renameSync(tmp, target); // readers see the old or the new index, never half of one
		loadedIndexes.set(dir, index);
	} catch {
		// A read-only place just lists without an index.
		try {
			unlinkSync(tmp);
		} catch {
			// not created
		}
	}
}

function cachedEntry(path: string, st: Stats): { entry: CacheEntry; scanned: boolean } {
	const cached = cache.get(path);
	if (cached && cached.size === st.size && cached.mtimeMs === st.mtimeMs && cached.ino === st.ino) {
		return { entry: cached, scanned: false };
	}
	const entry = scanFile(path, st, cached);
	cache.set(path, entry);
	return { entry, scanned: true };
}

function toInfo(path: string, entry: CacheEntry, mtimeMs: number): SessionInfo | undefined {
	if (!entry.valid) return undefined;
	return {
		path,
		id: entry.id,
		cwd: entry.cwd,
		name: entry.name,
		parentSessionPath: entry.parentSession,
		created: new Date(entry.created || mtimeMs),
		modified: new Date(mtimeMs),
		messageCount: entry.messageCount,
		entryCount: entry.entryCount,
		firstMessage: entry.firstMessage || "(no messages)",
	};
}

/** Summary of one session file, or undefined when it is not a session (no valid header). */
export function readSessionInfo(path: string, st: Stats = statSync(path)): SessionInfo | undefined {
	const key = resolve(path);
	return toInfo(key, cachedEntry(key, st).entry, st.mtimeMs);
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
	const root = resolve(dir);
	let dirMtimeMs: number;
	try {
		dirMtimeMs = statSync(root).mtimeMs;
	} catch {
		return [];
	}
	const index = loadDirIndex(root);
	let names: string[];
	let namesChanged = false;
	if (index && index.dirMtimeMs === dirMtimeMs) {
		names = Object.keys(index.files); // no file added, removed or renamed since
	} else {
		try {
			names = readdirSync(root).filter((f) => f.endsWith(".jsonl"));
		} catch {
			return [];
		}
		namesChanged = true;
	}
	const out: SessionInfo[] = [];
	let changed = namesChanged;
	for (const name of names) {
		const path = join(root, name);
		try {
			const st = statSync(path);
			const { entry, scanned } = cachedEntry(path, st);
			changed ||= scanned;
			const info = toInfo(path, entry, st.mtimeMs);
			if (info) out.push(info);
		} catch {
			// deleted or unreadable meanwhile: not listed
		}
	}
	if (changed && names.length > 0) saveDirIndex(root, dirMtimeMs, names);
	return out.sort(byModifiedDesc);
}

/** The project directories under the sessions root. */
export function sessionDirs(sessionsRoot: string): string[] {
	try {
		return readdirSync(sessionsRoot, { withFileTypes: true })
			.filter((d) => d.isDirectory() && d.name !== LISTING_INDEX_DIR)
			.map((d) => join(sessionsRoot, d.name));
	} catch {
		return [];
	}
}

/** Sessions of every project under the sessions root, most recently modified first. */
export function listAllSessions(sessionsRoot: string): SessionInfo[] {
	const out: SessionInfo[] = [];
	for (const dir of sessionDirs(sessionsRoot)) out.push(...listSessions(dir));
	return out.sort(byModifiedDesc);
}

export type ListProgress = (loaded: number, total: number) => void;

export async function listSessionsAsync(dir: string, onProgress?: ListProgress): Promise<SessionInfo[]> {
	const list = listSessions(dir);
	onProgress?.(1, 1);
	return list;
}

/** listAllSessions, yielding to the event loop after each project directory. */
export async function listAllSessionsAsync(sessionsRoot: string, onProgress?: ListProgress): Promise<SessionInfo[]> {
	const dirs = sessionDirs(sessionsRoot);
	const out: SessionInfo[] = [];
	for (let i = 0; i < dirs.length; i++) {
		out.push(...listSessions(dirs[i]));
		onProgress?.(i + 1, dirs.length);
		await new Promise<void>((r) => setImmediate(r));
	}
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
			.filter((d) => d.isDirectory() && d.name !== LISTING_INDEX_DIR && join(sessionsRoot, d.name) !== localDir)
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
	loadedIndexes.clear();
}
