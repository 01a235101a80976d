// A search field over a list: typing filters (fuzzy), Up/Down/PageUp/PageDown
// move, Enter chooses, Esc cancels. The model selector, the theme list and
// the thinking-level list are this with different items.
import {
	type Component,
	type Focusable,
	getKeybindings,
	Input,
	type SelectItem,
	SelectList,
	truncateToWidth,
} from "@pi/tui";
import { liveSelectListTheme, type ThemeSource } from "./frame.js";

export interface SearchSelectOptions {
	items: SelectItem[];
	/** Value of the item to highlight first (e.g. the current model). */
	initialValue?: string;
	initialQuery?: string;
	maxVisible?: number;
	/** Without a search field (short lists). */
	noSearch?: boolean;
	/** Shown when nothing matches. */
	emptyText?: string;
	onSelect(item: SelectItem): void;
	onCancel(): void;
	/** The highlighted item changed (previews). */
	onHighlight?(item: SelectItem): void;
}

const NAV = ["tui.select.up", "tui.select.down", "tui.select.pageUp", "tui.select.pageDown"] as const;

export class SearchSelect implements Component, Focusable {
	readonly input = new Input();
	private readonly list: SelectList;
	private _focused = false;

	constructor(
		private readonly theme: ThemeSource,
		private readonly o: SearchSelectOptions,
	) {
		this.list = new SelectList(o.items, o.maxVisible ?? 10, liveSelectListTheme(theme));
		this.list.onSelect = (item) => o.onSelect(item);
		this.list.onCancel = () => o.onCancel();
		this.list.onSelectionChange = (item) => o.onHighlight?.(item);
		if (o.initialQuery) {
			this.input.setValue(o.initialQuery);
			this.list.setFilter(o.initialQuery);
		} else if (o.initialValue !== undefined) {
			const i = o.items.findIndex((item) => item.value === o.initialValue);
			if (i >= 0) this.list.setSelectedIndex(i);
		}
	}

	get focused(): boolean {
		return this._focused;
	}

	set focused(value: boolean) {
		this._focused = value;
		this.input.focused = value && !this.o.noSearch;
	}

	/** Items left after filtering, in display order. */
	getVisibleItems(): SelectItem[] {
		return this.list.getVisibleItems();
	}

	getSelectedItem(): SelectItem | null {
		return this.list.getSelectedItem();
	}

	/** Replaces the items, keeping the filter and (when still listed) the highlighted item. */
	setItems(items: SelectItem[]): void {
		const highlighted = this.list.getSelectedItem()?.value;
		this.list.setItems(items);
		const i = this.list.getVisibleItems().findIndex((item) => item.value === highlighted);
		if (i >= 0) this.list.setSelectedIndex(i);
	}

	invalidate(): void {}

	render(width: number): string[] {
		const lines: string[] = [];
		if (!this.o.noSearch) lines.push(...this.input.render(width), "");
		if (this.list.getVisibleItems().length === 0) {
			lines.push(truncateToWidth(this.theme().fg("muted", `  ${this.o.emptyText ?? "No matches"}`), width));
		} else {
			lines.push(...this.list.render(width));
		}
		return lines;
	}

	handleInput(data: string): void {
		const kb = getKeybindings();
		if (
			NAV.some((id) => kb.matches(data, id)) ||
			kb.matches(data, "tui.select.confirm") ||
			kb.matches(data, "tui.select.cancel") ||
			this.o.noSearch
		) {
			this.list.handleInput(data);
			return;
		}
		const before = this.input.getValue();
		this.input.handleInput(data);
		const after = this.input.getValue();
		if (after !== before) {
			this.list.setFilter(after.trim());
			const item = this.list.getSelectedItem();
			if (item) this.o.onHighlight?.(item);
		}
	}
}
