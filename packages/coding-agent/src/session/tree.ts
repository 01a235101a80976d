// The in-memory entry tree. Each entry is a small record (id, parent, type,
// and the few fields navigation and projection need); the full entry is kept
// in memory for small and new entries, and re-read from its byte range in the
// file on demand for large loaded ones, so opening a 100 MB session costs an
// index, not a copy of the file.
import type { LabelEntry, SessionEntry, SessionInfoEntry, SessionTreeNode } from "./types.js";
import { entryProblem, invalidEntryStandIn } from "./validate.js";

export interface EntryRecord {
	id: string;
	parentId: string | null;
	type: string;
	/**
	 * The entry's timestamp; undefined for an entry indexed from its envelope at
	 * load (the parsed entry has it): 100k copies of it were 4 MB nothing reads.
	 */
	timestamp: string | undefined;
	/** Message role, for `message` entries. */
	role?: string;
	/** provider/model of assistant messages (the projection's model comes from these). */
	provider?: string;
	model?: string;
	/** The entry; undefined until loaded when it is only on disk. */
	value?: SessionEntry;
	/** Byte range in the session file; offset -1 when the entry exists only in memory. */
	offset: number;
	length: number;
	/** 1-based line in the file, for warnings. */
	line?: number;
	/**
	 * The parent's record when it was added before this one (almost always): the
	 * walks from a leaf to the root follow it instead of looking up 100k ids.
	 */
	parent: EntryRecord | undefined;
	/** Position on the projector's cached path (valid only while `path[pathPos]` is this record). */
	pathPos?: number;
}

/** Reads a byte range of the session file. */
export type RangeReader = (offset: number, length: number) => Buffer;

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

/** Every record has the same fields in the same order (one hidden class: the tree walks stay fast). */
export function newRecord(
	id: string,
	parentId: string | null,
	type: string,
	timestamp: string | undefined,
	offset: number,
	length: number,
	line: number | undefined,
): EntryRecord {
	return {
		id,
		parentId,
		type,
		timestamp,
		role: undefined,
		provider: undefined,
		model: undefined,
		value: undefined,
		offset,
		length,
		line,
		parent: undefined,
		pathPos: undefined,
	};
}

export function recordFor(entry: SessionEntry, offset = -1, length = 0, keepValue = true): EntryRecord {
	const rec = newRecord(entry.id, entry.parentId ?? null, entry.type, entry.timestamp, offset, length, undefined);
	if (entry.type === "message") {
		const m = entry.message as { role?: unknown; provider?: unknown; model?: unknown } | undefined;
		if (m && typeof m.role === "string") rec.role = m.role;
		if (rec.role === "assistant" && m) {
			if (typeof m.provider === "string") rec.provider = m.provider;
			if (typeof m.model === "string") rec.model = m.model;
		}
	}
	if (keepValue) rec.value = entry;
	return rec;
}

/** The timestamp a damaged line still shows (pi writes it in the envelope), else the epoch. */
function timestampIn(text: string): string {
	const m = /"timestamp":"([^"\\]{1,64})"/.exec(text.length > 1024 ? text.slice(0, 1024) : text);
	return m ? m[1] : new Date(0).toISOString();
}

export class SessionTree {
	/** File (append) order. */
	readonly records: EntryRecord[] = [];
	readonly byId = new Map<string, EntryRecord>();
	private labels = new Map<string, { label: string; timestamp: string }>();
	private name: string | undefined;
	private reader: RangeReader | undefined;
	leafId: string | null = null;
	/** Told about an entry whose bytes no longer parse (it then reads as an unreadable `custom` entry). */
	onUnreadable?: (rec: EntryRecord, message: string) => void;

	setReader(reader: RangeReader | undefined): void {
		this.reader = reader;
	}

	get size(): number {
		return this.records.length;
	}

	has(id: string): boolean {
		return this.byId.has(id);
	}

	/** Add a record; the leaf follows file order, as the reference does on load. */
	add(rec: EntryRecord): void {
		rec.parent = rec.parentId !== null ? this.byId.get(rec.parentId) : undefined;
		this.records.push(rec);
		this.byId.set(rec.id, rec);
		this.leafId = rec.id;
		if (rec.type === "label" || rec.type === "session_info") this.applyMeta(this.entryOf(rec));
	}

	/** Undo the last `add` (used when persisting it failed). */
	removeLast(previousLeaf: string | null): void {
		const rec = this.records.pop();
		if (rec) this.byId.delete(rec.id);
		this.leafId = previousLeaf;
		if (rec && (rec.type === "label" || rec.type === "session_info")) this.rebuildMeta();
	}

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
		for (const rec of this.records) {
			if (rec.type === "label" || rec.type === "session_info") this.applyMeta(this.entryOf(rec));
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

	/** The full entry, read from the file if it is not in memory. */
	entryOf(rec: EntryRecord): SessionEntry {
		if (rec.value) return rec.value;
		if (!this.reader) throw new Error(`Session entry ${rec.id} is not loaded and no file is open to read it from`);
		return this.parseRecord(rec, this.reader(rec.offset, rec.length), 0);
	}

	/**
	 * Read the entries of `recs` that are only on disk, neighbours in the file with one read each
	 * (a resumed branch's context is thousands of entries: one pread each was most of building it).
	 * What `entryOf` would do for each, in fewer system calls.
	 */
	preload(recs: readonly EntryRecord[]): void {
		const reader = this.reader;
		if (!reader) return;
		const pending = recs.filter((r) => !r.value && r.offset >= 0);
		if (pending.length < 2) return;
		pending.sort((a, b) => a.offset - b.offset);
		for (let i = 0; i < pending.length; ) {
			const start = pending[i].offset;
			let end = start + pending[i].length;
			let j = i + 1;
			while (
				j < pending.length &&
				pending[j].offset - end <= PRELOAD_MAX_GAP &&
				pending[j].offset + pending[j].length - start <= PRELOAD_MAX_READ
			) {
				end = Math.max(end, pending[j].offset + pending[j].length);
				j++;
			}
			const bytes = reader(start, end - start);
			for (let k = i; k < j; k++) {
				const rec = pending[k];
				// The same record twice in `recs`: parsed once.
				if (!rec.value) this.parseRecord(rec, bytes, rec.offset - start);
			}
			i = j;
		}
	}

	/** Parse `rec` from `bytes` (its line at `at`); a line that no longer parses becomes a stand-in, with a warning. */
	private parseRecord(rec: EntryRecord, bytes: Buffer, at: number): SessionEntry {
		const text = bytes.toString("utf8", at, Math.min(bytes.length, at + rec.length));
		let value: SessionEntry;
		try {
			value = JSON.parse(text) as SessionEntry;
			if (typeof value !== "object" || value === null || value.type !== rec.type) throw new Error("type changed");
		} catch {
			// Indexed without a full parse at load (see scan.ts) and damaged after all:
			// keep its place in the tree, contribute nothing, say so.
			this.onUnreadable?.(rec, `entry ${rec.id} (${rec.length} bytes at offset ${rec.offset}) does not parse; ignored`);
			value = {
				type: "custom",
				id: rec.id,
				parentId: rec.parentId,
				timestamp: rec.timestamp ?? timestampIn(text),
				customType: "pi.unreadable-entry",
				data: { offset: rec.offset, length: rec.length, type: rec.type },
			};
			rec.type = "custom";
			rec.role = undefined;
		}
		const problem = rec.type === "custom" ? undefined : entryProblem(value);
		if (problem) {
			this.onUnreadable?.(rec, `invalid ${rec.type} entry ${rec.id} skipped (${problem}); it stays in the file`);
			value = invalidEntryStandIn(value, problem);
			rec.type = "custom";
			rec.role = undefined;
		}
		// The record may carry a deduplicated id or resolved parent.
		value.id = rec.id;
		value.parentId = rec.parentId;
		rec.value = value;
		return value;
	}

	get(id: string): SessionEntry | undefined {
		const rec = this.byId.get(id);
		return rec ? this.entryOf(rec) : undefined;
	}

	/** The record of `rec`'s parent, if it is in the tree. */
	parentOf(rec: EntryRecord): EntryRecord | undefined {
		return rec.parent ?? (rec.parentId !== null ? this.byId.get(rec.parentId) : undefined);
	}

	/**
	 * Walks from `fromId` towards the root, reading nothing from disk: `stop` sees each record
	 * (id, type, role) and returns true to stop there. Returns that record's id, or undefined.
	 */
	findUp(fromId: string | null, stop: (rec: Readonly<EntryRecord>) => boolean): string | undefined {
		let cur = fromId ? this.byId.get(fromId) : undefined;
		for (let steps = 0; cur && steps <= this.records.length; steps++) {
			if (stop(cur)) return cur.id;
			cur = this.parentOf(cur);
		}
		return undefined;
	}

	/** Records from the root to `fromId` (inclusive). */
	pathRecords(fromId: string | null): EntryRecord[] {
		// Loading cuts every parent cycle (load.ts) and appends only add new ids, so a walk
		// longer than the tree is impossible; only then is a visited set paid for (a set of
		// 100k ids per walk was most of a resumed session's branch scans).
		const path: EntryRecord[] = [];
		const limit = this.records.length;
		let cur = fromId ? this.byId.get(fromId) : undefined;
		while (cur && path.length <= limit) {
			path.push(cur);
			cur = this.parentOf(cur);
		}
		if (cur) return this.pathRecordsGuarded(fromId);
		return path.reverse();
	}

	/** The same walk, stopping at the first repeated id. */
	private pathRecordsGuarded(fromId: string | null): EntryRecord[] {
		const path: EntryRecord[] = [];
		const seen = new Set<string>();
		let cur = fromId ? this.byId.get(fromId) : undefined;
		while (cur && !seen.has(cur.id)) {
			seen.add(cur.id);
			path.push(cur);
			cur = this.parentOf(cur);
		}
		return path.reverse();
	}

	all(): SessionEntry[] {
		return this.records.map((r) => this.entryOf(r));
	}

	children(parentId: string): SessionEntry[] {
		return this.records.filter((r) => r.parentId === parentId).map((r) => this.entryOf(r));
	}

	/**
	 * Roots are entries without a parent, with themselves as parent, or with a
	 * missing parent; children sorted by timestamp (stable for equal times).
	 */
	tree(): SessionTreeNode[] {
		const nodes = new Map<string, SessionTreeNode>();
		for (const rec of this.records) {
			const label = this.labels.get(rec.id);
			const node: SessionTreeNode = { entry: this.entryOf(rec), children: [] };
			if (label) {
				node.label = label.label;
				node.labelTimestamp = label.timestamp;
			}
			nodes.set(rec.id, node);
		}
		const roots: SessionTreeNode[] = [];
		for (const rec of this.records) {
			const node = nodes.get(rec.id) as SessionTreeNode;
			const parent = rec.parentId && rec.parentId !== rec.id ? nodes.get(rec.parentId) : undefined;
			if (parent) parent.children.push(node);
			else roots.push(node);
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
