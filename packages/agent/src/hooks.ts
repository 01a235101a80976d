import type {
	AssistantMessage,
	ImageContent,
	Message,
	Model,
	StreamOptions,
	TextContent,
	ThinkingLevel,
	ToolResultMessage,
	Usage,
} from "@pi/ai";
import type {
	AgentContext,
	AgentMessage,
	AgentToolCall,
	AgentToolResult,
	StreamFn,
	ToolExecutionMode,
} from "./types.js";

// The hooks through which upper layers steer the loop. Every hook may be async
// and is awaited. A loop-level hook that throws ends the run with an error
// assistant message (never a crash); a tool hook that throws gives its call an
// error result, and the run ends with an error after the batch.

/** Returned by `beforeToolCall`. */
export interface BeforeToolCallResult {
	/** Do not execute: the call gets an error result with `reason` (default "Tool execution was blocked"). */
	block?: boolean;
	reason?: string;
	/** With `block`: counts as a terminating result for the batch (see `AgentToolResult.terminate`). */
	terminate?: boolean;
	/** Replacement arguments; they are validated against the tool's schema again. Ignored with `block`. */
	args?: unknown;
}

/** Returned by `afterToolCall`. Each field given replaces the executed result's field; no deep merge. */
export interface AfterToolCallResult {
	content?: (TextContent | ImageContent)[];
	details?: unknown;
	isError?: boolean;
	terminate?: boolean;
	usage?: Usage;
}

export interface BeforeToolCallContext {
	/** The assistant message that issued the call. */
	assistantMessage: AssistantMessage;
	toolCall: AgentToolCall;
	/** Arguments after `prepareArguments` and validation (with safe coercions applied). Mutating them is allowed. */
	args: unknown;
	context: AgentContext;
}

export interface AfterToolCallContext extends BeforeToolCallContext {
	/** The result as executed, before any override. */
	result: AgentToolResult;
	isError: boolean;
}

/** What the loop knows when a turn completes. */
export interface AgentTurnContext {
	message: AssistantMessage;
	toolResults: ToolResultMessage[];
	/** The loop's context with the turn's messages appended. */
	context: AgentContext;
	/** Messages the run has added so far (prompts included). */
	newMessages: AgentMessage[];
}

/** `finishTurn`'s decision; `undefined` keeps normal scheduling. */
export type AgentTurnDecision = { action: "continue" } | { action: "end" };

/** State in force for the request about to be made. */
export interface PrepareRequestContext {
	context: AgentContext;
	model: Model;
	thinkingLevel: ThinkingLevel;
}

/** Replacements for this and every later request of the run; omitted fields stay. */
export interface AgentRequestUpdate {
	context?: AgentContext;
	model?: Model;
	thinkingLevel?: ThinkingLevel;
}

/** Returned by `prepareNextTurn`: like `AgentRequestUpdate`, plus messages to inject before the next request. */
export interface AgentLoopTurnUpdate extends AgentRequestUpdate {
	/** Appended after any steering messages, with the usual message_start/message_end events. */
	messages?: AgentMessage[];
}

/** Options passed through to every request (the signal and key are the loop's). */
export type AgentStreamOptions = Omit<StreamOptions, "signal" | "apiKey" | "reasoning">;

/** Configuration of `agentLoop` / `runAgentLoop`. */
export interface AgentLoopConfig extends AgentStreamOptions {
	model: Model;
	/** Thinking level for requests ("off" when omitted). */
	thinkingLevel?: ThinkingLevel;
	/** Stream function; defaults to pi-ai's `stream` (or the one set with `setDefaultStreamFn`). */
	streamFn?: StreamFn;
	/** Static key; `getApiKey` wins when it returns a value. */
	apiKey?: string;

	/**
	 * Runs before every request, the first included, after pending messages were
	 * injected. Return replacements for the context (e.g. a projection of the
	 * persisted session), model or thinking level; they stay in force for the
	 * rest of the run. Return `undefined` to keep the current ones.
	 */
	prepareRequest?: (
		request: PrepareRequestContext,
		signal: AbortSignal,
	) => AgentRequestUpdate | undefined | Promise<AgentRequestUpdate | undefined>;

	/**
	 * Rewrites the message list for one request (pruning, injected context) at
	 * the `AgentMessage` level, before `convertToLlm`. The loop's own context is
	 * not changed. Must return the list to use.
	 */
	transformContext?: (messages: AgentMessage[], signal: AbortSignal) => AgentMessage[] | Promise<AgentMessage[]>;

	/**
	 * Maps the transcript to what the model sees: custom message types are
	 * converted to LLM messages or dropped. Default: keep `system`, `user`,
	 * `assistant` and `toolResult` messages, drop everything else.
	 */
	convertToLlm?: (messages: AgentMessage[]) => Message[] | Promise<Message[]>;

	/** Resolves the provider's key before every request (short-lived tokens); `undefined` falls back to `apiKey`. */
	getApiKey?: (provider: string) => string | undefined | Promise<string | undefined>;

	/**
	 * Runs after a tool call was validated, before it executes. Return
	 * `{ block: true, reason }` to skip execution (the call gets an error result
	 * with `reason`), `{ args }` to replace the arguments, or `undefined` to run it.
	 */
	beforeToolCall?: (
		context: BeforeToolCallContext,
		signal: AbortSignal,
	) => BeforeToolCallResult | undefined | Promise<BeforeToolCallResult | undefined>;

	/**
	 * Runs after a tool executed, before `tool_execution_end`. Return fields to
	 * replace in the result (`content`, `details`, `isError`, `terminate`), or
	 * `undefined` to keep it as it is.
	 */
	afterToolCall?: (
		context: AfterToolCallContext,
		signal: AbortSignal,
	) => AfterToolCallResult | undefined | Promise<AfterToolCallResult | undefined>;

	/**
	 * Runs when a turn is complete (assistant message and all tool results),
	 * just before `turn_end`; also for error/aborted responses, whose runs end
	 * regardless. Return `{ action: "end" }` to end the run after `turn_end`
	 * without polling queues, `{ action: "continue" }` to make sure one more
	 * request follows (tool results, steering or follow-ups satisfy it; otherwise
	 * the context is sent again as is), or `undefined` for normal scheduling.
	 */
	finishTurn?: (
		turn: AgentTurnContext,
		signal: AbortSignal,
	) => AgentTurnDecision | undefined | Promise<AgentTurnDecision | undefined>;

	/**
	 * Runs after `turn_end` when another turn is about to start (tool results,
	 * steering, follow-ups or `finishTurn` asked for it). Return replacements for
	 * context/model/thinking level, and/or messages to inject, or `undefined`.
	 */
	prepareNextTurn?: (
		turn: AgentTurnContext,
		signal: AbortSignal,
	) => AgentLoopTurnUpdate | undefined | Promise<AgentLoopTurnUpdate | undefined>;

	/** Steering messages, polled at the start of a run and after each turn's tool batch. Return `[]` when none. */
	getSteeringMessages?: () => AgentMessage[] | Promise<AgentMessage[]>;

	/** Follow-up messages, polled only when the run would otherwise end. Return `[]` when none. */
	getFollowUpMessages?: () => AgentMessage[] | Promise<AgentMessage[]>;

	/** Default "parallel"; a tool with `executionMode: "sequential"` makes its whole batch sequential. */
	toolExecution?: ToolExecutionMode;

	/**
	 * After an abort, how long running tools get to settle with their own
	 * result before the loop gives them an aborted error result (ms, default 500).
	 */
	toolAbortGraceMs?: number;
}
