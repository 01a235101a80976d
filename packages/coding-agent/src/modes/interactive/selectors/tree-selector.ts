// /tree: the whole session tree, the active path marked, the current leaf
// tagged. ↑↓ move, ←/→ page, Ctrl/Alt+←/→ fold/unfold or jump between branch
// segments, Shift+L edits the label of an entry, Shift+T shows label times,
// Ctrl+D/T/U/L/A pick a filter (default, no tools, user only, labeled only,
// all), Ctrl+O / Shift+Ctrl+O cycle filters, Enter chooses, Esc cancels.
import {
	type Component,
	type Focusable,
	getKeybindings,
	Input,
	type KeybindingsManager,
	matchesKey,
	truncateToWidth,
	visibleWidth,
} from "@pi/tui";
import type { SessionEntry, SessionTreeNode } from "../../../session/types.js";
import type { ThemeSource } from "./frame.js";
import {
	activePathIds,
	buildTreeRows,
	describeEntry,
	TREE_FILTER_MODES,
	type TreeFilterMode,
	type TreeRow,
} from "./tree-rows.js";

export interface TreeSelectorOptions {
	tree: SessionTreeNode[];
	leafId: string | null;
	filterMode?: TreeFilterMode;
	/** Highlighted at first (default: the leaf). */
	initialSelectedId?: string;
	maxVisible?: number;
	keybindings?: KeybindingsManager;
	onSelect(entryId: string): void;
	onCancel(): void;
	/** Sets (or clears, with undefined) the label of an entry. */
	onLabel?(entryId: string, label: string | undefined): void;
}

export class TreeSelector implements Component, Focusable {
	private filter: TreeFilterMode;
	private readonly folded = new Set<string>();
	private rows: TreeRow[] = [];
	private selectedId: string | undefined;
	private showLabelTimes = false;
	private readonly labelInput = new Input();
	/** Type to search: only matching entries are listed (structure kept). */
	private readonly search = new Input();
	private editingLabel: string | undefined;
	private readonly active: Set<string>;
	private readonly parents = new Map<string, string | null>();
	private readonly nodes = new Map<string, SessionTreeNode>();
	private _focused = false;

	constructor(
		private readonly theme: ThemeSource,
		private readonly o: TreeSelectorOptions,
	) {
		this.filter = o.filterMode ?? "default";
		const entries = new Map<string, SessionEntry>();
		const walk = [...o.tree];
		while (walk.length > 0) {
			const n = walk.pop()!;
			entries.set(n.entry.id, n.entry);
			this.nodes.set(n.entry.id, n);
			this.parents.set(n.entry.id, n.entry.parentId);
			walk.push(...n.children);
		}
		this.active = activePathIds(entries, o.leafId);
		this.rebuild();
		this.selectedId = this.nearestShown(o.initialSelectedId ?? o.leafId) ?? this.rows[this.rows.length - 1]?.entry.id;
	}

	get focused(): boolean {
		return this._focused;
	}

	set focused(value: boolean) {
		this._focused = value;
		this.labelInput.focused = value && this.editingLabel !== undefined;
		this.search.focused = value && this.editingLabel === undefined;
	}

	getFilterMode(): TreeFilterMode {
		return this.filter;
	}

	getRows(): readonly TreeRow[] {
		return this.rows;
	}

	getSelectedId(): string | undefined {
		return this.selectedId;
	}

	private rebuild(): void {
		this.rows = buildTreeRows(this.o.tree, this.filter, this.folded, {
			activeIds: this.active,
			search: this.search.getValue().trim(),
		});
	}

	/** The entry itself when shown, else its nearest shown ancestor. */
	private nearestShown(id: string | null | undefined): string | undefined {
		const shown = new Set(this.rows.map((r) => r.entry.id));
		let cur = id ?? null;
		while (cur) {
			if (shown.has(cur)) return cur;
			cur = this.parents.get(cur) ?? null;
		}
		return undefined;
	}

	private selectedIndex(): number {
		const i = this.rows.findIndex((r) => r.entry.id === this.selectedId);
		return Math.max(i, 0);
	}

	private setFilter(mode: TreeFilterMode): void {
		this.filter = mode;
		const keep = this.selectedId;
		this.rebuild();
		this.selectedId = this.nearestShown(keep) ?? this.nearestShown(this.o.leafId) ?? this.rows[0]?.entry.id;
	}

	invalidate(): void {}

	render(width: number): string[] {
		const t = this.theme();
		const lines: string[] = [];
		lines.push(truncateToWidth(t.fg("muted", ` filter: ${this.filter} · ${this.rows.length} shown`), width, "…"));
		lines.push(...this.search.render(width));
		if (this.rows.length === 0) {
			const why = this.search.getValue().trim()
				? "No entries match the search"
				: this.filter === "default"
					? "The session is empty"
					: "Nothing matches this filter";
			lines.push(t.fg("muted", `  ${why}`));
		} else {
			const max = this.o.maxVisible ?? 15;
			const sel = this.selectedIndex();
			const start = Math.max(0, Math.min(sel - Math.floor(max / 2), this.rows.length - max));
			const end = Math.min(this.rows.length, start + max);
			for (let i = start; i < end; i++) lines.push(this.renderRow(this.rows[i], i === sel, width));
			if (this.rows.length > max) lines.push(t.fg("dim", `  (${sel + 1}/${this.rows.length})`));
		}
		if (this.editingLabel !== undefined) {
			lines.push(
				"",
				t.fg("accent", " Label (empty clears · enter save · esc cancel):"),
				...this.labelInput.render(width),
			);
		}
		return lines;
	}

	private renderRow(row: TreeRow, selected: boolean, width: number): string {
		const t = this.theme();
		const id = row.entry.id;
		const onPath = this.active.has(id);
		const { kind, text } = describeEntry(row.entry);
		const cursor = selected ? t.fg("accent", "→ ") : "  ";
		const marker = onPath ? t.fg("accent", "• ") : "  ";
		// Foldable branch starts show ⊟ in their connector (⊞ when folded), as the reference does.
		let prefix = row.prefix;
		if (row.childCount > 0 && prefix.endsWith("─ ")) prefix = `${prefix.slice(0, -2)}${row.folded ? "⊞" : "⊟"} `;
		else if (row.folded) prefix = `${prefix}⊞ `;
		const kindText = kind === "user" ? t.fg("accent", `${kind}:`) : t.fg(onPath ? "text" : "muted", `${kind}:`);
		let tail = "";
		if (row.label) {
			const time =
				this.showLabelTimes && row.labelTimestamp ? ` ${row.labelTimestamp.slice(0, 16).replace("T", " ")}` : "";
			tail += ` ${t.fg("warning", `[${row.label}${time}]`)}`;
		}
		if (id === this.o.leafId) tail += t.fg("accent", " ← active");
		const head = `${cursor}${t.fg("dim", prefix)}${marker}${kindText} `;
		const room = Math.max(4, width - visibleWidth(head) - visibleWidth(tail));
		let body = truncateToWidth(text, room, "…");
		body = selected ? t.bold(body) : onPath ? body : t.fg("muted", body);
		const out = truncateToWidth(`${head}${body}${tail}`, width, "…");
		return selected ? t.bg("selectedBg", out + " ".repeat(Math.max(0, width - visibleWidth(out)))) : out;
	}

	handleInput(data: string): void {
		if (this.editingLabel !== undefined) {
			this.handleLabelInput(data);
			return;
		}
		const kb = this.o.keybindings ?? getKeybindings();
		const n = this.rows.length;
		const i = this.selectedIndex();
		const page = this.o.maxVisible ?? 15;
		const moveTo = (index: number) => {
			if (n > 0) this.selectedId = this.rows[Math.max(0, Math.min(n - 1, index))].entry.id;
		};
		if (this.is(kb, data, "app.tree.foldOrUp", ["ctrl+left", "alt+left"])) {
			this.foldOrUp();
			return;
		}
		if (this.is(kb, data, "app.tree.unfoldOrDown", ["ctrl+right", "alt+right"])) {
			this.unfoldOrDown();
			return;
		}
		if (kb.matches(data, "tui.select.up")) moveTo(i === 0 ? n - 1 : i - 1);
		else if (kb.matches(data, "tui.select.down")) moveTo(i === n - 1 ? 0 : i + 1);
		else if (kb.matches(data, "tui.select.pageUp") || matchesKey(data, "left")) moveTo(i - page);
		else if (kb.matches(data, "tui.select.pageDown") || matchesKey(data, "right")) moveTo(i + page);
		else if (kb.matches(data, "tui.select.confirm")) {
			if (this.selectedId) this.o.onSelect(this.selectedId);
		} else if (kb.matches(data, "tui.select.cancel")) this.o.onCancel();
		else if (this.is(kb, data, "app.tree.editLabel", ["shift+l"]) || data === "L") this.startLabel();
		else if (this.is(kb, data, "app.tree.toggleLabelTimestamp", ["shift+t"]) || data === "T")
			this.showLabelTimes = !this.showLabelTimes;
		else if (this.is(kb, data, "app.tree.filter.default", ["ctrl+d"])) this.setFilter("default");
		else if (this.is(kb, data, "app.tree.filter.noTools", ["ctrl+t"])) this.toggleFilter("no-tools");
		else if (this.is(kb, data, "app.tree.filter.userOnly", ["ctrl+u"])) this.toggleFilter("user-only");
		else if (this.is(kb, data, "app.tree.filter.labeledOnly", ["ctrl+l"])) this.toggleFilter("labeled-only");
		else if (this.is(kb, data, "app.tree.filter.all", ["ctrl+a"])) this.toggleFilter("all");
		else if (this.is(kb, data, "app.tree.filter.cycleBackward", ["shift+ctrl+o"])) this.cycleFilter(-1);
		else if (this.is(kb, data, "app.tree.filter.cycleForward", ["ctrl+o"])) this.cycleFilter(1);
		else {
			const before = this.search.getValue();
			this.search.handleInput(data);
			if (this.search.getValue() !== before) this.setFilter(this.filter);
		}
	}

	private is(kb: KeybindingsManager, data: string, id: string, fallback: string[]): boolean {
		return kb.getKeys(id).length > 0 ? kb.matches(data, id) : fallback.some((k) => matchesKey(data, k));
	}

	private toggleFilter(mode: TreeFilterMode): void {
		this.setFilter(this.filter === mode ? "default" : mode);
	}

	private cycleFilter(step: number): void {
		const i = TREE_FILTER_MODES.indexOf(this.filter);
		this.setFilter(TREE_FILTER_MODES[(i + step + TREE_FILTER_MODES.length) % TREE_FILTER_MODES.length]);
	}

	/** Fold the selected segment start; otherwise jump to the start of this (or the previous) segment. */
	private foldOrUp(): void {
		const i = this.selectedIndex();
		const row = this.rows[i];
		if (!row) return;
		if (row.segmentStart && row.childCount > 0 && !row.folded) {
			this.folded.add(row.entry.id);
			this.rebuild();
			return;
		}
		for (let j = i - 1; j >= 0; j--) {
			if (this.rows[j].segmentStart) {
				this.selectedId = this.rows[j].entry.id;
				return;
			}
		}
	}

	/** Unfold a folded row; otherwise jump to the next segment start (or the end of the branch). */
	private unfoldOrDown(): void {
		const i = this.selectedIndex();
		const row = this.rows[i];
		if (!row) return;
		if (row.folded) {
			this.folded.delete(row.entry.id);
			this.rebuild();
			return;
		}
		for (let j = i + 1; j < this.rows.length; j++) {
			const r = this.rows[j];
			if (r.segmentStart) {
				this.selectedId = r.entry.id;
				return;
			}
			if (r.childCount === 0) {
				this.selectedId = r.entry.id;
				return;
			}
		}
	}

	private startLabel(): void {
		const row = this.rows[this.selectedIndex()];
		if (!row || !this.o.onLabel) return;
		this.editingLabel = row.entry.id;
		this.labelInput.setValue(row.label ?? "");
		this.focused = this._focused;
	}

	private handleLabelInput(data: string): void {
		const id = this.editingLabel;
		if (id === undefined) return;
		if (matchesKey(data, "escape") || matchesKey(data, "ctrl+c")) {
			this.editingLabel = undefined;
			this.focused = this._focused;
			return;
		}
		if (matchesKey(data, "enter")) {
			const label = this.labelInput.getValue().trim() || undefined;
			this.editingLabel = undefined;
			this.focused = this._focused;
			const node = this.nodes.get(id);
			if (node) {
				node.label = label;
				node.labelTimestamp = label ? new Date().toISOString() : undefined;
			}
			this.rebuild();
			this.o.onLabel?.(id, label);
			return;
		}
		this.labelInput.handleInput(data);
	}
}

export const TREE_HINTS =
	"↑↓ move · ←→ page · ctrl+←→ fold/jump · shift+l label · ctrl+o filter · enter go there · esc cancel";
