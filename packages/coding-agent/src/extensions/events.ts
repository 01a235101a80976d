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
// The events live in three files by family: session-events.ts (start-up,
// resources, session), run-events.ts (requests, runs and turns, messages,
// model, user input) and tool-events.ts (tool calls and results). This file
// is the table that ties each name to its event and result type.

import type {
	AfterProviderResponseEvent,
	AgentBeforeSettleEvent,
	AgentBeforeSettleEventResult,
	AgentEndEvent,
	AgentSettledEvent,
	AgentStartEvent,
	BeforeAgentStartEvent,
	BeforeAgentStartEventResult,
	BeforeProviderHeadersEvent,
	BeforeProviderRequestEvent,
	BeforeProviderRequestEventResult,
	CacheWarmingDecisionEvent,
	CacheWarmingDecisionEventResult,
	ContextEvent,
	ContextEventResult,
	ContextWithSystemEvent,
	InputEvent,
	InputEventResult,
	MessageEndEvent,
	MessageEndEventResult,
	MessageStartEvent,
	MessageUpdateEvent,
	ModelSelectEvent,
	ProviderStreamEvent,
	ThinkingLevelSelectEvent,
	TurnEndEvent,
	TurnEndEventResult,
	TurnStartEvent,
	UIPromptEndEvent,
	UIPromptStartEvent,
	UserBashEvent,
	UserBashEventResult,
} from "./run-events.js";
import type {
	McpServersChangeEvent,
	ProjectTrustEvent,
	ProjectTrustEventResult,
	ResourcesDiscoverEvent,
	ResourcesDiscoverResult,
	SessionBeforeCompactEvent,
	SessionBeforeCompactResult,
	SessionBeforeForkEvent,
	SessionBeforeForkResult,
	SessionBeforeSwitchEvent,
	SessionBeforeSwitchResult,
	SessionBeforeTreeEvent,
	SessionBeforeTreeResult,
	SessionCompactEvent,
	SessionCompactFailedEvent,
	SessionInfoChangedEvent,
	SessionShutdownEvent,
	SessionStartEvent,
	SessionTreeEvent,
} from "./session-events.js";
import type {
	ToolCallEvent,
	ToolCallEventResult,
	ToolExecutionEndEvent,
	ToolExecutionStartEvent,
	ToolExecutionUpdateEvent,
	ToolResultEvent,
	ToolResultEventResult,
} from "./tool-events.js";

export * from "./run-events.js";
export * from "./session-events.js";
export * from "./tool-events.js";

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
