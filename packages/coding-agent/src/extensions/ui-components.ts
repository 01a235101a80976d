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
} from "@pi/tui";

export type CustomEditorOptions = EditorOptions & {
	/** Accepted for compatibility; the working row always stays above the editor here. */
	embedWorkingStatus?: boolean;
};

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
