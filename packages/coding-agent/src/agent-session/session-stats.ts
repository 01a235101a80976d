// Numbers about a conversation: message counts, token totals, cost, and how
// full the context window is. Pure functions over the transcript.
import type { AgentMessage } from "@pi/agent-core";
import type { AssistantMessage, Model, Usage } from "@pi/ai";
import type { EntryFold } from "../session/session-view.js";
import type { SessionEntry } from "../session/types.js";

export interface SessionStats {
	sessionId: string;
	sessionFile: string | undefined;
	userMessages: number;
	assistantMessages: number;
	toolCalls: number;
	toolResults: number;
	totalMessages: number;
	/**
	 * What the session paid for: every model response recorded in it (all
	 * branches, failed and retried attempts), summaries (compaction, branch
	 * summary) and other billed usage — not only what is still in context.
	 */
	tokens: { input: number; output: number; cacheRead: number; cacheWrite: number; total: number };
	cost: number;
}

export interface ContextUsage {
	/** Estimated tokens the next request will carry. */
	tokens: number;
	contextWindow: number;
	/** 0–100, undefined when the window is unknown. */
	percent: number | undefined;
}

/** Token and cost totals of usages. */
export interface UsageTotals {
	tokens: SessionStats["tokens"];
	cost: number;
}

export function computeStats(
	messages: readonly AgentMessage[],
	sessionId: string,
	sessionFile: string | undefined,
	/** What the session's entries (all branches) record as billed (`billedUsage`): everything paid for. */
	billed: UsageTotals,
): SessionStats {
	const stats: SessionStats = {
		sessionId,
		sessionFile,
		userMessages: 0,
		assistantMessages: 0,
		toolCalls: 0,
		toolResults: 0,
		totalMessages: messages.length,
		tokens: { ...billed.tokens },
		cost: billed.cost,
	};
	for (const m of messages) {
		if (m.role === "user") stats.userMessages++;
		else if (m.role === "toolResult") stats.toolResults++;
		else if (m.role === "assistant") {
			stats.assistantMessages++;
			stats.toolCalls += m.content.filter((c) => c.type === "toolCall").length;
		}
	}
	return stats;
}

function addUsage(totals: UsageTotals, u: Usage | undefined): void {
	if (!u) return;
	totals.tokens.input += u.input;
	totals.tokens.output += u.output;
	totals.tokens.cacheRead += u.cacheRead;
	totals.tokens.cacheWrite += u.cacheWrite;
	totals.tokens.total += u.totalTokens || u.input + u.output + u.cacheRead + u.cacheWrite;
	totals.cost += u.cost?.total ?? 0;
}

/** The key every usage is written under; a line without this string holds no usage at all. */
const USAGE_KEY = Buffer.from('"usage"');

/**
 * Every usage a session's file records as billed, on any branch (model responses, tool results
 * with nested usage, compaction and branch summaries, usage entries), summed as a fold
 * (`SessionView.fold`): entries added later are added to the sums, and a large session's entries
 * held on disk are read once without being kept.
 */
export const billedUsage: EntryFold<UsageTotals> = {
	wanted: (type, role) =>
		type === "message"
			? role === "assistant" || role === "toolResult"
			: type === "compaction" || type === "branch_summary" || type === "usage",
	initial: () => ({ tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 }, cost: 0 }),
	add(totals, e: SessionEntry) {
		if (e.type === "message") {
			if (e.message.role === "assistant" || e.message.role === "toolResult") addUsage(totals, e.message.usage);
		} else if (e.type === "compaction" || e.type === "branch_summary" || e.type === "usage") addUsage(totals, e.usage);
	},
	// Most tool results record no usage: their lines (often the largest) are searched, not parsed.
	lineMatters: (bytes, start, end) => bytes.subarray(start, end).includes(USAGE_KEY),
};

/** Rough token count of text (4 characters per token), for messages without reported usage. */
export function estimateTextTokens(text: string): number {
	return Math.ceil(text.length / 4);
}

function messageChars(m: AgentMessage): number {
	const content = (m as { content?: unknown }).content;
	if (typeof content === "string") return content.length;
	if (!Array.isArray(content)) return JSON.stringify(m).length;
	let n = 0;
	for (const block of content as { type: string; text?: string; thinking?: string; arguments?: unknown }[]) {
		if (block.type === "text") n += block.text?.length ?? 0;
		else if (block.type === "thinking") n += block.thinking?.length ?? 0;
		else if (block.type === "toolCall") n += JSON.stringify(block.arguments ?? {}).length;
		else if (block.type === "image") n += 4800; // ~1200 tokens
	}
	return n;
}

/**
 * Context size: the last successful response's reported usage (input +
 * output + cache), plus an estimate for the messages after it.
 */
export function computeContextUsage(messages: readonly AgentMessage[], model: Model | undefined): ContextUsage {
	let tokens = 0;
	let lastIndex = -1;
	for (let i = messages.length - 1; i >= 0; i--) {
		const m = messages[i];
		if (m.role === "assistant" && m.stopReason !== "error" && m.stopReason !== "aborted") {
			const u = (m as AssistantMessage).usage;
			tokens = u.totalTokens || u.input + u.output + u.cacheRead + u.cacheWrite;
			lastIndex = i;
			break;
		}
	}
	for (let i = lastIndex + 1; i < messages.length; i++) tokens += Math.ceil(messageChars(messages[i]) / 4);
	const contextWindow = model?.contextWindow ?? 0;
	return {
		tokens,
		contextWindow,
		percent: contextWindow > 0 ? Math.min(100, (tokens / contextWindow) * 100) : undefined,
	};
}
