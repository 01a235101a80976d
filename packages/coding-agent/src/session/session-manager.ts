// SessionManager: the append-only session tree of one conversation, on disk
// (JSONL, 1.x format) or in memory (--no-session), with the same API.
//
// Write rules: a new session has no file until its first user or assistant
// message (opening and quitting pi leaves nothing behind; the prompt is on disk
// even if the first reply never comes); then header and buffered entries are
// written at once, and from there every append is one synced line before the
// method returns, so an event emitted afterwards announces an entry that is
// already durable. One process writes a file at a time (see lock.ts).
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { Message, Usage } from "@pi/ai";
import type { BashExecutionMessage, CustomMessage } from "../messages.js";
import { normalizeContextEdit, relinkWithoutLabels } from "./edits.js";
import {
	branchSummaryInit,
	compactionInit,
	type EntryInit,
	isConversation,
	labelEntry,
	labelInit,
	messageInit,
	newHeader,
	serialize,
	sessionInfoInit,
	usageInit,
	withEnvelope,
} from "./entries.js";
import { type Durability, SessionFile } from "./file.js";
import { assertValidSessionId, createSessionId, generateEntryId } from "./ids.js";
import {
	findMostRecentSession,
	findSessionsByIdPrefix,
	type ListProgress,
	listAllSessionsAsync,
	listSessionsAsync,
	type SessionInfo,
} from "./listing.js";
import { loadFromText, newLoadState } from "./load.js";
import { createSessionFile, openSessionFile } from "./open-file.js";
import { getDefaultSessionDir, getSessionsRoot, sessionFileName } from "./paths.js";
import { ContextProjector } from "./projection.js";
import { SessionView } from "./session-view.js";
import { getCurrentSystemMessage } from "./system-state.js";
import { SessionTree } from "./tree.js";
import {
	type BranchSummaryEntry,
	type ContextEditEntry,
	CURRENT_SESSION_VERSION,
	type FileEntry,
	type LabelEntry,
	type NewSessionOptions,
	type SessionEntry,
	type SessionLoadWarning,
	type UsageEntry,
} from "./types.js";

export interface SessionManagerOptions {
	/** Default "fsync". */
	durability?: Durability;
	/** Called for every load/recovery warning (also kept, see getLoadWarnings). */
	onWarning?: (warning: SessionLoadWarning) => void;
	/** Open without the writer lock; every append throws. */
	readOnly?: boolean;
}

/** How long after an open its session index is written (session/index-cache.ts), unless closed first. */
const INDEX_WRITE_DELAY_MS = 1000;

export class SessionManager extends SessionView {
	/** Open `deferSync` holds: appends skip their own fdatasync while any is open. */
	private syncHolds = 0;
	private readonly durability: Durability;
	/** The index of the file opened last, not written yet (session/index-cache.ts). */
	private pendingIndex: (() => void) | undefined;

	private constructor(
		cwd: string,
		sessionDir: string,
		persist: boolean,
		private readonly options: SessionManagerOptions,
	) {
		super(cwd, sessionDir, persist);
		this.durability = options.durability ?? "fsync";
	}
	// ---------------------------------------------------------------- factories

	/** A new session for `cwd`, stored in `sessionDir` (default: the project's dir under the agent dir). */
	static create(
		cwd: string,
		sessionDir?: string,
		options: NewSessionOptions = {},
		managerOptions: SessionManagerOptions = {},
	): SessionManager {
		const sm = new SessionManager(resolve(cwd), resolve(sessionDir ?? getDefaultSessionDir(cwd)), true, managerOptions);
		sm.newSession(options);
		return sm;
	}

	/**
	 * Open a session file (created lazily if it does not exist; an empty file
	 * gets its header at once). Takes the writer lock unless `readOnly`.
	 */
	static open(
		path: string,
		sessionDir?: string,
		cwdOverride?: string,
		managerOptions: SessionManagerOptions = {},
	): SessionManager {
		const file = resolve(path);
		const sm = new SessionManager(
			resolve(cwdOverride ?? process.cwd()),
			resolve(sessionDir ?? dirname(file)),
			true,
			managerOptions,
		);
		sm.openFile(file, cwdOverride);
		return sm;
	}

	/** Sessions of one project directory, newest first (the reference's async form). */
	static list(cwd: string, sessionDir?: string, onProgress?: ListProgress): Promise<SessionInfo[]> {
		return listSessionsAsync(resolve(sessionDir ?? getDefaultSessionDir(cwd)), onProgress);
	}

	/** Sessions of every project, newest first; yields between directories so a UI keeps drawing. */
	static listAll(sessionsRoot: string = getSessionsRoot(), onProgress?: ListProgress): Promise<SessionInfo[]> {
		return listAllSessionsAsync(sessionsRoot, onProgress);
	}

	/** The file of the session with exactly this id: the project's directory first, then every project. */
	static findById(cwd: string, id: string, sessionsRoot: string = getSessionsRoot()): string | undefined {
		return findSessionsByIdPrefix(id, cwd, sessionsRoot).find((m) => m.id === id)?.path;
	}

	/** The most recently modified session of `cwd` in `sessionDir`, or a new one. */
	static continueRecent(cwd: string, sessionDir?: string, managerOptions: SessionManagerOptions = {}): SessionManager {
		const dir = resolve(sessionDir ?? getDefaultSessionDir(cwd));
		const recent = findMostRecentSession(dir);
		if (recent) return SessionManager.open(recent, dir, undefined, managerOptions);
		return SessionManager.create(cwd, dir, {}, managerOptions);
	}

	/** No file at all (`--no-session`); optionally seeded with entries (e.g. from an export). */
	static inMemory(cwd: string = process.cwd(), options: NewSessionOptions = {}, entries?: FileEntry[]): SessionManager {
		const sm = new SessionManager(resolve(cwd), "", false, {});
		sm.newSession(options);
		if (entries?.length) {
			const text = entries.map(serialize).join("\n");
			sm.loadText(text, "<memory>");
		}
		return sm;
	}

	/**
	 * Copy every entry of another session (any cwd) into a new session for
	 * `targetCwd`, whose header names the source as parent (`--fork`).
	 */
	static forkFrom(
		sourcePath: string,
		targetCwd: string,
		sessionDir?: string,
		options: NewSessionOptions = {},
		managerOptions: SessionManagerOptions = {},
	): SessionManager {
		const source = resolve(sourcePath);
		if (!existsSync(source)) throw new Error(`Cannot fork ${source}: no such session file`);
		const src = SessionManager.open(source, undefined, targetCwd, { readOnly: true });
		try {
			if (src.tree.size === 0) throw new Error(`Cannot fork ${source}: it holds no entries`);
			const entries = src.tree.all();
			const sm = SessionManager.create(targetCwd, sessionDir, { ...options, parentSession: source }, managerOptions);
			for (const w of src.warnings) sm.warn(w);
			for (const e of entries) sm.tree.add(e);
			if (entries.length > 0) sm.flushNow();
			return sm;
		} finally {
			src.close();
		}
	}

	// ---------------------------------------------------------------- lifecycle

	/** Start a new, empty session in the same directory (closing the current file). Returns its future path. */
	newSession(options: NewSessionOptions = {}): string | undefined {
		if (options.id !== undefined) assertValidSessionId(options.id);
		this.closeFile();
		const timestamp = new Date().toISOString();
		const id = options.id ?? createSessionId();
		this.header = newHeader(id, timestamp, this.cwd, options.parentSession);
		this.resetTree();
		this.readOnlyReason = undefined;
		this.sessionFile = this.persist ? join(this.sessionDir, sessionFileName(timestamp, id)) : undefined;
		return this.sessionFile;
	}

	/**
	 * Switch to another session file (resume). New sessions from here on go
	 * beside it, as with `open`: a session resumed from another folder's list
	 * takes `/new` into that folder's directory, not the one pi started in.
	 */
	setSessionFile(path: string): void {
		const file = resolve(path);
		this.openFile(file);
		this.sessionDir = dirname(file);
	}

	/**
	 * Re-read the current file from disk (e.g. after a SessionConflictError):
	 * entries appended elsewhere become visible and the leaf moves to the last
	 * entry of the file. Entries not yet written (no file yet) stay as they are.
	 */
	reload(): void {
		if (this.persist && this.sessionFile && this.file) this.openFile(this.sessionFile);
	}

	/**
	 * Appends until the returned release are each written at once (a killed
	 * process loses none of them) but fdatasync'ed together by the release: one
	 * sync for entries appended together (the system prompt, extension entries
	 * and the user message of a prompt). The caller releases before it
	 * announces any of them. Releasing twice is harmless; a failed sync throws
	 * `SessionWriteError`.
	 */
	deferSync(): () => void {
		this.syncHolds++;
		let released = false;
		return () => {
			if (released) return;
			released = true;
			if (--this.syncHolds === 0) this.file?.sync();
		};
	}

	/** Entries are written but wait for a `deferSync` release to be fdatasync'ed. */
	get hasUnsyncedAppends(): boolean {
		return this.file?.hasUnsynced ?? false;
	}

	/** Release the file and its lock. The manager stays readable from memory only for already-loaded entries. */
	close(): void {
		this.closeFile();
	}

	/**
	 * Writes the index of the file just opened now instead of later (see load.ts `saveIndex`; it
	 * is otherwise written once the event loop is free, or when the file is closed).
	 */
	saveSessionIndex(): void {
		const save = this.pendingIndex;
		this.pendingIndex = undefined;
		save?.();
	}

	private closeFile(): void {
		this.saveSessionIndex();
		this.file?.close();
		this.file = undefined;
		this.tree.setReader(undefined);
	}

	private resetTree(): void {
		this.tree = new SessionTree();
		this.projector = new ContextProjector(this.tree);
		this.warnings = [];
	}

	private warn(w: SessionLoadWarning): void {
		this.warnings.push(w);
		this.options.onWarning?.(w);
	}

	private openFile(file: string, cwdOverride?: string): void {
		this.closeFile();
		this.resetTree();
		this.readOnlyReason = undefined;
		this.sessionFile = file;
		if (!existsSync(file)) {
			const explicit = file;
			this.newSession();
			this.sessionFile = explicit; // keep the path the user asked for (--session)
			if (this.options.readOnly) this.readOnlyReason = "opened read-only";
			return;
		}
		const opened = openSessionFile(file, this.tree, {
			readOnly: this.options.readOnly,
			durability: this.durability,
			warn: (w) => this.warn(w),
		});
		if (opened.kind === "empty") {
			// An empty file given as a session: the header goes in before anything else.
			const lock = opened.lock;
			try {
				this.newSession();
				this.sessionFile = file;
				if (lock) {
					this.file = SessionFile.openForAppend(file, lock, 0, true, this.durability);
					this.file.append(
						serialize(this.header),
						() => serialize(this.header),
						(w) => this.warn(w),
					);
				}
			} catch (e) {
				lock?.release();
				throw e;
			}
			return;
		}
		this.header = opened.header
			? { ...opened.header, version: CURRENT_SESSION_VERSION }
			: newHeader(createSessionId(), new Date().toISOString(), resolve(cwdOverride ?? process.cwd()));
		if (opened.header && !cwdOverride && typeof opened.header.cwd === "string" && opened.header.cwd) {
			this.cwd = opened.header.cwd;
		}
		this.readOnlyReason = opened.headerProblem;
		if (this.options.readOnly && !this.readOnlyReason) this.readOnlyReason = "opened read-only";
		const reader = opened.file;
		this.file = reader;
		if (opened.saveIndex) {
			// Off the path to the first request (written as soon as the event loop is free, it took
			// ~6 ms of a 100k-entry resume's start-up): a second later, when a model is usually still
			// answering, or at close if that comes first.
			const save = opened.saveIndex;
			this.pendingIndex = save;
			setTimeout(() => {
				if (this.pendingIndex === save) this.saveSessionIndex();
			}, INDEX_WRITE_DELAY_MS).unref();
		}
		this.tree.setReader((offset, length) => reader.readAt(offset, length));
		this.tree.onUnreadable = (at, message) => this.warn({ file, line: at.line, byteOffset: at.offset, message });
	}

	private loadText(text: string, label: string): void {
		const state = newLoadState(label);
		const tree = new SessionTree();
		loadFromText(text, state, tree);
		if (state.header) this.header = { ...state.header, version: CURRENT_SESSION_VERSION };
		this.tree = tree;
		this.projector = new ContextProjector(tree);
		for (const w of state.warnings) this.warn(w);
	}

	// ---------------------------------------------------------------- persistence

	/** Header and every entry as file text (re-creating a deleted file), minus the one being appended. */
	private fullText(exceptId?: string): string {
		const lines = [serialize(this.header)];
		for (const e of this.tree.all()) if (e.id !== exceptId) lines.push(serialize(e));
		return `${lines.join("\n")}\n`;
	}

	/** Write header + buffered entries now (the lazy creation point). */
	private flushNow(): void {
		if (!this.persist || !this.sessionFile || this.file) return;
		this.file = createSessionFile(this.sessionFile, this.fullText(), this.durability);
		const file = this.file;
		this.tree.setReader((offset, length) => file.readAt(offset, length));
	}

	private hasConversation(): boolean {
		for (let i = 0; i < this.tree.size; i++) {
			const role = this.tree.roleAt(i);
			if ((role === "user" || role === "assistant") && this.tree.isType(i, "message")) return true;
		}
		return false;
	}

	private appendEntry<T extends SessionEntry>(
		init: EntryInit,
		parentId: string | null = this.tree.leafId,
		id: string = generateEntryId(this.tree),
		timestamp: string = new Date().toISOString(),
	): T {
		if (this.readOnlyReason) {
			throw new Error(`Session ${this.sessionFile} is read-only (${this.readOnlyReason}); fork it to continue`);
		}
		const entry = withEnvelope<T>(init, id, parentId, timestamp);
		const previousLeaf = this.tree.leafId;
		this.tree.add(entry);
		try {
			if (this.file) {
				this.file.append(
					serialize(entry),
					() => this.fullText(entry.id),
					(w) => this.warn(w),
					this.syncHolds === 0,
				);
			} else if (this.persist && (isConversation(entry) || this.hasConversation())) {
				this.flushNow();
			}
		} catch (e) {
			// Memory follows the file: an entry that was not written must not become a parent.
			this.tree.removeLast(previousLeaf);
			this.projector.reset();
			throw e;
		}
		return entry;
	}

	// ---------------------------------------------------------------- appends

	/** A user/assistant/toolResult/system message, a bash execution or a custom message. Summaries have their own entries. */
	appendMessage(message: Message | CustomMessage | BashExecutionMessage): string {
		return this.appendEntry(messageInit(message)).id;
	}

	appendThinkingLevelChange(thinkingLevel: string): string {
		return this.appendEntry({ type: "thinking_level_change", thinkingLevel } as EntryInit).id;
	}

	appendModelChange(provider: string, modelId: string): string {
		return this.appendEntry({ type: "model_change", provider, modelId } as EntryInit).id;
	}

	appendUsage(kind: string, provider: string, model: string, usage: Usage, note?: string): UsageEntry {
		return this.appendEntry<UsageEntry>(usageInit(kind, provider, model, usage, note));
	}

	/**
	 * A compaction of the active branch. `firstKeptEntryId` null keeps nothing
	 * (the entry then names itself). The replayed prompt and tools are stored as
	 * the checkpoint that leads the compacted context.
	 */
	appendCompaction<T = unknown>(
		summary: string,
		firstKeptEntryId: string | null,
		tokensBefore: number,
		details?: T,
		fromHook?: boolean,
		usage?: Usage,
	): string {
		if (firstKeptEntryId !== null && !this.tree.has(firstKeptEntryId)) {
			throw new Error(`Entry ${firstKeptEntryId} not found`);
		}
		const timestamp = new Date().toISOString();
		const system = getCurrentSystemMessage(this.buildSessionContext().messages);
		const id = generateEntryId(this.tree);
		const extras = { details, fromHook, usage };
		const init = compactionInit(summary, firstKeptEntryId ?? id, tokensBefore, extras, system, timestamp);
		return this.appendEntry(init, this.tree.leafId, id, timestamp).id;
	}

	appendCustomEntry(customType: string, data?: unknown): string {
		return this.appendEntry({ type: "custom", customType, data } as EntryInit).id;
	}

	appendSessionInfo(name: string): string {
		return this.appendEntry(sessionInfoInit(name)).id;
	}

	appendCustomMessageEntry<T = unknown>(
		customType: string,
		content: CustomMessage["content"],
		display: boolean,
		details?: T,
	): string {
		return this.appendEntry({ type: "custom_message", customType, content, display, details } as EntryInit).id;
	}

	/** Omit (null) or replace the content of an earlier user/assistant/toolResult/custom_message entry on the active branch. */
	appendContextEdit(targetId: string, replacement: ContextEditEntry["replacement"]): string {
		const target = this.tree.get(targetId);
		if (!target) throw new Error(`Entry ${targetId} not found`);
		if (!this.branchRows(this.tree.leafId).includes(this.tree.indexOf(targetId))) {
			throw new Error(`Entry ${targetId} is not on the active branch`);
		}
		const normalized = normalizeContextEdit(target, replacement);
		return this.appendEntry({ type: "context_edit", targetId, replacement: normalized } as EntryInit).id;
	}

	/** Set (non-empty) or clear (undefined/empty) the label of an entry. */
	appendLabelChange(targetId: string, label: string | undefined): string {
		if (!this.tree.has(targetId)) throw new Error(`Entry ${targetId} not found`);
		return this.appendEntry<LabelEntry>(labelInit(targetId, label)).id;
	}

	// ---------------------------------------------------------------- navigation

	/** Move the leaf; the next append continues from `entryId`. Nothing is written. */
	branch(entryId: string): void {
		if (!this.tree.has(entryId)) throw new Error(`Entry ${entryId} not found`);
		this.tree.leafId = entryId;
	}

	/** The next append starts a new root. */
	resetLeaf(): void {
		this.tree.leafId = null;
	}

	/** Move the leaf to `branchFromId` and append a summary of the branch being left there. */
	branchWithSummary(
		branchFromId: string | null,
		summary: string,
		details?: unknown,
		fromHook?: boolean,
		usage?: unknown,
	): string {
		if (branchFromId !== null && !this.tree.has(branchFromId)) throw new Error(`Entry ${branchFromId} not found`);
		const fromId = this.tree.leafId ?? "root";
		const init = branchSummaryInit(fromId, summary, { details, fromHook, usage });
		const previous = this.tree.leafId;
		this.tree.leafId = branchFromId;
		try {
			return this.appendEntry<BranchSummaryEntry>(init, branchFromId).id;
		} catch (e) {
			this.tree.leafId = previous;
			throw e;
		}
	}

	/**
	 * Continue in a new file holding the path from the root to `leafId`
	 * (/fork, /clone). Labels on the path are re-created at its end; the header
	 * records this file as parent. Returns the new path (undefined in memory).
	 */
	createBranchedSession(leafId: string | null): string | undefined {
		const path = leafId === null ? [] : Array.from(this.branchRows(leafId), (row) => this.tree.entryAt(row));
		if (leafId !== null && path.length === 0) throw new Error(`Entry ${leafId} not found`);
		const parentSession = this.persist ? this.sessionFile : undefined;
		const labels = this.tree.labelEntries();
		const kept = relinkWithoutLabels(path);
		this.closeFile();
		this.newSession(parentSession ? { parentSession } : {});
		for (const e of kept) this.tree.add(e);
		const onPath = new Set(kept.map((e) => e.id));
		for (const [targetId, { label, timestamp }] of labels) {
			if (!onPath.has(targetId)) continue;
			const id = generateEntryId(this.tree);
			this.tree.add(labelEntry(id, this.tree.leafId, timestamp, targetId, label));
		}
		if (this.hasConversation()) this.flushNow();
		return this.sessionFile;
	}
}
