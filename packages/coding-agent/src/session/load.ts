// Turns the objects found in a session file into a header and tree records:
// validates the header, migrates version-1/2 entries in memory (the file is
// never rewritten), resolves duplicated ids, and decides which entries stay
// in memory and which are re-read on demand.
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { ContentHash, hashFilePrefix } from "./content-hash.js";
import {
	type IndexMeta,
	racy,
	readIndex,
	realSessionPath,
	type StoredIndex,
	sameFile,
	sameStamp,
	sessionIndexDir,
	unchanged,
	writeIndex,
	writeIndexStamp,
} from "./index-cache.js";
import { type Envelope, type ScannedObject, scanFd, scanSessionText } from "./scan.js";
import type { SessionTree } from "./tree.js";
import { CURRENT_SESSION_VERSION, type SessionEntry, type SessionHeader, type SessionLoadWarning } from "./types.js";
import { entryProblem, invalidEntryStandIn } from "./validate.js";

/** Entries whose line is longer than this are dropped from memory after indexing and re-read when needed. */
const KEEP_IN_MEMORY_BYTES = 256;

export interface LoadState {
	file: string;
	header: SessionHeader | undefined;
	/** Why the file cannot be appended to (corrupt or missing header); undefined when writable. */
	headerProblem: string | undefined;
	version: number;
	warnings: SessionLoadWarning[];
	/** Objects seen so far (header included), for version-1 positional ids. */
	objectCount: number;
	/** Next suffix for renamed duplicate ids, per id. */
	duplicates: Map<string, number>;
	/** Id as written in the file → id in memory, for ids renamed as duplicates. */
	aliases: Map<string, string>;
	lastV1Id: string | null;
	/** Id of a damaged (unrecoverable) entry → its parent, so its children keep their chain. */
	tornParents: Map<string, string | null>;
	/** The leaf before the latest damaged line (undefined while no damage was seen). */
	damageLeaf: string | null | undefined;
	/** Some entry named a parent not loaded before it (only then can the file hold a cycle). */
	unresolvedParents: boolean;
	/** An entry was changed in memory without a warning (a missing timestamp filled in): not indexable. */
	normalized: boolean;
	/** Reads bytes of the file being loaded (to compare duplicated entries). */
	readRange?: (offset: number, length: number) => string;
}

export function newLoadState(file: string): LoadState {
	return {
		file,
		header: undefined,
		headerProblem: undefined,
		version: CURRENT_SESSION_VERSION,
		warnings: [],
		objectCount: 0,
		duplicates: new Map(),
		aliases: new Map(),
		lastV1Id: null,
		tornParents: new Map(),
		damageLeaf: undefined,
		unresolvedParents: false,
		normalized: false,
	};
}

function isHeader(v: Record<string, unknown>): boolean {
	return v.type === "session" && typeof v.id === "string";
}

/** The id a v1 entry gets from its position: stable across loads because the file only grows. */
function positionalId(index: number): string {
	return index.toString(16).padStart(8, "0");
}

/**
 * The parent an entry gets in memory: renamed duplicates resolved, and a
 * parent lost in a damaged line replaced by that entry's own parent (or, when
 * the damage hid its id, by the entry before the damage), so one torn line
 * never cuts the context before it.
 */
function resolveParent(
	state: LoadState,
	tree: SessionTree,
	parentId: string | null,
	warn: (message: string) => void,
): string | null {
	if (parentId === null) return null;
	const named = state.aliases.get(parentId) ?? parentId;
	let p: string | null = named;
	for (let hops = 0; p !== null && !tree.has(p) && state.tornParents.has(p) && hops < 1000; hops++) {
		p = state.tornParents.get(p) ?? null;
	}
	if (p !== named) warn(`parent ${parentId} was lost in a damaged line; attached to its parent ${p ?? "(none)"}`);
	if (p !== null && !tree.has(p) && state.damageLeaf !== undefined) {
		warn(`parent ${parentId} was lost in a damaged line; attached to ${state.damageLeaf ?? "the root"}`);
		p = state.damageLeaf;
	}
	if (p !== null && !tree.has(p)) state.unresolvedParents = true;
	return p;
}

/** One line for a person: file, line and byte offset first, as every load warning must name them. */
export function formatLoadWarning(w: SessionLoadWarning): string {
	return `Warning: session ${w.file}, line ${w.line} (byte ${w.byteOffset}): ${w.message}`;
}

/** No damage seen so far (no renamed duplicate, no torn entry): a line's parent is what it names. */
function noDamageSeen(state: LoadState): boolean {
	return state.aliases.size === 0 && state.tornParents.size === 0;
}

/**
 * Feed one line indexed from its envelope into the tree: a row without the
 * entry (read from the file on first use). No string, closure or copy per
 * line in the usual case (a new id whose parent is the entry before it): this
 * runs for nearly every line of a large session.
 */
export function ingestIndexed(
	state: LoadState,
	tree: SessionTree,
	env: Envelope,
	buf: Buffer,
	line: number,
	offset: number,
	length: number,
): void {
	// The usual case: the parent is the entry before it (or, at a branch point, an earlier one) and
	// no damage was seen, so none of resolveParent's checks apply; then one probe of the id table
	// both rules out a reused id and adds this one.
	let parentRow = -1;
	let plain = env.parentStart < 0;
	if (!plain && noDamageSeen(state)) {
		if (tree.lastIdIs(buf, env.parentStart, env.parentEnd, env.parentHash)) parentRow = tree.size - 1;
		else parentRow = tree.indexOfBytes(buf, env.parentStart, env.parentEnd, env.parentHash);
		plain = parentRow >= 0;
	}
	if (plain) {
		const row = tree.addIndexedBytes(
			buf,
			env.idStart,
			env.idEnd,
			env.idHash,
			parentRow,
			env.type,
			env.role,
			env.provider,
			env.model,
			offset,
			length,
			line,
		);
		if (row >= 0) {
			state.objectCount++;
			return;
		}
	} else if (tree.indexOfBytes(buf, env.idStart, env.idEnd, env.idHash) < 0) {
		state.objectCount++;
		const named = buf.toString("latin1", env.parentStart, env.parentEnd);
		const parentId = resolveParent(state, tree, named, (message) =>
			state.warnings.push({ file: state.file, line, byteOffset: offset, message }),
		);
		const id = buf.toString("latin1", env.idStart, env.idEnd);
		tree.addIndexed(id, parentId, env.type, env.role, env.provider, env.model, offset, length, line);
		return;
	}
	// A reused id: parse it after all, to tell a repeated line from a clash.
	let value: unknown;
	try {
		value = JSON.parse(state.readRange?.(offset, length) ?? "");
	} catch {
		state.warnings.push({ file: state.file, line, byteOffset: offset, message: "unparsable line skipped" });
		return;
	}
	ingestObject(state, tree, { value: value as Record<string, unknown>, line, offset, length, recovered: false }, false);
}

/** Feed one scanned (parsed) object into the tree. */
export function ingestObject(state: LoadState, tree: SessionTree, obj: ScannedObject, firstObject: boolean): void {
	const warnAt = (message: string) =>
		state.warnings.push({ file: state.file, line: obj.line, byteOffset: obj.offset, message });
	if (obj.torn) {
		// A damaged entry: nothing to add, but remember where its children belong.
		const { id, parentId } = obj.torn;
		if (id !== undefined && !tree.has(id)) {
			state.tornParents.set(id, parentId == null ? null : (state.aliases.get(parentId) ?? parentId));
		}
		state.damageLeaf = tree.leafId;
		return;
	}
	const v = obj.value as Record<string, unknown>;
	const index = state.objectCount++;
	const warn = warnAt;
	if (firstObject) {
		if (isHeader(v)) {
			state.header = v as unknown as SessionHeader;
			state.version = typeof v.version === "number" ? v.version : 1;
			return;
		}
		state.headerProblem = `the first line of ${state.file} is not a session header`;
		warn("missing or corrupt session header; the file is read-only (fork it to continue)");
		// Not a header: fall through and keep it as an entry.
	} else if (v.type === "session") {
		warn("extra session header ignored");
		return;
	}
	if (typeof v.type !== "string") {
		warn("object without a type skipped");
		return;
	}
	const legacy = state.version < CURRENT_SESSION_VERSION;
	if (legacy) migrateLegacyEntry(state, v, index);
	if (typeof v.id !== "string" || v.id.length === 0) {
		// Hand-written or damaged: give it a stable id and chain it after the previous entry.
		v.id = `L${obj.line.toString(16).padStart(7, "0")}`;
		if (!("parentId" in v)) v.parentId = tree.leafId;
		warn(`entry without an id; using ${v.id}`);
	}
	if (v.parentId === undefined) v.parentId = null;
	if (typeof v.timestamp !== "string") {
		v.timestamp = new Date(0).toISOString();
		state.normalized = true;
	}
	let entry = v as unknown as SessionEntry;
	if (typeof entry.parentId === "string") entry.parentId = resolveParent(state, tree, entry.parentId, warn);
	const problem = entryProblem(entry);
	if (problem) {
		warn(`invalid ${entry.type} entry ${entry.id} skipped (${problem}); it stays in the file`);
		entry = invalidEntryStandIn(entry, problem);
	}
	let renamed = false;
	const existing = tree.indexOf(entry.id);
	if (existing >= 0) {
		if (sameEntry(state, tree, existing, entry)) {
			warn(`duplicate of entry ${entry.id} skipped`);
			return;
		}
		// A different entry under a used id (two writers, or concatenated files). Keep
		// both: the newer one gets a deterministic id so reloads agree, and later
		// references to the id mean the newer definition.
		const n = (state.duplicates.get(entry.id) ?? 0) + 1;
		state.duplicates.set(entry.id, n);
		const fresh = `${entry.id}~${n}`;
		warn(`duplicate entry id ${entry.id}; kept as ${fresh}`);
		state.aliases.set(entry.id, fresh);
		entry.id = fresh;
		renamed = true;
	}
	const keep = legacy || renamed || obj.recovered || obj.length <= KEEP_IN_MEMORY_BYTES;
	tree.add(entry, obj.offset, obj.length, keep, obj.line);
}

function sameEntry(state: LoadState, tree: SessionTree, existing: number, entry: SessionEntry): boolean {
	if (tree.typeAt(existing) !== entry.type || tree.parentIdAt(existing) !== entry.parentId) return false;
	let other: unknown = tree.valueAt(existing);
	if (!other && state.readRange) {
		try {
			other = JSON.parse(state.readRange(tree.offsetAt(existing), tree.lengthAt(existing)));
		} catch {
			return false;
		}
	}
	if (!other) return false;
	const a = { ...(other as Record<string, unknown>), parentId: null };
	const b = { ...(entry as unknown as Record<string, unknown>), parentId: null };
	return JSON.stringify(a) === JSON.stringify(b);
}

/** v1 (no ids, linear) → v2 (tree) → v3 (`hookMessage` renamed to `custom`), in place on one object. */
function migrateLegacyEntry(state: LoadState, v: Record<string, unknown>, index: number): void {
	if (state.version < 2 && typeof v.id !== "string") {
		v.id = positionalId(index);
		v.parentId = state.lastV1Id;
		if (v.type === "compaction" && typeof v.firstKeptEntryIndex === "number") {
			// Positions count the header as 0, as version-1 writers did.
			if (v.firstKeptEntryIndex > 0) v.firstKeptEntryId = positionalId(v.firstKeptEntryIndex);
			delete v.firstKeptEntryIndex;
		}
	}
	if (typeof v.id === "string") state.lastV1Id = v.id;
	if (v.type === "message") {
		const m = v.message as { role?: unknown } | undefined;
		if (m && m.role === "hookMessage") m.role = "custom";
	}
}

/**
 * Cuts every parentId cycle (a hand edit or a damaged id can make one; the
 * writer never does): in each cycle the link that points forward in the file
 * is removed, so that entry becomes a root. Linear in the number of entries.
 */
export function breakParentCycles(state: LoadState, tree: SessionTree): void {
	if (!state.unresolvedParents) return; // every parent came before its child: no cycle possible
	state.unresolvedParents = false;
	const DONE = -1;
	const mark = new Int32Array(tree.size); // walk number while on the current walk, DONE after, 0 unseen
	let walk = 0;
	const chain: number[] = [];
	for (let start = 0; start < tree.size; start++) {
		if (mark[start] !== 0) continue;
		walk++;
		chain.length = 0;
		let cur = start;
		while (cur >= 0 && mark[cur] === 0) {
			mark[cur] = walk;
			chain.push(cur);
			cur = tree.parentIndex(cur);
		}
		if (cur >= 0 && mark[cur] === walk) {
			// `cur` is on this walk: the chain from it onwards is a cycle.
			const cycle = chain.slice(chain.indexOf(cur));
			// The link that points forward in the file (a parent at or after its child).
			const cut = cycle.find((i) => tree.parentIndex(i) >= i) ?? cycle[0];
			state.warnings.push({
				file: state.file,
				line: tree.lineAt(cut),
				byteOffset: tree.offsetAt(cut),
				message: `parentId cycle through ${cycle.length} entr${cycle.length === 1 ? "y" : "ies"}: entry ${tree.idAt(cut)} (parent ${tree.parentIdAt(cut)}) made a root`,
			});
			tree.makeRoot(cut);
		}
		for (const i of chain) mark[i] = DONE;
	}
}

export interface FileLoadResult {
	size: number;
	endsWithNewline: boolean;
	lines: number;
}

/** Scan a file (from `fromOffset`, a line start) into the tree. */
export function loadFromFd(
	fd: number,
	state: LoadState,
	tree: SessionTree,
	fromOffset = 0,
	firstLine = 1,
	/** Fed every byte read (for the session index). */
	hash?: ContentHash,
): FileLoadResult {
	let first = fromOffset === 0 && state.objectCount === 0;
	state.readRange = (offset, length) => {
		const buf = Buffer.allocUnsafe(length);
		const n = readSync(fd, buf, 0, length, offset);
		return buf.toString("utf8", 0, n);
	};
	const summary = scanFd(
		fd,
		state.file,
		(obj) => {
			ingestObject(state, tree, obj, first);
			if (!obj.torn) first = false;
		},
		(w) => state.warnings.push(w),
		fromOffset,
		firstLine,
		() => state.header !== undefined && state.version >= CURRENT_SESSION_VERSION && !state.headerProblem,
		(env, buf, line, offset, length) => {
			ingestIndexed(state, tree, env, buf, line, offset, length);
			first = false;
		},
		hash,
		(run) => {
			// What ingestIndexed does for the plain case, for a run of lines at once.
			if (!noDamageSeen(state)) return 0;
			const added = tree.appendIndexedRun(run);
			if (added > 0) {
				state.objectCount += added;
				first = false;
			}
			return added;
		},
	);
	if (fromOffset === 0 && state.objectCount === 0 && summary.size > 0) {
		state.headerProblem = `${state.file} holds no session header`;
	}
	breakParentCycles(state, tree);
	return summary;
}

/** What `loadSessionFile` did with the session's index (index-cache.ts). */
export type IndexUse =
	/** No index directory set, or the file could not be indexed. */
	| "none"
	/** No usable index: the whole file was scanned. */
	| "scanned"
	/** Restored from the index, the file unchanged since it was written (nothing read). */
	| "unchanged"
	/** Restored from the index after checking the indexed bytes' content hash; what followed them was scanned. */
	| "verified";

export interface SessionFileLoad {
	state: LoadState;
	/** `lines`: lines of the whole file. */
	summary: FileLoadResult;
	index: IndexUse;
	/**
	 * Writes the index of what was loaded, when it is worth writing (the open was not a hit on an
	 * unchanged file) and sound (a clean file, unchanged while it was read). The caller runs it when
	 * it suits (off the path to the first request); it is silent on failure and does nothing twice.
	 */
	saveIndex?: () => void;
}

/** Whether nothing of the load needs more than the tree's columns to be seen again as it was. */
function indexable(state: LoadState, tree: SessionTree, summary: FileLoadResult): boolean {
	return (
		summary.endsWithNewline &&
		state.warnings.length === 0 &&
		state.header !== undefined &&
		!state.headerProblem &&
		state.version >= CURRENT_SESSION_VERSION &&
		state.aliases.size === 0 &&
		state.tornParents.size === 0 &&
		state.damageLeaf === undefined &&
		!state.normalized &&
		tree.standIns === 0 &&
		tree.storable()
	);
}

/**
 * Load a whole session file into the tree (and whatever a lock-ignoring writer appends meanwhile).
 * With an index directory (index-cache.ts; the CLI sets one), a sound index of the file's prefix
 * is restored instead of scanning that prefix.
 */
export function loadSessionFile(file: string, tree: SessionTree, indexDir = sessionIndexDir()): SessionFileLoad {
	const fd = openSync(file, "r");
	const state = newLoadState(file);
	try {
		const now = Date.now();
		const stamp = fstatSync(fd, { bigint: true });
		const size = Number(stamp.size);
		const real = indexDir === undefined ? undefined : realSessionPath(file);
		let index: IndexUse = real === undefined ? "none" : "scanned";
		let from = 0;
		let lines = 0;
		// The hash of the bytes read so far, for the index written after this open.
		let hash = real === undefined ? undefined : new ContentHash();
		const stored = real === undefined ? undefined : readIndex(indexDir as string, real);
		if (stored) {
			const m = stored.meta;
			if (unchanged(m, stamp)) {
				index = "unchanged";
				hash = undefined; // no index is written: nothing to hash
			} else if (sameFile(m, stamp) && size >= m.size) {
				const prefix = hashFilePrefix(fd, m.size);
				if (prefix !== undefined && prefix.digest() === m.hash) {
					index = "verified";
					hash = prefix;
				}
			}
			if (index !== "scanned") {
				tree.restore(stored.columns);
				state.header = m.header;
				state.version = m.header.version ?? CURRENT_SESSION_VERSION;
				state.objectCount = m.objectCount;
				from = m.size;
				lines = m.lines;
			}
		}
		// No per-line object survives the indexing (tree.ts keeps columns), so V8's young generation
		// stays at its starting size without being held there (young-generation.test.ts).
		// Rows for lines of ~256 bytes or more, so the columns are not grown (and copied) as the file
		// is read and the code adding rows is not deoptimized by growth (a path V8 had not seen).
		// The id table (resident as a whole) for ~1 KB a line; past that it grows.
		const rest = size - from;
		tree.reserve(Math.min(Math.floor(rest / 256), 1 << 22), Math.min(Math.floor(rest / 1024), 1 << 20));
		let summary: FileLoadResult = { size: from, endsWithNewline: true, lines };
		if (from === 0 || rest > 0) {
			const part = loadFromFd(fd, state, tree, from, lines + 1, hash);
			summary = { ...part, lines: lines + part.lines };
		}
		while (fstatSync(fd).size > summary.size && summary.endsWithNewline) {
			const part = loadFromFd(fd, state, tree, summary.size, summary.lines + 1, hash);
			summary = { ...part, lines: summary.lines + part.lines };
		}
		const result: SessionFileLoad = { state, summary, index };
		const digest = real !== undefined && indexable(state, tree, summary) ? hash?.digest() : undefined;
		if (digest !== undefined && real !== undefined) {
			// Sound only if the file did not change while it was read: the stamp stored is the one
			// taken before reading.
			const after = fstatSync(fd, { bigint: true });
			if (sameStamp(after, stamp) && summary.size === size) {
				const meta: IndexMeta = {
					path: real,
					dev: String(stamp.dev),
					ino: String(stamp.ino),
					size,
					hash: digest,
					lines: summary.lines,
					mtimeNs: String(stamp.mtimeNs),
					ctimeNs: String(stamp.ctimeNs),
					verify: racy(stamp, now),
					header: state.header as SessionHeader,
					objectCount: state.objectCount,
				};
				const dir = indexDir as string;
				// Only the stamp changed (the indexed bytes verified, nothing after them): a 64-byte
				// header instead of the whole index.
				const stampOnly = index === "verified" && stored !== undefined && summary.size === stored.meta.size;
				const columns = stampOnly ? undefined : tree.columns();
				let done = false;
				result.saveIndex = () => {
					if (done) return;
					done = true;
					if (stampOnly) writeIndexStamp(dir, meta, (stored as StoredIndex).bodyCrc);
					// An entry found damaged on use since (its row rewritten) is not stored as such.
					else if (columns && tree.standIns === 0) writeIndex(dir, meta, columns);
				};
			}
		}
		return result;
	} finally {
		closeSync(fd);
	}
}

/** Parse session text held in memory into the tree (every entry kept in memory). */
export function loadFromText(text: string, state: LoadState, tree: SessionTree): void {
	let first = true;
	scanSessionText(
		text,
		(obj) => {
			ingestObject(state, tree, { ...obj, length: 0, offset: -1 }, first);
			if (!obj.torn) first = false;
		},
		(w) => state.warnings.push(w),
		state.file,
	);
	breakParentCycles(state, tree);
}
