import type { AssistantMessage, ToolResultMessage } from "@pi/ai";
import type { AgentLoopConfig } from "./hooks.js";
import { errorText, textToolResult, toolResultMessage } from "./messages.js";
import type { AgentContext, AgentEvent, AgentTool, AgentToolCall, AgentToolResult } from "./types.js";
import { validateToolArguments } from "./validation-lazy.js";

// Runs the tool calls of one assistant message. Every call ends with exactly
// one result — executed, blocked, invalid, unknown, cut off or aborted — so the
// transcript always pairs each tool call with a tool result.

export const DEFAULT_TOOL_ABORT_GRACE_MS = 500;

export const CUT_OFF_MESSAGE =
	"Tool call not executed: the response was cut off at the output token limit (stopReason: length), so its arguments may be incomplete. Issue the call again, splitting large content into smaller calls if needed.";

export const ABORTED_TOOL_MESSAGE = "Tool execution was aborted";

export interface ToolBatch {
	assistantMessage: AssistantMessage;
	toolCalls: AgentToolCall[];
	context: AgentContext;
	config: Pick<AgentLoopConfig, "beforeToolCall" | "afterToolCall" | "toolExecution" | "toolAbortGraceMs">;
	signal: AbortSignal;
	emit: (event: AgentEvent) => Promise<void> | undefined;
	/** Emits the tool result message events and appends it to the context. */
	commit: (message: ToolResultMessage) => Promise<void> | undefined;
}

export interface ToolBatchOutcome {
	results: ToolResultMessage[];
	/** Every result asked to stop the run after this batch. */
	terminate: boolean;
	/** The first error thrown by a tool hook; the run ends with it after the batch. */
	hookError?: unknown;
}

interface Finalized {
	result: AgentToolResult;
	isError: boolean;
	/** How long the tool's execute() ran (monotonic clock); absent for calls that never ran. */
	durationMs?: number;
}

interface Runnable {
	index: number;
	tool: AgentTool;
	args: unknown;
}

type Prepared = { kind: "done"; final: Finalized } | { kind: "run"; tool: AgentTool; args: unknown };

class HookError {
	constructor(
		readonly hook: string,
		readonly cause: unknown,
	) {}
}

/** Formats a tool-hook failure for the run's error message. */
export function describeHookError(error: unknown): string {
	if (error instanceof HookError) return `${error.hook} hook failed: ${errorText(error.cause)}`;
	return errorText(error);
}

export async function executeToolBatch(batch: ToolBatch): Promise<ToolBatchOutcome> {
	const state: BatchState = { batch, hookError: undefined, fanOut: new SignalFanOut(batch.signal) };
	const cutOff = batch.assistantMessage.stopReason === "length";
	const sequential =
		batch.config.toolExecution === "sequential" ||
		batch.toolCalls.some((call) => findTool(batch.context, call.name)?.executionMode === "sequential");
	let finals: Finalized[];
	let results: ToolResultMessage[];
	try {
		if (sequential) {
			results = [];
			finals = await runSequential(state, cutOff, results);
		} else {
			finals = await runParallel(state, cutOff);
			// Result messages follow the order of the calls in the assistant message.
			results = finals.map((final, i) => resultMessage(batch.toolCalls[i], final));
			for (const message of results) {
				const pending = batch.commit(message);
				if (pending) await pending;
			}
		}
	} finally {
		state.fanOut.dispose();
	}
	const terminate = finals.length > 0 && finals.every((final) => final.result.terminate === true);
	return { results, terminate, hookError: state.hookError };
}

interface BatchState {
	batch: ToolBatch;
	hookError: unknown;
	/** The per-call signals of executing tools. */
	fanOut: SignalFanOut;
}

function resultMessage(call: AgentToolCall, final: Finalized): ToolResultMessage {
	const message = toolResultMessage(call.id, call.name, final.result, final.isError);
	if (final.durationMs !== undefined) message.durationMs = final.durationMs;
	return message;
}

function findTool(context: AgentContext, name: string): AgentTool | undefined {
	const tools = context.tools;
	if (!tools) return undefined;
	for (const tool of tools) if (tool.name === name) return tool;
	return undefined;
}

async function emitAll(state: BatchState, event: AgentEvent): Promise<void> {
	const pending = state.batch.emit(event);
	if (pending) await pending;
}

function startEvent(call: AgentToolCall): AgentEvent {
	return { type: "tool_execution_start", toolCallId: call.id, toolName: call.name, args: call.arguments };
}

function endEvent(call: AgentToolCall, final: Finalized): AgentEvent {
	return {
		type: "tool_execution_end",
		toolCallId: call.id,
		toolName: call.name,
		result: final.result,
		isError: final.isError,
		...(final.durationMs === undefined ? {} : { durationMs: final.durationMs }),
	};
}

function failure(text: string, details: unknown = {}): Finalized {
	return { result: textToolResult(text, details), isError: true };
}

async function prepare(state: BatchState, call: AgentToolCall, cutOff: boolean): Promise<Prepared> {
	const { batch } = state;
	if (cutOff) return { kind: "done", final: failure(CUT_OFF_MESSAGE) };
	const tool = findTool(batch.context, call.name);
	if (!tool) return { kind: "done", final: failure(`Tool ${call.name} not found`) };
	if (batch.signal.aborted) return { kind: "done", final: failure(ABORTED_TOOL_MESSAGE, { aborted: true }) };
	let args: unknown = call.arguments;
	if (tool.prepareArguments) {
		try {
			args = tool.prepareArguments(call.arguments);
		} catch (error) {
			return { kind: "done", final: failure(`Invalid arguments for tool "${call.name}": ${errorText(error)}`) };
		}
	}
	let validation = await validateToolArguments(tool.name, tool.parameters, args);
	if (!validation.ok) return { kind: "done", final: failure(validation.message) };
	args = validation.value;
	if (batch.config.beforeToolCall) {
		let decision: Awaited<ReturnType<NonNullable<AgentLoopConfig["beforeToolCall"]>>>;
		try {
			// A hook waiting on something slow (a permission prompt) must not hold an aborted run.
			decision = await untilAborted(
				batch.config.beforeToolCall(
					{ assistantMessage: batch.assistantMessage, toolCall: call, args, context: batch.context },
					batch.signal,
				),
				batch.signal,
			);
		} catch (error) {
			if (error === ABORTED) return { kind: "done", final: failure(ABORTED_TOOL_MESSAGE, { aborted: true }) };
			state.hookError ??= new HookError("beforeToolCall", error);
			return { kind: "done", final: failure(`Tool call blocked: beforeToolCall hook failed: ${errorText(error)}`) };
		}
		if (decision?.block) {
			const final = failure(decision.reason || "Tool execution was blocked");
			if (decision.terminate) final.result.terminate = true;
			return { kind: "done", final };
		}
		if (decision && decision.args !== undefined) {
			validation = await validateToolArguments(tool.name, tool.parameters, decision.args);
			if (!validation.ok) return { kind: "done", final: failure(validation.message) };
			args = validation.value;
		}
	}
	return { kind: "run", tool, args };
}

const ABORTED = Symbol("aborted");

/** Settles like `value`, or rejects with `ABORTED` as soon as `signal` aborts. */
function untilAborted<T>(value: T | Promise<T>, signal: AbortSignal): Promise<T> {
	if (!(value instanceof Promise)) return Promise.resolve(value);
	if (signal.aborted) {
		value.catch(() => undefined);
		return Promise.reject(ABORTED);
	}
	return new Promise<T>((resolve, reject) => {
		const onAbort = () => {
			value.catch(() => undefined);
			reject(ABORTED);
		};
		signal.addEventListener("abort", onAbort, { once: true });
		value.then(
			(result) => {
				signal.removeEventListener("abort", onAbort);
				resolve(result);
			},
			(error: unknown) => {
				signal.removeEventListener("abort", onAbort);
				reject(error);
			},
		);
	});
}

/** Runs `execute`, turning throws into error results; updates after settling are dropped. */
async function execute(state: BatchState, call: AgentToolCall, tool: AgentTool, args: unknown): Promise<Finalized> {
	let settled = false;
	const onUpdate = (partialResult: AgentToolResult): void => {
		if (settled) return;
		void state.batch.emit({
			type: "tool_execution_update",
			toolCallId: call.id,
			toolName: call.name,
			args: call.arguments,
			partialResult,
		});
	};
	// Each call gets its own signal, aborted with the batch's: tools add abort listeners to it, and
	// 200 calls on one shared signal would pass Node's listener limit (MaxListenersExceededWarning).
	const signal = state.fanOut.child();
	// (process.hrtime: the first use of the `performance` global loads Node's perf_hooks modules.)
	const startedAt = process.hrtime.bigint();
	const timed = (final: Finalized): Finalized => ({
		...final,
		durationMs: Math.max(0, Math.round(Number(process.hrtime.bigint() - startedAt) / 1e6)),
	});
	try {
		const result = await tool.execute(call.id, args as never, signal, onUpdate);
		if (!result || !Array.isArray(result.content)) return timed(failure(`Tool ${call.name} returned no valid result`));
		return timed({ result, isError: result.isError === true });
	} catch (error) {
		return timed(failure(errorText(error)));
	} finally {
		settled = true;
		state.fanOut.release(signal);
	}
}

async function afterCall(
	state: BatchState,
	call: AgentToolCall,
	args: unknown,
	executed: Finalized,
): Promise<Finalized> {
	const { batch } = state;
	if (!batch.config.afterToolCall || isSyntheticAbort(executed)) return executed;
	let patch: Awaited<ReturnType<NonNullable<AgentLoopConfig["afterToolCall"]>>>;
	try {
		patch = await batch.config.afterToolCall(
			{
				assistantMessage: batch.assistantMessage,
				toolCall: call,
				args,
				result: executed.result,
				isError: executed.isError,
				context: batch.context,
			},
			batch.signal,
		);
	} catch (error) {
		state.hookError ??= new HookError("afterToolCall", error);
		return { ...failure(`afterToolCall hook failed: ${errorText(error)}`), durationMs: executed.durationMs };
	}
	if (!patch) return executed;
	const result: AgentToolResult = { ...executed.result };
	if (patch.content !== undefined) result.content = patch.content;
	if (patch.details !== undefined) result.details = patch.details;
	if (patch.terminate !== undefined) result.terminate = patch.terminate;
	if (patch.usage !== undefined) result.usage = patch.usage;
	return { result, isError: patch.isError ?? executed.isError, durationMs: executed.durationMs };
}

const syntheticAborts = new WeakSet<AgentToolResult>();

function abortedResult(): Finalized {
	const final = failure(ABORTED_TOOL_MESSAGE, { aborted: true });
	syntheticAborts.add(final.result);
	return final;
}

function isSyntheticAbort(final: Finalized): boolean {
	return syntheticAborts.has(final.result);
}

/**
 * One listener on the batch's signal that aborts every in-flight call's own
 * signal, however many calls run at once.
 */
export class SignalFanOut {
	private readonly children = new Map<AbortSignal, AbortController>();
	private readonly onAbort = () => {
		for (const controller of this.children.values()) controller.abort(this.parent.reason);
	};

	constructor(private readonly parent: AbortSignal) {
		if (!parent.aborted) parent.addEventListener("abort", this.onAbort, { once: true });
	}

	/** A signal aborted when the parent is (already aborted if the parent is). */
	child(): AbortSignal {
		const controller = new AbortController();
		if (this.parent.aborted) controller.abort(this.parent.reason);
		else this.children.set(controller.signal, controller);
		return controller.signal;
	}

	release(signal: AbortSignal): void {
		this.children.delete(signal);
	}

	dispose(): void {
		this.parent.removeEventListener("abort", this.onAbort);
		this.children.clear();
	}
}

/**
 * Resolves once the batch's signal has been aborted for `graceMs`, so a tool
 * that ignores its signal cannot hold the run forever.
 */
class AbortDeadline {
	readonly reached: Promise<void>;
	private timer: ReturnType<typeof setTimeout> | undefined;
	private readonly onAbort: () => void;

	constructor(
		private readonly signal: AbortSignal,
		graceMs: number,
	) {
		let resolve!: () => void;
		this.reached = new Promise<void>((r) => {
			resolve = r;
		});
		this.onAbort = () => {
			this.timer = setTimeout(resolve, graceMs);
		};
		if (signal.aborted) this.onAbort();
		else signal.addEventListener("abort", this.onAbort, { once: true });
	}

	race(execution: Promise<Finalized>): Promise<Finalized> {
		return Promise.race([execution, this.reached.then(abortedResult)]);
	}

	dispose(): void {
		this.signal.removeEventListener("abort", this.onAbort);
		if (this.timer) clearTimeout(this.timer);
	}
}

async function runSequential(state: BatchState, cutOff: boolean, committed: ToolResultMessage[]): Promise<Finalized[]> {
	const { batch } = state;
	const finals: Finalized[] = [];
	const deadline = new AbortDeadline(batch.signal, batch.config.toolAbortGraceMs ?? DEFAULT_TOOL_ABORT_GRACE_MS);
	try {
		for (const call of batch.toolCalls) {
			await emitAll(state, startEvent(call));
			const prepared = await prepare(state, call, cutOff);
			let final: Finalized;
			if (prepared.kind === "done") final = prepared.final;
			else {
				const executed = await deadline.race(execute(state, call, prepared.tool, prepared.args));
				final = await afterCall(state, call, prepared.args, executed);
			}
			await emitAll(state, endEvent(call, final));
			finals.push(final);
			const message = resultMessage(call, final);
			committed.push(message);
			const pending = batch.commit(message);
			if (pending) await pending;
		}
	} finally {
		deadline.dispose();
	}
	return finals;
}

async function runParallel(state: BatchState, cutOff: boolean): Promise<Finalized[]> {
	const { batch } = state;
	const calls = batch.toolCalls;
	const finals: Finalized[] = new Array(calls.length);
	const runnable: Runnable[] = [];
	for (let i = 0; i < calls.length; i++) {
		await emitAll(state, startEvent(calls[i]));
		const prepared = await prepare(state, calls[i], cutOff);
		if (prepared.kind === "done") {
			finals[i] = prepared.final;
			await emitAll(state, endEvent(calls[i], prepared.final));
		} else runnable.push({ index: i, tool: prepared.tool, args: prepared.args });
	}
	if (runnable.length === 0) return finals;

	const deadline = new AbortDeadline(batch.signal, batch.config.toolAbortGraceMs ?? DEFAULT_TOOL_ABORT_GRACE_MS);
	try {
		// Executions run concurrently; each is finalised (afterToolCall, tool_execution_end) in completion order.
		const completed: { entry: Runnable; executed: Finalized }[] = [];
		let wake: (() => void) | undefined;
		for (const entry of runnable) {
			void deadline.race(execute(state, calls[entry.index], entry.tool, entry.args)).then((executed) => {
				completed.push({ entry, executed });
				wake?.();
			});
		}
		for (let done = 0; done < runnable.length; done++) {
			let next = completed.shift();
			while (!next) {
				await new Promise<void>((resolve) => {
					wake = resolve;
				});
				wake = undefined;
				next = completed.shift();
			}
			const { entry, executed } = next;
			const final = await afterCall(state, calls[entry.index], entry.args, executed);
			finals[entry.index] = final;
			await emitAll(state, endEvent(calls[entry.index], final));
		}
	} finally {
		deadline.dispose();
	}
	return finals;
}
