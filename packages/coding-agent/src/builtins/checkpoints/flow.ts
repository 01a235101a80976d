// The restore dialogue shared by /tree, /fork and /rewind: plan, show the
// diff summary, ask (keep / restore / restore overwriting outside edits),
// apply, and record the result as a "restore" checkpoint so the branch knows
// what the work tree now holds and how to undo it.
import type { ExtensionContext } from "../../extensions/types.js";
import type { Checkpoints } from "./checkpoints.js";
import { CHECKPOINT_TYPE, type CheckpointData } from "./entries.js";
import { applyRestore, planRestore, type RestoreOutcome, type RestorePlan, summarizePlan } from "./restore.js";
import type { ShadowStore } from "./store.js";

export const CHOICE_KEEP = "Keep the files as they are";
export const CHOICE_RESTORE = "Restore files to this point";
export const CHOICE_OVERWRITE = "Restore files, overwriting changes made outside pi";

export interface RestoreDecision {
	plan: RestorePlan;
	overwrite: boolean;
}

/**
 * Plans a restore to `target` and asks. Undefined when there is nothing to
 * restore or the user keeps the files (or there is no one to ask).
 */
export async function askRestore(
	ctx: ExtensionContext,
	store: ShadowStore,
	target: string,
	known: string | undefined,
	heading: string,
): Promise<RestoreDecision | undefined> {
	if (!ctx.hasUI) return undefined;
	if (!(await store.has(target))) {
		ctx.ui.notify("That checkpoint is no longer in the store (pruned); files left as they are", "warning");
		return undefined;
	}
	const plan = await planRestore(store, target, known);
	if (plan.changes.length === 0) return undefined;
	const options = [CHOICE_KEEP, CHOICE_RESTORE];
	if (plan.conflicts.length > 0) options.push(CHOICE_OVERWRITE);
	const choice = await ctx.ui.select(`${heading}\n${summarizePlan(plan)}`, options);
	if (choice === CHOICE_RESTORE) return { plan, overwrite: false };
	if (choice === CHOICE_OVERWRITE) return { plan, overwrite: true };
	return undefined;
}

/**
 * Applies a decision and returns the resulting state as a "restore"
 * checkpoint; `record` appends it to the current branch at once (a fork
 * records it in the new session instead).
 */
export async function performRestore(
	cp: Checkpoints,
	ctx: ExtensionContext,
	store: ShadowStore,
	decision: RestoreDecision,
	record: boolean,
): Promise<{ outcome: RestoreOutcome; data: CheckpointData } | undefined> {
	try {
		const outcome = await applyRestore(store, decision.plan, decision.overwrite);
		const after = await store.snapshot("after restore");
		const data: CheckpointData = {
			commit: after.commit,
			reason: "restore",
			restoredTo: decision.plan.target,
			undo: decision.plan.current,
		};
		if (record) cp.record(data);
		const kept =
			outcome.keptOutside.length > 0
				? `; left alone (changed outside pi): ${outcome.keptOutside.slice(0, 5).join(", ")}${outcome.keptOutside.length > 5 ? ", …" : ""}`
				: "";
		ctx.ui.notify(
			`Files restored: ${outcome.written} written, ${outcome.removed} deleted${kept}. /rewind can undo it.`,
			outcome.keptOutside.length > 0 ? "warning" : "info",
		);
		return { outcome, data };
	} catch (error) {
		ctx.ui.notify(`Restore failed: ${error instanceof Error ? error.message : String(error)}`, "error");
		return undefined;
	}
}

export { CHECKPOINT_TYPE };
