// The session-lifecycle half of the extension contract that AgentSession and
// its collaborators call: compaction (`session_before_compact`,
// `session_compact`), tree navigation (`session_before_tree`, `session_tree`),
// session replacement gates (`session_before_switch`, `session_before_fork`),
// the message and turn boundaries (`message_end`, `turn_end`,
// `agent_before_settle`), user commands (`user_bash`) and model/level choices
// (`model_select`, `thinking_level_select`). The types live here, with the
// extension API; the session only calls them. The extension bridge installs
// one SessionLifecycleHooks object on the session
// (`AgentSession.setLifecycleHooks`); with none installed every hook is a
// no-op and the session behaves as without extensions. A caller of the
// session (RPC, the interactive app, an extension's ctx) therefore reaches the
// same gates whichever path it takes.
import type { AgentMessage } from "@pi/agent-core";
import type { Model, ThinkingLevel, ToolResultMessage } from "@pi/ai";
import type { CompactionEntry } from "../session/types.js";
import type {
	AgentActivityOutcome,
	BoundaryContextPreview,
	BoundaryResult,
	ModelSelectSource,
	SessionBeforeCompactEvent,
	SessionBeforeCompactResult,
	SessionBeforeForkResult,
	SessionBeforeSwitchResult,
	SessionBeforeTreeResult,
	SessionBoundaryDraft,
	SessionTreeEvent,
	TreePreparation,
	UserBashEventResult,
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

/** A turn boundary as the session sees it; the hook adds the proposal (entries, continue) and preview. */
export interface TurnBoundary {
	message: AgentMessage;
	toolResults: ToolResultMessage[];
	messageEntryId: string;
	toolResultEntryIds: string[];
	outcome: AgentActivityOutcome;
}

/** Builds the context preview for a proposal (the session's branch with the drafts applied). */
export type BoundaryPreview = (entries: SessionBoundaryDraft[]) => BoundaryContextPreview;

/** The result of a boundary: the drafts to append (in order) and whether one more request is wanted. */
export type BoundaryDecision = Required<BoundaryResult>;

/** How the session runs a `!cmd` a handler took over: its own backend, or a finished result. */
export type UserBashDecision = UserBashEventResult | undefined;

export interface CompactInfo {
	reason: "manual" | "threshold" | "overflow";
	willRetry: boolean;
}

export interface SessionLifecycleHooks {
	/** `session_before_compact`. */
	beforeCompact?(event: BeforeCompactEvent): Awaitable<BeforeCompactResult | undefined>;
	/** `session_compact`: the compaction entry is stored. */
	afterCompact?(entry: CompactionEntry, fromExtension: boolean, info: CompactInfo): Awaitable<void>;
	/** `session_before_tree`. */
	beforeTree?(preparation: TreePreparation): Awaitable<BeforeTreeResult | undefined>;
	/** `session_tree`. */
	afterTree?(event: TreeChangedEvent): Awaitable<void>;
	/** `session_before_switch`: `{ cancel: true }` keeps the current session. */
	beforeSwitch?(event: {
		reason: "new" | "resume";
		targetSessionFile?: string;
	}): Awaitable<SessionBeforeSwitchResult | undefined>;
	/** `session_before_fork` (fork: "before", clone: "at"). */
	beforeFork?(event: { entryId: string; position: "before" | "at" }): Awaitable<SessionBeforeForkResult | undefined>;
	/** `message_end`: returns the message to record (a replacement of the same role, or the message itself). */
	messageEnd?(message: AgentMessage): Awaitable<AgentMessage>;
	/** `turn_end`: after the turn's messages are recorded, before the next request is decided. */
	turnEnd?(turn: TurnBoundary, proposal: BoundaryDecision, preview: BoundaryPreview): Awaitable<BoundaryDecision>;
	/** `agent_before_settle`: the last point where entries and one continuation may be added. */
	beforeSettle?(
		outcome: AgentActivityOutcome,
		proposal: BoundaryDecision,
		preview: BoundaryPreview,
	): Awaitable<BoundaryDecision>;
	/** `user_bash`: a handler may run the command itself or through its own backend; a throw blocks it. */
	userBash?(event: { command: string; excludeFromContext: boolean; cwd: string }): Awaitable<UserBashDecision>;
	/** `model_select`. */
	modelSelect?(event: { model: Model; previousModel: Model | undefined; source: ModelSelectSource }): Awaitable<void>;
	/** `thinking_level_select`. */
	thinkingLevelSelect?(event: { level: ThinkingLevel; previousLevel: ThinkingLevel }): Awaitable<void>;
	/** A boundary proposal the session could not apply (reported like a handler error). */
	reportError?(event: string, message: string): void;
}
