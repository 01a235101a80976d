import type { SlashCommand } from "./registry.js";

export const quitCommand: SlashCommand = {
	name: "quit",
	description: "Quit pi",
	async run(_args, ctx) {
		await ctx.shutdown();
	},
};
