import type { ThinkingLevel } from "@pi/ai";
import type { SlashCommand } from "./registry.js";

const LEVELS: ThinkingLevel[] = ["off", "minimal", "low", "medium", "high", "xhigh", "max"];

export const thinkingCommand: SlashCommand = {
	name: "thinking",
	description: "Set the thinking level",
	argumentHint: "[off|minimal|low|medium|high|xhigh|max]",
	getArgumentCompletions: (prefix) =>
		LEVELS.filter((l) => l.startsWith(prefix.trim())).map((l) => ({ value: l, label: l })),
	run(args, ctx) {
		const available = ctx.session.getAvailableThinkingLevels();
		if (!args) {
			ctx.showStatus(`Thinking level: ${ctx.session.thinkingLevel} (available: ${available.join(", ")})`);
			return;
		}
		if (!LEVELS.includes(args as ThinkingLevel)) {
			ctx.showStatus(`Unknown thinking level "${args}". Use one of: ${LEVELS.join(", ")}`, "error");
			return;
		}
		const level = ctx.session.setThinkingLevel(args as ThinkingLevel);
		ctx.refreshStatus();
		ctx.showStatus(
			level === args ? `Thinking level: ${level}` : `Thinking level: ${level} (the model does not support ${args})`,
		);
	},
};
