// /clone: the active branch, up to here, copied into a new session file.
import type { SlashCommand } from "./registry.js";

export const cloneCommand: SlashCommand = {
	name: "clone",
	description: "Duplicate the current branch into a new session",
	async run(_args, ctx) {
		const from = ctx.session.sessionFile;
		if ((await ctx.session.clone()).cancelled) return ctx.showStatus("Clone cancelled by an extension");
		ctx.reloadFromSession();
		const to = ctx.session.sessionFile;
		ctx.showStatus(`Cloned into a new session${to ? `: ${to}` : ""}${from ? ` (from ${from})` : ""}`);
	},
};
