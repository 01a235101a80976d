// The RPC protocol's records (`pi --mode rpc`): commands on stdin, responses,
// session events and extension-UI requests on stdout. Names and shapes follow
// the reference builds' rpc docs (0.73.1 and the 1.6.0 additions: clear_queue,
// get_available_thinking_levels, clone, get_entries, get_tree, dispositions,
// bash_execution_update); see docs/rpc.md for where we differ and why.
import type { AgentMessage } from "@pi/agent-core";
import type { ImageContent, Model, ThinkingLevel } from "@pi/ai";
import type { CompactionResult } from "../../agent-session/compaction/summarize.js";
import type { SessionStats } from "../../agent-session/session-stats.js";
import type { QueueMode } from "../../config/settings.js";
import type { WidgetPlacement } from "../../extensions/ui-types.js";
import type { SessionEntry, SessionTreeNode } from "../../session/types.js";
import type { JsonAgentSessionEvent } from "./wire-event.js";

type Cmd<T extends string, F = unknown> = { id?: string; type: T } & F;

export type RpcCommand =
	| Cmd<"prompt", { message: string; images?: ImageContent[]; streamingBehavior?: "steer" | "followUp" }>
	| Cmd<"steer", { message: string; images?: ImageContent[] }>
	| Cmd<"follow_up", { message: string; images?: ImageContent[] }>
	| Cmd<"abort">
	| Cmd<"clear_queue">
	| Cmd<"new_session", { parentSession?: string }>
	| Cmd<"get_state">
	| Cmd<"set_model", { provider: string; modelId: string }>
	| Cmd<"cycle_model">
	| Cmd<"get_available_models">
	| Cmd<"set_thinking_level", { level: ThinkingLevel }>
	| Cmd<"cycle_thinking_level">
	| Cmd<"get_available_thinking_levels">
	| Cmd<"set_steering_mode", { mode: QueueMode }>
	| Cmd<"set_follow_up_mode", { mode: QueueMode }>
	| Cmd<"compact", { customInstructions?: string }>
	| Cmd<"set_auto_compaction", { enabled: boolean }>
	| Cmd<"set_auto_retry", { enabled: boolean }>
	| Cmd<"abort_retry">
	| Cmd<"bash", { command: string; excludeFromContext?: boolean }>
	| Cmd<"abort_bash">
	| Cmd<"get_session_stats">
	| Cmd<"export_html", { outputPath?: string }>
	| Cmd<"switch_session", { sessionPath: string }>
	| Cmd<"fork", { entryId: string }>
	| Cmd<"clone">
	| Cmd<"get_fork_messages">
	| Cmd<"get_entries", { since?: string }>
	| Cmd<"get_tree">
	| Cmd<"get_last_assistant_text">
	| Cmd<"set_session_name", { name: string }>
	| Cmd<"get_messages">
	| Cmd<"get_commands">;

export type RpcCommandType = RpcCommand["type"];

/** What happened to a submitted prompt: a run started, it was queued, or something consumed it. */
export type PromptDisposition = "started" | "queued" | "handled";
export type QueuedInputDisposition = "queued" | "handled";

export interface RpcSessionState {
	/** Absent when no model is selected. */
	model?: Model;
	thinkingLevel: ThinkingLevel;
	isStreaming: boolean;
	isCompacting: boolean;
	steeringMode: QueueMode;
	followUpMode: QueueMode;
	/** Absent for an in-memory session (--no-session). */
	sessionFile?: string;
	sessionId: string;
	/** Absent until a name is set. */
	sessionName?: string;
	autoCompactionEnabled: boolean;
	messageCount: number;
	pendingMessageCount: number;
}

export interface RpcSessionStats extends Omit<SessionStats, "sessionFile"> {
	sessionFile?: string;
	/** Absent when there is no model or its window is unknown. */
	contextUsage?: { tokens: number | null; contextWindow: number; percent: number | null };
}

export interface RpcBashResult {
	output: string;
	/** Absent when the process ended by a signal (or never started). */
	exitCode?: number;
	cancelled: boolean;
	truncated: boolean;
	fullOutputPath?: string;
}

export interface RpcSlashCommand {
	name: string;
	description?: string;
	source: "extension" | "prompt" | "skill";
	sourceInfo: {
		path: string;
		source: string;
		scope: "user" | "project" | "temporary";
		origin: "package" | "top-level";
		baseDir?: string;
	};
}

/** The `data` of a successful response, per command (absent where the value is `undefined`). */
export interface RpcResponseData {
	prompt: { disposition: PromptDisposition };
	steer: { disposition: QueuedInputDisposition };
	follow_up: { disposition: QueuedInputDisposition };
	abort: undefined;
	clear_queue: { steering: string[]; followUp: string[] };
	new_session: { cancelled: boolean };
	get_state: RpcSessionState;
	set_model: Model;
	cycle_model: { model: Model; thinkingLevel: ThinkingLevel; isScoped: boolean } | null;
	get_available_models: { models: Model[] };
	set_thinking_level: undefined;
	cycle_thinking_level: { level: ThinkingLevel } | null;
	get_available_thinking_levels: { levels: ThinkingLevel[] };
	set_steering_mode: undefined;
	set_follow_up_mode: undefined;
	compact: CompactionResult;
	set_auto_compaction: undefined;
	set_auto_retry: undefined;
	abort_retry: undefined;
	bash: RpcBashResult;
	abort_bash: undefined;
	get_session_stats: RpcSessionStats;
	export_html: { path: string };
	switch_session: { cancelled: boolean };
	fork: { text: string; cancelled: boolean };
	clone: { cancelled: boolean };
	get_fork_messages: { messages: { entryId: string; text: string }[] };
	get_entries: { entries: SessionEntry[]; leafId: string | null };
	get_tree: { tree: SessionTreeNode[]; leafId: string | null };
	get_last_assistant_text: { text: string | null };
	set_session_name: undefined;
	get_messages: { messages: AgentMessage[] };
	get_commands: { commands: RpcSlashCommand[] };
}

export type RpcSuccessResponse<T extends RpcCommandType = RpcCommandType> = {
	[K in T]: RpcResponseData[K] extends undefined
		? { id?: string; type: "response"; command: K; success: true }
		: { id?: string; type: "response"; command: K; success: true; data: RpcResponseData[K] };
}[T];

export interface RpcErrorResponse {
	id?: string;
	type: "response";
	/** The command's type; "parse" when the line could not be read as a command at all. */
	command: string;
	success: false;
	error: string;
}

export type RpcResponse = RpcSuccessResponse | RpcErrorResponse;

// -- extension UI sub-protocol ----------------------------------------------------

type UiReq<M extends string, F> = { type: "extension_ui_request"; id: string; method: M } & F;

export type RpcExtensionUIRequest =
	| UiReq<"select", { title: string; options: string[]; timeout?: number }>
	| UiReq<"confirm", { title: string; message: string; timeout?: number }>
	| UiReq<"input", { title: string; placeholder?: string; timeout?: number }>
	| UiReq<"editor", { title: string; prefill?: string }>
	| UiReq<"notify", { message: string; notifyType?: "info" | "warning" | "error" }>
	| UiReq<"setStatus", { statusKey: string; statusText: string | undefined }>
	| UiReq<"setWidget", { widgetKey: string; widgetLines: string[] | undefined; widgetPlacement?: WidgetPlacement }>
	| UiReq<"setTitle", { title: string }>
	| UiReq<"set_editor_text", { text: string }>;

export type { WidgetPlacement };

export type RpcExtensionUIResponse =
	| { type: "extension_ui_response"; id: string; value: string }
	| { type: "extension_ui_response"; id: string; confirmed: boolean }
	| { type: "extension_ui_response"; id: string; cancelled: true };

// -- events beyond the session's own ----------------------------------------------

/** Output of a running `bash` command; `id` is the command's id when it had one. */
export interface RpcBashExecutionUpdate {
	type: "bash_execution_update";
	id?: string;
	delta: string;
}

/** An extension handler threw (emitted by the extension bridge). */
export interface RpcExtensionError {
	type: "extension_error";
	extensionPath: string;
	event: string;
	error: string;
}

/** Every record pi writes to stdout in RPC mode. */
export type RpcOutputRecord =
	| RpcResponse
	| JsonAgentSessionEvent
	| RpcBashExecutionUpdate
	| RpcExtensionError
	| RpcExtensionUIRequest;
