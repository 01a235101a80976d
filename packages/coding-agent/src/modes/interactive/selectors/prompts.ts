// Small dialogs that take the editor's place: a choice from a short list, a
// yes/no question, a line of text, and the branch-summary question /tree asks when it leaves a
// branch (no summary / summarize / summarize with custom instructions).
import { type Component, type Focusable, Input, matchesKey, truncateToWidth } from "@pi/tui";
import { SelectorFrame, type ThemeSource } from "./frame.js";
import { SearchSelect } from "./search-select.js";

export interface Choice<T extends string> {
	value: T;
	label: string;
	description?: string;
}

export function createChoicePrompt<T extends string>(
	theme: ThemeSource,
	title: string,
	choices: readonly Choice<T>[],
	onDone: (value: T | undefined) => void,
	initialValue?: T,
): SelectorFrame {
	const select = new SearchSelect(theme, {
		items: choices.map((c) => ({ value: c.value, label: c.label, description: c.description })),
		initialValue,
		noSearch: true,
		onSelect: (item) => onDone(item.value as T),
		onCancel: () => onDone(undefined),
	});
	return new SelectorFrame(
		theme,
		() => title,
		select,
		() => "↑↓ move · enter choose · esc cancel",
	);
}

/** A yes/no question ("Yes" first); Esc answers no. */
export function createConfirmPrompt(
	theme: ThemeSource,
	title: string,
	question: string,
	onDone: (confirmed: boolean) => void,
): SelectorFrame {
	return createChoicePrompt(
		theme,
		`${title}: ${question}`,
		[
			{ value: "yes", label: "Yes" },
			{ value: "no", label: "No" },
		],
		(value) => onDone(value === "yes"),
	);
}

/** One line of text; Enter gives it (trimmed), Esc gives undefined. */
export class TextPrompt implements Component, Focusable {
	readonly input = new Input();
	private _focused = false;

	constructor(
		private readonly theme: ThemeSource,
		private readonly question: string,
		private readonly onDone: (text: string | undefined) => void,
		initial = "",
	) {
		this.input.setValue(initial);
	}

	get focused(): boolean {
		return this._focused;
	}

	set focused(value: boolean) {
		this._focused = value;
		this.input.focused = value;
	}

	invalidate(): void {}

	render(width: number): string[] {
		const t = this.theme();
		return [truncateToWidth(` ${t.fg("accent", this.question)}`, width, "…"), ...this.input.render(width)];
	}

	handleInput(data: string): void {
		if (matchesKey(data, "escape") || matchesKey(data, "ctrl+c")) {
			this.onDone(undefined);
			return;
		}
		if (matchesKey(data, "enter")) {
			this.onDone(this.input.getValue().trim());
			return;
		}
		this.input.handleInput(data);
	}
}

export function createTextPrompt(
	theme: ThemeSource,
	title: string,
	question: string,
	onDone: (text: string | undefined) => void,
	initial = "",
): SelectorFrame {
	return new SelectorFrame(
		theme,
		() => title,
		new TextPrompt(theme, question, onDone, initial),
		() => "enter confirm · esc cancel",
	);
}

export type BranchSummaryChoice = "none" | "summarize" | "custom";

export const BRANCH_SUMMARY_CHOICES: readonly Choice<BranchSummaryChoice>[] = [
	{ value: "none", label: "No summary", description: "Switch branches; the branch left behind is not carried along" },
	{ value: "summarize", label: "Summarize", description: "Carry a summary of the branch left behind" },
	{ value: "custom", label: "Summarize with instructions…", description: "Say what the summary should focus on" },
];
