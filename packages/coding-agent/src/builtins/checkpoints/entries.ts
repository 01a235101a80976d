// Checkpoints as session entries: a `custom` entry of type "checkpoint" on
// the branch records which shadow-store commit holds the work tree at that
// point, so checkpoints follow /tree, /fork and branches like the
// conversation does. Pure functions over the entries; no git here.
import type { ReadonlySessionManager } from "../../extensions/types.js";

export const CHECKPOINT_TYPE = "checkpoint";

export type CheckpointReason = "start" | "tool" | "turn" | "restore";

export interface CheckpointData {
	/** Shadow-store commit holding the work tree. */
	commit: string;
	reason: CheckpointReason;
	/** For "tool": the tool about to run and a short description of the call. */
	tool?: string;
	detail?: string;
	/** Files left out (over the size limit). */
	skipped?: string[];
	/** For "restore": the checkpoint restored and the state just before (to undo). */
	restoredTo?: string;
	undo?: string;
}

type Entry = ReturnType<ReadonlySessionManager["getBranch"]>[number];

export interface BranchCheckpoint {
	entryId: string;
	timestamp: string;
	data: CheckpointData;
}

function asCheckpoint(entry: Entry): BranchCheckpoint | undefined {
	if (entry.type !== "custom") return undefined;
	const e = entry as Entry & { customType?: string; data?: unknown };
	if (e.customType !== CHECKPOINT_TYPE) return undefined;
	const data = e.data as Partial<CheckpointData> | undefined;
	if (!data || typeof data.commit !== "string" || !/^[0-9a-f]{40,64}$/.test(data.commit)) return undefined;
	return { entryId: entry.id, timestamp: entry.timestamp, data: data as CheckpointData };
}

/** Checkpoints on the path from the root to `leafId` (the current leaf when omitted), oldest first. */
export function checkpointsOnBranch(sm: ReadonlySessionManager, leafId?: string | null): BranchCheckpoint[] {
	if (leafId === null) return [];
	// Only the custom entries are read: a resumed long session keeps its messages on disk.
	const branch = sm.getBranchEntries("custom", leafId);
	const out: BranchCheckpoint[] = [];
	for (const entry of branch) {
		const cp = asCheckpoint(entry);
		if (cp) out.push(cp);
	}
	return out;
}

/**
 * The work tree as it stood at `entryId`: the last checkpoint at or before it on its branch. At a
 * user message it is that prompt's own "start" checkpoint when there is one: the snapshot before a
 * prompt runs beside the model request, so it is recorded just below the user message (before the
 * reply; older sessions have it just above), yet it is the state before that message.
 */
export function checkpointAt(sm: ReadonlySessionManager, entryId: string | null): BranchCheckpoint | undefined {
	if (entryId === null) return undefined;
	return (
		(isUserMessage(sm.getEntry(entryId)) ? startCheckpointBelow(sm, entryId) : undefined) ??
		checkpointsOnBranch(sm, entryId).at(-1)
	);
}

/** The work tree just before `entryId` (a fork "before" it): at a user message, the state at it (above). */
export function checkpointBefore(sm: ReadonlySessionManager, entryId: string): BranchCheckpoint | undefined {
	const entry = sm.getEntry(entryId);
	if (isUserMessage(entry)) return checkpointAt(sm, entryId);
	return checkpointAt(sm, entry?.parentId ?? null);
}

function isUserMessage(entry: Entry | undefined): boolean {
	const message = (entry as (Entry & { message?: { role?: string } }) | undefined)?.message;
	return entry?.type === "message" && message?.role === "user";
}

/**
 * The "start" checkpoint recorded below the user message `userId`: a child of it, or below entries
 * that are not messages (another extension's custom entries). Undefined when that prompt's start
 * equalled the checkpoint before it (not recorded) or the session has it above the message.
 */
function startCheckpointBelow(sm: ReadonlySessionManager, userId: string): BranchCheckpoint | undefined {
	let level = [userId];
	for (let depth = 0; depth < 8 && level.length > 0; depth++) {
		const next: string[] = [];
		for (const id of level) {
			for (const child of sm.getChildren(id)) {
				const cp = asCheckpoint(child);
				if (cp?.data.reason === "start") return cp;
				if (child.type !== "message" && !cp) next.push(child.id);
			}
		}
		level = next;
	}
	return undefined;
}

/** Where the leaf lands when /tree selects `targetId`: before a user message, else on the entry. */
export function leafAfterTreeMove(sm: ReadonlySessionManager, targetId: string): string | null {
	const entry = sm.getEntry(targetId);
	if (!entry) return targetId;
	const message = (entry as Entry & { message?: { role?: string } }).message;
	if (entry.type === "message" && message?.role === "user") return entry.parentId;
	return targetId;
}

/**
 * Whether `id` is on the branch ending at the current leaf. The entry asked about is almost always
 * the leaf or a step or two above it (a /tree move may add a summary entry), so a few entries are
 * read first; only when it is not among them is the whole branch read (a resumed session's branch
 * is 100k entries, mostly on disk: reading them all cost a second and 100 MB).
 */
export function isOnCurrentBranch(sm: ReadonlySessionManager, id: string): boolean {
	let cur = sm.getLeafId();
	for (let steps = 0; cur !== null && steps < 16; steps++) {
		if (cur === id) return true;
		cur = sm.getEntry(cur)?.parentId ?? null;
	}
	if (cur === null) return false;
	return sm.getBranch().some((e) => e.id === id);
}

/** Every checkpoint commit a session file names (for pruning); tolerant of partial lines. */
export function commitsInSessionText(text: string): string[] {
	const out: string[] = [];
	for (const line of text.split("\n")) {
		if (!line.includes(`"${CHECKPOINT_TYPE}"`)) continue;
		try {
			const entry = JSON.parse(line) as { type?: string; customType?: string; data?: Partial<CheckpointData> };
			if (entry.type !== "custom" || entry.customType !== CHECKPOINT_TYPE || !entry.data) continue;
			for (const c of [entry.data.commit, entry.data.restoredTo, entry.data.undo])
				if (typeof c === "string") out.push(c);
		} catch {}
	}
	return out;
}

/** One line for a list: what the checkpoint is the state before or after. */
export function describeCheckpoint(cp: BranchCheckpoint): string {
	const time = cp.timestamp.slice(11, 19);
	const d = cp.data;
	switch (d.reason) {
		case "start":
			return `${time}  before the prompt`;
		case "turn":
			return `${time}  after the agent's changes`;
		case "restore":
			return `${time}  after a restore`;
		default:
			return `${time}  before ${d.tool ?? "a tool"}${d.detail ? `: ${d.detail}` : ""}`;
	}
}
