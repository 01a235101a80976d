// The look every selector shares when it takes the editor's place: a rule
// above, a title, the body, a line of key hints, a rule below. Input goes to
// the body; focus is passed through so inputs inside can show their cursor.
import {
	type Component,
	type Focusable,
	isFocusable,
	type SelectListTheme,
	type SettingsListTheme,
	truncateToWidth,
} from "@pi/tui";
import type { AppTheme } from "../theme-fallback.js";

export type ThemeSource = () => AppTheme;

export class SelectorFrame implements Component, Focusable {
	private _focused = false;

	constructor(
		private readonly theme: ThemeSource,
		private readonly title: () => string,
		readonly body: Component,
		private readonly hints: () => string,
	) {}

	get focused(): boolean {
		return this._focused;
	}

	set focused(value: boolean) {
		this._focused = value;
		if (isFocusable(this.body)) this.body.focused = value;
	}

	invalidate(): void {
		this.body.invalidate?.();
	}

	render(width: number): string[] {
		const t = this.theme();
		const rule = t.fg("border", "─".repeat(Math.max(1, width)));
		const lines = [rule];
		const title = this.title();
		if (title) lines.push(truncateToWidth(` ${t.bold(t.fg("accent", title))}`, width, "…"));
		lines.push(...this.body.render(width));
		const hints = this.hints();
		if (hints) lines.push(truncateToWidth(` ${t.fg("dim", hints)}`, width, "…"));
		lines.push(rule);
		return lines;
	}

	handleInput(data: string): void {
		this.body.handleInput?.(data);
	}
}

/** Single-line text, truncated to the width, with ANSI kept intact. */
export function line(text: string, width: number): string {
	return truncateToWidth(text, width, "…");
}

/** Collapses whitespace (newlines, tabs) so a message fits one row. */
export function oneLine(text: string): string {
	return text.replace(/\s+/g, " ").trim();
}

/** A SelectList theme that asks the current theme on every call (theme previews, live reload). */
export function liveSelectListTheme(theme: ThemeSource): SelectListTheme {
	return {
		selectedPrefix: (t) => theme().getSelectListTheme().selectedPrefix(t),
		selectedText: (t) => theme().getSelectListTheme().selectedText(t),
		description: (t) => theme().getSelectListTheme().description(t),
		scrollInfo: (t) => theme().getSelectListTheme().scrollInfo(t),
		noMatch: (t) => theme().getSelectListTheme().noMatch(t),
	};
}

/** A SettingsList theme that follows the current theme. */
export function liveSettingsListTheme(theme: ThemeSource): SettingsListTheme {
	return {
		label: (t, selected) => theme().getSettingsListTheme().label(t, selected),
		value: (t, selected) => theme().getSettingsListTheme().value(t, selected),
		description: (t) => theme().getSettingsListTheme().description(t),
		get cursor() {
			return theme().getSettingsListTheme().cursor;
		},
		hint: (t) => theme().getSettingsListTheme().hint(t),
	};
}
