/**
 * The answer of the tools that list (find, ls, grep): the lines within the
 * byte cap, whole lines only, then one notice for each limit that cut the
 * list, and the details that record each cut (none when nothing was cut).
 */
import type { AgentToolResult } from "@pi/agent-core";
import { appendNotices, notices } from "./notices.js";
import { type TruncationResult, truncateHead } from "./truncate.js";

/** One limit that cut the list: the notice for the model and what it adds to the details. */
export interface ListingCut<D> {
	notice: string;
	details: Partial<D>;
}

/**
 * `countLimit`: the tool's own limit (results, entries, matches), noted before
 * the byte cap; `after`: a cut noted after it (grep's shortened lines).
 */
export function listingResult<D extends { truncation?: TruncationResult }>(
	lines: readonly string[],
	cuts: { countLimit?: ListingCut<D>; after?: ListingCut<D> },
): AgentToolResult<D | undefined> {
	const truncation = truncateHead(lines.join("\n"), { maxLines: Number.MAX_SAFE_INTEGER });
	const details: Partial<D> = {};
	const notes: string[] = [];
	const note = (cut: ListingCut<D> | undefined) => {
		if (!cut) return;
		notes.push(cut.notice);
		Object.assign(details, cut.details);
	};
	note(cuts.countLimit);
	if (truncation.truncated) note({ notice: notices.byteLimit(), details: { truncation } as Partial<D> });
	note(cuts.after);
	return {
		content: [{ type: "text", text: appendNotices(truncation.content, notes) }],
		details: Object.keys(details).length > 0 ? (details as D) : undefined,
	};
}
