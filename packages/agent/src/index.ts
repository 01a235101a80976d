// The public surface of @pi/agent-core, name by name: the loop (agentLoop and
// friends), the stateful Agent, the hook contracts of AgentLoopConfig, the
// message/event/tool types, the stream-function seam, one tool batch for
// hosts that run nested calls (executeToolBatch), and both ends of the proxy
// wire (streamProxy for the client, proxyEventFrame/toProxyEvent for a
// server). Extensions get this module as `@earendil-works/pi-agent-core`, so
// the names upstream 1.6.0 exports that exist here are kept. The rest
// (the message texts of tool execution, the wire reassembler) is the
// package's own and reached by its tests from src/ directly.
// test/public-surface.txt holds this list, so it changes only on purpose.

export { Agent, type AgentInitialState, type AgentListener, type AgentOptions } from "./agent.js";
export { agentLoop, agentLoopContinue, runAgentLoop, runAgentLoopContinue } from "./agent-loop.js";
export type {
	AfterToolCallContext,
	AfterToolCallResult,
	AgentLoopConfig,
	AgentLoopTurnUpdate,
	AgentRequestUpdate,
	AgentStreamOptions,
	AgentTurnContext,
	AgentTurnDecision,
	BeforeToolCallContext,
	BeforeToolCallResult,
	PrepareRequestContext,
} from "./hooks.js";
export { defaultConvertToLlm } from "./messages.js";
export { type ProxySerializableOptions, type ProxyStreamOptions, streamProxy } from "./proxy.js";
export { type ProxyAssistantMessageEvent, proxyEventFrame, toProxyEvent } from "./proxy-wire.js";
export { getDefaultStreamFn, setDefaultStreamFn } from "./stream-fn.js";
export { executeToolBatch, type ToolBatch, type ToolBatchOutcome } from "./tool-execution.js";
export type {
	AgentContext,
	AgentEvent,
	AgentEventSink,
	AgentEventType,
	AgentMessage,
	AgentState,
	AgentTool,
	AgentToolCall,
	AgentToolResult,
	AgentToolUpdateCallback,
	CustomAgentMessages,
	QueueMode,
	StreamFn,
	ToolExecutionMode,
} from "./types.js";
// The loop's argument validator (pi-ai compat's validateToolCall for extensions) is
// `@pi/agent-core/validation`: TypeBox's compiler comes with it, which the loop
// itself loads only for arguments it cannot prove valid plainly (validation-lazy.ts).
export type { ArgumentValidation } from "./validation.js";
