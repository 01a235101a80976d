// What a compaction of the active branch would summarize and keep, computed
// from the projection alone (no I/O, no model call), so it can be shown to
// extensions, benchmarked, and replaced by a custom summary.
import type { AgentMessage } from "@pi/agent-core";
import type { CompactionSettings } from "../../config/settings-schema.js";
import type { CompactionEntry, ProjectedSessionEntry, SessionProjection } from "../../session/types.js";
import { findCutPoint } from "./cut-point.js";
import {
	addFileListDetails,
	createFileOps,
	extractFileOpsFromMessage,
	type FileOperations,
	stripFileOperations,
} from "./file-ops.js";
import { estimateProjectedContextTokens } from "./token-estimate.js";

export interface CompactionPreparation {
	/** First entry kept verbatim; null keeps nothing. */
	firstKeptEntryId: string | null;
	/** Whole turns before the cut, to be folded into the summary. */
	messagesToSummarize: AgentMessage[];
	/** The early part of a turn split by the cut (summarized on its own). */
	turnPrefixMessages: AgentMessage[];
	isSplitTurn: boolean;
	/** Context tokens before compaction (reported usage + estimate). */
	tokensBefore: number;
	/** Summary of the compaction this one extends. */
	previousSummary?: string;
	/** Files touched so far: the previous compaction's lists plus the summarized messages. */
	fileOps: FileOperations;
	settings: CompactionSettings;
}

export interface PrepareOptions {
	/** Overrides settings.keepRecentTokens (overflow recovery keeps less). */
	keepRecentTokens?: number;
	/** Keep at most about the budget (overflow recovery), instead of at least it. */
	atMost?: boolean;
}

function collect(slots: readonly ProjectedSessionEntry[], from: number, to: number): AgentMessage[] {
	const out: AgentMessage[] = [];
	for (let i = from; i < to; i++) for (const m of slots[i].messages) if (m.role !== "system") out.push(m);
	return out;
}

/** Index of the first slot after the leading compaction in path order (slots.length when it is the leaf). */
export function firstSlotAfterCompaction(slots: readonly ProjectedSessionEntry[]): number {
	const lead = slots[0]?.sourceEntry;
	if (lead?.type !== "compaction") return 0;
	for (let i = 1; i < slots.length; i++) if (slots[i].sourceEntry.parentId === lead.id) return i;
	return slots.length;
}

/**
 * Plans a compaction of `projection`. Undefined when there is nothing to
 * summarize: an empty branch, a compaction as the leaf, or a context that
 * fits in the kept budget entirely.
 */
export function prepareCompaction(
	projection: SessionProjection,
	settings: CompactionSettings,
	options: PrepareOptions = {},
): CompactionPreparation | undefined {
	const slots = projection.entries;
	if (slots.length === 0) return undefined;
	const lead = slots[0].sourceEntry;
	const previous = lead.type === "compaction" ? (lead as CompactionEntry) : undefined;
	if (previous && firstSlotAfterCompaction(slots) === slots.length) return undefined;
	const start = previous ? 1 : 0;
	const keep = options.keepRecentTokens ?? settings.keepRecentTokens;
	const cut = findCutPoint(slots, start, slots.length, keep, { atMost: options.atMost });
	const historyEnd = cut.isSplitTurn ? cut.turnStartIndex : cut.firstKeptIndex;
	const messagesToSummarize = collect(slots, start, historyEnd);
	const turnPrefixMessages = cut.isSplitTurn ? collect(slots, cut.turnStartIndex, cut.firstKeptIndex) : [];
	if (messagesToSummarize.length === 0 && turnPrefixMessages.length === 0) return undefined;

	const fileOps = createFileOps();
	if (previous && !previous.fromHook) addFileListDetails(fileOps, previous.details);
	for (const m of messagesToSummarize) extractFileOpsFromMessage(m, fileOps);
	for (const m of turnPrefixMessages) extractFileOpsFromMessage(m, fileOps);

	const prep: CompactionPreparation = {
		firstKeptEntryId: cut.firstKeptIndex < slots.length ? slots[cut.firstKeptIndex].sourceEntry.id : null,
		messagesToSummarize,
		turnPrefixMessages,
		isSplitTurn: cut.isSplitTurn,
		tokensBefore: estimateProjectedContextTokens(projection).tokens,
		fileOps,
		settings: { ...settings, keepRecentTokens: keep },
	};
	if (previous) prep.previousSummary = stripFileOperations(previous.summary);
	return prep;
}
