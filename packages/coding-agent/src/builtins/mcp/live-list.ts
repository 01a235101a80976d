// `/mcp`'s server list in the app, kept live: a selector (ctx.ui.custom with
// pi-tui's SelectList) redrawn whenever a server changes state or its tool
// list, so servers connecting, failing and reconnecting show while the list
// is open. The rows are re-sorted (those needing attention first) and the
// highlighted server stays highlighted by name.
import { type Component, SelectList, truncateToWidth, wrapTextWithAnsi } from "@pi/tui";
import type { ExtensionCommandContext } from "../../extensions/types.js";
import type { McpManager } from "./manager.js";
import { statusLine, statusOrder } from "./status.js";

export interface LiveListDeps {
	manager: McpManager;
	/** Subscribes to server changes (state, tools); returns the unsubscribe function. */
	onChange(listener: () => void): () => void;
}

/** Shows the live list; resolves with the chosen server's name, or undefined (Esc). */
export async function pickServerLive(ctx: ExtensionCommandContext, deps: LiveListDeps): Promise<string | undefined> {
	const m = deps.manager;
	const rows = () => statusOrder([...m.servers.values()]).map((e) => ({ value: e.name, label: statusLine(e) }));
	return ctx.ui.custom<string | undefined>((tui, theme, _keys, done) => {
		const list = new SelectList(rows(), 12, theme.getSelectListTheme());
		let closed = false;
		const finish = (value: string | undefined) => {
			if (closed) return;
			closed = true;
			off();
			done(value);
		};
		list.onSelect = (item) => finish(item.value);
		list.onCancel = () => finish(undefined);
		const off = deps.onChange(() => {
			if (closed) return;
			const current = list.getSelectedItem()?.value;
			const next = rows();
			list.setItems(next);
			const index = next.findIndex((r) => r.value === current);
			if (index >= 0) list.setSelectedIndex(index);
			tui.requestRender();
		});
		const component: Component & { dispose(): void } = {
			render(width) {
				const rule = theme.fg("border", "─".repeat(Math.max(1, width)));
				const title = wrapTextWithAnsi(theme.bold(theme.fg("accent", "MCP servers")), Math.max(1, width - 1));
				return [
					rule,
					...title.map((l) => ` ${l}`),
					...list.render(width),
					truncateToWidth(` ${theme.fg("dim", "↑↓ navigate · enter select · esc close · updates live")}`, width, "…"),
					rule,
				];
			},
			handleInput: (data) => list.handleInput(data),
			invalidate: () => list.invalidate(),
			dispose: () => {
				closed = true;
				off();
			},
		};
		return component;
	});
}
