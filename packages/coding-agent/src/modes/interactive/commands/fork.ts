// /fork: pick one of your earlier messages; a new session file continues from
// just before it, and its text is put in the editor to edit and send.
import type { SelectItem } from "@pi/tui";
import { oneLine, SelectorFrame } from "../selectors/frame.js";
import { SearchSelect } from "../selectors/search-select.js";
import type { SlashCommand } from "./registry.js";

export const forkCommand: SlashCommand = {
	name: "fork",
	description: "Fork a new session from an earlier message",
	run(_args, ctx) {
		if (ctx.session.isStreaming) {
			ctx.showStatus("Wait for the current run to end (or press Esc) before forking", "warning");
			return;
		}
		const messages = ctx.session.getForkMessages();
		if (messages.length === 0) {
			ctx.showStatus("No messages to fork from yet", "warning");
			return;
		}
		const items: SelectItem[] = messages.map((m) => ({ value: m.entryId, label: oneLine(m.text) }));
		const select = new SearchSelect(() => ctx.theme, {
			items,
			initialValue: messages[messages.length - 1].entryId,
			maxVisible: 10,
			onSelect: (item) => {
				restore();
				void (async () => {
					try {
						const { text, cancelled } = await ctx.session.fork(item.value);
						if (cancelled) {
							ctx.showStatus("Fork cancelled by an extension");
							ctx.requestRender();
							return;
						}
						ctx.reloadFromSession();
						ctx.editor.setText(text);
						ctx.showStatus(`Forked into a new session${ctx.session.sessionFile ? `: ${ctx.session.sessionFile}` : ""}`);
					} catch (error) {
						ctx.showStatus(error instanceof Error ? error.message : String(error), "error");
					}
					ctx.requestRender();
				})();
			},
			onCancel: () => restore(),
		});
		const restore = ctx.showInEditorArea(
			new SelectorFrame(
				() => ctx.theme,
				() => "Fork from message",
				select,
				() => "type to search · enter fork here (new session) · esc cancel",
			),
		);
	},
};
