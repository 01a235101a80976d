import { copyWithTool, osc52 } from "../clipboard.js";
import type { SlashCommand } from "./registry.js";

export const copyCommand: SlashCommand = {
	name: "copy",
	description: "Copy the last answer to the clipboard",
	async run(_args, ctx) {
		const text = ctx.session.getLastAssistantText();
		if (!text) {
			ctx.showStatus("Nothing to copy yet", "warning");
			return;
		}
		ctx.tui.terminal.write(osc52(text));
		const native = await copyWithTool(text);
		ctx.showStatus(native ? "Copied the last answer" : "Copied the last answer (OSC 52)");
	},
};
