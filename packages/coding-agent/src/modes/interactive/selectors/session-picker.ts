// The session picker (/resume, pi -r): this folder's sessions or every
// project's (Tab), search as you type, Ctrl+P shows paths, Ctrl+S switches
// between newest-first and best-match order, Ctrl+N shows only named
// sessions, Ctrl+R renames, Ctrl+D (or Ctrl+Backspace on an empty query)
// deletes after a y/enter confirmation. The open session cannot be deleted.
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
import type { SessionInfo } from "../../../session/listing.js";
import { oneLine, type ThemeSource } from "./frame.js";
import {
	filterAndSortSessions,
	formatAge,
	type SessionNameFilter,
	type SessionSortMode,
	threadSessions,
} from "./session-search.js";

export type SessionScope = "current" | "all";

export interface SessionPickerOptions {
	loadCurrent(): Promise<SessionInfo[]>;
	loadAll(): Promise<SessionInfo[]>;
	/** The open session's file (never deleted; marked). */
	currentSessionFile?: string;
	keybindings?: KeybindingsManager;
	maxVisible?: number;
	now?: () => number;
	onSelect(session: SessionInfo): void;
	onCancel(): void;
	/** Deletes the file; a rejection is shown in the picker. */
	onDelete?(session: SessionInfo): Promise<void>;
	/** Renames; resolves with the updated info (or undefined to reload). */
	onRename?(session: SessionInfo, name: string): Promise<void>;
}

type Mode =
	| { kind: "browse" }
	| { kind: "confirm-delete"; session: SessionInfo }
	| { kind: "rename"; session: SessionInfo };

export class SessionPicker implements Component, Focusable {
	readonly search = new Input();
	private readonly renameInput = new Input();
	private scope: SessionScope = "current";
	private sort: SessionSortMode = "threaded";
	/** Connectors of the threaded view, by path. */
	private prefixes = new Map<string, string>();
	private nameFilter: SessionNameFilter = "all";
	private showPath = false;
	private sessions: SessionInfo[] | undefined;
	private visible: SessionInfo[] = [];
	private selected = 0;
	private mode: Mode = { kind: "browse" };
	private message: { text: string; kind: "error" | "info" } | undefined;
	private _focused = false;
	private loadToken = 0;
	/** Resolves when the sessions of the current scope are loaded (tests). */
	loading: Promise<void> = Promise.resolve();
	onChange?: () => void;

	constructor(
		private readonly theme: ThemeSource,
		private readonly o: SessionPickerOptions,
	) {
		this.load();
	}

	get focused(): boolean {
		return this._focused;
	}

	set focused(value: boolean) {
		this._focused = value;
		this.search.focused = value && this.mode.kind === "browse";
		this.renameInput.focused = value && this.mode.kind === "rename";
	}

	getScope(): SessionScope {
		return this.scope;
	}

	getSortMode(): SessionSortMode {
		return this.sort;
	}

	getVisibleSessions(): SessionInfo[] {
		return this.visible;
	}

	getSelectedSession(): SessionInfo | undefined {
		return this.visible[this.selected];
	}

	private load(): void {
		const token = ++this.loadToken;
		this.sessions = undefined;
		this.loading = (this.scope === "current" ? this.o.loadCurrent() : this.o.loadAll()).then(
			(list) => {
				if (token !== this.loadToken) return;
				this.sessions = list;
				this.refilter();
				this.onChange?.();
			},
			(error: unknown) => {
				if (token !== this.loadToken) return;
				this.sessions = [];
				this.refilter();
				this.message = { text: `Could not list sessions: ${String(error)}`, kind: "error" };
				this.onChange?.();
			},
		);
	}

	private refilter(): void {
		const before = this.getSelectedSession()?.path;
		const matching = filterAndSortSessions(this.sessions ?? [], this.search.getValue(), this.sort, this.nameFilter);
		this.prefixes.clear();
		if (this.sort === "threaded") {
			const threaded = threadSessions(matching, this.search.getValue().trim() ? "input" : "latest");
			this.visible = threaded.map((t) => t.session);
			for (const t of threaded) if (t.prefix) this.prefixes.set(t.session.path, t.prefix);
		} else this.visible = matching;
		const i = before ? this.visible.findIndex((s) => s.path === before) : -1;
		this.selected = i >= 0 && this.search.getValue() === "" ? i : 0;
	}

	invalidate(): void {}

	private isCurrent(s: SessionInfo): boolean {
		return this.o.currentSessionFile !== undefined && s.path === this.o.currentSessionFile;
	}

	render(width: number): string[] {
		const t = this.theme();
		const lines: string[] = [];
		const scopeText =
			this.scope === "current"
				? `${t.fg("accent", "◉ this folder")} ○ all`
				: `○ this folder ${t.fg("accent", "◉ all")}`;
		const flags = [
			`sort: ${this.sort}`,
			this.nameFilter === "named" ? "named only" : undefined,
			this.showPath ? "paths" : undefined,
		]
			.filter(Boolean)
			.join(" · ");
		lines.push(truncateToWidth(` ${scopeText}  ${t.fg("dim", flags)}`, width, "…"));
		lines.push(...this.search.render(width));
		if (this.sessions === undefined) {
			lines.push(t.fg("muted", "  Loading sessions…"));
		} else if (this.visible.length === 0) {
			const why =
				this.sessions.length === 0
					? this.scope === "current"
						? "No sessions in this folder yet (Tab: all folders)"
						: "No sessions yet"
					: "No matching sessions";
			lines.push(t.fg("muted", `  ${why}`));
		} else {
			const max = this.o.maxVisible ?? 10;
			const start = Math.max(0, Math.min(this.selected - Math.floor(max / 2), this.visible.length - max));
			const end = Math.min(this.visible.length, start + max);
			for (let i = start; i < end; i++) lines.push(...this.renderSession(this.visible[i], i === this.selected, width));
			if (this.visible.length > max) lines.push(t.fg("dim", `  (${this.selected + 1}/${this.visible.length})`));
		}
		lines.push(...this.renderFooter(width));
		return lines;
	}

	private renderSession(s: SessionInfo, selected: boolean, width: number): string[] {
		const t = this.theme();
		const now = this.o.now?.() ?? Date.now();
		const right = `${s.messageCount} msg · ${formatAge(s.modified, now)}`;
		const title = s.name?.trim() ? s.name.trim() : oneLine(s.firstMessage);
		const current = this.isCurrent(s) ? " (current)" : "";
		const thread = this.prefixes.get(s.path) ?? "";
		const prefix = (selected ? t.fg("accent", "→ ") : "  ") + t.fg("dim", thread);
		const room = Math.max(4, width - 2 - visibleWidth(thread) - visibleWidth(right) - 2);
		let left = truncateToWidth(title + current, room, "…");
		const pad = " ".repeat(Math.max(1, room - visibleWidth(left) + 2));
		if (selected) left = t.fg("accent", left);
		else if (s.name?.trim()) left = t.fg("warning", left);
		const out = [truncateToWidth(`${prefix}${left}${pad}${t.fg("dim", right)}`, width, "")];
		if (this.scope === "all" && !this.showPath && s.cwd)
			out.push(truncateToWidth(`    ${t.fg("dim", s.cwd)}`, width, "…"));
		if (this.showPath) out.push(truncateToWidth(`    ${t.fg("dim", s.path)}`, width, "…"));
		return out;
	}

	private renderFooter(width: number): string[] {
		const t = this.theme();
		const out: string[] = [""];
		if (this.mode.kind === "confirm-delete") {
			const s = this.mode.session;
			const name = s.name?.trim() || oneLine(s.firstMessage);
			out.push(truncateToWidth(t.fg("error", ` Delete "${name}"? enter/y delete · esc/n keep`), width, "…"));
			return out;
		}
		if (this.mode.kind === "rename") {
			out.push(t.fg("accent", " New name (enter save · esc cancel):"));
			out.push(...this.renameInput.render(width));
			return out;
		}
		if (this.message) {
			out.push(
				truncateToWidth(t.fg(this.message.kind === "error" ? "error" : "muted", ` ${this.message.text}`), width, "…"),
			);
		}
		return out;
	}

	handleInput(data: string): void {
		if (this.mode.kind === "confirm-delete") {
			this.handleConfirm(data);
			return;
		}
		if (this.mode.kind === "rename") {
			this.handleRename(data);
			return;
		}
		const kb = this.o.keybindings ?? getKeybindings();
		const n = this.visible.length;
		if (kb.matches(data, "tui.select.up")) {
			if (n > 0) this.selected = this.selected === 0 ? n - 1 : this.selected - 1;
		} else if (kb.matches(data, "tui.select.down")) {
			if (n > 0) this.selected = this.selected === n - 1 ? 0 : this.selected + 1;
		} else if (kb.matches(data, "tui.select.pageUp")) {
			this.selected = Math.max(0, this.selected - (this.o.maxVisible ?? 10));
		} else if (kb.matches(data, "tui.select.pageDown")) {
			this.selected = Math.max(0, Math.min(n - 1, this.selected + (this.o.maxVisible ?? 10)));
		} else if (kb.matches(data, "tui.select.confirm")) {
			const s = this.getSelectedSession();
			if (s) this.o.onSelect(s);
		} else if (kb.matches(data, "tui.select.cancel")) {
			this.o.onCancel();
		} else if (matchesKey(data, "tab")) {
			this.scope = this.scope === "current" ? "all" : "current";
			this.message = undefined;
			this.load();
		} else if (this.is(kb, data, "app.session.togglePath", "ctrl+p")) {
			this.showPath = !this.showPath;
		} else if (this.is(kb, data, "app.session.toggleSort", "ctrl+s")) {
			this.sort = this.sort === "threaded" ? "recent" : this.sort === "recent" ? "relevance" : "threaded";
			this.refilter();
		} else if (this.is(kb, data, "app.session.toggleNamedFilter", "ctrl+n")) {
			this.nameFilter = this.nameFilter === "all" ? "named" : "all";
			this.refilter();
		} else if (this.is(kb, data, "app.session.rename", "ctrl+r")) {
			this.startRename();
		} else if (
			this.is(kb, data, "app.session.delete", "ctrl+d") ||
			(this.is(kb, data, "app.session.deleteNoninvasive", "ctrl+backspace") && this.search.getValue() === "")
		) {
			this.startDelete();
		} else {
			const before = this.search.getValue();
			this.search.handleInput(data);
			if (this.search.getValue() !== before) this.refilter();
		}
	}

	/** An app binding when the manager knows the id, else the default key. */
	private is(kb: KeybindingsManager, data: string, id: string, fallback: string): boolean {
		return kb.getKeys(id).length > 0 ? kb.matches(data, id) : matchesKey(data, fallback);
	}

	private startDelete(): void {
		const s = this.getSelectedSession();
		if (!s || !this.o.onDelete) return;
		if (this.isCurrent(s)) {
			this.message = { text: "The open session cannot be deleted", kind: "error" };
			return;
		}
		this.mode = { kind: "confirm-delete", session: s };
		this.focused = this._focused;
	}

	private handleConfirm(data: string): void {
		if (this.mode.kind !== "confirm-delete") return;
		const session = this.mode.session;
		if (matchesKey(data, "enter") || data === "y" || data === "Y") {
			this.mode = { kind: "browse" };
			this.focused = this._focused;
			void this.o.onDelete?.(session).then(
				() => {
					this.sessions = (this.sessions ?? []).filter((s) => s.path !== session.path);
					this.refilter();
					this.message = { text: `Deleted ${session.path}`, kind: "info" };
					this.onChange?.();
				},
				(error: unknown) => {
					this.message = {
						text: `Could not delete: ${error instanceof Error ? error.message : String(error)}`,
						kind: "error",
					};
					this.onChange?.();
				},
			);
		} else if (matchesKey(data, "escape") || data === "n" || data === "N" || matchesKey(data, "ctrl+c")) {
			this.mode = { kind: "browse" };
			this.focused = this._focused;
		}
	}

	private startRename(): void {
		const s = this.getSelectedSession();
		if (!s || !this.o.onRename) return;
		this.renameInput.setValue(s.name ?? "");
		this.mode = { kind: "rename", session: s };
		this.focused = this._focused;
	}

	private handleRename(data: string): void {
		if (this.mode.kind !== "rename") return;
		const session = this.mode.session;
		if (matchesKey(data, "escape") || matchesKey(data, "ctrl+c")) {
			this.mode = { kind: "browse" };
			this.focused = this._focused;
			return;
		}
		if (matchesKey(data, "enter")) {
			const name = this.renameInput.getValue().trim();
			this.mode = { kind: "browse" };
			this.focused = this._focused;
			if (!name) return;
			void this.o.onRename?.(session, name).then(
				() => {
					session.name = name;
					this.refilter();
					this.message = { text: `Renamed to "${name}"`, kind: "info" };
					this.onChange?.();
				},
				(error: unknown) => {
					this.message = {
						text: `Could not rename: ${error instanceof Error ? error.message : String(error)}`,
						kind: "error",
					};
					this.onChange?.();
				},
			);
			return;
		}
		this.renameInput.handleInput(data);
	}
}

export const SESSION_PICKER_HINTS =
	"tab folder/all · type to search · enter open · ctrl+p paths · ctrl+s sort · ctrl+n named · ctrl+r rename · ctrl+d delete · esc cancel";
