import type { ImageContent, Message, TextContent, Tool } from "@pi/ai";
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
	/** When every result of a batch sets it, the loop stops instead of asking the model again. */
	terminate?: boolean;
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
