// Where a compaction cuts the projected context. Walks back from the newest
// entry adding up estimated tokens until `keepRecentTokens` are counted, then
// cuts so that at least that much stays verbatim (as both 1.x and 0.7x keep
// a long last prompt), at an entry a conversation may start with: never at a
// tool result (it would lose its call), and never inside the context an edit
// omitted.
// Works on projection slots, so omitted entries (no messages) neither count
// nor serve as cut points.
import type { AgentMessage } from "@pi/agent-core";
import type { ProjectedSessionEntry } from "../../session/types.js";
import { estimateTokens } from "./token-estimate.js";

/** Roles a kept range may begin with. */
const CUT_ROLES = new Set(["user", "assistant", "bashExecution", "custom", "branchSummary", "compactionSummary"]);
/** Roles that begin a turn (a new piece of input from outside the model). */
const TURN_START_ROLES = new Set(["user", "bashExecution", "custom", "branchSummary"]);

function firstRole(slot: ProjectedSessionEntry): string | undefined {
	const m = slot.messages[0] as AgentMessage | undefined;
	return m?.role;
}

export function isValidCutPoint(slot: ProjectedSessionEntry): boolean {
	const role = firstRole(slot);
	return role !== undefined && CUT_ROLES.has(role);
}

export function isTurnStart(slot: ProjectedSessionEntry): boolean {
	const role = firstRole(slot);
	return role !== undefined && TURN_START_ROLES.has(role);
}

export interface CutPointResult {
	/** Slot index of the first kept entry (`end` when nothing is kept). */
	firstKeptIndex: number;
	/** Slot index of the turn start when the cut splits a turn, else -1. */
	turnStartIndex: number;
	isSplitTurn: boolean;
}

/** Tokens a slot adds to the kept range; system messages ride along in the compaction's checkpoint. */
export function slotTokens(slot: ProjectedSessionEntry): number {
	let n = 0;
	for (const m of slot.messages) if (m.role !== "system") n += estimateTokens(m);
	return n;
}

export interface CutPointOptions {
	/**
	 * Keep at most about the budget instead of at least it: the first cut point
	 * at or after the slot where the budget is reached. Overflow recovery uses
	 * this, so the retried request is smaller for sure.
	 */
	atMost?: boolean;
}

function validAtOrBefore(slots: readonly ProjectedSessionEntry[], from: number, start: number): number {
	for (let j = from; j >= start; j--) if (isValidCutPoint(slots[j])) return j;
	return -1;
}

function validAtOrAfter(slots: readonly ProjectedSessionEntry[], from: number, end: number): number {
	for (let j = from; j < end; j++) if (isValidCutPoint(slots[j])) return j;
	return -1;
}

/**
 * Chooses the cut among `slots[start, end)`, walking back from the newest
 * slot until `keepRecentTokens` are counted, at slot `i`. By default at least
 * the budget is kept: the cut is at the start of the turn holding `i` (whole
 * turns stay together), unless that turn alone is over the budget — then it
 * is split at `i`, or at the nearest cut point before it (a tool result moves
 * to its call). With `atMost`, the first cut point at or after `i` (nearest
 * before when none follows). A budget never reached keeps everything.
 */
export function findCutPoint(
	slots: readonly ProjectedSessionEntry[],
	start: number,
	end: number,
	keepRecentTokens: number,
	options: CutPointOptions = {},
): CutPointResult {
	let cut = -1;
	let kept = 0;
	for (let i = end - 1; i >= start; i--) {
		kept += slotTokens(slots[i]);
		if (kept < keepRecentTokens) continue;
		if (options.atMost) {
			cut = validAtOrAfter(slots, i, end);
			if (cut < 0) cut = validAtOrBefore(slots, i - 1, start);
			break;
		}
		let turnStart = -1;
		for (let j = i; j >= start; j--) {
			if (isTurnStart(slots[j])) {
				turnStart = j;
				break;
			}
		}
		let turnEnd = end;
		for (let j = i + 1; j < end; j++) {
			if (isTurnStart(slots[j])) {
				turnEnd = j;
				break;
			}
		}
		let turnTokens = 0;
		for (let j = Math.max(turnStart, start); j < turnEnd; j++) turnTokens += slotTokens(slots[j]);
		if (turnStart >= 0 && turnTokens <= keepRecentTokens) cut = turnStart;
		else {
			cut = validAtOrBefore(slots, i, start);
			if (cut < 0) cut = validAtOrAfter(slots, i + 1, end);
		}
		break;
	}
	if (cut < 0) {
		// Everything fits: keep from the first entry that may start a context.
		cut = validAtOrAfter(slots, start, end);
		if (cut < 0) return { firstKeptIndex: start, turnStartIndex: -1, isSplitTurn: false };
	}
	// Entries without model content just before the cut (settings, labels,
	// omitted attempts) stay with what follows them.
	while (cut > start && slots[cut - 1].messages.length === 0 && slots[cut - 1].sourceEntry.type !== "compaction") {
		cut--;
	}
	let first = cut;
	while (first < end && slots[first].messages.length === 0) first++;
	if (first === end || isTurnStart(slots[first])) {
		return { firstKeptIndex: cut, turnStartIndex: -1, isSplitTurn: false };
	}
	for (let j = cut - 1; j >= start; j--) {
		if (isTurnStart(slots[j])) return { firstKeptIndex: cut, turnStartIndex: j, isSplitTurn: true };
	}
	return { firstKeptIndex: cut, turnStartIndex: -1, isSplitTurn: false };
}
