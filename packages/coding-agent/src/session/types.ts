// Session file format (1.x, header version 3): one JSON object per line, a
// header first, then entries linked into a tree by id/parentId. The shapes
// and field names are the compatibility contract with other pi builds.
import type { AgentMessage } from "@pi/agent-core";
import type {
	AssistantMessage,
	ImageContent,
	SystemMessage,
	TextContent,
	ToolResultMessage,
	Usage,
	UserMessage,
} from "@pi/ai";
import type { CustomMessage } from "../messages.js";

/** Version written in new headers. Older files (1, 2) are migrated in memory on load. */
export const CURRENT_SESSION_VERSION = 3;

export interface SessionHeader {
	type: "session";
	/** Absent in version-1 files. */
	version?: number;
	id: string;
	timestamp: string;
	cwd: string;
	/** File this session was forked/cloned from. */
	parentSession?: string;
}

export interface SessionEntryBase {
	type: string;
	/** Usually 8 hex chars; may be a full UUID. */
	id: string;
	parentId: string | null;
	/** ISO 8601. */
	timestamp: string;
}

export interface SessionMessageEntry extends SessionEntryBase {
	type: "message";
	message: AgentMessage;
}

export interface ThinkingLevelChangeEntry extends SessionEntryBase {
	type: "thinking_level_change";
	thinkingLevel: string;
}

export interface ModelChangeEntry extends SessionEntryBase {
	type: "model_change";
	provider: string;
	modelId: string;
}

/** Model usage outside assistant messages (e.g. cache warming); never in context. */
export interface UsageEntry extends SessionEntryBase {
	type: "usage";
	kind: string;
	provider: string;
	model: string;
	usage: Usage;
	note?: string;
}

export interface CompactionEntry<T = unknown> extends SessionEntryBase {
	type: "compaction";
	summary: string;
	/** First entry kept verbatim; equal to this entry's own id when nothing is kept. */
	firstKeptEntryId: string;
	tokensBefore: number;
	details?: T;
	usage?: Usage;
	/** True when an extension produced the summary (legacy field name). */
	fromHook?: boolean;
	/** Replayed prompt + tools at the boundary; leads the compacted context. */
	systemMessage?: SystemMessage;
}

export interface BranchSummaryEntry<T = unknown> extends SessionEntryBase {
	type: "branch_summary";
	/** Leaf of the abandoned branch ("root" when there was none). */
	fromId: string;
	summary: string;
	details?: T;
	usage?: Usage;
	fromHook?: boolean;
}

/** Extension state; never part of the model context. */
export interface CustomEntry<T = unknown> extends SessionEntryBase {
	type: "custom";
	customType: string;
	data?: T;
}

/** Extension message that IS part of the model context (as user content). */
export interface CustomMessageEntry<T = unknown> extends SessionEntryBase {
	type: "custom_message";
	customType: string;
	content: string | (TextContent | ImageContent)[];
	details?: T;
	display: boolean;
}

export interface LabelEntry extends SessionEntryBase {
	type: "label";
	targetId: string;
	/** Absent/empty clears the label. */
	label: string | undefined;
}

export interface SessionInfoEntry extends SessionEntryBase {
	type: "session_info";
	name?: string;
}

export type ContextEditableContent =
	| UserMessage["content"]
	| AssistantMessage["content"]
	| ToolResultMessage["content"]
	| CustomMessage["content"];

/** Omits (null) or replaces the content of an earlier entry in the projection only. */
export interface ContextEditEntry extends SessionEntryBase {
	type: "context_edit";
	targetId: string;
	replacement: { content: ContextEditableContent } | null;
}

export type SessionEntry =
	| SessionMessageEntry
	| ThinkingLevelChangeEntry
	| ModelChangeEntry
	| UsageEntry
	| CompactionEntry
	| BranchSummaryEntry
	| CustomEntry
	| CustomMessageEntry
	| ContextEditEntry
	| LabelEntry
	| SessionInfoEntry;

export type FileEntry = SessionHeader | SessionEntry;

export interface SessionTreeNode {
	entry: SessionEntry;
	children: SessionTreeNode[];
	label?: string;
	labelTimestamp?: string;
}

export interface SessionModelRef {
	provider: string;
	modelId: string;
}

/** One selected entry and what it contributes to the model context. */
export interface ProjectedSessionEntry {
	sourceEntry: SessionEntry;
	/** Empty for state-only entries and omitted targets. */
	messages: AgentMessage[];
}

export interface SessionContext {
	messages: AgentMessage[];
	thinkingLevel: string;
	model: SessionModelRef | null;
}

export interface SessionProjection extends SessionContext {
	entries: ProjectedSessionEntry[];
}

/** A problem found while reading a session file; the rest of the file still loads. */
export interface SessionLoadWarning {
	file: string;
	/** 1-based line number. */
	line: number;
	/** Byte offset of the line's start. */
	byteOffset: number;
	message: string;
}

export interface NewSessionOptions {
	id?: string;
	parentSession?: string;
}
