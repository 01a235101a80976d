// Start-up, resource and session events (see events.ts for the dispatch rules).
import type { Usage } from "@pi/ai";
import type { CompactionPreparation } from "../agent-session/compaction/prepare.js";
import type { CompactionResult } from "../agent-session/compaction/summarize.js";
import type { BranchSummaryEntry, CompactionEntry, SessionEntry } from "../session/types.js";
import type { RegisteredMcpServer } from "./mcp-servers.js";

// -- startup and resources ----------------------------------------------------------

/** first-block: the first "yes"/"no" decides; "undecided" passes on. Only global and -e extensions see it. */
export interface ProjectTrustEvent {
	type: "project_trust";
	cwd: string;
}
export type ProjectTrustEventDecision = "yes" | "no" | "undecided";
export interface ProjectTrustEventResult {
	trusted: ProjectTrustEventDecision;
	/** Save a yes/no decision for this folder. */
	remember?: boolean;
}

/** collect: every handler's paths are added (after session_start). */
export interface ResourcesDiscoverEvent {
	type: "resources_discover";
	cwd: string;
	reason: "startup" | "reload";
}
export interface ResourcesDiscoverResult {
	skillPaths?: string[];
	promptPaths?: string[];
	themePaths?: string[];
}

/**
 * notify: an extension registered or removed an MCP server once the session
 * was bound (servers registered while loading are read with
 * `pi.getMcpServers()` at `session_start`). An extension with a handler for
 * it is taken to be the one that connects registered servers; with none,
 * each registration is reported as an extension error.
 */
export interface McpServersChangeEvent {
	type: "mcp_servers_change";
	/** Every registered server after the change. */
	servers: RegisteredMcpServer[];
}

// -- session ---------------------------------------------------------------------------

/** notify. */
export interface SessionStartEvent {
	type: "session_start";
	reason: "startup" | "reload" | "new" | "resume" | "fork";
	previousSessionFile?: string;
}
/** notify. */
export interface SessionInfoChangedEvent {
	type: "session_info_changed";
	name: string | undefined;
}
/** cancel. */
export interface SessionBeforeSwitchEvent {
	type: "session_before_switch";
	reason: "new" | "resume";
	targetSessionFile?: string;
}
export interface SessionBeforeSwitchResult {
	cancel?: boolean;
}
/** cancel. */
export interface SessionBeforeForkEvent {
	type: "session_before_fork";
	entryId: string;
	position: "before" | "at";
}
export interface SessionBeforeForkResult {
	cancel?: boolean;
	skipConversationRestore?: boolean;
}
/** cancel, else the first handler that returns a `compaction` supplies the summary. */
export interface SessionBeforeCompactEvent {
	type: "session_before_compact";
	preparation: CompactionPreparation;
	branchEntries: SessionEntry[];
	customInstructions?: string;
	reason: "manual" | "threshold" | "overflow";
	willRetry: boolean;
	signal: AbortSignal;
}
export interface SessionBeforeCompactResult {
	cancel?: boolean;
	compaction?: CompactionResult;
}
/** notify. */
export interface SessionCompactEvent {
	type: "session_compact";
	compactionEntry: CompactionEntry;
	fromExtension: boolean;
	reason: "manual" | "threshold" | "overflow";
	willRetry: boolean;
}
/** notify. */
export interface SessionCompactFailedEvent {
	type: "session_compact_failed";
	reason: "manual" | "threshold" | "overflow";
	errorMessage?: string;
	aborted: boolean;
	willRetry: boolean;
	fromExtension: boolean;
}
/** notify (awaited before the runtime goes away). */
export interface SessionShutdownEvent {
	type: "session_shutdown";
	reason: "quit" | "reload" | "new" | "resume" | "fork";
	targetSessionFile?: string;
}
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
/** cancel, else later handlers' fields override earlier ones (summary, instructions, label). */
export interface SessionBeforeTreeEvent {
	type: "session_before_tree";
	preparation: TreePreparation;
	signal: AbortSignal;
}
export interface SessionBeforeTreeResult {
	cancel?: boolean;
	summary?: { summary: string; details?: unknown; usage?: Usage };
	customInstructions?: string;
	replaceInstructions?: boolean;
	label?: string;
}
/** notify. */
export interface SessionTreeEvent {
	type: "session_tree";
	newLeafId: string | null;
	oldLeafId: string | null;
	summaryEntry?: BranchSummaryEntry;
	fromExtension?: boolean;
}
export type SessionEvent =
	| SessionStartEvent
	| SessionInfoChangedEvent
	| SessionBeforeSwitchEvent
	| SessionBeforeForkEvent
	| SessionBeforeCompactEvent
	| SessionCompactEvent
	| SessionCompactFailedEvent
	| SessionShutdownEvent
	| SessionBeforeTreeEvent
	| SessionTreeEvent;
