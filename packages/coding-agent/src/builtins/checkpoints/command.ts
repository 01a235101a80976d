// /rewind: the checkpoints on the current branch, newest first, plus "undo
// the last restore"; choosing one shows what would change and asks before
// restoring. `/rewind list` only lists (also without a UI). The session leaf
// does not move: this rewinds files, /tree rewinds the conversation.
import type { ExtensionAPI, ExtensionCommandContext } from "../../extensions/types.js";
import type { Checkpoints } from "./checkpoints.js";
import { type BranchCheckpoint, checkpointAt, checkpointsOnBranch, describeCheckpoint } from "./entries.js";
import { askRestore, performRestore } from "./flow.js";
import { readJournal } from "./restore.js";

const UNDO_PREFIX = "Undo the last restore";

export function registerRewindCommand(pi: ExtensionAPI, cp: Checkpoints): void {
	pi.registerCommand("rewind", {
		description: "Restore files to a checkpoint on this branch (list: show them)",
		getArgumentCompletions: (prefix) =>
			"list".startsWith(prefix.trim()) ? [{ value: "list", label: "list", description: "show the checkpoints" }] : null,
		handler: async (args, ctx) => rewind(cp, args.trim(), ctx),
	});
}

async function rewind(cp: Checkpoints, args: string, ctx: ExtensionCommandContext): Promise<void> {
	// A prompt's start snapshot may still be running (it runs beside the model request): list it too.
	await cp.settleStart();
	const store = cp.storeFor(ctx.cwd);
	if (!store) {
		ctx.ui.notify("Checkpoints are off (no git, or turned off in settings)", "warning");
		return;
	}
	const checkpoints = checkpointsOnBranch(ctx.sessionManager).reverse();
	const lines = checkpoints.map((c, i) => `${String(i + 1).padStart(3)}. ${describeCheckpoint(c)}`);
	const journal = readJournal(store);
	const last = journal.at(-1);
	const undoLabel = last ? `${UNDO_PREFIX} (${last.time.slice(11, 19)})` : undefined;
	if (args === "list" || !ctx.hasUI) {
		const body = lines.length > 0 ? lines.join("\n") : "No checkpoints on this branch yet";
		ctx.ui.notify(`Checkpoints on this branch (newest first):\n${body}`, "info");
		return;
	}
	if (checkpoints.length === 0 && !undoLabel) {
		ctx.ui.notify("No checkpoints on this branch yet", "info");
		return;
	}
	const choice = await ctx.ui.select("Restore files to which checkpoint?", [
		...(undoLabel ? [undoLabel] : []),
		...lines,
	]);
	if (choice === undefined) return;
	let target: string;
	if (undoLabel && choice === undoLabel && last) target = last.from;
	else {
		const picked: BranchCheckpoint | undefined = checkpoints[lines.indexOf(choice)];
		if (!picked) return;
		target = picked.data.commit;
	}
	const known = checkpointAt(ctx.sessionManager, ctx.sessionManager.getLeafId());
	try {
		const decision = await askRestore(ctx, store, target, known?.data.commit, "Restore files to this checkpoint?");
		if (!decision) {
			ctx.ui.notify("Files left as they are", "info");
			return;
		}
		await performRestore(cp, ctx, store, decision, true);
	} catch (error) {
		cp.fail(ctx, error);
	}
}
