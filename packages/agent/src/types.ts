import type {
	AssistantMessageEvent,
	AssistantMessageEventStream,
	Context,
	ImageContent,
	Message,
	Model,
	StreamOptions,
	TextContent,
	ThinkingLevel,
	Tool,
	ToolCall,
	ToolResultMessage,
	Usage,
} from "@pi/ai";
import type { Static, TSchema } from "typebox";

/**
 * App-specific message types, added by declaration merging:
 *
 *   declare module "@pi/agent-core" {
 *     interface CustomAgentMessages { bashExecution: BashExecutionMessage }
 *   }
 *
 * Such messages live in the transcript; `convertToLlm` decides what the model sees.
 */
// biome-ignore lint/suspicious/noEmptyInterface: extended by declaration merging
export interface CustomAgentMessages {}

/** Anything the agent's transcript may hold. */
export type AgentMessage = Message | CustomAgentMessages[keyof CustomAgentMessages];

/** What a tool returns; `details` is for UIs and logs, `content` is what the model sees. */
export interface AgentToolResult<TDetails = unknown> {
	content: (TextContent | ImageContent)[];
	details?: TDetails;
	/** Report a failure without throwing: the model sees `content` as an error result. */
	isError?: boolean;
	/** When every result of a batch sets it, the loop stops instead of asking the model again. */
	terminate?: boolean;
	/** Usage of model calls the tool made (kept on the result message; counted in session totals). */
	usage?: Usage;
}

/** Streams a partial result while a tool runs (shown live, never sent to the model). */
export type AgentToolUpdateCallback<TDetails = unknown> = (partial: AgentToolResult<TDetails>) => void;

/**
 * A tool the agent can execute. `parameters` is a TypeBox schema; arguments are
 * validated against it before `execute` runs. Throwing from `execute` produces
 * an error result (`isError: true`) with the error's message.
 */
export interface AgentTool<TParameters extends TSchema = TSchema, TDetails = unknown> extends Tool<TParameters> {
	/** Human-readable name for UIs. */
	label: string;
	/** "sequential" forces the whole batch containing this tool to run one call at a time. */
	executionMode?: "parallel" | "sequential";
	/** Normalises raw arguments before validation (legacy shapes, JSON-in-string). */
	prepareArguments?(args: Record<string, unknown>): Record<string, unknown>;
	execute(
		toolCallId: string,
		params: Static<TParameters>,
		signal: AbortSignal | undefined,
		onUpdate: AgentToolUpdateCallback<TDetails> | undefined,
	): Promise<AgentToolResult<TDetails>>;
}

// ---------------------------------------------------------------------------
// Loop vocabulary

/** A tool call block as issued by the model. */
export type AgentToolCall = ToolCall;

/**
 * How a batch of tool calls from one assistant message runs.
 * - "parallel": calls are prepared in source order, then executed concurrently.
 * - "sequential": each call is prepared, executed and finalised before the next.
 */
export type ToolExecutionMode = "parallel" | "sequential";

/** How many queued messages one drain point takes: the oldest only, or all of them. */
export type QueueMode = "one-at-a-time" | "all";

/**
 * Any function that streams one response. pi-ai's `stream` has this shape; so
 * do `streamProxy` and test fakes. Failures must arrive as the stream's `error`
 * event, never as a throw (a throw is still caught and becomes an error message).
 */
export type StreamFn = (
	model: Model,
	context: Context,
	options?: StreamOptions,
) => AssistantMessageEventStream | Promise<AssistantMessageEventStream>;

/** The conversation a loop works on. `systemPrompt` and `tools` follow pi-ai's `Context` shorthand. */
export interface AgentContext {
	systemPrompt?: string;
	messages: AgentMessage[];
	// biome-ignore lint/suspicious/noExplicitAny: tools of any parameter schema live side by side
	tools?: AgentTool<any>[];
}

/**
 * Events of one run, in order:
 * `agent_start`, then per turn `turn_start`, `message_start`/`message_update`/`message_end`
 * (prompts, steering, the assistant response, tool results), `tool_execution_*`, `turn_end`;
 * finally `agent_end` with every message the run added. `message_update` is emitted for
 * assistant messages only and carries the pi-ai event; `message` is the partial so far.
 */
export type AgentEvent =
	| { type: "agent_start" }
	| { type: "agent_end"; messages: AgentMessage[] }
	| { type: "turn_start" }
	| { type: "turn_end"; message: AgentMessage; toolResults: ToolResultMessage[] }
	| { type: "message_start"; message: AgentMessage }
	| { type: "message_update"; message: AgentMessage; assistantMessageEvent: AssistantMessageEvent }
	| { type: "message_end"; message: AgentMessage }
	| { type: "tool_execution_start"; toolCallId: string; toolName: string; args: unknown }
	| { type: "tool_execution_update"; toolCallId: string; toolName: string; args: unknown; partialResult: unknown }
	| {
			type: "tool_execution_end";
			toolCallId: string;
			toolName: string;
			result: unknown;
			isError: boolean;
			/** How long the tool's execute() ran; absent for calls that never ran. */
			durationMs?: number;
	  };

export type AgentEventType = AgentEvent["type"];

/** Where a loop sends its events; a returned promise is awaited before the loop goes on. */
export type AgentEventSink = (event: AgentEvent) => Promise<void> | void;

/** The `Agent`'s observable state. Assigning `tools` or `messages` copies the array. */
export interface AgentState {
	systemPrompt: string;
	model: Model;
	thinkingLevel: ThinkingLevel;
	// biome-ignore lint/suspicious/noExplicitAny: tools of any parameter schema live side by side
	tools: AgentTool<any>[];
	messages: AgentMessage[];
	/** True from `prompt()`/`continue()` until the `agent_end` listeners have settled. */
	readonly isStreaming: boolean;
	/** The assistant message being streamed, if any. */
	readonly streamingMessage?: AgentMessage;
	/** Ids of tool calls between `tool_execution_start` and `tool_execution_end`. */
	readonly pendingToolCalls: ReadonlySet<string>;
	/** The error of the last failed or aborted assistant message of the current/last run. */
	readonly errorMessage?: string;
}
