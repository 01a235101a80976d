// Every event an extension can subscribe to (the 41 names of upstream 1.6.0),
// what a handler receives and what it may return. Each event says its
// dispatch rule; the runner (runner.ts) implements exactly these rules:
//   notify      return values are ignored; a throw is reported, the run goes on
//   chain       each handler receives what the previous one returned
//   first-block the first handler that blocks/handles/decides wins; later ones do not run
//   cancel      the first `{ cancel: true }` stops the operation
//   collect     every handler's contribution is gathered, in load order
//   last-wins   the last handler that returns a value decides
//   boundary    each handler sees (and may replace) the proposal so far
// Handlers run in extension load order, then registration order.
import type { AgentMessage } from "@pi/agent-core";
import type {
	AssistantMessageEvent,
	ImageContent,
	JsonValue,
	Message,
	Model,
	TextContent,
	ThinkingLevel,
	ToolResultMessage,
	Usage,
} from "@pi/ai";
import type { CompactionPreparation } from "../agent-session/compaction/prepare.js";
import type { CompactionResult } from "../agent-session/compaction/summarize.js";
import type { CustomMessage } from "../messages.js";
import type {
	BranchSummaryEntry,
	CompactionEntry,
	ContextEditEntry,
	ProjectedSessionEntry,
	SessionEntry,
} from "../session/types.js";
import type { BashResult } from "../tools/bash.js";
import type { BashOperations } from "../tools/bash-process.js";

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

/** notify: an MCP server was registered or removed after start-up. */
export interface McpServersChangeEvent {
	type: "mcp_servers_change";
	servers: { name: string; extensionPath: string; config: Record<string, unknown> }[];
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

// -- requests --------------------------------------------------------------------------

/**
 * chain: each handler gets the messages the previous one returned. The list
 * holds no system messages; the prompt and tools are put back in front
 * afterwards. Changes the request only, never the session file.
 */
export interface ContextEvent {
	type: "context";
	messages: AgentMessage[];
}
/** chain, after `context`: the full transcript including system messages; sent as returned. */
export interface ContextWithSystemEvent {
	type: "context_with_system";
	messages: AgentMessage[];
}
export interface ContextEventResult {
	messages?: AgentMessage[];
}
/** last-wins: the last handler returning an action decides. */
export interface CacheWarmingDecisionEvent {
	type: "cache_warming_decision";
	warmCost: number;
	missCost: number;
	continuationProbability: number;
	action: "warm" | "stop";
}
export interface CacheWarmingDecisionEventResult {
	action?: "warm" | "stop";
}
/** chain: a handler returning a value (not undefined) replaces the payload for later handlers and the request. */
export interface BeforeProviderRequestEvent {
	type: "before_provider_request";
	payload: unknown;
}
export type BeforeProviderRequestEventResult = unknown;
/** in-place: handlers mutate `headers` (null deletes); return values are ignored. */
export interface BeforeProviderHeadersEvent {
	type: "before_provider_headers";
	headers: Record<string, string | null>;
}
/** notify: status and headers, before the body is read. */
export interface AfterProviderResponseEvent {
	type: "after_provider_response";
	status: number;
	headers: Record<string, string>;
}
/** notify: a parsed provider stream event before normalisation (read-only). */
export interface ProviderStreamEvent {
	type: "provider_stream_event";
	provider: string;
	api: string;
	model: string;
	data: unknown;
}

// -- runs and turns ----------------------------------------------------------------------

/** Inputs of the system prompt, as far as this build has them. Mutable; later handlers see changes. */
export interface SystemPromptOptions {
	customPrompt?: string;
	forceSystemPrompt?: string;
	selectedTools: string[];
	appendSystemPrompt?: string;
	cwd: string;
	contextFiles: { path: string; content: string }[];
	skills: { name: string; description: string; filePath: string }[];
}

interface BeforeAgentStartEventBase {
	type: "before_agent_start";
	/** The prompt as changed by earlier handlers. */
	readonly systemPrompt: string;
	systemPromptOptions: SystemPromptOptions;
}
export interface BeforeAgentStartUserEvent extends BeforeAgentStartEventBase {
	messageType: "user";
	prompt: string;
	images?: ImageContent[];
}
export interface BeforeAgentStartCustomEvent extends BeforeAgentStartEventBase {
	messageType: "custom";
	message: CustomMessage;
}
/**
 * collect + chain: every returned `message` is injected (in load order);
 * `systemPrompt` chains, the last one is forced on the run's requests.
 */
export type BeforeAgentStartEvent = BeforeAgentStartUserEvent | BeforeAgentStartCustomEvent;
export interface BeforeAgentStartEventResult {
	message?: Pick<CustomMessage, "customType" | "content" | "display" | "details">;
	systemPrompt?: string;
}

/** notify. */
export interface AgentStartEvent {
	type: "agent_start";
}
/** notify. */
export interface AgentEndEvent {
	type: "agent_end";
	messages: AgentMessage[];
}
export type AgentActivityOutcome = "completed" | "aborted" | "error";

export interface CustomEntryDraft {
	type: "custom";
	customType: string;
	data?: unknown;
}
export interface CustomMessageEntryDraft {
	type: "custom_message";
	customType: string;
	content: string | (TextContent | ImageContent)[];
	display: boolean;
	details?: unknown;
}
export interface ContextEditEntryDraft {
	type: "context_edit";
	targetId: string;
	replacement: ContextEditEntry["replacement"];
}
export interface CompactionEntryDraft {
	type: "compaction";
	summary: string;
	firstKeptEntryId: string | null;
	details?: unknown;
	usage?: Usage;
}
export type SessionBoundaryDraft =
	| CustomEntryDraft
	| CustomMessageEntryDraft
	| ContextEditEntryDraft
	| CompactionEntryDraft;
export interface BoundaryContextPreview {
	contextEntries: ProjectedSessionEntry[];
	contextMessages: AgentMessage[];
	llmMessages: Message[];
	pendingMessages: AgentMessage[];
	canContinue: boolean;
}
export interface BoundaryState {
	entries: SessionBoundaryDraft[];
	continue: boolean;
	context: BoundaryContextPreview;
	outcome: AgentActivityOutcome;
}
/** Returned fields replace the proposal's; omitted fields keep it. */
export interface BoundaryResult {
	entries?: SessionBoundaryDraft[];
	continue?: boolean;
}
/** boundary. */
export interface AgentBeforeSettleEvent extends BoundaryState {
	type: "agent_before_settle";
}
export type AgentBeforeSettleEventResult = BoundaryResult;
/** notify: nothing more will run by itself. */
export interface AgentSettledEvent {
	type: "agent_settled";
	aborted: boolean;
}
export type UIPromptKind = "select" | "confirm" | "input" | "editor" | "custom";
/** notify (not awaited). */
export interface UIPromptStartEvent {
	type: "ui_prompt_start";
	reason: "ui_prompt";
	kind: UIPromptKind;
	title?: string;
}
/** notify (not awaited). */
export interface UIPromptEndEvent {
	type: "ui_prompt_end";
	reason: "ui_prompt";
	kind: UIPromptKind;
	title?: string;
}
/** notify. */
export interface TurnStartEvent {
	type: "turn_start";
	turnIndex: number;
	timestamp: number;
}
/** boundary. */
export interface TurnEndEvent extends BoundaryState {
	type: "turn_end";
	turnIndex: number;
	message: AgentMessage;
	toolResults: ToolResultMessage[];
	messageEntryId: string;
	toolResultEntryIds: string[];
}
export type TurnEndEventResult = BoundaryResult;

// -- messages ------------------------------------------------------------------------------

/** notify. */
export interface MessageStartEvent {
	type: "message_start";
	message: AgentMessage;
}
/** notify. */
export interface MessageUpdateEvent {
	type: "message_update";
	message: AgentMessage;
	assistantMessageEvent: AssistantMessageEvent;
}
/** chain: a returned `message` (same role) replaces the finalised message for later handlers and the session. */
export interface MessageEndEvent {
	type: "message_end";
	message: AgentMessage;
}
export interface MessageEndEventResult {
	message?: AgentMessage;
}

// -- tools ------------------------------------------------------------------------------------

/** notify. */
export interface ToolExecutionStartEvent {
	type: "tool_execution_start";
	toolCallId: string;
	toolName: string;
	args: unknown;
	parentToolCallId?: string;
}
/** notify. */
export interface ToolExecutionUpdateEvent {
	type: "tool_execution_update";
	toolCallId: string;
	toolName: string;
	args: unknown;
	partialResult: unknown;
	parentToolCallId?: string;
}
/** notify. */
export interface ToolExecutionEndEvent {
	type: "tool_execution_end";
	toolCallId: string;
	toolName: string;
	result: unknown;
	isError: boolean;
	durationMs?: number;
	parentToolCallId?: string;
}

export interface BashToolInput {
	command: string;
	timeout?: number;
}
export interface ReadToolInput {
	path: string;
	offset?: number;
	limit?: number;
}
export interface EditToolInput {
	path: string;
	edits: { oldText: string; newText: string }[];
}
export interface WriteToolInput {
	path: string;
	content: string;
}
export interface GrepToolInput {
	pattern: string;
	path?: string;
	glob?: string;
	ignoreCase?: boolean;
	literal?: boolean;
	context?: number;
	limit?: number;
}
export interface FindToolInput {
	pattern: string;
	path?: string;
	limit?: number;
}
export interface LsToolInput {
	path?: string;
	limit?: number;
}

interface ToolCallEventBase {
	type: "tool_call";
	toolCallId: string;
	parentToolCallId?: string;
}
export interface BashToolCallEvent extends ToolCallEventBase {
	toolName: "bash";
	input: BashToolInput;
}
export interface ReadToolCallEvent extends ToolCallEventBase {
	toolName: "read";
	input: ReadToolInput;
}
export interface EditToolCallEvent extends ToolCallEventBase {
	toolName: "edit";
	input: EditToolInput;
}
export interface WriteToolCallEvent extends ToolCallEventBase {
	toolName: "write";
	input: WriteToolInput;
}
export interface GrepToolCallEvent extends ToolCallEventBase {
	toolName: "grep";
	input: GrepToolInput;
}
export interface FindToolCallEvent extends ToolCallEventBase {
	toolName: "find";
	input: FindToolInput;
}
export interface LsToolCallEvent extends ToolCallEventBase {
	toolName: "ls";
	input: LsToolInput;
}
export interface CustomToolCallEvent extends ToolCallEventBase {
	toolName: string;
	input: Record<string, unknown>;
}
/**
 * first-block, fail closed: the first `{ block: true }` wins; a handler that
 * throws blocks the call too. `input` is mutable in place and later handlers
 * see the changes; the mutated input is what executes.
 */
export type ToolCallEvent =
	| BashToolCallEvent
	| ReadToolCallEvent
	| EditToolCallEvent
	| WriteToolCallEvent
	| GrepToolCallEvent
	| FindToolCallEvent
	| LsToolCallEvent
	| CustomToolCallEvent;
export interface ToolCallEventResult {
	block?: boolean;
	reason?: string;
	terminate?: boolean;
}

interface ToolResultEventBase {
	type: "tool_result";
	toolCallId: string;
	parentToolCallId?: string;
	input: Record<string, unknown>;
	content: (TextContent | ImageContent)[];
	structuredContent?: JsonValue;
	isError: boolean;
	usage?: Usage;
}
export interface BashToolResultEvent extends ToolResultEventBase {
	toolName: "bash";
	details: unknown;
}
export interface ReadToolResultEvent extends ToolResultEventBase {
	toolName: "read";
	details: unknown;
}
export interface EditToolResultEvent extends ToolResultEventBase {
	toolName: "edit";
	details: unknown;
}
export interface WriteToolResultEvent extends ToolResultEventBase {
	toolName: "write";
	details: undefined;
}
export interface GrepToolResultEvent extends ToolResultEventBase {
	toolName: "grep";
	details: unknown;
}
export interface FindToolResultEvent extends ToolResultEventBase {
	toolName: "find";
	details: unknown;
}
export interface LsToolResultEvent extends ToolResultEventBase {
	toolName: "ls";
	details: unknown;
}
export interface CustomToolResultEvent extends ToolResultEventBase {
	toolName: string;
	details: unknown;
}
/** chain: each handler sees the result as patched by earlier ones; omitted fields stay. */
export type ToolResultEvent =
	| BashToolResultEvent
	| ReadToolResultEvent
	| EditToolResultEvent
	| WriteToolResultEvent
	| GrepToolResultEvent
	| FindToolResultEvent
	| LsToolResultEvent
	| CustomToolResultEvent;
/** Replacing `content` without `structuredContent` drops the structured content. */
export interface ToolResultEventResult {
	content?: (TextContent | ImageContent)[];
	details?: unknown;
	structuredContent?: JsonValue;
	isError?: boolean;
	usage?: Usage;
}

// -- model ---------------------------------------------------------------------------------------

export type ModelSelectSource = "set" | "cycle" | "restore";
/** notify. */
export interface ModelSelectEvent {
	type: "model_select";
	model: Model;
	previousModel: Model | undefined;
	source: ModelSelectSource;
}
/** notify. */
export interface ThinkingLevelSelectEvent {
	type: "thinking_level_select";
	level: ThinkingLevel;
	previousLevel: ThinkingLevel;
}

// -- user input ------------------------------------------------------------------------------------

/** first-block: the first handler returning `operations` or `result` handles the command; a throw blocks it. */
export interface UserBashEvent {
	type: "user_bash";
	command: string;
	excludeFromContext: boolean;
	cwd: string;
}
export type UserBashEventResult =
	| { operations: BashOperations; result?: never }
	| { operations?: never; result: Pick<BashResult, "output" | "exitCode" | "cancelled" | "truncated"> };

export type InputSource = "interactive" | "rpc" | "extension";
/** chain + first-block: transforms chain; the first "handled" ends input handling (no model request). */
export interface InputEvent {
	type: "input";
	text: string;
	images?: ImageContent[];
	source: InputSource;
	streamingBehavior?: "steer" | "followUp";
}
export type InputEventResult =
	| { action: "continue" }
	| { action: "transform"; text: string; images?: ImageContent[] }
	| { action: "handled" };

// -- the table ------------------------------------------------------------------------------------------

/** Event name → [event, what a handler may return]. The source of `pi.on`'s overloads. */
export interface ExtensionEventMap {
	project_trust: [ProjectTrustEvent, ProjectTrustEventResult];
	resources_discover: [ResourcesDiscoverEvent, ResourcesDiscoverResult];
	mcp_servers_change: [McpServersChangeEvent, undefined];
	session_start: [SessionStartEvent, undefined];
	session_info_changed: [SessionInfoChangedEvent, undefined];
	session_before_switch: [SessionBeforeSwitchEvent, SessionBeforeSwitchResult];
	session_before_fork: [SessionBeforeForkEvent, SessionBeforeForkResult];
	session_before_compact: [SessionBeforeCompactEvent, SessionBeforeCompactResult];
	session_compact: [SessionCompactEvent, undefined];
	session_compact_failed: [SessionCompactFailedEvent, undefined];
	session_shutdown: [SessionShutdownEvent, undefined];
	session_before_tree: [SessionBeforeTreeEvent, SessionBeforeTreeResult];
	session_tree: [SessionTreeEvent, undefined];
	context: [ContextEvent, ContextEventResult];
	context_with_system: [ContextWithSystemEvent, ContextEventResult];
	cache_warming_decision: [CacheWarmingDecisionEvent, CacheWarmingDecisionEventResult];
	before_provider_request: [BeforeProviderRequestEvent, BeforeProviderRequestEventResult];
	before_provider_headers: [BeforeProviderHeadersEvent, undefined];
	after_provider_response: [AfterProviderResponseEvent, undefined];
	provider_stream_event: [ProviderStreamEvent, undefined];
	before_agent_start: [BeforeAgentStartEvent, BeforeAgentStartEventResult];
	agent_start: [AgentStartEvent, undefined];
	agent_end: [AgentEndEvent, undefined];
	agent_before_settle: [AgentBeforeSettleEvent, AgentBeforeSettleEventResult];
	agent_settled: [AgentSettledEvent, undefined];
	ui_prompt_start: [UIPromptStartEvent, undefined];
	ui_prompt_end: [UIPromptEndEvent, undefined];
	turn_start: [TurnStartEvent, undefined];
	turn_end: [TurnEndEvent, TurnEndEventResult];
	message_start: [MessageStartEvent, undefined];
	message_update: [MessageUpdateEvent, undefined];
	message_end: [MessageEndEvent, MessageEndEventResult];
	tool_execution_start: [ToolExecutionStartEvent, undefined];
	tool_execution_update: [ToolExecutionUpdateEvent, undefined];
	tool_execution_end: [ToolExecutionEndEvent, undefined];
	model_select: [ModelSelectEvent, undefined];
	thinking_level_select: [ThinkingLevelSelectEvent, undefined];
	tool_call: [ToolCallEvent, ToolCallEventResult];
	tool_result: [ToolResultEvent, ToolResultEventResult];
	user_bash: [UserBashEvent, UserBashEventResult];
	input: [InputEvent, InputEventResult];
}
export type ExtensionEventName = keyof ExtensionEventMap;
export type ExtensionEvent = ExtensionEventMap[ExtensionEventName][0];

/** Every event name, in the order of the table above (41). */
export const EXTENSION_EVENT_NAMES: readonly ExtensionEventName[] = [
	"project_trust",
	"resources_discover",
	"mcp_servers_change",
	"session_start",
	"session_info_changed",
	"session_before_switch",
	"session_before_fork",
	"session_before_compact",
	"session_compact",
	"session_compact_failed",
	"session_shutdown",
	"session_before_tree",
	"session_tree",
	"context",
	"context_with_system",
	"cache_warming_decision",
	"before_provider_request",
	"before_provider_headers",
	"after_provider_response",
	"provider_stream_event",
	"before_agent_start",
	"agent_start",
	"agent_end",
	"agent_before_settle",
	"agent_settled",
	"ui_prompt_start",
	"ui_prompt_end",
	"turn_start",
	"turn_end",
	"message_start",
	"message_update",
	"message_end",
	"tool_execution_start",
	"tool_execution_update",
	"tool_execution_end",
	"model_select",
	"thinking_level_select",
	"tool_call",
	"tool_result",
	"user_bash",
	"input",
];

// -- narrowing helpers (the reference's names) ----------------------------------------------------------

type BuiltinCall = {
	bash: BashToolCallEvent;
	read: ReadToolCallEvent;
	edit: EditToolCallEvent;
	write: WriteToolCallEvent;
	grep: GrepToolCallEvent;
	find: FindToolCallEvent;
	ls: LsToolCallEvent;
};

/** Narrows a tool_call event by tool name; custom tools pass their input type explicitly. */
export function isToolCallEventType<N extends keyof BuiltinCall>(
	toolName: N,
	event: ToolCallEvent,
): event is BuiltinCall[N];
export function isToolCallEventType<N extends string, I extends Record<string, unknown>>(
	toolName: N,
	event: ToolCallEvent,
): event is ToolCallEvent & { toolName: N; input: I };
export function isToolCallEventType(toolName: string, event: ToolCallEvent): boolean {
	return event.toolName === toolName;
}

export const isBashToolResult = (e: ToolResultEvent): e is BashToolResultEvent => e.toolName === "bash";
export const isReadToolResult = (e: ToolResultEvent): e is ReadToolResultEvent => e.toolName === "read";
export const isEditToolResult = (e: ToolResultEvent): e is EditToolResultEvent => e.toolName === "edit";
export const isWriteToolResult = (e: ToolResultEvent): e is WriteToolResultEvent => e.toolName === "write";
export const isGrepToolResult = (e: ToolResultEvent): e is GrepToolResultEvent => e.toolName === "grep";
export const isFindToolResult = (e: ToolResultEvent): e is FindToolResultEvent => e.toolName === "find";
export const isLsToolResult = (e: ToolResultEvent): e is LsToolResultEvent => e.toolName === "ls";
