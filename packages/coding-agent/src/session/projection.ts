// Context projection: the one function that turns the active branch into
// what the model sees. Rules (1.x): the latest compaction on the path leads
// with its prompt/tool checkpoint and summary, then the kept entries from
// `firstKeptEntryId` (minus system messages, folded into the checkpoint), then
// everything after it; context_edit entries omit or replace the content of an
// earlier entry (latest edit wins); custom_message and branch_summary become
// messages; `custom`, labels, usage and settings entries contribute nothing.
//
// It runs before every request, so it is incremental: the projection of the
// last leaf is cached, and when the new leaf descends from it only the new
// entries are projected. A leaf elsewhere, or a new compaction, rebuilds.

import type { AgentMessage } from "@pi/agent-core";
import type { TextContent } from "@pi/ai";
import { createBranchSummaryMessage, createCompactionSummaryMessage, createCustomMessage } from "../messages.js";
import { SessionTree } from "./tree.js";
import type {
	ContextEditEntry,
	ProjectedSessionEntry,
	SessionContext,
	SessionEntry,
	SessionModelRef,
	SessionProjection,
} from "./types.js";
import { withoutUnknownBlocks } from "./validate.js";
import { withYoungGenerationHeld } from "./young-generation.js";

/** What one entry contributes to the context, before edits. */
export function sessionEntryToContextMessages(entry: SessionEntry): AgentMessage[] {
	switch (entry.type) {
		case "message": {
			const m = entry.message;
			// Files are not schema-checked; old or hand-edited ones can lack content.
			if (m.role === "system" && m.content == null) return [{ ...m, content: "" }];
			if ((m.role === "user" || m.role === "assistant" || m.role === "toolResult") && m.content == null) {
				return [{ ...m, content: [] } as AgentMessage];
			}
			if (m.role === "user" || m.role === "assistant" || m.role === "toolResult") {
				// Blocks of a newer version stay on disk but are not sent.
				const content = withoutUnknownBlocks(m.role, m.content);
				if (content !== m.content) return [{ ...m, content } as AgentMessage];
			}
			return [m];
		}
		case "custom_message":
			return [
				createCustomMessage(
					entry.customType,
					withoutUnknownBlocks("custom", entry.content ?? []),
					entry.display,
					entry.details,
					entry.timestamp,
				),
			];
		case "branch_summary":
			return entry.summary ? [createBranchSummaryMessage(entry.summary, entry.fromId, entry.timestamp)] : [];
		case "compaction": {
			const summary = createCompactionSummaryMessage(entry.summary, entry.tokensBefore, entry.timestamp);
			return entry.systemMessage ? [entry.systemMessage, summary] : [summary];
		}
		default:
			return [];
	}
}

/** An entry's contribution with its latest edit applied. */
export function projectContextEntry(entry: SessionEntry, edit: ContextEditEntry | undefined): AgentMessage[] {
	const messages = sessionEntryToContextMessages(entry);
	if (!edit) return messages;
	if (edit.replacement === null) return [];
	const content = edit.replacement.content;
	return messages.map((m) => {
		if (m.role === "assistant" || m.role === "toolResult") {
			const blocks = typeof content === "string" ? [{ type: "text", text: content } as TextContent] : content;
			return { ...m, content: blocks } as AgentMessage;
		}
		if (m.role === "user" || m.role === "custom") return { ...m, content } as AgentMessage;
		return m;
	});
}

/** Steps `cachedPathTo` walks looking for the cached path before the caller walks the whole branch. */
const CACHED_PATH_MAX_WALK = 256;

/**
 * Incremental projector for one tree. Not thread-safe, not shared between
 * trees. Results share message objects with the entries: treat them as
 * read-only. The cached path is a list of tree positions (a resumed branch is
 * ~100k entries: no object per entry).
 */
export class ContextProjector {
	private cachedLeaf: string | null | undefined = undefined;
	/** Tree positions from the root to the cached leaf: `path[0, pathLength)`. */
	private path = new Int32Array(0);
	private pathLength = 0;
	/** Position on `path` of each tree row (valid only while `path[pathPos[row]]` is that row). */
	private pathPos = new Int32Array(0);
	private compactionIndex = -1;
	private slots: ProjectedSessionEntry[] = [];
	private slotIndex = new Map<string, number>();
	private edits = new Map<string, ContextEditEntry>();
	private flat: AgentMessage[] | null = [];
	private thinkingLevel = "off";
	private model: SessionModelRef | null = null;

	constructor(private readonly tree: SessionTree) {}

	/** Forget the cache (after the tree was rebuilt, or its last row removed). */
	reset(): void {
		this.cachedLeaf = undefined;
		this.path = new Int32Array(0);
		this.pathLength = 0;
		this.pathPos = new Int32Array(0);
		this.compactionIndex = -1;
		this.clearContext();
		this.thinkingLevel = "off";
		this.model = null;
	}

	project(leafId: string | null): SessionProjection {
		this.update(leafId);
		if (!this.flat) {
			const flat: AgentMessage[] = [];
			for (const slot of this.slots) for (const m of slot.messages) flat.push(m);
			this.flat = flat;
		}
		return {
			entries: this.slots.slice(),
			messages: this.flat.slice(),
			thinkingLevel: this.thinkingLevel,
			model: this.model ? { ...this.model } : null,
		};
	}

	/** The selected (compaction-aware) entries of the active branch. */
	contextEntries(leafId: string | null): SessionEntry[] {
		this.update(leafId);
		return this.slots.map((s) => s.sourceEntry);
	}

	/** Where `row` is on the cached path, or -1. */
	private onPath(row: number): number {
		if (row >= this.pathPos.length) return -1;
		const at = this.pathPos[row];
		return at < this.pathLength && this.path[at] === row ? at : -1;
	}

	/**
	 * Tree positions from the root to `id` when a short walk up from it reaches
	 * the cached path (the leaf, or an entry appended since the last
	 * projection): the branch scans of a turn (custom entries, labels) then
	 * cost a copy of the path, not a walk of 100k parent links each. Undefined
	 * otherwise; the cache is not moved.
	 */
	cachedPathTo(id: string): Int32Array | undefined {
		const tail: number[] = [];
		let cur = this.tree.indexOf(id);
		while (cur >= 0 && tail.length <= CACHED_PATH_MAX_WALK) {
			const at = this.onPath(cur);
			if (at >= 0) {
				const out = new Int32Array(at + 1 + tail.length);
				out.set(this.path.subarray(0, at + 1));
				for (let i = tail.length - 1, k = at + 1; i >= 0; i--, k++) out[k] = tail[i];
				return out;
			}
			tail.push(cur);
			cur = this.tree.parentIndex(cur);
		}
		return undefined;
	}

	/** Append `row` to the cached path. */
	private pushPath(row: number): void {
		const at = this.pathLength;
		if (at === this.path.length) {
			const bigger = new Int32Array(Math.max(1024, at * 2));
			bigger.set(this.path);
			this.path = bigger;
		}
		if (row >= this.pathPos.length) {
			const bigger = new Int32Array(Math.max(this.tree.size, row + 1) + 1024);
			bigger.set(this.pathPos);
			this.pathPos = bigger;
		}
		this.path[at] = row;
		this.pathPos[row] = at;
		this.pathLength = at + 1;
	}

	private update(leafId: string | null): void {
		if (leafId === this.cachedLeaf) return;
		const leaf = leafId === null ? -1 : this.tree.indexOf(leafId);
		if (leaf < 0) {
			this.reset();
			this.cachedLeaf = leafId;
			return;
		}
		// Walk up from the new leaf until the cached path is reached: once to count, once to fill
		// the new rows in path order.
		let cur = leaf;
		let joinAt = -1;
		let n = 0;
		while (cur >= 0) {
			const at = this.onPath(cur);
			if (at >= 0) {
				joinAt = at;
				break;
			}
			if (n >= this.tree.size) break; // a parent cycle in a damaged file
			n++;
			cur = this.tree.parentIndex(cur);
		}
		const appended = new Int32Array(n);
		cur = leaf;
		for (let i = n - 1; i >= 0 && cur >= 0; i--) {
			appended[i] = cur;
			cur = this.tree.parentIndex(cur);
		}
		this.cachedLeaf = leafId;
		if (joinAt >= 0 && joinAt === this.pathLength - 1) {
			this.extend(appended);
			return;
		}
		// Moved to another branch: keep the shared prefix of the path, rebuild the rest.
		if (joinAt < 0) {
			// A new path (a resume: the whole branch): the walk's array is the path.
			this.path = appended;
			this.pathLength = n;
			if (this.pathPos.length < this.tree.size) this.pathPos = new Int32Array(this.tree.size + 1024);
			for (let i = 0; i < n; i++) this.pathPos[appended[i]] = i;
		} else {
			this.pathLength = joinAt + 1;
			for (let i = 0; i < n; i++) this.pushPath(appended[i]);
		}
		this.compactionIndex = -1;
		const compaction = this.tree.typeCode("compaction");
		for (let i = this.pathLength - 1; i >= 0; i--) {
			if (this.tree.typeCodeAt(this.path[i]) === compaction) {
				this.compactionIndex = i;
				break;
			}
		}
		this.recomputeSettings();
		this.rebuildContext();
	}

	private extend(appended: Int32Array): void {
		let compacted = false;
		for (const row of appended) {
			const at = this.pathLength;
			this.pushPath(row);
			this.applySetting(row);
			if (this.tree.isType(row, "compaction")) {
				this.compactionIndex = at;
				compacted = true;
			}
		}
		if (compacted) {
			this.rebuildContext();
			return;
		}
		for (const row of appended) this.addSlot(this.tree.entryAt(row));
	}

	private applySetting(row: number): void {
		const type = this.tree.typeAt(row);
		if (type === "thinking_level_change") {
			const e = this.tree.entryAt(row);
			if (e.type === "thinking_level_change") this.thinkingLevel = e.thinkingLevel;
		} else if (type === "model_change") {
			const e = this.tree.entryAt(row);
			if (e.type === "model_change") this.model = { provider: e.provider, modelId: e.modelId };
		} else if (type === "message" && this.tree.roleAt(row) === "assistant") {
			const provider = this.tree.providerAt(row);
			const model = this.tree.modelAt(row);
			if (provider !== undefined && model !== undefined) this.model = { provider, modelId: model };
		}
	}

	/** Settings come from the whole path (not only the compacted range); the latest of each wins. */
	private recomputeSettings(): void {
		this.thinkingLevel = "off";
		this.model = null;
		let haveThinking = false;
		let haveModel = false;
		const tree = this.tree;
		// Codes, not names: this walk can cover a whole resumed branch (100k entries).
		const thinking = tree.typeCode("thinking_level_change");
		const modelChange = tree.typeCode("model_change");
		const message = tree.typeCode("message");
		for (let i = this.pathLength - 1; i >= 0 && !(haveThinking && haveModel); i--) {
			const row = this.path[i];
			const type = tree.typeCodeAt(row);
			if (type !== thinking && type !== modelChange && type !== message) continue;
			if (!haveThinking && type === thinking) {
				this.applySetting(row);
				haveThinking = true;
			} else if (
				!haveModel &&
				(type === modelChange ||
					(type === message && tree.roleAt(row) === "assistant" && tree.providerAt(row) !== undefined))
			) {
				this.applySetting(row);
				haveModel = true;
			}
		}
	}

	private clearContext(): void {
		this.slots = [];
		this.slotIndex.clear();
		this.edits.clear();
		this.flat = [];
	}

	private rebuildContext(): void {
		this.clearContext();
		const ci = this.compactionIndex;
		const tree = this.tree;
		let selected: Int32Array;
		if (ci < 0) selected = this.path.slice(0, this.pathLength);
		else {
			const compaction = tree.entryAt(this.path[ci]);
			const firstKept = compaction.type === "compaction" ? compaction.firstKeptEntryId : undefined;
			const keptRow = typeof firstKept === "string" ? tree.indexOf(firstKept) : -1;
			const rows: number[] = [this.path[ci]];
			let keeping = false;
			for (let i = 0; i < ci; i++) {
				const row = this.path[i];
				if (row === keptRow) keeping = true;
				// System messages before the compaction are folded into its checkpoint.
				if (keeping && !(tree.isType(row, "message") && tree.roleAt(row) === "system")) rows.push(row);
			}
			for (let i = ci + 1; i < this.pathLength; i++) rows.push(this.path[i]);
			selected = Int32Array.from(rows);
		}
		// The entries read here and their messages are all kept: parsed with V8's young generation held.
		withYoungGenerationHeld(tree.bytesOnDisk(selected), () => this.projectRows(selected));
	}

	private projectRows(selected: Int32Array): void {
		const tree = this.tree;
		tree.preload(selected);
		// Edits first, so each target is projected once with its latest edit.
		for (const row of selected) {
			if (tree.isType(row, "context_edit")) {
				const e = tree.entryAt(row) as ContextEditEntry;
				this.edits.set(e.targetId, e);
			}
		}
		for (let i = 0; i < selected.length; i++) {
			const entry = tree.entryAt(selected[i]);
			// An older compaction inside the kept range contributes nothing; only the newest leads.
			const messages = entry.type === "compaction" && i > 0 ? [] : projectContextEntry(entry, this.edits.get(entry.id));
			this.slotIndex.set(entry.id, this.slots.length);
			this.slots.push({ sourceEntry: entry, messages });
		}
		this.flat = null;
	}

	private addSlot(entry: SessionEntry): void {
		if (entry.type === "context_edit") {
			this.edits.set(entry.targetId, entry);
			const at = this.slotIndex.get(entry.targetId);
			// Only the leading compaction projects anything; an older one stays empty.
			if (at !== undefined && !(this.slots[at].sourceEntry.type === "compaction" && at > 0)) {
				// A new slot object: projections handed out earlier must not change.
				const source = this.slots[at].sourceEntry;
				this.slots[at] = { sourceEntry: source, messages: projectContextEntry(source, entry) };
				this.flat = null;
			}
		}
		const messages = entry.type === "context_edit" ? [] : projectContextEntry(entry, this.edits.get(entry.id));
		this.slotIndex.set(entry.id, this.slots.length);
		this.slots.push({ sourceEntry: entry, messages });
		if (this.flat) for (const m of messages) this.flat.push(m);
	}
}

/**
 * Non-incremental projection of a plain entry list (reference-compatible
 * helper for tools and tests). `leafId` undefined means the last entry.
 */
export function buildSessionProjection(entries: SessionEntry[], leafId?: string | null): SessionProjection {
	const tree = new SessionTree();
	for (const e of entries) tree.add(e);
	const leaf = leafId === undefined ? (entries.at(-1)?.id ?? null) : leafId;
	return new ContextProjector(tree).project(leaf);
}

export function buildSessionContext(entries: SessionEntry[], leafId?: string | null): SessionContext {
	const { messages, thinkingLevel, model } = buildSessionProjection(entries, leafId);
	return { messages, thinkingLevel, model };
}
