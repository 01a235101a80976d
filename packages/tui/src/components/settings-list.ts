import { type Component, type Focusable, isFocusable } from "../component.js";
import { fuzzyFilter } from "../fuzzy.js";
import { getKeybindings } from "../keybindings.js";
import { matchesKey } from "../keys.js";
import { truncateToWidth } from "../utils/slice.js";
import { visibleWidth } from "../utils/width.js";
import { wrapTextWithAnsi } from "../utils/wrap.js";
import { Input } from "./input.js";

export interface SettingItem {
	id: string;
	label: string;
	/** Shown under the list while the item is selected. */
	description?: string;
	currentValue: string;
	/** Enter/Space cycles through these values. */
	values?: string[];
	/** Enter opens this component; `done(value)` closes it (undefined = cancelled). */
	submenu?: (currentValue: string, done: (selectedValue?: string) => void) => Component;
}

export interface SettingsListTheme {
	label: (text: string, selected: boolean) => string;
	value: (text: string, selected: boolean) => string;
	description: (text: string) => string;
	/** Prefix of the selected row (e.g. "→ "). */
	cursor: string;
	hint: (text: string) => string;
}

export interface SettingsListOptions {
	/** Show a search field that filters settings as you type. */
	enableSearch?: boolean;
}

/** Settings with values to cycle or submenus to open. */
export class SettingsList implements Component, Focusable {
	private items: SettingItem[];
	private filtered: SettingItem[];
	private selected = 0;
	private readonly maxVisible: number;
	private readonly theme: SettingsListTheme;
	private readonly onChange: (id: string, newValue: string) => void;
	private readonly onCancel: () => void;
	private readonly search?: Input;
	private submenu: Component | null = null;
	private _focused = false;

	constructor(
		items: SettingItem[],
		maxVisible: number,
		theme: SettingsListTheme,
		onChange: (id: string, newValue: string) => void,
		onCancel: () => void,
		options: SettingsListOptions = {},
	) {
		this.items = items;
		this.filtered = items;
		this.maxVisible = Math.max(1, maxVisible);
		this.theme = theme;
		this.onChange = onChange;
		this.onCancel = onCancel;
		if (options.enableSearch) this.search = new Input();
	}

	get focused(): boolean {
		return this._focused;
	}

	set focused(value: boolean) {
		this._focused = value;
		if (this.search) this.search.focused = value && !this.submenu;
		if (isFocusable(this.submenu)) this.submenu.focused = value;
	}

	updateValue(id: string, newValue: string): void {
		const item = this.items.find((i) => i.id === id);
		if (item) item.currentValue = newValue;
	}

	invalidate(): void {
		this.submenu?.invalidate?.();
	}

	render(width: number): string[] {
		if (this.submenu) return this.submenu.render(width);
		const lines: string[] = [];
		if (this.search) {
			lines.push(...this.search.render(width));
			lines.push("");
		}
		if (this.items.length === 0) {
			lines.push(truncateToWidth(this.theme.hint("  No settings available"), width));
			return lines;
		}
		if (this.filtered.length === 0) {
			lines.push(truncateToWidth(this.theme.hint("  No matching settings"), width));
			this.addHint(lines, width);
			return lines;
		}
		const labelWidth = Math.min(
			Math.max(...this.filtered.map((i) => visibleWidth(i.label))),
			Math.max(8, Math.floor(width / 2)),
		);
		const start = Math.max(
			0,
			Math.min(this.selected - Math.floor(this.maxVisible / 2), this.filtered.length - this.maxVisible),
		);
		const end = Math.min(start + this.maxVisible, this.filtered.length);
		const cursorWidth = visibleWidth(this.theme.cursor);
		for (let i = start; i < end; i++) {
			const item = this.filtered[i];
			const sel = i === this.selected;
			const prefix = sel ? this.theme.cursor : " ".repeat(cursorWidth);
			const label = truncateToWidth(item.label, labelWidth, "…");
			const pad = " ".repeat(Math.max(0, labelWidth - visibleWidth(label)) + 2);
			const room = Math.max(1, width - cursorWidth - labelWidth - 2);
			const value = truncateToWidth(item.currentValue, room, "…");
			lines.push(
				truncateToWidth(prefix + this.theme.label(label, sel) + pad + this.theme.value(value, sel), width, ""),
			);
		}
		if (this.filtered.length > this.maxVisible) {
			lines.push(truncateToWidth(this.theme.hint(`  (${this.selected + 1}/${this.filtered.length})`), width, ""));
		}
		const desc = this.filtered[this.selected]?.description;
		if (desc) {
			lines.push("");
			for (const l of wrapTextWithAnsi(desc, Math.max(1, width - 2))) lines.push(`  ${this.theme.description(l)}`);
		}
		this.addHint(lines, width);
		return lines;
	}

	private addHint(lines: string[], width: number): void {
		lines.push("");
		const text = this.search
			? "  Type to search · Enter/Space to change · Esc to cancel"
			: "  Enter/Space to change · Esc to cancel";
		lines.push(truncateToWidth(this.theme.hint(text), width, ""));
	}

	handleInput(data: string): void {
		if (this.submenu) {
			this.submenu.handleInput?.(data);
			return;
		}
		const kb = getKeybindings();
		const n = this.filtered.length;
		if (kb.matches(data, "tui.select.up")) {
			if (n > 0) this.selected = this.selected === 0 ? n - 1 : this.selected - 1;
		} else if (kb.matches(data, "tui.select.down")) {
			if (n > 0) this.selected = this.selected === n - 1 ? 0 : this.selected + 1;
		} else if (kb.matches(data, "tui.select.pageUp")) {
			this.selected = Math.max(0, this.selected - this.maxVisible);
		} else if (kb.matches(data, "tui.select.pageDown")) {
			this.selected = Math.max(0, Math.min(n - 1, this.selected + this.maxVisible));
		} else if (kb.matches(data, "tui.select.confirm") || (matchesKey(data, "space") && !this.search)) {
			this.activate();
		} else if (kb.matches(data, "tui.select.cancel")) {
			this.onCancel();
		} else if (this.search) {
			this.search.handleInput(data);
			this.applyFilter(this.search.getValue());
		}
	}

	private activate(): void {
		const item = this.filtered[this.selected];
		if (!item) return;
		if (item.submenu) {
			const component = item.submenu(item.currentValue, (value) => {
				this.submenu = null;
				if (this.search) this.search.focused = this._focused;
				if (value !== undefined) {
					item.currentValue = value;
					this.onChange(item.id, value);
				}
			});
			this.submenu = component;
			if (isFocusable(component)) component.focused = this._focused;
			return;
		}
		if (item.values && item.values.length > 0) {
			const i = item.values.indexOf(item.currentValue);
			const next = item.values[(i + 1) % item.values.length];
			item.currentValue = next;
			this.onChange(item.id, next);
		}
	}

	private applyFilter(query: string): void {
		this.filtered = query ? fuzzyFilter(this.items, query, (i) => i.label) : this.items;
		this.selected = 0;
	}
}
