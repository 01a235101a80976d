// The replay rule after a crash (pi-durable's semantics): the stored session
// may end with tool calls that have no result. A replay-safe tool (it only
// reads: read, grep, find, ls) runs again; any other gets an error result
// saying it was interrupted, because it may have run partly or fully. The
// worker applies this to the session file before the run's child starts, then
// re-issues the model call.
import { createTool, SessionManager, type ToolName } from "@pi/coding-agent";

export const REPLAY_SAFE_TOOLS: ReadonlySet<string> = new Set(["read", "grep", "find", "ls"]);

export interface ReplayOutcome {
	/** No user prompt stored yet: start the run from its prompt. */
	fresh: boolean;
	/** The run ended with a final answer: nothing to continue. */
	finished: boolean;
	replayed: string[];
	interrupted: string[];
}

interface ToolCallBlock {
	type: "toolCall";
	id: string;
	name: string;
	arguments: Record<string, unknown>;
}

interface MessageLike {
	role?: string;
	content?: unknown;
	stopReason?: string;
	errorMessage?: string;
	toolCallId?: string;
}

export function interruptedText(toolName: string): string {
	return `Interrupted: the worker running this ${toolName} call stopped before it reported a result. It may have run partly or fully; the workspace was restored to its snapshot from just before the call. Check the state before repeating it.`;
}

export async function applyReplayRule(sessionFile: string, cwd: string): Promise<ReplayOutcome> {
	const sm = SessionManager.open(sessionFile, undefined, cwd);
	try {
		const messages = sm
			.getBranch()
			.filter((e) => e.type === "message")
			.map((e) => (e as unknown as { message: MessageLike }).message);
		const outcome: ReplayOutcome = { fresh: false, finished: false, replayed: [], interrupted: [] };
		if (!messages.some((m) => m.role === "user")) return { ...outcome, fresh: true };
		let lastAssistant = -1;
		for (let i = messages.length - 1; i >= 0; i--) {
			if (messages[i].role === "assistant") {
				lastAssistant = i;
				break;
			}
		}
		if (lastAssistant < 0) return outcome;
		const assistant = messages[lastAssistant];
		const calls = (Array.isArray(assistant.content) ? assistant.content : []).filter(
			(c: { type?: string }) => c.type === "toolCall",
		) as ToolCallBlock[];
		if (calls.length === 0) {
			// A final answer after which nothing was asked: the run had ended (a failed model call is asked again).
			return { ...outcome, finished: lastAssistant === messages.length - 1 && assistant.stopReason !== "error" };
		}
		const answered = new Set(messages.slice(lastAssistant + 1).map((m) => m.toolCallId));
		for (const call of calls) {
			if (answered.has(call.id)) continue;
			if (REPLAY_SAFE_TOOLS.has(call.name)) {
				const tool = createTool(call.name as ToolName, cwd);
				const started = Date.now();
				let content: { type: "text"; text: string }[];
				let details: unknown;
				let isError = false;
				try {
					const result = await tool.execute(call.id, call.arguments as never, undefined, undefined);
					content = result.content as { type: "text"; text: string }[];
					details = result.details;
				} catch (e) {
					content = [{ type: "text", text: (e as Error).message }];
					isError = true;
				}
				sm.appendMessage({
					role: "toolResult",
					toolCallId: call.id,
					toolName: call.name,
					content,
					...(details === undefined ? {} : { details }),
					isError,
					timestamp: Date.now(),
					durationMs: Date.now() - started,
				});
				outcome.replayed.push(call.id);
			} else {
				sm.appendMessage({
					role: "toolResult",
					toolCallId: call.id,
					toolName: call.name,
					content: [{ type: "text", text: interruptedText(call.name) }],
					isError: true,
					timestamp: Date.now(),
				});
				outcome.interrupted.push(call.id);
			}
		}
		return outcome;
	} finally {
		sm.close();
	}
}

/** The error of the run's last model call when the run ended on it (the run failed), else undefined. */
export function finalError(sessionFile: string, cwd: string): string | undefined {
	const sm = SessionManager.open(sessionFile, undefined, cwd, { readOnly: true });
	try {
		const last = sm
			.getBranch()
			.filter((e) => e.type === "message")
			.map((e) => (e as unknown as { message: MessageLike }).message)
			.at(-1);
		if (last?.role !== "assistant" || last.stopReason !== "error") return undefined;
		return last.errorMessage || "the model call failed";
	} finally {
		sm.close();
	}
}
