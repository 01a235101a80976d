import { APP_KEYBINDINGS, keyText } from "../keybindings.js";
import type { SlashCommand } from "./registry.js";

export const hotkeysCommand: SlashCommand = {
	name: "hotkeys",
	description: "Show keyboard shortcuts",
	run(_args, ctx) {
		const kb = ctx.keybindings;
		const rows: [string, string][] = [];
		for (const [id, def] of Object.entries(APP_KEYBINDINGS)) {
			const keys = keyText(kb, id);
			if (keys) rows.push([keys, def.description]);
		}
		rows.push(
			[keyText(kb, "tui.input.submit"), "Send (while working: queue a steering message)"],
			[keyText(kb, "tui.input.newLine"), "New line"],
			[keyText(kb, "tui.input.tab"), "Complete path / command"],
			["escape twice", "Session tree (empty editor; doubleEscapeAction)"],
			["/", "Commands"],
			["!cmd / !!cmd", "Run a shell command (with / without sending its output)"],
			["@", "Mention a file"],
		);
		const width = Math.max(...rows.map(([k]) => k.length));
		const lines = rows.map(([k, d]) => `${k.padEnd(width)}  ${d}`);
		const extensionRows = (ctx.extensionHotkeys?.() ?? []).map(
			(h) => `${h.key}  ${h.description || "(no description)"}  — ${h.extensionPath}`,
		);
		if (extensionRows.length > 0) lines.push("", "Extension shortcuts", ...extensionRows);
		const commands = ctx.commands
			.list()
			.map((c) => `/${c.name}${c.argumentHint ? ` ${c.argumentHint}` : ""} — ${c.description}`);
		ctx.showStatus(["Keyboard shortcuts", ...lines, "", "Commands", ...commands].join("\n"));
	},
};
