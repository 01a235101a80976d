// Request, run/turn, message, model and user-input events (see events.ts for
// the dispatch rules).
import type { AgentMessage } from "@pi/agent-core";
import type {
	AssistantMessageEvent,
	ImageContent,
	Message,
	Model,
	TextContent,
	ThinkingLevel,
	ToolResultMessage,
	Usage,
} from "@pi/ai";
import type { CustomMessage } from "../messages.js";
import type { ContextEditEntry, ProjectedSessionEntry } from "../session/types.js";
import type { BashResult } from "../tools/bash.js";
import type { BashOperations } from "../tools/bash-process.js";

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
/**
 * last-wins: before each prompt-cache refresh (docs/cache-warming.md), with
 * pi's decision filled in; the last handler returning an action decides. A
 * throw is reported and does not change the decision. Everything else (model,
 * idle state, context size) is on `ctx`.
 */
export interface CacheWarmingDecisionEvent {
	type: "cache_warming_decision";
	/** $ of this refresh: the prompt read from the cache plus one output token. */
	warmCost: number;
	/** $ the next real request pays extra if the cache entry is lost. */
	missCost: number;
	/** pi's estimate that a real request arrives before the entry expires (1 during a run, 0.15 idle). */
	continuationProbability: number;
	/** pi's decision: "warm" when the expected savings reach $0.05. */
	action: "warm" | "stop";
}
export interface CacheWarmingDecisionEventResult {
	/** Overrides the decision: "warm" sends the refresh; "stop" ends warming until the next real request. */
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
