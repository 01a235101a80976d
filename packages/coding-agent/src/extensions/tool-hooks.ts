// The seams extensions use around tool calls (`tool_call` / `tool_result`),
// installed by AgentSession as agent-core's beforeToolCall/afterToolCall.
// Handlers run in registration order: for `before`, the first that blocks wins
// and argument rewrites chain; for `after`, each handler sees the result as
// rewritten by the previous ones. A handler that throws rejects the tool call
// (agent-core turns that into an error result): tool hooks fail closed.
import type {
	AfterToolCallContext,
	AfterToolCallResult,
	BeforeToolCallContext,
	BeforeToolCallResult,
} from "@pi/agent-core";

/** A nested call (`ctx.executeTool`) names the tool call that made it. */
export type ToolHookContext<C> = C & { parentToolCallId?: string };

export type BeforeToolCallHandler = (
	context: ToolHookContext<BeforeToolCallContext>,
	signal: AbortSignal,
) => BeforeToolCallResult | undefined | Promise<BeforeToolCallResult | undefined>;

export type AfterToolCallHandler = (
	context: ToolHookContext<AfterToolCallContext>,
	signal: AbortSignal,
) => AfterToolCallResult | undefined | Promise<AfterToolCallResult | undefined>;

export class ToolHooks {
	private before: BeforeToolCallHandler[] = [];
	private after: AfterToolCallHandler[] = [];

	onBeforeToolCall(handler: BeforeToolCallHandler): () => void {
		this.before = [...this.before, handler];
		return () => {
			this.before = this.before.filter((h) => h !== handler);
		};
	}

	onAfterToolCall(handler: AfterToolCallHandler): () => void {
		this.after = [...this.after, handler];
		return () => {
			this.after = this.after.filter((h) => h !== handler);
		};
	}

	/** For agent-core's `beforeToolCall` hook. */
	readonly runBefore = async (
		context: ToolHookContext<BeforeToolCallContext>,
		signal: AbortSignal,
	): Promise<BeforeToolCallResult | undefined> => {
		let args: unknown;
		let rewritten = false;
		for (const handler of this.before) {
			const result = await handler(rewritten ? { ...context, args } : context, signal);
			if (!result) continue;
			if (result.block) return result;
			if (result.args !== undefined) {
				args = result.args;
				rewritten = true;
			}
		}
		return rewritten ? { args } : undefined;
	};

	/** For agent-core's `afterToolCall` hook. */
	readonly runAfter = async (
		context: ToolHookContext<AfterToolCallContext>,
		signal: AbortSignal,
	): Promise<AfterToolCallResult | undefined> => {
		let current = context;
		let merged: AfterToolCallResult | undefined;
		for (const handler of this.after) {
			const result = await handler(current, signal);
			if (!result) continue;
			merged = { ...merged, ...result };
			current = {
				...current,
				isError: result.isError ?? current.isError,
				result: {
					...current.result,
					...(result.content ? { content: result.content } : {}),
					...(result.details !== undefined ? { details: result.details } : {}),
					...(result.terminate !== undefined ? { terminate: result.terminate } : {}),
					...(result.usage !== undefined ? { usage: result.usage } : {}),
				},
			};
		}
		return merged;
	};
}
