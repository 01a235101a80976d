import type { SlashCommand } from "./registry.js";

export const nameCommand: SlashCommand = {
	name: "name",
	description: "Set the session name",
	argumentHint: "<name>",
	run(args, ctx) {
		if (!args) {
			const current = ctx.session.sessionManager.getSessionName();
			ctx.showStatus(current ? `Session name: ${current}` : "Usage: /name <name>", current ? "info" : "warning");
			return;
		}
		ctx.session.setSessionName(args);
		ctx.refreshStatus();
		ctx.showStatus(`Session name set: ${args}`);
	},
};
