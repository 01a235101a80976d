// The in-memory entry tree: entry i (file order) is a row of its columns
// (tree-columns.ts, also the form an index file stores) plus, for small and new
// entries, the entry itself. Large loaded entries are re-read from their byte
// range in the file on demand, so opening a 100 MB session costs an index, not
// a copy of the file. This file is the tree's logic on those rows: adding them,
// parent links, labels and name, entries read on use, walks.
import {
	type EntryPlace,
	MISSING_PARENT,
	MODEL,
	NO_PARENT,
	PROVIDER,
	ROLE,
	TreeColumnStore,
	TYPE,
} from "./tree-columns.js";
import type { LabelEntry, SessionEntry, SessionInfoEntry, SessionTreeNode } from "./types.js";
import { entryProblem, invalidEntryStandIn } from "./validate.js";
import { withYoungGenerationHeld } from "./young-generation.js";

/** Reads a byte range of the session file. */
export type RangeReader = (offset: number, length: number) => Buffer;

/** What a walk up the branch sees of each entry (valid only during the call that receives it). */
export interface EntryView {
	id: string;
	type: string;
	role?: string;
}

/**
 * `preload` reads neighbouring entries with one read while the bytes between them stay below
 * this (a branch is mostly consecutive lines; abandoned branches leave gaps).
 */
const PRELOAD_MAX_GAP = 64 * 1024;
/**
 * Bytes one preload read may cover (the range is decoded entry by entry, then dropped); 1 MB reads
 * cost the same CPU as 4 MB ones and hold 3 MB less resident while a context is built.
 */
const PRELOAD_MAX_READ = 1024 * 1024;
/** Rows `visitEntries` reads per batch (their lines are parsed and dropped before the next). */
const VISIT_BATCH_ROWS = 512;

/**
 * The entry a line holds when it parses as one of `type` and is valid, else undefined (the caller
 * then reads it the usual way, which makes it a stand-in and says why).
 */
function parsedAsIs(bytes: Buffer, at: number, length: number, type: string): SessionEntry | undefined {
	try {
		const value = JSON.parse(bytes.toString("utf8", at, Math.min(bytes.length, at + length))) as SessionEntry;
		if (typeof value !== "object" || value === null || value.type !== type) return undefined;
		return value.type === "custom" || entryProblem(value) === undefined ? value : undefined;
	} catch {
		return undefined;
	}
}

/** The timestamp a damaged line still shows (pi writes it in the envelope), else the epoch. */
function timestampIn(text: string): string {
	const m = /"timestamp":"([^"\\]{1,64})"/.exec(text.length > 1024 ? text.slice(0, 1024) : text);
	return m ? m[1] : new Date(0).toISOString();
}

export class SessionTree extends TreeColumnStore {
	/** The entries in memory, by row (a row without one is read from the file on use). */
	private readonly values = new Map<number, SessionEntry>();
	private reader: RangeReader | undefined;
	private readonly view: EntryView = { id: "", type: "", role: undefined };
	/** Entries read from the file that became stand-ins (their row's type was changed to `custom`). */
	standIns = 0;
	/** Told about an entry whose bytes no longer parse (it then reads as an unreadable `custom` entry). */
	onUnreadable?: (at: EntryPlace, message: string) => void;

	setReader(reader: RangeReader | undefined): void {
		this.reader = reader;
	}

	get leafId(): string | null {
		return this.leafRow >= 0 ? this.ids.idAt(this.leafRow) : this.leafElsewhere;
	}

	set leafId(id: string | null) {
		this.leafRow = id === null ? -1 : this.ids.find(id);
		this.leafElsewhere = this.leafRow < 0 ? id : null;
	}

	has(id: string): boolean {
		return this.ids.find(id) >= 0;
	}

	/** Position of the entry with this id, or -1. */
	indexOf(id: string): number {
		return this.ids.find(id);
	}

	/** Position of the entry whose id is spelled by `b[start, end)` (id hash `h`), or -1 (no string made). */
	indexOfBytes(b: Uint8Array, start: number, end: number, h: number): number {
		return this.ids.findBytes(b, start, end, h);
	}

	/** Whether the last entry's id is spelled by `b[start, end)` (id hash `h`: most others are told by it). */
	lastIdIs(b: Uint8Array, start: number, end: number, h: number): boolean {
		const last = this.count - 1;
		return last >= 0 && this.ids.hashAt(last) === h && this.ids.rowIs(last, b, start, end);
	}

	// ---------------------------------------------------------------- adding

	/**
	 * Add an entry known only by its envelope (its line is parsed on first use). `provider` and
	 * `model` are an assistant message's. Returns its position. The leaf follows file order, as
	 * the reference does on load.
	 */
	addIndexed(
		id: string,
		parentId: string | null,
		type: string,
		role: string | undefined,
		provider: string | undefined,
		model: string | undefined,
		offset: number,
		length: number,
		line: number,
	): number {
		const i = this.newRow(type, role, provider, model, offset, length, line);
		this.ids.push(id);
		this.linkParent(i, parentId);
		if (type === "label" || type === "session_info") this.applyMeta(this.entryAt(i));
		return i;
	}

	/**
	 * `addIndexed` for the path every line of a large session takes at open: the id given as the
	 * bytes `b[idStart, idEnd)` with their `idBytesHash` (no string made), the parent as a row (-1:
	 * a root). Returns the new row, or -1 (nothing added) when the tree already holds that id.
	 */
	addIndexedBytes(
		b: Uint8Array,
		idStart: number,
		idEnd: number,
		idHash: number,
		parentRow: number,
		type: string,
		role: string | undefined,
		provider: string | undefined,
		model: string | undefined,
		offset: number,
		length: number,
		line: number,
	): number {
		if (!this.ids.pushBytesIfNew(b, idStart, idEnd, idHash)) return -1;
		const i = this.newRow(type, role, provider, model, offset, length, line);
		this.parents[i] = parentRow < 0 ? NO_PARENT : parentRow;
		return i;
	}

	/** Add a whole entry (kept in memory unless `keep` is false and it has a byte range). Returns its position. */
	add(entry: SessionEntry, offset = -1, length = 0, keep = true, line = 0): number {
		let role: string | undefined;
		let provider: string | undefined;
		let model: string | undefined;
		if (entry.type === "message") {
			const m = entry.message as { role?: unknown; provider?: unknown; model?: unknown } | undefined;
			if (m && typeof m.role === "string") role = m.role;
			if (role === "assistant" && m) {
				if (typeof m.provider === "string") provider = m.provider;
				if (typeof m.model === "string") model = m.model;
			}
		}
		const i = this.newRow(entry.type, role, provider, model, offset, length, line);
		this.ids.push(entry.id);
		this.linkParent(i, entry.parentId ?? null);
		if (keep || offset < 0) this.values.set(i, entry);
		if (entry.type === "label" || entry.type === "session_info") this.applyMeta(entry);
		return i;
	}

	/** Fills row `count` but for its id and parent (the caller adds them); the leaf moves to it. */
	private newRow(
		type: string,
		role: string | undefined,
		provider: string | undefined,
		model: string | undefined,
		offset: number,
		length: number,
		line: number,
	): number {
		if (this.count === this.parents.length) this.reserve(1);
		const i = this.count++;
		this.types[i] = this.code(type, TYPE);
		this.roles[i] = this.code(role, ROLE);
		this.providers[i] = this.code(provider, PROVIDER);
		this.models[i] = this.code(model, MODEL);
		this.offsets[i] = offset;
		this.lengths[i] = length;
		this.lines[i] = line;
		this.leafRow = i;
		this.leafElsewhere = null;
		return i;
	}

	private linkParent(i: number, parentId: string | null): void {
		if (parentId === null) {
			this.parents[i] = NO_PARENT;
			return;
		}
		const p = this.ids.find(parentId);
		if (p >= 0 && p !== i) this.parents[i] = p;
		else {
			this.parents[i] = MISSING_PARENT;
			this.missing.set(i, parentId);
		}
	}

	/** Undo the last `add` (used when persisting it failed). */
	removeLast(previousLeaf: string | null): void {
		if (this.count === 0) return;
		const i = --this.count;
		const type = this.typeAt(i);
		this.ids.pop();
		this.values.delete(i);
		this.missing.delete(i);
		this.leafId = previousLeaf;
		if (type === "label" || type === "session_info") this.rebuildMeta();
	}

	/** Make entry i a root (cutting a parent cycle). */
	makeRoot(i: number): void {
		this.parents[i] = NO_PARENT;
		this.missing.delete(i);
		const v = this.values.get(i);
		if (v) v.parentId = null;
	}

	/** Position of entry i's parent in the tree, or -1 (a root, or a parent not in the tree). */
	parentIndex(i: number): number {
		const p = this.parents[i];
		if (p !== MISSING_PARENT) return p;
		// A parent later in the file, or itself (hand edits; loading cuts the cycles this makes), or never loaded.
		const id = this.missing.get(i);
		return id === undefined ? NO_PARENT : this.ids.find(id);
	}

	parentIdAt(i: number): string | null {
		const p = this.parents[i];
		if (p >= 0) return this.ids.idAt(p);
		return p === MISSING_PARENT ? (this.missing.get(i) ?? null) : null;
	}

	// ---------------------------------------------------------------- metadata

	private applyMeta(entry: SessionEntry): void {
		if (entry.type === "label") {
			const e = entry as LabelEntry;
			if (e.label) this.labels.set(e.targetId, { label: e.label, timestamp: e.timestamp });
			else this.labels.delete(e.targetId);
		} else if (entry.type === "session_info") {
			this.name = (entry as SessionInfoEntry).name?.trim() || undefined;
		}
	}

	private rebuildMeta(): void {
		this.labels.clear();
		this.name = undefined;
		for (let i = 0; i < this.count; i++) {
			const type = this.typeAt(i);
			if (type === "label" || type === "session_info") this.applyMeta(this.entryAt(i));
		}
	}

	getLabel(id: string): string | undefined {
		return this.labels.get(id)?.label;
	}

	labelEntries(): [string, { label: string; timestamp: string }][] {
		return [...this.labels];
	}

	getName(): string | undefined {
		return this.name;
	}

	// ---------------------------------------------------------------- entries

	/** The entry if it is in memory (no read). */
	valueAt(i: number): SessionEntry | undefined {
		return this.values.get(i);
	}

	/** The full entry, read from the file if it is not in memory. */
	entryAt(i: number): SessionEntry {
		const v = this.values.get(i);
		if (v) return v;
		if (!this.reader) {
			throw new Error(`Session entry ${this.ids.idAt(i)} is not loaded and no file is open to read it from`);
		}
		return this.parseRow(i, this.reader(this.offsets[i], this.lengths[i]), 0);
	}

	/**
	 * Read the entries at `rows` that are only on disk, neighbours in the file with one read each
	 * (a resumed branch's context is thousands of entries: one pread each was most of building it).
	 * What `entryAt` would do for each, in fewer system calls.
	 */
	preload(rows: ArrayLike<number>): void {
		const reader = this.reader;
		if (!reader) return;
		const pending: number[] = [];
		for (let k = 0; k < rows.length; k++) {
			const i = rows[k];
			if (!this.values.has(i) && this.offsets[i] >= 0) pending.push(i);
		}
		if (pending.length < 2) return;
		let bytes = 0;
		for (const i of pending) bytes += this.lengths[i];
		withYoungGenerationHeld(bytes, () => this.readRows(reader, pending));
	}

	/** Bytes of the entries at `rows` that are only on disk (what reading them all would parse). */
	bytesOnDisk(rows: ArrayLike<number>): number {
		let bytes = 0;
		for (let k = 0; k < rows.length; k++) {
			const i = rows[k];
			if (this.offsets[i] >= 0 && !this.values.has(i)) bytes += this.lengths[i];
		}
		return bytes;
	}

	private readRows(reader: RangeReader, pending: number[]): void {
		pending.sort((a, b) => this.offsets[a] - this.offsets[b]);
		this.readLines(reader, pending, (row, bytes, at) => {
			// The same row twice in `rows`: parsed once.
			if (!this.values.has(row)) this.parseRow(row, bytes, at);
		});
	}

	/** Reads the lines of `rows` (in file order), neighbours with one read each, and hands each to `onLine`. */
	private readLines(
		reader: RangeReader,
		rows: number[],
		onLine: (row: number, bytes: Buffer, at: number) => void,
	): void {
		const offsets = this.offsets;
		const lengths = this.lengths;
		for (let i = 0; i < rows.length; ) {
			const start = offsets[rows[i]];
			let end = start + lengths[rows[i]];
			let j = i + 1;
			while (
				j < rows.length &&
				offsets[rows[j]] >= start &&
				offsets[rows[j]] - end <= PRELOAD_MAX_GAP &&
				offsets[rows[j]] + lengths[rows[j]] - start <= PRELOAD_MAX_READ
			) {
				end = Math.max(end, offsets[rows[j]] + lengths[rows[j]]);
				j++;
			}
			const bytes = reader(start, end - start);
			for (let k = i; k < j; k++) onLine(rows[k], bytes, offsets[rows[k]] - start);
			i = j;
		}
	}

	/**
	 * Calls `visit` with each entry from position `from` on, in file order, whose type (and message
	 * role) `wanted` accepts. Entries held on disk are read in batches and parsed without being kept,
	 * as their line holds them (ids as written): for totals over a whole session, which need one field
	 * of most of its entries. A line that no longer parses goes through `entryAt` (a stand-in, with its
	 * warning), as any read of it would. Returns the position to go on from (`size` when done).
	 */
	visitEntries(
		from: number,
		wanted: (type: string, role: string | undefined) => boolean,
		/** `row`: the entry's position (`idOf(row)` is the id the tree knows it by). */
		visit: (entry: SessionEntry, row: number) => void,
		/** For entries on disk: false when the entry on `bytes[start, end)` need not be visited (not parsed). */
		lineMatters?: (bytes: Buffer, start: number, end: number) => boolean,
		/** Stop once about this many bytes were read from disk (at a batch's end). */
		maxBytes = Number.POSITIVE_INFINITY,
	): number {
		const reader = this.reader;
		const batch: number[] = [];
		let read = 0;
		const flush = () => {
			if (batch.length === 0 || !reader) return;
			for (const row of batch) read += this.lengths[row];
			this.readLines(reader, batch, (row, bytes, at) => {
				if (lineMatters && !this.values.has(row) && !lineMatters(bytes, at, at + this.lengths[row])) return;
				const value = this.values.get(row) ?? parsedAsIs(bytes, at, this.lengths[row], this.typeAt(row));
				visit(value ?? this.entryAt(row), row);
			});
			batch.length = 0;
		};
		for (let i = from; i < this.count; i++) {
			if (!wanted(this.typeAt(i), this.roleAt(i))) continue;
			const value = this.values.get(i);
			if (value === undefined && reader && this.offsets[i] >= 0) {
				batch.push(i);
				if (batch.length === VISIT_BATCH_ROWS) {
					flush();
					if (read >= maxBytes) return i + 1;
				}
				continue;
			}
			flush();
			visit(value ?? this.entryAt(i), i);
		}
		flush();
		return this.count;
	}

	/** Parse row i from `bytes` (its line at `at`); a line that no longer parses becomes a stand-in, with a warning. */
	private parseRow(i: number, bytes: Buffer, at: number): SessionEntry {
		const length = this.lengths[i];
		const text = bytes.toString("utf8", at, Math.min(bytes.length, at + length));
		const type = this.typeAt(i);
		let value: SessionEntry;
		try {
			value = JSON.parse(text) as SessionEntry;
			if (typeof value !== "object" || value === null || value.type !== type) throw new Error("type changed");
		} catch {
			// Indexed without a full parse at load (see scan.ts) and damaged after all:
			// keep its place in the tree, contribute nothing, say so.
			this.onUnreadable?.(
				this.placeOf(i),
				`entry ${this.ids.idAt(i)} (${length} bytes at offset ${this.offsets[i]}) does not parse; ignored`,
			);
			value = {
				type: "custom",
				id: this.ids.idAt(i),
				parentId: this.parentIdAt(i),
				timestamp: timestampIn(text),
				customType: "pi.unreadable-entry",
				data: { offset: this.offsets[i], length, type },
			};
			this.types[i] = this.code("custom", TYPE);
			this.roles[i] = 0;
			this.standIns++;
		}
		const problem = value.type === "custom" ? undefined : entryProblem(value);
		if (problem) {
			this.onUnreadable?.(
				this.placeOf(i),
				`invalid ${type} entry ${this.ids.idAt(i)} skipped (${problem}); it stays in the file`,
			);
			value = invalidEntryStandIn(value, problem);
			this.types[i] = this.code("custom", TYPE);
			this.roles[i] = 0;
			this.standIns++;
		}
		// The row may carry a deduplicated id or resolved parent.
		value.id = this.ids.idAt(i);
		value.parentId = this.parentIdAt(i);
		this.values.set(i, value);
		return value;
	}

	get(id: string): SessionEntry | undefined {
		const i = this.ids.find(id);
		return i < 0 ? undefined : this.entryAt(i);
	}

	// ---------------------------------------------------------------- walks

	/**
	 * Walks from `fromId` towards the root, reading nothing from disk: `stop` sees each entry
	 * (id, type, role) and returns true to stop there. Returns that entry's id, or undefined.
	 */
	findUp(fromId: string | null, stop: (entry: Readonly<EntryView>) => boolean): string | undefined {
		let cur = fromId ? this.indexOf(fromId) : -1;
		const view = this.view;
		for (let steps = 0; cur >= 0 && steps <= this.count; steps++) {
			view.id = this.ids.idAt(cur);
			view.type = this.typeAt(cur);
			view.role = this.roleAt(cur);
			if (stop(view)) return view.id;
			cur = this.parentIndex(cur);
		}
		return undefined;
	}

	/** Positions from the root to `fromId` (inclusive). */
	pathIndices(fromId: string | null): Int32Array {
		const leaf = fromId ? this.indexOf(fromId) : -1;
		// Loading cuts every parent cycle (load.ts) and appends only add new ids, so a walk
		// longer than the tree is impossible; only then is a visited set paid for.
		let n = 0;
		let cur = leaf;
		while (cur >= 0 && n <= this.count) {
			n++;
			cur = this.parentIndex(cur);
		}
		if (cur >= 0) return this.pathIndicesGuarded(leaf);
		const path = new Int32Array(n);
		cur = leaf;
		for (let k = n - 1; k >= 0; k--) {
			path[k] = cur;
			cur = this.parentIndex(cur);
		}
		return path;
	}

	/** The same walk, stopping at the first repeated entry. */
	private pathIndicesGuarded(leaf: number): Int32Array {
		const path: number[] = [];
		const seen = new Set<number>();
		for (let cur = leaf; cur >= 0 && !seen.has(cur); cur = this.parentIndex(cur)) {
			seen.add(cur);
			path.push(cur);
		}
		return Int32Array.from(path.reverse());
	}

	/** The id the tree knows row `row` by (a renamed duplicate's new id, not the one its line holds). */
	idOf(row: number): string {
		return this.ids.idAt(row);
	}

	all(): SessionEntry[] {
		const out = new Array<SessionEntry>(this.count);
		for (let i = 0; i < this.count; i++) out[i] = this.entryAt(i);
		return out;
	}

	children(parentId: string): SessionEntry[] {
		const out: SessionEntry[] = [];
		const p = this.ids.find(parentId);
		for (let i = 0; i < this.count; i++) {
			const child = p >= 0 ? this.parentIndex(i) === p : this.missing.get(i) === parentId;
			if (child) out.push(this.entryAt(i));
		}
		return out;
	}

	/**
	 * Roots are entries without a parent, with themselves as parent, or with a
	 * missing parent; children sorted by timestamp (stable for equal times).
	 */
	tree(): SessionTreeNode[] {
		const nodes = new Array<SessionTreeNode>(this.count);
		for (let i = 0; i < this.count; i++) {
			const entry = this.entryAt(i);
			const label = this.labels.get(entry.id);
			const node: SessionTreeNode = { entry, children: [] };
			if (label) {
				node.label = label.label;
				node.labelTimestamp = label.timestamp;
			}
			nodes[i] = node;
		}
		const roots: SessionTreeNode[] = [];
		for (let i = 0; i < this.count; i++) {
			const p = this.parentIndex(i);
			if (p >= 0 && p !== i) nodes[p].children.push(nodes[i]);
			else roots.push(nodes[i]);
		}
		const time = (n: SessionTreeNode) => Date.parse(n.entry.timestamp) || 0;
		const stack = [...roots];
		while (stack.length > 0) {
			const node = stack.pop() as SessionTreeNode;
			if (node.children.length > 1) node.children.sort((a, b) => time(a) - time(b));
			for (const child of node.children) stack.push(child); // not a spread: a node may have 100k+ children
		}
		return roots;
	}
}
