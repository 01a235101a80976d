// /session: where this conversation lives and what it has cost so far.
import { sendsThinkingLevel } from "@pi/ai";
import { describeCacheWarming } from "../../../agent-session/cache-warmer.js";
import type { InteractiveContext } from "../context.js";
import type { SlashCommand } from "./registry.js";

const n = (v: number) => v.toLocaleString("en-US");

export function formatSessionInfo(ctx: InteractiveContext): string {
	const s = ctx.session;
	const sm = s.sessionManager;
	const stats = s.getSessionStats();
	const usage = s.getContextUsage();
	const model = s.model;
	const lines = ["Session", `  File: ${s.sessionFile ?? "(not saved: --no-session)"}`, `  ID: ${s.sessionId}`];
	const name = sm.getSessionName();
	if (name) lines.push(`  Name: ${name}`);
	const parent = sm.getHeader()?.parentSession;
	if (parent) lines.push(`  Forked from: ${parent}`);
	lines.push(`  Directory: ${sm.getCwd()}`);
	lines.push(
		`  Messages: ${stats.userMessages} user, ${stats.assistantMessages} assistant, ${stats.toolCalls} tool calls, ${stats.toolResults} tool results (${stats.totalMessages} in context)`,
	);
	lines.push(`  Entries: ${sm.getEntryCount()} (all branches)`);
	const t = stats.tokens;
	lines.push(
		`  Tokens: ${n(t.input)} in, ${n(t.output)} out, ${n(t.cacheRead)} cache read, ${n(t.cacheWrite)} cache write (${n(t.total)} total)`,
	);
	lines.push(`  Cost: $${stats.cost.toFixed(4)} (all branches and summaries)`);
	if (model) {
		const pct = usage.percent === undefined ? "" : ` (${usage.percent.toFixed(1)}%)`;
		lines.push(`  Context: ${n(usage.tokens)} of ${n(usage.contextWindow)} tokens${pct}`);
		const thinking = sendsThinkingLevel(model) ? `thinking ${s.thinkingLevel}` : "thinking not sent to this model";
		lines.push(`  Model: ${model.provider}/${model.id} • ${thinking}`);
	}
	const warmer = s.cacheWarming;
	if (warmer) lines.push(...describeCacheWarming(warmer.status, warmer.clock.now()).map((line) => `  ${line}`));
	return lines.join("\n");
}

export const sessionCommand: SlashCommand = {
	name: "session",
	description: "Show session info and stats",
	run(_args, ctx) {
		ctx.showStatus(formatSessionInfo(ctx));
	},
};
