// The project-trust question of the interactive app, asked before anything
// from the folder loads (so before the app itself starts): what the folder's
// `.pi/` would bring, then trust once / always / not. Its own small screen on
// the terminal; the app starts after it has gone.
import { type Component, ProcessTerminal, SelectList, type Terminal, TUI, truncateToWidth } from "@pi/tui";
import { liveSelectListTheme, SelectorFrame } from "./selectors/frame.js";
import { type AppTheme, fallbackTheme } from "./theme-fallback.js";

export type TrustAnswer = "once" | "always" | "no";

const CHOICES: { value: TrustAnswer; label: string; description: string }[] = [
	{ value: "once", label: "Trust once", description: "load them for this run only" },
	{ value: "always", label: "Trust always", description: "remember for this folder (trust.json)" },
	{ value: "no", label: "Don't trust", description: "start without them (asked again next time)" },
];

class Lines implements Component {
	constructor(private readonly lines: (width: number) => string[]) {}
	render(width: number): string[] {
		return this.lines(width).map((l) => truncateToWidth(l, width, "…"));
	}
	invalidate(): void {}
}

/** Asks on the terminal; Esc or Ctrl+C mean "no". */
export function askProjectTrust(options: {
	cwd: string;
	/** What would load, one line each ("extensions: 2 files", "settings.json"). */
	resources: readonly string[];
	terminal?: Terminal;
	theme?: AppTheme;
}): Promise<TrustAnswer> {
	const theme = options.theme ?? fallbackTheme;
	const tui = new TUI(options.terminal ?? new ProcessTerminal());
	return new Promise((resolveAnswer) => {
		const list = new SelectList(
			CHOICES.map((c) => ({ value: c.value, label: c.label, description: c.description })),
			CHOICES.length,
			liveSelectListTheme(() => theme),
		);
		let done = false;
		const finish = (answer: TrustAnswer) => {
			if (done) return;
			done = true;
			// Leave a clean screen for the app: draw the empty frame, then hand the terminal back.
			tui.clear();
			tui.renderNow();
			tui.stop();
			resolveAnswer(answer);
		};
		list.onSelect = (item) => finish(item.value as TrustAnswer);
		list.onCancel = () => finish("no");
		const intro = new Lines(() => [
			"",
			` ${theme.fg("muted", options.cwd)}`,
			` ${theme.fg("text", "has project resources that run or change what pi does:")}`,
			...options.resources.map((r) => `   ${theme.fg("accent", "•")} ${r}`),
			` ${theme.fg("dim", "Extensions run code with your permissions. Context files (AGENTS.md) load either way.")}`,
			"",
		]);
		const body: Component = {
			render: (width) => [...intro.render(width), ...list.render(width)],
			invalidate: () => list.invalidate(),
			handleInput: (data) => {
				// Ctrl+C answers "no" here: the app is not running yet.
				if (data === "\x03") finish("no");
				else list.handleInput(data);
			},
		};
		const frame = new SelectorFrame(
			() => theme,
			() => "Trust this folder?",
			body,
			() => "↑↓ choose · enter confirm · esc don't trust",
		);
		tui.addChild(frame);
		tui.setFocus(frame);
		tui.start();
		tui.requestRender();
	});
}
