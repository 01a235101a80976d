// SessionView: what a SessionManager holds (the entry tree of one session,
// its header, file and load warnings) and the read side of its API —
// queries, branches and the model-context projection. SessionManager
// (session-manager.ts) adds opening, creating and writing sessions.
import type { SessionFile } from "./file.js";
import { ContextProjector } from "./projection.js";
import { SessionTree } from "./tree.js";
import type {
	SessionContext,
	SessionEntry,
	SessionHeader,
	SessionLoadWarning,
	SessionProjection,
	SessionTreeNode,
} from "./types.js";

/**
 * A running fold over a session's entries in file order (its billed tokens and cost, for one):
 * `SessionView.fold` folds in the entries added since its last call and keeps the rest.
 */
export interface EntryFold<T> {
	/** Which entries count, by type and (for messages) role: only those are read. */
	wanted(type: string, role: string | undefined): boolean;
	initial(): T;
	add(acc: T, entry: SessionEntry): void;
	/**
	 * Optional, for entries held on disk: false when the entry on `bytes[start, end)` cannot change
	 * the result, so it is neither parsed nor given to `add` (a byte search instead of a parse).
	 */
	lineMatters?(bytes: Buffer, start: number, end: number): boolean;
}

export class SessionView {
	protected tree = new SessionTree();
	/** Per fold: the tree it was folded over, how many of its entries, and the result so far. */
	private readonly folds = new WeakMap<EntryFold<unknown>, { tree: SessionTree; rows: number; acc: unknown }>();
	protected projector = new ContextProjector(this.tree);
	protected header!: SessionHeader;
	protected file: SessionFile | undefined;
	protected sessionFile: string | undefined;
	protected warnings: SessionLoadWarning[] = [];
	protected readOnlyReason: string | undefined;

	protected constructor(
		protected cwd: string,
		protected sessionDir: string,
		protected readonly persist: boolean,
	) {}

	// ---------------------------------------------------------------- queries

	isPersisted(): boolean {
		return this.persist;
	}
	/** Whether the file exists yet (lazy creation). */
	isFlushed(): boolean {
		return this.file !== undefined;
	}
	isReadOnly(): boolean {
		return this.readOnlyReason !== undefined;
	}
	getReadOnlyReason(): string | undefined {
		return this.readOnlyReason;
	}
	getLoadWarnings(): SessionLoadWarning[] {
		return [...this.warnings];
	}
	getCwd(): string {
		return this.cwd;
	}
	getSessionDir(): string {
		return this.sessionDir;
	}
	getSessionId(): string {
		return this.header.id;
	}
	getSessionFile(): string | undefined {
		return this.sessionFile;
	}
	getHeader(): SessionHeader | null {
		return this.header ?? null;
	}
	getLeafId(): string | null {
		return this.tree.leafId;
	}
	getLeafEntry(): SessionEntry | undefined {
		return this.tree.leafId ? this.tree.get(this.tree.leafId) : undefined;
	}
	getEntry(id: string): SessionEntry | undefined {
		return this.tree.get(id);
	}
	getEntryCount(): number {
		return this.tree.size;
	}
	/** Every entry in file order (loads lazily-held entries). */
	getEntries(): SessionEntry[] {
		return this.tree.all();
	}
	/**
	 * The entries after `id` in file order (what was appended since a client last looked), undefined
	 * when no entry has that id. Reads only those: a poll of a large session does not load all of it.
	 */
	getEntriesAfter(id: string): SessionEntry[] | undefined {
		const at = this.tree.indexOf(id);
		if (at < 0) return undefined;
		const out: SessionEntry[] = [];
		for (let row = at + 1; row < this.tree.size; row++) out.push(this.tree.entryAt(row));
		return out;
	}
	/**
	 * Calls `visit` with each entry `wanted` accepts (by type and message role), in file order, and the
	 * id the session knows it by. Entries held on disk are read without being kept, as their line holds
	 * them: use the id given, not the entry's own (a renamed duplicate's differs).
	 */
	forEachEntry(
		wanted: (type: string, role: string | undefined) => boolean,
		visit: (entry: SessionEntry, id: string) => void,
	): void {
		this.tree.visitEntries(0, wanted, (entry, row) => visit(entry, this.tree.idOf(row)));
	}
	/**
	 * `fold` over every entry it wants, in file order: the entries added since the last call with the
	 * same fold are folded into its result, and it starts over when the view holds other entries
	 * (another session, a reload) or fewer. Entries held on disk are read without being kept.
	 */
	fold<T>(fold: EntryFold<T>): T {
		return this.foldSome(fold, Number.POSITIVE_INFINITY).acc;
	}
	/**
	 * `fold`, reading about `maxBytes` of entries from disk at most: `done` false when entries are
	 * left, and the next call (of either) goes on from there. For work that may wait (a footer's
	 * totals after a large session's first frame).
	 */
	foldSome<T>(fold: EntryFold<T>, maxBytes: number): { acc: T; done: boolean } {
		let state = this.folds.get(fold as EntryFold<unknown>);
		if (!state || state.tree !== this.tree || state.rows > this.tree.size) {
			state = { tree: this.tree, rows: 0, acc: fold.initial() };
			this.folds.set(fold as EntryFold<unknown>, state);
		}
		const acc = state.acc as T;
		const matters = fold.lineMatters?.bind(fold);
		try {
			state.rows = this.tree.visitEntries(state.rows, fold.wanted, (entry) => fold.add(acc, entry), matters, maxBytes);
		} catch (e) {
			// Part of the entries folded in (a read failed): the next call starts over rather than adding them twice.
			this.folds.delete(fold as EntryFold<unknown>);
			throw e;
		}
		return { acc, done: state.rows >= this.tree.size };
	}
	getChildren(parentId: string): SessionEntry[] {
		return this.tree.children(parentId);
	}
	getLabel(id: string): string | undefined {
		return this.tree.getLabel(id);
	}
	getSessionName(): string | undefined {
		return this.tree.getName();
	}
	/** Tree positions from the root to `fromId`: from the projector's cached path when it reaches it, else a walk. */
	protected branchRows(fromId: string | null): Int32Array {
		if (fromId === null) return new Int32Array(0);
		return this.projector.cachedPathTo(fromId) ?? this.tree.pathIndices(fromId);
	}

	/** Entries from the root to `fromId` (default: the leaf). */
	getBranch(fromId?: string): SessionEntry[] {
		const rows = this.branchRows(fromId ?? this.tree.leafId);
		this.tree.preload(rows);
		const out = new Array<SessionEntry>(rows.length);
		for (let k = 0; k < rows.length; k++) out[k] = this.tree.entryAt(rows[k]);
		return out;
	}
	/**
	 * The entries of one type from the root to `fromId` (default: the leaf). Only
	 * those are read from disk: in a resumed session most of the branch is held
	 * on disk, and a scan for a few custom entries must not load every message.
	 */
	getBranchEntries<T extends SessionEntry["type"]>(type: T, fromId?: string): Extract<SessionEntry, { type: T }>[] {
		const out: Extract<SessionEntry, { type: T }>[] = [];
		for (const row of this.tree.rowsOfType(this.branchRows(fromId ?? this.tree.leafId), type)) {
			const entry = this.tree.entryAt(row);
			// An entry that no longer parses reads as a custom stand-in.
			if (entry.type === type) out.push(entry as Extract<SessionEntry, { type: T }>);
		}
		return out;
	}
	/** The nearest entry from `fromId` (default: the leaf) towards the root that `stop` accepts, seen as id/type/role only (no disk reads). */
	findOnBranch(
		stop: (entry: { id: string; type: string; role?: string }) => boolean,
		fromId?: string,
	): string | undefined {
		return this.tree.findUp(fromId ?? this.tree.leafId, stop);
	}
	getTree(): SessionTreeNode[] {
		return this.tree.tree();
	}

	// ---------------------------------------------------------------- projection

	/** The model context of the active branch, with provenance per entry. Incremental; see projection.ts. */
	buildSessionProjection(): SessionProjection {
		return this.projector.project(this.tree.leafId);
	}

	buildSessionContext(): SessionContext {
		const { messages, thinkingLevel, model } = this.projector.project(this.tree.leafId);
		return { messages, thinkingLevel, model };
	}

	/** The compaction-aware entries selected from the active branch. */
	buildContextEntries(): SessionEntry[] {
		return this.projector.contextEntries(this.tree.leafId);
	}
}
