// The session-lifecycle half of the extension contract that AgentSession's
// collaborators call: compaction (`session_before_compact`, `session_compact`)
// and tree navigation (`session_before_tree`, `session_tree`). The types live
// here, with the extension API; the compactor and navigateTree only call them.
// The extension runner installs one SessionLifecycleHooks object on the
// session (`AgentSession.setLifecycleHooks`); with none installed every hook
// is a no-op and compaction/navigation behave as without extensions.
import type { CompactionPreparation } from "../agent-session/compaction/prepare.js";
import type { CompactionResult } from "../agent-session/compaction/summarize.js";
import type { CompactionReason } from "../agent-session/events.js";
import type { BranchSummaryEntry, CompactionEntry, SessionEntry } from "../session/types.js";

type Awaitable<T> = T | Promise<T>;

/** What `session_before_compact` handlers receive. */
export interface BeforeCompactEvent {
	preparation: CompactionPreparation;
	branchEntries: SessionEntry[];
	customInstructions?: string;
	reason: CompactionReason;
	willRetry: boolean;
	signal: AbortSignal;
}

/** A handler may cancel the compaction or supply the summary itself (first such answer wins). */
export interface BeforeCompactResult {
	cancel?: boolean;
	compaction?: CompactionResult;
}

/** What `session_before_tree` handlers receive. */
export interface TreePreparation {
	targetId: string;
	oldLeafId: string | null;
	commonAncestorId: string | null;
	entriesToSummarize: SessionEntry[];
	userWantsSummary: boolean;
	customInstructions?: string;
	replaceInstructions?: boolean;
	label?: string;
}

/** A handler may cancel the move, supply the summary, or change instructions and label. */
export interface BeforeTreeResult {
	cancel?: boolean;
	summary?: { summary: string; details?: unknown };
	customInstructions?: string;
	replaceInstructions?: boolean;
	label?: string;
}

/** What `session_tree` handlers receive after the leaf moved. */
export interface TreeChangedEvent {
	newLeafId: string | null;
	oldLeafId: string | null;
	summaryEntry?: BranchSummaryEntry;
	/** The summary came from a `session_before_tree` handler. */
	fromExtension?: boolean;
}

export interface SessionLifecycleHooks {
	/** `session_before_compact`. */
	beforeCompact?(event: BeforeCompactEvent): Awaitable<BeforeCompactResult | undefined>;
	/** `session_compact`: the compaction entry is stored. */
	afterCompact?(entry: CompactionEntry, fromExtension: boolean): Awaitable<void>;
	/** `session_before_tree`. */
	beforeTree?(preparation: TreePreparation): Awaitable<BeforeTreeResult | undefined>;
	/** `session_tree`. */
	afterTree?(event: TreeChangedEvent): Awaitable<void>;
}
