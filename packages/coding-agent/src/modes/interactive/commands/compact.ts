import type { SlashCommand } from "./registry.js";

export const compactCommand: SlashCommand = {
	name: "compact",
	description: "Compact the context now",
	argumentHint: "[instructions]",
	async run(args, ctx) {
		if (ctx.session.isCompacting) {
			ctx.showStatus("A compaction is already running", "warning");
			return;
		}
		try {
			await ctx.session.compact(args || undefined);
		} catch {
			// The outcome (summary, cancellation, failure) was shown from the compaction events.
		}
	},
};
