// /scoped-models: which models Ctrl+P cycles through, and in what order.
// Type to search; Enter or Space toggles the highlighted model; Ctrl+A enables
// and Ctrl+X clears every listed (matching) model; Ctrl+P toggles all models
// of the highlighted model's provider; Alt+↑/↓ move an enabled model in the
// cycle order; Ctrl+S saves the choice as `enabledModels`; Esc closes (the
// choice stays in force for this run).
import {
	type Component,
	type Focusable,
	fuzzyFilter,
	getKeybindings,
	Input,
	type KeybindingsManager,
	matchesKey,
	truncateToWidth,
} from "@pi/tui";
import type { ThemeSource } from "./frame.js";

export interface ScopedModelsSelectorOptions {
	/** Every model with credentials, as "provider/id". */
	all: readonly string[];
	/** Enabled ones, in cycle order. */
	enabled: readonly string[];
	keybindings?: KeybindingsManager;
	maxVisible?: number;
	/** Called after every change with the enabled list in cycle order. */
	onChange(enabled: string[]): void;
	onSave(enabled: string[]): void;
	onClose(): void;
}

export class ScopedModelsSelector implements Component, Focusable {
	readonly search = new Input();
	private enabled: string[];
	private visible: string[] = [];
	private selected = 0;
	private _focused = false;
	private note: string | undefined;

	constructor(
		private readonly theme: ThemeSource,
		private readonly o: ScopedModelsSelectorOptions,
	) {
		this.enabled = o.enabled.filter((k) => o.all.includes(k));
		this.refilter();
	}

	get focused(): boolean {
		return this._focused;
	}

	set focused(value: boolean) {
		this._focused = value;
		this.search.focused = value;
	}

	getEnabled(): string[] {
		return [...this.enabled];
	}

	/** Enabled models first (cycle order), then the rest; filtered by the search. */
	private ordered(): string[] {
		return [...this.enabled, ...this.o.all.filter((k) => !this.enabled.includes(k))];
	}

	private refilter(): void {
		const keep = this.visible[this.selected];
		const query = this.search.getValue().trim();
		this.visible = query ? fuzzyFilter(this.ordered(), query, (k) => k) : this.ordered();
		const i = keep ? this.visible.indexOf(keep) : -1;
		this.selected = i >= 0 ? i : Math.min(this.selected, Math.max(0, this.visible.length - 1));
	}

	private changed(): void {
		this.refilter();
		this.o.onChange(this.getEnabled());
	}

	invalidate(): void {}

	render(width: number): string[] {
		const t = this.theme();
		const lines = [
			truncateToWidth(
				t.fg(
					"muted",
					this.enabled.length === 0
						? " No models selected: Ctrl+P cycles through every model with credentials"
						: ` ${this.enabled.length} of ${this.o.all.length} models in the Ctrl+P cycle`,
				),
				width,
				"…",
			),
			...this.search.render(width),
		];
		if (this.visible.length === 0) lines.push(t.fg("muted", "  No matches"));
		const max = this.o.maxVisible ?? 12;
		const start = Math.max(0, Math.min(this.selected - Math.floor(max / 2), this.visible.length - max));
		for (let i = start; i < Math.min(this.visible.length, start + max); i++) {
			const key = this.visible[i];
			const on = this.enabled.includes(key);
			const order = on ? `${this.enabled.indexOf(key) + 1}.` : "  ";
			const box = on ? t.fg("success", "[x]") : t.fg("dim", "[ ]");
			const cursor = i === this.selected ? t.fg("accent", "→ ") : "  ";
			const label = i === this.selected ? t.fg("accent", key) : key;
			lines.push(truncateToWidth(`${cursor}${box} ${t.fg("dim", order.padStart(3))} ${label}`, width, "…"));
		}
		if (this.visible.length > max) lines.push(t.fg("dim", `  (${this.selected + 1}/${this.visible.length})`));
		if (this.note) lines.push("", t.fg("success", ` ${this.note}`));
		return lines;
	}

	handleInput(data: string): void {
		const kb = this.o.keybindings ?? getKeybindings();
		const n = this.visible.length;
		const key = this.visible[this.selected];
		this.note = undefined;
		if (this.is(kb, data, "app.models.reorderUp", "alt+up")) {
			this.move(-1);
		} else if (this.is(kb, data, "app.models.reorderDown", "alt+down")) {
			this.move(1);
		} else if (kb.matches(data, "tui.select.up")) {
			if (n > 0) this.selected = this.selected === 0 ? n - 1 : this.selected - 1;
		} else if (kb.matches(data, "tui.select.down")) {
			if (n > 0) this.selected = this.selected === n - 1 ? 0 : this.selected + 1;
		} else if (kb.matches(data, "tui.select.confirm") || matchesKey(data, "space")) {
			if (key) this.toggle([key], !this.enabled.includes(key));
		} else if (kb.matches(data, "tui.select.cancel")) {
			this.o.onClose();
		} else if (this.is(kb, data, "app.models.save", "ctrl+s")) {
			this.o.onSave(this.getEnabled());
			this.note = this.enabled.length > 0 ? "Saved as enabledModels in settings" : "Saved: no scope (all models)";
		} else if (this.is(kb, data, "app.models.enableAll", "ctrl+a")) {
			this.toggle(this.visible, true);
		} else if (this.is(kb, data, "app.models.clearAll", "ctrl+x")) {
			this.toggle(this.visible, false);
		} else if (this.is(kb, data, "app.models.toggleProvider", "ctrl+p")) {
			if (!key) return;
			const provider = key.slice(0, key.indexOf("/"));
			const ofProvider = this.o.all.filter((k) => k.startsWith(`${provider}/`));
			this.toggle(ofProvider, !ofProvider.every((k) => this.enabled.includes(k)));
		} else {
			const before = this.search.getValue();
			this.search.handleInput(data);
			if (this.search.getValue() !== before) {
				this.selected = 0;
				this.visible = [];
				this.refilter();
			}
		}
	}

	private is(kb: KeybindingsManager, data: string, id: string, fallback: string): boolean {
		return kb.getKeys(id).length > 0 ? kb.matches(data, id) : matchesKey(data, fallback);
	}

	private toggle(keys: readonly string[], on: boolean): void {
		if (on) {
			for (const k of keys) if (!this.enabled.includes(k)) this.enabled.push(k);
		} else {
			this.enabled = this.enabled.filter((k) => !keys.includes(k));
		}
		this.changed();
	}

	private move(step: number): void {
		const key = this.visible[this.selected];
		const i = key ? this.enabled.indexOf(key) : -1;
		const j = i + step;
		if (i < 0 || j < 0 || j >= this.enabled.length) return;
		[this.enabled[i], this.enabled[j]] = [this.enabled[j], this.enabled[i]];
		this.changed();
	}
}

export const SCOPED_MODELS_HINTS =
	"type to search · enter/space toggle · ctrl+a all · ctrl+x none · ctrl+p provider · alt+↑↓ order · ctrl+s save · esc close";
