import type { Component } from "../component.js";
import { fuzzyFilter } from "../fuzzy.js";
import { getKeybindings } from "../keybindings.js";
import { truncateToWidth } from "../utils/slice.js";
import { visibleWidth } from "../utils/width.js";

export interface SelectItem {
	value: string;
	label: string;
	description?: string;
}

export interface SelectListTheme {
	selectedPrefix: (text: string) => string;
	selectedText: (text: string) => string;
	description: (text: string) => string;
	scrollInfo: (text: string) => string;
	noMatch: (text: string) => string;
}

export interface SelectListTruncatePrimaryContext {
	text: string;
	maxWidth: number;
	columnWidth: number;
	item: SelectItem;
	isSelected: boolean;
}

export interface SelectListLayoutOptions {
	minPrimaryColumnWidth?: number;
	maxPrimaryColumnWidth?: number;
	truncatePrimary?: (context: SelectListTruncatePrimaryContext) => string;
}

/** A scrolling list with a highlighted item, keyboard navigation and filtering. */
export class SelectList implements Component {
	private items: SelectItem[];
	private filtered: SelectItem[];
	private selected = 0;
	private readonly maxVisible: number;
	private readonly theme: SelectListTheme;
	private readonly layout: SelectListLayoutOptions;
	private filter = "";
	onSelect?: (item: SelectItem) => void;
	onCancel?: () => void;
	onSelectionChange?: (item: SelectItem) => void;

	constructor(items: SelectItem[], maxVisible: number, theme: SelectListTheme, layout: SelectListLayoutOptions = {}) {
		this.items = items;
		this.filtered = items;
		this.maxVisible = Math.max(1, maxVisible);
		this.theme = theme;
		this.layout = layout;
	}

	/** Show only items matching the query (fuzzy, over label and value), best first. */
	setFilter(filter: string): void {
		this.filter = filter;
		this.filtered = filter ? fuzzyFilter(this.items, filter, (i) => `${i.label} ${i.value}`) : this.items;
		this.selected = 0;
	}

	getFilter(): string {
		return this.filter;
	}

	setItems(items: SelectItem[]): void {
		this.items = items;
		this.setFilter(this.filter);
	}

	setSelectedIndex(index: number): void {
		this.selected = Math.max(0, Math.min(index, this.filtered.length - 1));
	}

	getSelectedIndex(): number {
		return this.selected;
	}

	getSelectedItem(): SelectItem | null {
		return this.filtered[this.selected] ?? null;
	}

	/** Items currently shown (after filtering). */
	getVisibleItems(): SelectItem[] {
		return this.filtered;
	}

	invalidate(): void {}

	render(width: number): string[] {
		if (this.filtered.length === 0) return [truncateToWidth(this.theme.noMatch("  No matching commands"), width)];
		const start = Math.max(
			0,
			Math.min(this.selected - Math.floor(this.maxVisible / 2), this.filtered.length - this.maxVisible),
		);
		const end = Math.min(start + this.maxVisible, this.filtered.length);
		const colWidth = this.primaryColumnWidth(width);
		const lines: string[] = [];
		for (let i = start; i < end; i++)
			lines.push(this.renderItem(this.filtered[i], i === this.selected, width, colWidth));
		if (this.filtered.length > this.maxVisible) {
			lines.push(truncateToWidth(this.theme.scrollInfo(`  (${this.selected + 1}/${this.filtered.length})`), width));
		}
		return lines;
	}

	private primaryColumnWidth(width: number): number {
		let longest = 0;
		for (const item of this.filtered) longest = Math.max(longest, visibleWidth(item.label || item.value));
		const min = this.layout.minPrimaryColumnWidth ?? 8;
		const max = this.layout.maxPrimaryColumnWidth ?? Math.max(min, Math.floor(width * 0.4));
		return Math.max(min, Math.min(max, longest + 2));
	}

	private renderItem(item: SelectItem, isSelected: boolean, width: number, colWidth: number): string {
		const prefix = isSelected ? this.theme.selectedPrefix("→ ") : "  ";
		const avail = Math.max(1, width - 2);
		const text = item.label || item.value;
		const hasDesc = !!item.description && avail > colWidth + 4;
		const maxPrimary = hasDesc ? colWidth - 1 : avail;
		const primary = this.layout.truncatePrimary
			? this.layout.truncatePrimary({ text, maxWidth: maxPrimary, columnWidth: colWidth, item, isSelected })
			: truncateToWidth(text, maxPrimary, "…");
		let line = isSelected ? this.theme.selectedText(primary) : primary;
		if (hasDesc && item.description) {
			const gap = " ".repeat(Math.max(1, colWidth - visibleWidth(primary)));
			const desc = truncateToWidth(item.description.replace(/\s*\n\s*/g, " "), avail - colWidth, "…");
			line += gap + this.theme.description(desc);
		}
		return truncateToWidth(prefix + line, width, "");
	}

	handleInput(data: string): void {
		const kb = getKeybindings();
		const n = this.filtered.length;
		if (kb.matches(data, "tui.select.up")) {
			if (n > 0) this.move(this.selected === 0 ? n - 1 : this.selected - 1);
		} else if (kb.matches(data, "tui.select.down")) {
			if (n > 0) this.move(this.selected === n - 1 ? 0 : this.selected + 1);
		} else if (kb.matches(data, "tui.select.pageUp")) {
			if (n > 0) this.move(Math.max(0, this.selected - this.maxVisible));
		} else if (kb.matches(data, "tui.select.pageDown")) {
			if (n > 0) this.move(Math.min(n - 1, this.selected + this.maxVisible));
		} else if (kb.matches(data, "tui.select.confirm")) {
			const item = this.getSelectedItem();
			if (item) this.onSelect?.(item);
		} else if (kb.matches(data, "tui.select.cancel")) {
			this.onCancel?.();
		}
	}

	private move(index: number): void {
		if (index === this.selected) return;
		this.selected = index;
		const item = this.getSelectedItem();
		if (item) this.onSelectionChange?.(item);
	}
}
