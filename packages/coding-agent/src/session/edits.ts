// Pure helpers for the tree operations of SessionManager that reshape
// entries: copying a path into a new session, and validating context edits.
import type { ContextEditEntry, SessionEntry } from "./types.js";

/**
 * The entries of a path with label entries dropped and the rest re-linked in
 * order, so nothing hangs off a removed label (labels are re-created at the
 * end of the new session). Ids are kept; a compaction whose kept range
 * started at a dropped label starts at the entry after it.
 */
export function relinkWithoutLabels(path: readonly SessionEntry[]): SessionEntry[] {
	const kept: SessionEntry[] = [];
	const replaced = new Map<string, string>();
	const pendingLabels: string[] = [];
	let parent: string | null = null;
	for (const e of path) {
		if (e.type === "label") {
			pendingLabels.push(e.id);
			continue;
		}
		for (const id of pendingLabels) replaced.set(id, e.id);
		pendingLabels.length = 0;
		const copy = { ...e, parentId: parent } as SessionEntry;
		if (copy.type === "compaction") {
			copy.firstKeptEntryId = replaced.get(copy.firstKeptEntryId) ?? copy.firstKeptEntryId;
		}
		kept.push(copy);
		parent = e.id;
	}
	return kept;
}

/**
 * Check a context edit of `target` and normalise it: only user, assistant,
 * toolResult and custom_message entries carry editable content, and a string
 * for an assistant/toolResult (whose content is an array) becomes one text block.
 */
export function normalizeContextEdit(
	target: SessionEntry,
	replacement: ContextEditEntry["replacement"],
): ContextEditEntry["replacement"] {
	if (
		replacement !== null &&
		(typeof replacement !== "object" ||
			(typeof replacement.content !== "string" && !Array.isArray(replacement.content)))
	) {
		throw new Error("Context edit replacement must be null or { content: string | array }");
	}
	const role = target.type === "message" ? target.message.role : target.type === "custom_message" ? "custom" : "";
	if (!(role === "user" || role === "assistant" || role === "toolResult" || role === "custom")) {
		throw new Error(`Entry ${target.id} does not contribute editable model content`);
	}
	if (
		replacement !== null &&
		(role === "assistant" || role === "toolResult") &&
		typeof replacement.content === "string"
	) {
		return { content: [{ type: "text", text: replacement.content }] };
	}
	return replacement;
}
