// Mounting one selector in a TUI on a headless terminal (@xterm/headless):
// keys go in as raw bytes, the screen comes back as the user would see it.
import { type Component, TUI } from "@pi/tui";
import { VirtualTerminal } from "../../../tui/test/helpers/virtual-terminal.js";
import { plainTheme } from "../../src/modes/interactive/theme-fallback.js";

export const theme = () => plainTheme;

export interface Mounted {
	term: VirtualTerminal;
	tui: TUI;
	type(data: string): Promise<void>;
	screen(): Promise<string>;
	stop(): void;
}

export async function mount(component: Component, columns = 80, rows = 24): Promise<Mounted> {
	const term = new VirtualTerminal(columns, rows);
	const tui = new TUI(term);
	tui.addChild(component);
	tui.setFocus(component);
	tui.start();
	tui.renderNow();
	const settle = async () => {
		tui.renderNow();
		await term.flush();
	};
	await settle();
	return {
		term,
		tui,
		async type(data: string) {
			term.typeRaw(data);
			// A lone Escape is held briefly in case it starts a sequence.
			if (data === "\x1b") await new Promise((r) => setTimeout(r, 30));
			await settle();
		},
		async screen() {
			await settle();
			return (await term.screen()).join("\n");
		},
		stop: () => tui.stop(),
	};
}

export const KEY = {
	up: "\x1b[A",
	down: "\x1b[B",
	left: "\x1b[D",
	right: "\x1b[C",
	ctrlLeft: "\x1b[1;5D",
	ctrlRight: "\x1b[1;5C",
	enter: "\r",
	escape: "\x1b",
	tab: "\t",
	ctrl: (c: string) => String.fromCharCode(c.toLowerCase().charCodeAt(0) - 96),
};
