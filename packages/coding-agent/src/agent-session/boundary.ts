// The actionable boundaries of a run (`turn_end`, `agent_before_settle`):
// extensions propose session entries (custom, custom_message, context_edit,
// compaction) and whether one more request should follow. This file holds the
// three pure steps the session needs around the handlers:
//   preview  the context the proposal would give (the branch with the drafts
//            applied as if appended), so each handler sees the effect of the
//            proposals before it;
//   validate the whole proposal before anything is written (a bad draft
//            rejects the proposal, none of it is appended);
//   commit   append the drafts in list order.
import type { AgentMessage } from "@pi/agent-core";
import type { BoundaryContextPreview, SessionBoundaryDraft } from "../extensions/events.js";
import { convertToLlm } from "../messages.js";
import { normalizeContextEdit } from "../session/edits.js";
import { buildSessionProjection } from "../session/projection.js";
import type { SessionManager } from "../session/session-manager.js";
import type { SessionEntry } from "../session/types.js";

const DRAFT_TYPES = new Set(["custom", "custom_message", "context_edit", "compaction"]);

function isContent(value: unknown): boolean {
	return typeof value === "string" || Array.isArray(value);
}

/** Why the proposal cannot be appended, or undefined when every draft is valid. */
export function validateDrafts(sm: SessionManager, drafts: readonly SessionBoundaryDraft[]): string | undefined {
	if (!Array.isArray(drafts)) return "entries must be an array";
	// Only context_edit and compaction drafts name branch entries; those are looked up one by one
	// (a resumed branch is mostly on disk: reading all of it for a custom entry cost seconds).
	const onBranch = (id: string) => sm.findOnBranch((e) => e.id === id) !== undefined;
	for (const [i, draft] of drafts.entries()) {
		const where = `entries[${i}]`;
		if (!draft || typeof draft !== "object" || !DRAFT_TYPES.has((draft as { type?: string }).type ?? "")) {
			return `${where}: type must be one of custom, custom_message, context_edit, compaction`;
		}
		switch (draft.type) {
			case "custom":
				if (typeof draft.customType !== "string" || !draft.customType) return `${where}: customType is required`;
				break;
			case "custom_message":
				if (typeof draft.customType !== "string" || !draft.customType) return `${where}: customType is required`;
				if (!isContent(draft.content)) return `${where}: content must be a string or an array`;
				if (typeof draft.display !== "boolean") return `${where}: display must be a boolean`;
				break;
			case "context_edit": {
				const target =
					typeof draft.targetId === "string" && onBranch(draft.targetId) ? sm.getEntry(draft.targetId) : undefined;
				if (!target) return `${where}: entry ${draft.targetId} is not on the active branch`;
				try {
					normalizeContextEdit(target, draft.replacement);
				} catch (error) {
					return `${where}: ${(error as Error).message}`;
				}
				break;
			}
			case "compaction":
				if (typeof draft.summary !== "string") return `${where}: summary must be a string`;
				if (
					draft.firstKeptEntryId !== null &&
					!(typeof draft.firstKeptEntryId === "string" && onBranch(draft.firstKeptEntryId))
				) {
					return `${where}: firstKeptEntryId ${draft.firstKeptEntryId} is not on the active branch`;
				}
				break;
		}
	}
	return undefined;
}

/** The drafts as session entries hanging off the current leaf (ids are placeholders; nothing is written). */
function asEntries(sm: SessionManager, drafts: readonly SessionBoundaryDraft[]): SessionEntry[] {
	let parentId = sm.getLeafId();
	const timestamp = new Date().toISOString();
	return drafts.map((draft, i) => {
		const id = `draft-${i}`;
		const base = { id, parentId, timestamp };
		parentId = id;
		switch (draft.type) {
			case "compaction":
				return {
					...base,
					type: "compaction",
					summary: draft.summary,
					firstKeptEntryId: draft.firstKeptEntryId ?? id,
					tokensBefore: 0,
				} as SessionEntry;
			case "context_edit":
				return {
					...base,
					type: "context_edit",
					targetId: draft.targetId,
					replacement: draft.replacement,
				} as SessionEntry;
			case "custom_message":
				return {
					...base,
					type: "custom_message",
					customType: draft.customType,
					content: draft.content,
					display: draft.display,
					details: draft.details,
				} as SessionEntry;
			default:
				return { ...base, type: "custom", customType: draft.customType, data: draft.data } as SessionEntry;
		}
	});
}

/** What the next request would carry if the drafts were appended now. */
export function previewBoundary(
	sm: SessionManager,
	drafts: readonly SessionBoundaryDraft[],
	pendingMessages: readonly AgentMessage[],
): BoundaryContextPreview {
	const valid = validateDrafts(sm, drafts) === undefined ? drafts : [];
	const entries = [...sm.getBranch(), ...asEntries(sm, valid)];
	const projection = buildSessionProjection(entries, entries.at(-1)?.id ?? null);
	const contextMessages = projection.messages;
	const last = contextMessages.filter((m) => m.role !== "system").at(-1);
	return {
		contextEntries: projection.entries,
		contextMessages,
		llmMessages: convertToLlm(contextMessages),
		pendingMessages: [...pendingMessages],
		// A context-only request needs something after the last answer (a user, tool or custom message).
		canContinue: pendingMessages.length > 0 || (last !== undefined && last.role !== "assistant"),
	};
}

/** Appends the drafts in order; returns the new entries' ids. */
export function commitDrafts(sm: SessionManager, drafts: readonly SessionBoundaryDraft[]): string[] {
	const ids: string[] = [];
	for (const draft of drafts) {
		switch (draft.type) {
			case "custom":
				ids.push(sm.appendCustomEntry(draft.customType, draft.data));
				break;
			case "custom_message":
				ids.push(sm.appendCustomMessageEntry(draft.customType, draft.content, draft.display, draft.details));
				break;
			case "context_edit":
				ids.push(sm.appendContextEdit(draft.targetId, draft.replacement));
				break;
			case "compaction":
				ids.push(sm.appendCompaction(draft.summary, draft.firstKeptEntryId, 0, draft.details, true, draft.usage));
				break;
		}
	}
	return ids;
}
