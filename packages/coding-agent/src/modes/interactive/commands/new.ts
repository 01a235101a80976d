import type { SlashCommand } from "./registry.js";

export const newCommand: SlashCommand = {
	name: "new",
	description: "Start a new session",
	async run(_args, ctx) {
		if ((await ctx.session.newSession()).cancelled) return ctx.showStatus("New session cancelled by an extension");
		ctx.reloadFromSession();
		ctx.showStatus("New session started");
	},
};
