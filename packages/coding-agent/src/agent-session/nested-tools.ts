// Tools calling other tools (`ctx.executeTool`, what codemode builds on). A
// nested call runs through agent-core's own tool batch, so it gets exactly
// what a model-issued call gets: argument preparation and validation, the
// `tool_call` gate and `tool_result` patches (the session's ToolHooks), abort
// handling, and `tool_execution_*` events. Differences, by design:
//   - its id is `<parent id>/<n>` and every event and hook context carries
//     `parentToolCallId`;
//   - it adds no transcript entry: the result goes to the calling tool only;
//   - the session keeps a bounded record (name, arguments, status, duration,
//     error — never results) that becomes `nestedCalls` on the calling tool's
//     result message, so compaction and exports can see what ran.
// A call never rejects for tool failures: unknown tools, invalid arguments,
// blocked calls and throws come back as results with `isError: true`.
import {
	type AgentEvent,
	type AgentTool,
	type AgentToolCall,
	type AgentToolResult,
	type AgentToolUpdateCallback,
	executeToolBatch,
} from "@pi/agent-core";
import { type AssistantMessage, sumUsage, type ToolResultMessage, type Usage } from "@pi/ai";
import type { ToolHooks } from "../extensions/tool-hooks.js";

// biome-ignore lint/suspicious/noExplicitAny: tools of any schema live side by side
type AnyTool = AgentTool<any>;

/** Per call: arguments larger than this are left out of the record. */
export const NESTED_ARGS_MAX_BYTES = 8 * 1024;
/** Per calling tool: arguments beyond this total are left out. */
export const NESTED_ARGS_TOTAL_MAX_BYTES = 32 * 1024;
/** Per calling tool: at most this many calls are recorded. */
export const NESTED_CALLS_MAX = 256;

export interface NestedToolCallRecord {
	id: string;
	name: string;
	arguments?: Record<string, unknown>;
	/** Size of the arguments when they were left out. */
	argumentsBytes?: number;
	status: "ok" | "error" | "unfinished";
	durationMs?: number;
	error?: string;
}

/** `nestedCalls` on a tool result message. */
export interface NestedToolCalls {
	calls: NestedToolCallRecord[];
	/** False when anything was left out (calls over the cap, arguments over a size limit). */
	complete: boolean;
}

/** What `ctx.executeTool` resolves to (1.6.0's AgentToolCallOutcome). */
export interface NestedToolOutcome {
	toolCall: AgentToolCall;
	result: AgentToolResult<unknown>;
	isError: boolean;
	durationMs?: number;
}

export interface ExecuteToolOptions {
	/** Defaults to the calling tool's signal. */
	signal?: AbortSignal;
	/** Partial results of the nested tool (besides the tool_execution_update events). */
	onUpdate?: AgentToolUpdateCallback;
}

export interface NestedToolHost {
	/** The tools a nested call may reach (looked up by name at call time). */
	getTools(): readonly AnyTool[];
	readonly toolHooks: ToolHooks;
	/** The assistant message whose tool is running (hooks receive it as the issuing message). */
	lastAssistant(): AssistantMessage | undefined;
	/** Session listeners and extensions hear the nested call's tool_execution_* events. */
	emit(event: AgentEvent & { parentToolCallId: string }): Promise<void> | void;
}

interface Ledger {
	next: number;
	calls: NestedToolCallRecord[];
	argsBytes: number;
	complete: boolean;
}

function textOf(result: AgentToolResult<unknown>): string {
	return result.content
		.filter((c): c is { type: "text"; text: string } => c.type === "text")
		.map((c) => c.text)
		.join("\n");
}

export class NestedToolRunner {
	private readonly ledgers = new Map<string, Ledger>();
	/** Usage of model calls made by nested calls, at every depth, by the tool call they count for. */
	private readonly usages = new Map<string, Usage>();

	constructor(private readonly host: NestedToolHost) {}

	/** Runs `name` for the tool call `parentId`. Never rejects for tool failures. */
	async execute(
		parentId: string,
		name: string,
		args: unknown,
		options: ExecuteToolOptions & { parentSignal?: AbortSignal } = {},
	): Promise<NestedToolOutcome> {
		const ledger = this.ledger(parentId);
		const call: AgentToolCall = {
			type: "toolCall",
			id: `${parentId}/${++ledger.next}`,
			name,
			arguments: (args ?? {}) as Record<string, unknown>,
		};
		const record = this.record(ledger, call);
		const signal = options.signal ?? options.parentSignal ?? new AbortController().signal;
		const assistant = this.host.lastAssistant() ?? placeholderAssistant();
		const hooks = this.host.toolHooks;
		let result: ToolResultMessage | undefined;
		// (process.hrtime: the first use of the `performance` global loads Node's perf_hooks modules.)
		const started = process.hrtime.bigint();
		try {
			const outcome = await executeToolBatch({
				assistantMessage: assistant,
				toolCalls: [call],
				context: { systemPrompt: "", messages: [], tools: [...this.host.getTools()] },
				config: {
					toolExecution: "sequential",
					beforeToolCall: (ctx, s) => hooks.runBefore({ ...ctx, parentToolCallId: parentId }, s),
					afterToolCall: (ctx, s) => hooks.runAfter({ ...ctx, parentToolCallId: parentId }, s),
				},
				signal,
				emit: (event) => {
					if (event.type === "tool_execution_update" && event.toolCallId === call.id) {
						options.onUpdate?.(event.partialResult as AgentToolResult<unknown>);
					}
					const pending = this.host.emit({ ...event, parentToolCallId: parentId } as AgentEvent & {
						parentToolCallId: string;
					});
					return pending ? Promise.resolve(pending) : undefined;
				},
				commit: (message) => {
					result = message;
					return undefined;
				},
			});
			result ??= outcome.results[0];
		} catch (error) {
			// executeToolBatch turns tool and hook failures into results; anything else still must not reject.
			result = {
				role: "toolResult",
				toolCallId: call.id,
				toolName: name,
				content: [{ type: "text", text: error instanceof Error ? error.message : String(error) }],
				isError: true,
				timestamp: Date.now(),
			};
		}
		const durationMs = Math.round(Number(process.hrtime.bigint() - started) / 1e6);
		// Its own model calls and those of the calls it made count for the calling tool.
		this.take(call.id);
		const usage = sumUsage(result.usage, this.takeUsage(call.id));
		if (usage) this.usages.set(parentId, sumUsage(this.usages.get(parentId), usage) as Usage);
		const toolResult: AgentToolResult<unknown> = {
			content: result.content,
			details: (result as { details?: unknown }).details,
			...(usage ? { usage } : {}),
		};
		record.status = result.isError ? "error" : "ok";
		record.durationMs = durationMs;
		if (result.isError) record.error = textOf(toolResult).slice(0, 2000);
		return { toolCall: call, result: toolResult, isError: result.isError, durationMs };
	}

	/** Usage of the model calls `parentId`'s nested calls made (removed); undefined when none. */
	takeUsage(parentId: string): Usage | undefined {
		const usage = this.usages.get(parentId);
		this.usages.delete(parentId);
		return usage;
	}

	/** The record of calls made by `parentId` (removed from the session's memory); undefined when none. */
	take(parentId: string): NestedToolCalls | undefined {
		const ledger = this.ledgers.get(parentId);
		if (!ledger) return undefined;
		this.ledgers.delete(parentId);
		for (const call of ledger.calls) if (call.status === "unfinished") ledger.complete = false;
		return { calls: ledger.calls, complete: ledger.complete };
	}

	private ledger(parentId: string): Ledger {
		let ledger = this.ledgers.get(parentId);
		if (!ledger) {
			ledger = { next: 0, calls: [], argsBytes: 0, complete: true };
			this.ledgers.set(parentId, ledger);
		}
		return ledger;
	}

	private record(ledger: Ledger, call: AgentToolCall): NestedToolCallRecord {
		const record: NestedToolCallRecord = { id: call.id, name: call.name, status: "unfinished" };
		const json = JSON.stringify(call.arguments) ?? "{}";
		const bytes = Buffer.byteLength(json);
		if (bytes > NESTED_ARGS_MAX_BYTES || ledger.argsBytes + bytes > NESTED_ARGS_TOTAL_MAX_BYTES) {
			record.argumentsBytes = bytes;
			ledger.complete = false;
		} else {
			record.arguments = call.arguments;
			ledger.argsBytes += bytes;
		}
		if (ledger.calls.length < NESTED_CALLS_MAX) ledger.calls.push(record);
		else ledger.complete = false;
		return record;
	}
}

/** Hooks expect the issuing assistant message; a call made outside any turn gets an empty one. */
function placeholderAssistant(): AssistantMessage {
	return {
		role: "assistant",
		content: [],
		api: "openai-completions",
		provider: "pi",
		model: "nested",
		usage: {
			input: 0,
			output: 0,
			cacheRead: 0,
			cacheWrite: 0,
			totalTokens: 0,
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
		},
		stopReason: "toolUse",
		timestamp: Date.now(),
	};
}
