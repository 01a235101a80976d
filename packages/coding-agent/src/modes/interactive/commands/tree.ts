// /tree (and Esc twice on an empty editor): move to any point of the session
// tree. Choosing a user message puts the leaf before it and its text in the
// editor; any other entry becomes the leaf. Leaving a branch may carry a
// summary of it (asked unless branchSummary.skipPrompt is set).
import { type Component, matchesKey } from "@pi/tui";
import type { InteractiveContext } from "../context.js";
import { SelectorFrame } from "../selectors/frame.js";
import { ensureSelectorKeybindings } from "../selectors/keybindings.js";
import {
	BRANCH_SUMMARY_CHOICES,
	type BranchSummaryChoice,
	createChoicePrompt,
	createTextPrompt,
} from "../selectors/prompts.js";
import { describeEntry, TREE_FILTER_MODES, type TreeFilterMode } from "../selectors/tree-rows.js";
import { TREE_HINTS, TreeSelector } from "../selectors/tree-selector.js";
import type { SlashCommand } from "./registry.js";

function filterSetting(ctx: InteractiveContext): TreeFilterMode {
	const v = ctx.settings.get("treeFilterMode");
	return TREE_FILTER_MODES.includes(v as TreeFilterMode) ? (v as TreeFilterMode) : "default";
}

/** Shows the tree; `selectedId` re-highlights an entry when coming back from the summary question. */
export function openTree(ctx: InteractiveContext, selectedId?: string): void {
	ensureSelectorKeybindings(ctx.keybindings);
	const sm = ctx.session.sessionManager;
	const tree = sm.getTree();
	if (tree.length === 0) {
		ctx.showStatus("Nothing in this session yet", "warning");
		return;
	}
	const leafId = sm.getLeafId();
	const selector = new TreeSelector(() => ctx.theme, {
		tree,
		leafId,
		initialSelectedId: selectedId,
		filterMode: filterSetting(ctx),
		keybindings: ctx.keybindings,
		maxVisible: Math.max(5, Math.floor(ctx.tui.terminal.rows / 2)),
		onSelect: (id) => {
			restore();
			if (id === leafId) {
				ctx.showStatus("Already at this point");
				return;
			}
			askSummary(ctx, id);
		},
		onCancel: () => restore(),
		onLabel: (id, label) => {
			sm.appendLabelChange(id, label);
			ctx.requestRender();
		},
	});
	const restore = ctx.showInEditorArea(
		new SelectorFrame(
			() => ctx.theme,
			() => "Session tree",
			selector,
			() => TREE_HINTS,
		),
	);
}

function askSummary(ctx: InteractiveContext, targetId: string): void {
	if (ctx.session.settings.getBranchSummarySettings().skipPrompt) {
		void navigate(ctx, targetId, "none");
		return;
	}
	const restore = ctx.showInEditorArea(
		createChoicePrompt<BranchSummaryChoice>(
			() => ctx.theme,
			"Summarize the branch you are leaving?",
			BRANCH_SUMMARY_CHOICES,
			(choice) => {
				restore();
				if (choice === undefined) {
					openTree(ctx, targetId);
					return;
				}
				if (choice !== "custom") {
					void navigate(ctx, targetId, choice);
					return;
				}
				const restoreText = ctx.showInEditorArea(
					createTextPrompt(
						() => ctx.theme,
						"Branch summary",
						"What should the summary focus on?",
						(text) => {
							restoreText();
							if (text === undefined) {
								openTree(ctx, targetId);
								return;
							}
							void navigate(ctx, targetId, "custom", text);
						},
					),
				);
			},
		),
	);
}

async function navigate(
	ctx: InteractiveContext,
	targetId: string,
	choice: BranchSummaryChoice,
	instructions?: string,
): Promise<void> {
	const summarize = choice !== "none";
	// While the summary is written the panel has focus, so Esc reaches it (and cancels).
	const restore = summarize
		? ctx.showInEditorArea(
				new SelectorFrame(
					() => ctx.theme,
					() => "Summarizing the branch you are leaving…",
					new KeyCatcher((data) => {
						if (matchesKey(data, "escape") || matchesKey(data, "ctrl+c")) ctx.session.abortBranchSummary();
					}),
					() => "esc cancel",
				),
			)
		: undefined;
	try {
		const result = await ctx.session.navigateTree(targetId, {
			summarize,
			customInstructions: choice === "custom" && instructions ? instructions : undefined,
		});
		if (result.cancelled) {
			ctx.showStatus(result.aborted ? "Branch summary cancelled" : "Navigation cancelled", "warning");
			return;
		}
		ctx.reloadFromSession();
		if (result.editorText !== undefined) ctx.editor.setText(result.editorText);
		const entry = ctx.session.sessionManager.getEntry(targetId);
		const what = entry ? describeEntry(entry).kind : "entry";
		ctx.showStatus(
			result.editorText !== undefined
				? `Moved before the ${what} message; edit it and send to branch`
				: `Moved to the ${what} entry${result.summaryEntry ? " (with a summary of the branch left)" : ""}`,
		);
	} catch (error) {
		ctx.showStatus(error instanceof Error ? error.message : String(error), "error");
	} finally {
		restore?.();
	}
	ctx.requestRender();
}

/** An empty body that hands keys to a callback. */
class KeyCatcher implements Component {
	constructor(private readonly onKey: (data: string) => void) {}
	render(): string[] {
		return [];
	}
	handleInput(data: string): void {
		this.onKey(data);
	}
}

export const treeCommand: SlashCommand = {
	name: "tree",
	description: "Navigate the session tree",
	run(_args, ctx) {
		if (ctx.session.isStreaming) {
			ctx.showStatus("Wait for the current run to end (or press Esc) before moving in the tree", "warning");
			return;
		}
		openTree(ctx);
	},
};
