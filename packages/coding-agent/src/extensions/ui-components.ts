// Components the extension API hands out (`CustomEditor`, `DynamicBorder`
// from `@earendil-works/pi-coding-agent`). They depend on pi-tui only; the
// interactive app plugs its app keys into a CustomEditor through `onAppKey`,
// so an extension's editor sees every key first (a vim-style editor may keep
// Esc for itself) and passes the rest on with `super.handleInput`.
import {
	type Component,
	Editor,
	type EditorOptions,
	type EditorTheme,
	type KeybindingsManager,
	type TUI,
	truncateToWidth,
	visibleWidth,
} from "@pi/tui";

export type CustomEditorOptions = EditorOptions & {
	/**
	 * Draw the working status (spinner and message while the agent works,
	 * compacts or retries) in this editor's top border instead of the row
	 * above the editor. Default false.
	 */
	embedWorkingStatus?: boolean;
};

/** The working status an embedding editor draws (set by the app while there is one). */
export interface WorkingStatusLine {
	/** The spinner frame and message, styled, on one line. */
	readonly line: string;
}

/** The base class for extension editors (`ctx.ui.setEditorComponent`). */
export class CustomEditor extends Editor {
	readonly keybindings: KeybindingsManager;
	readonly embedWorkingStatus: boolean;
	/** Extra handlers for app actions by id (`app.*`), run before the app's own. */
	actionHandlers = new Map<string, () => void>();
	onEscape?: () => void;
	onCtrlD?: () => void;
	onPasteImage?: () => void;
	/** Set by the app: app keys and extension shortcuts; true when the key was used. */
	onAppKey?: (data: string) => boolean;
	/** Upstream's name for the shortcut hook; consulted after onAppKey. */
	onExtensionShortcut?: (data: string) => boolean;

	constructor(tui: TUI, theme: EditorTheme, keybindings: KeybindingsManager, options: CustomEditorOptions = {}) {
		super(tui, theme, options);
		this.keybindings = keybindings;
		this.embedWorkingStatus = options.embedWorkingStatus === true;
	}

	private workingStatus: WorkingStatusLine | undefined;

	/** The app hands the working status to an editor made with `embedWorkingStatus` (undefined: none now). */
	setWorkingStatus(status: WorkingStatusLine | undefined): void {
		this.workingStatus = status;
	}

	protected override renderTopBorder(width: number, hiddenAbove: number): string {
		const status = this.embedWorkingStatus ? this.workingStatus?.line : undefined;
		if (!status) return super.renderTopBorder(width, hiddenAbove);
		const more = hiddenAbove > 0 ? ` ↑ ${hiddenAbove} more ` : "";
		// "── " + status + " " + rule (+ the scroll label), the status cut to what is left.
		let room = width - 4 - visibleWidth(more);
		const label = room >= 3 ? more : "";
		if (!label) room = width - 4;
		if (room < 1) return super.renderTopBorder(width, hiddenAbove);
		const shown = truncateToWidth(status, room, "…");
		const rule = "─".repeat(Math.max(0, width - 4 - visibleWidth(shown) - visibleWidth(label)));
		return `${this.borderColor("── ")}${shown}${this.borderColor(` ${rule}${label}`)}`;
	}

	onAction(action: string, handler: () => void): void {
		this.actionHandlers.set(action, handler);
	}

	override handleInput(data: string): void {
		for (const [action, handler] of this.actionHandlers) {
			if (this.keybindings.matches(data, action)) {
				handler();
				return;
			}
		}
		if (this.onEscape && this.keybindings.matches(data, "app.interrupt")) {
			this.onEscape();
			return;
		}
		if (this.onCtrlD && this.keybindings.matches(data, "app.exit") && this.getText().length === 0) {
			this.onCtrlD();
			return;
		}
		if (this.onAppKey?.(data)) return;
		if (this.onExtensionShortcut?.(data)) return;
		super.handleInput(data);
		// Draw the key at once, as the built-in editor does (frames are paced while streaming).
		if (this.focused) this.tui.renderNow();
	}
}

/** A horizontal rule across the whole width, coloured by `color`. */
export class DynamicBorder implements Component {
	constructor(private readonly color: (text: string) => string = (text) => text) {}

	invalidate(): void {}

	render(width: number): string[] {
		return [this.color("─".repeat(Math.max(1, width)))];
	}
}
