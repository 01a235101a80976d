import type { SlashCommand } from "./registry.js";

export const newCommand: SlashCommand = {
	name: "new",
	description: "Start a new session",
	async run(_args, ctx) {
		await ctx.session.newSession();
		ctx.reloadFromSession();
		ctx.showStatus("New session started");
	},
};
