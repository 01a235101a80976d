// The session-lifecycle half of the extension contract that AgentSession's
// collaborators call: compaction (`session_before_compact`, `session_compact`)
// and tree navigation (`session_before_tree`, `session_tree`). The types live
// here, with the extension API; the compactor and navigateTree only call them.
// The extension runner installs one SessionLifecycleHooks object on the
// session (`AgentSession.setLifecycleHooks`); with none installed every hook
// is a no-op and compaction/navigation behave as without extensions.
import type { CompactionEntry } from "../session/types.js";
import type {
	SessionBeforeCompactEvent,
	SessionBeforeCompactResult,
	SessionBeforeTreeResult,
	SessionTreeEvent,
	TreePreparation,
} from "./events.js";

type Awaitable<T> = T | Promise<T>;

/** What `session_before_compact` handlers receive (without the event's `type`). */
export type BeforeCompactEvent = Omit<SessionBeforeCompactEvent, "type">;
/** A handler may cancel the compaction or supply the summary itself (first such answer wins). */
export type BeforeCompactResult = SessionBeforeCompactResult;
export type { TreePreparation };
/** A handler may cancel the move, supply the summary, or change instructions and label. */
export type BeforeTreeResult = SessionBeforeTreeResult;
/** What `session_tree` handlers receive after the leaf moved (without the event's `type`). */
export type TreeChangedEvent = Omit<SessionTreeEvent, "type">;

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
