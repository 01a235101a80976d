// The editor's place in the layout: which editor is there (the built-in one
// or an extension's, ctx.ui.setEditorComponent), what it is wired to, and
// components shown in its place for a while (selectors, dialogs) with the
// function that puts the editor back.
import { type Component, Container, type EditorComponent, type TUI } from "@pi/tui";

export interface EditorSlotHooks {
	/** Enter in the editor. */
	submit(text: string): void;
	/** The editor's text changed. */
	changed(): void;
	/** An app key or extension shortcut typed into an extension's editor (CustomEditor.onAppKey); true when used. */
	appKey(data: string): boolean;
	/** Another editor took the place (its text already moved over): autocomplete, border, working status. */
	replaced(editor: EditorComponent): void;
}

export class EditorSlot {
	/** The container in the layout. */
	readonly area = new Container();
	private current: EditorComponent;

	constructor(
		private readonly tui: TUI,
		/** The built-in editor. */
		readonly builtin: EditorComponent,
		private readonly hooks: EditorSlotHooks,
	) {
		this.current = builtin;
		this.wire(builtin);
		this.area.addChild(builtin);
	}

	/** The editor in use. */
	get active(): EditorComponent {
		return this.current;
	}

	/** Shows `component` in the editor's place and focuses it; returns the function that puts the editor back. */
	show(component: Component): () => void {
		this.area.clear();
		this.area.addChild(component);
		this.tui.setFocus(component);
		this.tui.requestRender();
		let restored = false;
		return () => {
			if (restored) return;
			restored = true;
			this.area.clear();
			this.area.addChild(this.current);
			this.tui.setFocus(this.current);
			this.tui.requestRender();
		};
	}

	/** Puts an extension's editor in place of the built-in one (undefined: back to the built-in); the text moves over. */
	replace(next: EditorComponent | undefined): void {
		const previous = this.current;
		const editor = next ?? this.builtin;
		if (editor === previous) return;
		const text = previous.getText();
		this.current = editor;
		this.wire(editor);
		const custom = editor as EditorComponent & { onAppKey?: (data: string) => boolean };
		if (editor !== this.builtin && "onAppKey" in custom) custom.onAppKey = (data) => this.hooks.appKey(data);
		editor.setText(text);
		this.hooks.replaced(editor);
		// A selector shown meanwhile keeps the place; the new editor comes back when it closes.
		if (this.area.children.includes(previous)) {
			this.area.clear();
			this.area.addChild(editor);
			this.tui.setFocus(editor);
		}
		this.tui.requestRender();
	}

	private wire(editor: EditorComponent): void {
		editor.onSubmit = (text) => this.hooks.submit(text);
		editor.onChange = () => this.hooks.changed();
	}
}
