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
import { type EntryRecord, recordFor, SessionTree } from "./tree.js";
import type {
	ContextEditEntry,
	ProjectedSessionEntry,
	SessionContext,
	SessionEntry,
	SessionModelRef,
	SessionProjection,
} from "./types.js";
import { withoutUnknownBlocks } from "./validate.js";

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

function isSystemRecord(rec: EntryRecord): boolean {
	return rec.type === "message" && rec.role === "system";
}

/**
 * Incremental projector for one tree. Not thread-safe, not shared between
 * trees. Results share message objects with the entries: treat them as
 * read-only.
 */
/** Steps `cachedPathTo` walks looking for the cached path before the caller walks the whole branch. */
const CACHED_PATH_MAX_WALK = 256;

export class ContextProjector {
	private cachedLeaf: string | null | undefined = undefined;
	private path: EntryRecord[] = [];
	private compactionIndex = -1;
	private slots: ProjectedSessionEntry[] = [];
	private slotIndex = new Map<string, number>();
	private edits = new Map<string, ContextEditEntry>();
	private flat: AgentMessage[] | null = [];
	private thinkingLevel = "off";
	private model: SessionModelRef | null = null;

	constructor(private readonly tree: SessionTree) {}

	/** Forget the cache (after the tree was rebuilt). */
	reset(): void {
		this.cachedLeaf = undefined;
		this.path = [];
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

	/**
	 * Records from the root to `id` when a short walk up from it reaches the
	 * cached path (the leaf, or an entry appended since the last projection):
	 * the branch scans of a turn (custom entries, labels) then cost a copy of
	 * the path, not a walk of 100k parent links each. Undefined otherwise; the
	 * cache is not moved.
	 */
	cachedPathTo(id: string): EntryRecord[] | undefined {
		const tail: EntryRecord[] = [];
		let cur = this.tree.byId.get(id);
		while (cur && tail.length <= CACHED_PATH_MAX_WALK) {
			const at = cur.pathPos;
			if (at !== undefined && this.path[at] === cur) {
				const out = this.path.slice(0, at + 1);
				for (let i = tail.length - 1; i >= 0; i--) out.push(tail[i]);
				return out;
			}
			tail.push(cur);
			cur = this.tree.parentOf(cur);
		}
		return undefined;
	}

	private update(leafId: string | null): void {
		if (leafId === this.cachedLeaf) return;
		if (leafId === null || !this.tree.byId.has(leafId)) {
			this.reset();
			this.cachedLeaf = leafId;
			return;
		}
		// Walk up from the new leaf until the cached path is reached: once to count, once to fill an
		// array of that size in path order. A resumed branch is ~100k records: growing an array by
		// pushes, reversing it and pushing it again onto the path left megabytes of discarded
		// backing stores (large objects, freed only by a full GC) in a resume's peak memory.
		const leaf = this.tree.byId.get(leafId);
		let cur = leaf;
		let joinAt = -1;
		let n = 0;
		while (cur) {
			const at = cur.pathPos;
			if (at !== undefined && this.path[at] === cur) {
				joinAt = at;
				break;
			}
			if (n >= this.tree.size) break; // a parent cycle in a damaged file
			n++;
			cur = this.tree.parentOf(cur);
		}
		const appended = new Array<EntryRecord>(n);
		cur = leaf;
		for (let i = n - 1; i >= 0 && cur; i--) {
			appended[i] = cur;
			cur = this.tree.parentOf(cur);
		}
		this.cachedLeaf = leafId;
		if (joinAt >= 0 && joinAt === this.path.length - 1) {
			this.extend(appended);
			return;
		}
		// Moved to another branch: keep the shared prefix of the path, rebuild the rest.
		if (joinAt < 0) {
			for (let i = 0; i < n; i++) appended[i].pathPos = i;
			this.path = appended;
		} else {
			this.path.length = joinAt + 1;
			for (const rec of appended) {
				rec.pathPos = this.path.length;
				this.path.push(rec);
			}
		}
		this.compactionIndex = -1;
		for (let i = this.path.length - 1; i >= 0; i--) {
			if (this.path[i].type === "compaction") {
				this.compactionIndex = i;
				break;
			}
		}
		this.recomputeSettings();
		this.rebuildContext();
	}

	private extend(appended: EntryRecord[]): void {
		let compacted = false;
		for (const rec of appended) {
			const at = this.path.length;
			rec.pathPos = at;
			this.path.push(rec);
			this.applySetting(rec);
			if (rec.type === "compaction") {
				this.compactionIndex = at;
				compacted = true;
			}
		}
		if (compacted) {
			this.rebuildContext();
			return;
		}
		for (const rec of appended) this.addSlot(this.tree.entryOf(rec));
	}

	private applySetting(rec: EntryRecord): void {
		if (rec.type === "thinking_level_change") {
			const e = this.tree.entryOf(rec);
			if (e.type === "thinking_level_change") this.thinkingLevel = e.thinkingLevel;
		} else if (rec.type === "model_change") {
			const e = this.tree.entryOf(rec);
			if (e.type === "model_change") this.model = { provider: e.provider, modelId: e.modelId };
		} else if (rec.role === "assistant" && rec.provider !== undefined && rec.model !== undefined) {
			this.model = { provider: rec.provider, modelId: rec.model };
		}
	}

	/** Settings come from the whole path (not only the compacted range); the latest of each wins. */
	private recomputeSettings(): void {
		this.thinkingLevel = "off";
		this.model = null;
		let haveThinking = false;
		let haveModel = false;
		for (let i = this.path.length - 1; i >= 0 && !(haveThinking && haveModel); i--) {
			const rec = this.path[i];
			if (!haveThinking && rec.type === "thinking_level_change") {
				this.applySetting(rec);
				haveThinking = true;
			} else if (
				!haveModel &&
				(rec.type === "model_change" || (rec.role === "assistant" && rec.provider !== undefined))
			) {
				this.applySetting(rec);
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
		// A copy, not `push(...path)`: spreading a branch of ~120k+ entries overflows the stack.
		const selected: EntryRecord[] = ci < 0 ? this.path.slice() : [];
		if (ci >= 0) {
			const compaction = this.tree.entryOf(this.path[ci]);
			selected.push(this.path[ci]);
			const firstKept = compaction.type === "compaction" ? compaction.firstKeptEntryId : undefined;
			let keeping = false;
			for (let i = 0; i < ci; i++) {
				const rec = this.path[i];
				if (rec.id === firstKept) keeping = true;
				if (keeping && !isSystemRecord(rec)) selected.push(rec);
			}
			for (let i = ci + 1; i < this.path.length; i++) selected.push(this.path[i]);
		}
		this.tree.preload(selected);
		// Edits first, so each target is projected once with its latest edit.
		for (const rec of selected) {
			if (rec.type === "context_edit") {
				const e = this.tree.entryOf(rec) as ContextEditEntry;
				this.edits.set(e.targetId, e);
			}
		}
		for (let i = 0; i < selected.length; i++) {
			const entry = this.tree.entryOf(selected[i]);
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
	for (const e of entries) tree.add(recordFor(e));
	const leaf = leafId === undefined ? (entries.at(-1)?.id ?? null) : leafId;
	return new ContextProjector(tree).project(leaf);
}

export function buildSessionContext(entries: SessionEntry[], leafId?: string | null): SessionContext {
	const { messages, thinkingLevel, model } = buildSessionProjection(entries, leafId);
	return { messages, thinkingLevel, model };
}
