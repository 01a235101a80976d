// Restoring the work tree to a checkpoint, in two steps so the user sees
// what will happen before anything does: plan (snapshot the present, diff it
// against the target, find files changed outside pi since pi last looked)
// and apply (write and delete exactly the planned files). Files changed
// outside pi are left alone unless the caller says to overwrite them. The
// snapshot of the present is the undo: every restore is journaled with it.
import { appendFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { FileChange, ShadowStore } from "./store.js";

export interface RestorePlan {
	target: string;
	/** The work tree just before the restore (a checkpoint itself: restoring it undoes this one). */
	current: string;
	/** Every file the restore would change, renames paired (for the summary). */
	changes: FileChange[];
	/** What to do for files pi alone changed. */
	write: string[];
	remove: string[];
	/** Files the restore would change that were changed outside pi since the last checkpoint. */
	conflicts: string[];
	conflictWrite: string[];
	conflictRemove: string[];
}

export async function planRestore(store: ShadowStore, target: string, known: string | undefined): Promise<RestorePlan> {
	const now = await store.snapshot("before restore");
	const changes = await store.diff(now.commit, target, true);
	const raw = await store.diff(now.commit, target, false);
	const outside = new Set<string>();
	if (known && known !== now.commit && (await store.has(known))) {
		for (const c of await store.diff(known, now.commit, false)) outside.add(c.path);
	}
	const plan: RestorePlan = {
		target,
		current: now.commit,
		changes,
		write: [],
		remove: [],
		conflicts: [],
		conflictWrite: [],
		conflictRemove: [],
	};
	for (const c of raw) {
		const conflict = outside.has(c.path);
		if (conflict) plan.conflicts.push(c.path);
		// diff-tree reports the move from `now` to `target`: "deleted" means the target lacks it.
		if (c.status === "deleted") (conflict ? plan.conflictRemove : plan.remove).push(c.path);
		else (conflict ? plan.conflictWrite : plan.write).push(c.path);
	}
	return plan;
}

const VERB: Record<FileChange["status"], string> = {
	added: "restore",
	deleted: "delete",
	modified: "revert",
	renamed: "rename",
	type: "revert",
};

/** The diff summary shown before asking: one line per file (at most `limit`), then conflicts. */
export function summarizePlan(plan: RestorePlan, limit = 12): string {
	const lines: string[] = [];
	const n = plan.changes.length;
	lines.push(`${n} file${n === 1 ? "" : "s"} would change:`);
	for (const c of plan.changes.slice(0, limit)) {
		lines.push(c.status === "renamed" ? `  rename  ${c.from} → ${c.path}` : `  ${VERB[c.status].padEnd(7)} ${c.path}`);
	}
	if (n > limit) lines.push(`  … and ${n - limit} more`);
	if (plan.conflicts.length > 0) {
		lines.push(`Changed outside pi since the last checkpoint (left alone unless you choose to overwrite):`);
		for (const p of plan.conflicts.slice(0, limit)) lines.push(`  ${p}`);
		if (plan.conflicts.length > limit) lines.push(`  … and ${plan.conflicts.length - limit} more`);
	}
	return lines.join("\n");
}

export interface RestoreOutcome {
	written: number;
	removed: number;
	/** Conflicting files that were left as they are. */
	keptOutside: string[];
}

export async function applyRestore(store: ShadowStore, plan: RestorePlan, overwrite: boolean): Promise<RestoreOutcome> {
	const write = overwrite ? [...plan.write, ...plan.conflictWrite] : plan.write;
	const remove = overwrite ? [...plan.remove, ...plan.conflictRemove] : plan.remove;
	await store.restore(plan.target, write, remove);
	appendFileSync(
		join(store.dir, "restores.jsonl"),
		`${JSON.stringify({ time: new Date().toISOString(), from: plan.current, to: plan.target })}\n`,
	);
	return { written: write.length, removed: remove.length, keptOutside: overwrite ? [] : plan.conflicts };
}

export interface JournalEntry {
	time: string;
	from: string;
	to: string;
}

/** The restores made in this project, oldest first. */
export function readJournal(store: ShadowStore): JournalEntry[] {
	try {
		return readFileSync(join(store.dir, "restores.jsonl"), "utf8")
			.split("\n")
			.filter(Boolean)
			.flatMap((line) => {
				try {
					return [JSON.parse(line) as JournalEntry];
				} catch {
					return [];
				}
			});
	} catch {
		return [];
	}
}
