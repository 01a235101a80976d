// Small dialogs that take the editor's place: a choice from a short list
// (askChoice awaits one), a line of text, and the branch-summary question /tree asks when it leaves a
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

/** Where a prompt takes the editor's place (the app's context). */
export interface PromptHost {
	readonly theme: ReturnType<ThemeSource>;
	showInEditorArea(component: Component): () => void;
	requestRender(): void;
}

/** Asks in the editor's place; resolves with the choice (undefined on Esc) once the editor is back. */
export function askChoice<T extends string>(
	host: PromptHost,
	title: string,
	choices: readonly Choice<T>[],
	initialValue?: T,
): Promise<T | undefined> {
	return new Promise((resolveChoice) => {
		let restore = () => {};
		const prompt = createChoicePrompt(
			() => host.theme,
			title,
			choices,
			(value) => {
				restore();
				resolveChoice(value);
			},
			initialValue,
		);
		restore = host.showInEditorArea(prompt);
		host.requestRender();
	});
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
