// Branch summaries: when the leaf moves to another branch, the path being
// left (from the old leaf back to the common ancestor) is summarized into a
// `branch_summary` entry at the new position, so findings made there are not
// lost. Budgeted newest-first: a long abandoned path keeps its latest part.
import type { AgentMessage } from "@pi/agent-core";
import type { Usage } from "@pi/ai";
import { projectContextEntry } from "../../session/projection.js";
import type { SessionManager } from "../../session/session-manager.js";
import type { ContextEditEntry, SessionEntry } from "../../session/types.js";
import {
	addFileListDetails,
	computeFileLists,
	createFileOps,
	extractFileOpsFromMessage,
	type FileListDetails,
	type FileOperations,
	formatFileOperations,
} from "./file-ops.js";
import { BRANCH_SUMMARY_INSTRUCTIONS, BRANCH_SUMMARY_PREAMBLE } from "./prompts.js";
import { buildSummaryContext, requestSummary, type Summarizer, summaryMaxTokens } from "./summarize.js";
import { estimateTokens } from "./token-estimate.js";

/** Context window assumed when the model does not declare one. */
export const DEFAULT_BRANCH_CONTEXT_WINDOW = 128_000;
export const BRANCH_SUMMARY_MAX_TOKENS = 2048;

export interface CollectEntriesResult {
	/** Entries of the abandoned path, oldest first (the common ancestor excluded). */
	entries: SessionEntry[];
	commonAncestorId: string | null;
}

/** The entries between `oldLeafId` and its deepest common ancestor with `targetId`. */
export function collectEntriesForBranchSummary(
	sm: Pick<SessionManager, "getBranch">,
	oldLeafId: string | null,
	targetId: string | null,
): CollectEntriesResult {
	if (oldLeafId === null) return { entries: [], commonAncestorId: null };
	const onTarget = new Set(targetId === null ? [] : sm.getBranch(targetId).map((e) => e.id));
	const oldPath = sm.getBranch(oldLeafId);
	const entries: SessionEntry[] = [];
	let commonAncestorId: string | null = null;
	for (let i = oldPath.length - 1; i >= 0; i--) {
		if (onTarget.has(oldPath[i].id)) {
			commonAncestorId = oldPath[i].id;
			break;
		}
		entries.push(oldPath[i]);
	}
	entries.reverse();
	return { entries, commonAncestorId };
}

export interface BranchPreparation {
	/** Messages to summarize, oldest first. */
	messages: AgentMessage[];
	fileOps: FileOperations;
	totalTokens: number;
}

/**
 * Messages of the abandoned entries (context edits made on that path
 * applied), newest first until `tokenBudget` is spent (0: no limit). File
 * lists of summaries on the path carry over.
 */
export function prepareBranchEntries(entries: readonly SessionEntry[], tokenBudget = 0): BranchPreparation {
	const edits = new Map<string, ContextEditEntry>();
	for (const e of entries) if (e.type === "context_edit") edits.set(e.targetId, e);
	const fileOps = createFileOps();
	const picked: AgentMessage[][] = [];
	let total = 0;
	for (let i = entries.length - 1; i >= 0; i--) {
		const entry = entries[i];
		if ((entry.type === "branch_summary" || entry.type === "compaction") && !entry.fromHook) {
			addFileListDetails(fileOps, entry.details);
		}
		if (entry.type === "context_edit") continue;
		const messages = projectContextEntry(entry, edits.get(entry.id)).filter((m) => m.role !== "system");
		if (messages.length === 0) continue;
		const tokens = messages.reduce((n, m) => n + estimateTokens(m), 0);
		if (tokenBudget > 0 && total + tokens > tokenBudget && picked.length > 0) break;
		total += tokens;
		picked.push(messages);
		for (const m of messages) extractFileOpsFromMessage(m, fileOps);
	}
	picked.reverse();
	return { messages: picked.flat(), fileOps, totalTokens: total };
}

export interface BranchSummaryOptions {
	customInstructions?: string;
	/** The custom instructions replace the default ones instead of adding a focus line. */
	replaceInstructions?: boolean;
	/** branchSummary.reserveTokens (default 16384). */
	reserveTokens?: number;
}

export interface BranchSummaryResult {
	summary: string;
	details: FileListDetails;
	usage?: Usage;
}

/**
 * Summarizes abandoned entries. Undefined when they hold no messages. Throws
 * on failure; SummarizationAbortedError on abort.
 */
export async function generateBranchSummary(
	entries: readonly SessionEntry[],
	summarizer: Summarizer,
	options: BranchSummaryOptions = {},
): Promise<BranchSummaryResult | undefined> {
	const model = summarizer.model;
	const window = model.contextWindow > 0 ? model.contextWindow : DEFAULT_BRANCH_CONTEXT_WINDOW;
	const budget = Math.max(1, window - (options.reserveTokens ?? 16384));
	const prep = prepareBranchEntries(entries, budget);
	if (prep.messages.length === 0) return undefined;
	const maxTokens = summaryMaxTokens(model, BRANCH_SUMMARY_MAX_TOKENS, 1);
	const context = buildSummaryContext({
		messages: prep.messages,
		instructions: BRANCH_SUMMARY_INSTRUCTIONS,
		model,
		maxTokens,
		customInstructions: options.customInstructions,
		replaceInstructions: options.replaceInstructions,
	});
	const { text, usage } = await requestSummary(context, maxTokens, summarizer);
	const details = computeFileLists(prep.fileOps);
	return {
		summary: BRANCH_SUMMARY_PREAMBLE + text + formatFileOperations(details.readFiles, details.modifiedFiles),
		details,
		usage,
	};
}
