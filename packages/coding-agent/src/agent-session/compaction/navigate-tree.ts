// Moving the leaf to another point of the session tree (/tree), optionally
// carrying a summary of the path being left. Choosing a user (or custom)
// message puts the leaf on its parent and hands the text back for editing,
// so the next prompt replaces it; any other entry becomes the leaf itself.
import type { SessionLifecycleHooks } from "../../extensions/session-hooks.js";
import type { SessionManager } from "../../session/session-manager.js";
import type { BranchSummaryEntry } from "../../session/types.js";
import type { BranchSummaryResult } from "./branch-summary.js";
import { collectEntriesForBranchSummary } from "./branch-summary.js";
import type { Compactor } from "./compactor.js";
import { SummarizationAbortedError } from "./summarize.js";

export interface NavigateTreeOptions {
	/** Summarize the abandoned path into a branch_summary entry at the new position. */
	summarize?: boolean;
	customInstructions?: string;
	/** The custom instructions replace the default summary instructions. */
	replaceInstructions?: boolean;
	/** Label for the new position (the summary entry when there is one). */
	label?: string;
}

export interface NavigateTreeResult {
	/** Text of the chosen user/custom message, for the editor. */
	editorText?: string;
	cancelled: boolean;
	aborted?: boolean;
	summaryEntry?: BranchSummaryEntry;
}

export interface NavigateTreeHost {
	readonly sessionManager: SessionManager;
	readonly compactor: Compactor;
	/** Extension seams `session_before_tree` / `session_tree`. */
	hooks?: Pick<SessionLifecycleHooks, "beforeTree" | "afterTree">;
	onContextChanged?(): void;
}

function textOfContent(content: unknown): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	return content
		.filter((b: { type?: string }) => b?.type === "text")
		.map((b: { text?: string }) => b.text ?? "")
		.join("");
}

export async function navigateTree(
	host: NavigateTreeHost,
	targetId: string,
	options: NavigateTreeOptions = {},
): Promise<NavigateTreeResult> {
	const sm = host.sessionManager;
	const oldLeafId = sm.getLeafId();
	if (targetId === oldLeafId) return { cancelled: false };
	const target = sm.getEntry(targetId);
	if (!target) throw new Error(`Entry ${targetId} not found`);

	let newLeafId: string | null = targetId;
	let editorText: string | undefined;
	if (target.type === "message" && target.message.role === "user") {
		newLeafId = target.parentId;
		editorText = textOfContent(target.message.content);
	} else if (target.type === "custom_message") {
		newLeafId = target.parentId;
		editorText = textOfContent(target.content);
	}

	const { entries, commonAncestorId } = collectEntriesForBranchSummary(sm, oldLeafId, targetId);
	let customInstructions = options.customInstructions;
	let replaceInstructions = options.replaceInstructions;
	let label = options.label;
	let provided: { summary: string; details?: unknown } | undefined;
	const hooks = host.hooks ?? {};
	if (hooks.beforeTree) {
		const hook = await hooks.beforeTree({
			targetId,
			oldLeafId,
			commonAncestorId,
			entriesToSummarize: entries,
			userWantsSummary: options.summarize ?? false,
			customInstructions,
			replaceInstructions,
			label,
		});
		if (hook?.cancel) return { cancelled: true };
		if (hook?.summary && options.summarize) provided = hook.summary;
		if (hook?.customInstructions !== undefined) customInstructions = hook.customInstructions;
		if (hook?.replaceInstructions !== undefined) replaceInstructions = hook.replaceInstructions;
		if (hook?.label !== undefined) label = hook.label;
	}

	let generated: BranchSummaryResult | undefined;
	if (options.summarize && !provided && entries.length > 0) {
		try {
			generated = await host.compactor.summarizeBranch(entries, { customInstructions, replaceInstructions });
		} catch (error) {
			if (error instanceof SummarizationAbortedError) return { cancelled: true, aborted: true };
			throw error;
		}
	}

	let summaryEntry: BranchSummaryEntry | undefined;
	const summary = provided ?? generated;
	if (summary) {
		const id = sm.branchWithSummary(
			newLeafId,
			summary.summary,
			summary.details,
			provided !== undefined,
			generated?.usage,
		);
		summaryEntry = sm.getEntry(id) as BranchSummaryEntry;
	} else if (newLeafId === null) {
		sm.resetLeaf();
	} else {
		sm.branch(newLeafId);
	}
	if (label) {
		const labelTarget = summaryEntry?.id ?? newLeafId;
		if (labelTarget) sm.appendLabelChange(labelTarget, label);
	}
	host.onContextChanged?.();
	await hooks.afterTree?.({
		newLeafId: sm.getLeafId(),
		oldLeafId,
		...(summaryEntry ? { summaryEntry, fromExtension: provided !== undefined } : {}),
	});
	const result: NavigateTreeResult = { cancelled: false };
	if (editorText !== undefined) result.editorText = editorText;
	if (summaryEntry) result.summaryEntry = summaryEntry;
	return result;
}
