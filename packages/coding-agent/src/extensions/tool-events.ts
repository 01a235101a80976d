// Tool events: execution notifications, the `tool_call` gate and the
// `tool_result` chain, with the reference's narrowing helpers (see events.ts
// for the dispatch rules).
import type { ImageContent, JsonValue, TextContent, Usage } from "@pi/ai";

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
