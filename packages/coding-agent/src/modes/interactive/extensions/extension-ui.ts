// `ctx.ui` in the terminal app: ExtensionUIContext over the TUI. Dialogs
// take the editor's place (dialogs.ts); widgets sit in keyed slots above and
// below the editor; statuses go to the footer; a header, footer or editor
// from an extension replaces the built-in one until set back to undefined.
// Component factories run inside try/catch: a throwing extension component
// becomes an error notice, never a broken screen.
import {
	type AutocompleteProvider,
	type Component,
	type Container,
	type EditorComponent,
	type KeybindingsManager,
	type OverlayHandle,
	Text,
	type TUI,
} from "@pi/tui";
import type {
	AutocompleteProviderFactory,
	CustomComponentOptions,
	EditorFactory,
	ExtensionComponent,
	ExtensionTheme,
	ExtensionUIContext,
	ExtensionUIDialogOptions,
	ExtensionWidgetOptions,
	ReadonlyFooterDataProvider,
	TerminalInputHandler,
	WorkingIndicatorOptions,
} from "../../../extensions/ui-types.js";
import type { StatusKind } from "../context.js";
import type { AppTheme } from "../theme-fallback.js";
import type { ThemeManager } from "../themes/theme-manager.js";
import { confirmDialog, type DialogHost, editorDialog, inputDialog, selectDialog } from "./dialogs.js";

/** What the app lends `ctx.ui` (implemented by InteractiveMode). */
export interface ExtensionUIHost extends DialogHost {
	readonly keybindings: KeybindingsManager;
	readonly themes: ThemeManager | undefined;
	setTheme(theme: AppTheme): void;
	notify(text: string, kind: StatusKind): void;
	/** Slots in the layout the UI fills. */
	readonly slots: {
		header: Container;
		widgetsAbove: Container;
		widgetsBelow: Container;
		footer: Container;
	};
	readonly defaultHeader: Component;
	readonly defaultFooter: Component;
	/** The setStatus texts as one line for the built-in footer (undefined: none). */
	setStatusText(text: string | undefined): void;
	gitBranch(): string | undefined;
	working: {
		setMessage(message: string | undefined): void;
		setVisible(visible: boolean): void;
		setIndicator(options: WorkingIndicatorOptions | undefined): void;
	};
	setHiddenThinkingLabel(label: string | undefined): void;
	/** The editor in use (built-in or an extension's). */
	editor(): EditorComponent;
	/** Installs an editor from a factory; undefined restores the built-in one. */
	replaceEditor(editor: EditorComponent | undefined): void;
	/** Rebuilds the editor's autocomplete with `wrap` applied over the built-in provider. */
	setAutocompleteWrappers(wrappers: readonly AutocompleteProviderFactory[]): void;
	readonly chat: { readonly toolOutputExpanded: boolean; setToolsExpanded(expanded: boolean): void };
	/** Runs $VISUAL/$EDITOR on text; undefined when there is none or it failed. */
	externalEdit(text: string): string | undefined;
	setTitle(title: string): void;
}

function disposeOf(c: Component | undefined): void {
	(c as ExtensionComponent | undefined)?.dispose?.();
}

export class InteractiveExtensionUI implements ExtensionUIContext {
	private readonly statuses = new Map<string, string>();
	private readonly widgets = new Map<string, { component: Component; placement: "aboveEditor" | "belowEditor" }>();
	private header: Component | undefined;
	private footer: Component | undefined;
	private editorFactory: EditorFactory | undefined;
	private readonly autocompleteWrappers: AutocompleteProviderFactory[] = [];
	private readonly branchListeners = new Set<() => void>();
	private lastBranch: string | undefined;

	constructor(private readonly host: ExtensionUIHost) {
		this.lastBranch = host.gitBranch();
	}

	get theme(): ExtensionTheme {
		return this.host.theme();
	}

	/** Runs an extension's factory; a throw becomes a notice and `undefined`. */
	private build<T>(what: string, make: () => T): T | undefined {
		try {
			return make();
		} catch (error) {
			this.host.notify(`Extension ${what} failed: ${error instanceof Error ? error.message : String(error)}`, "error");
			return undefined;
		}
	}

	// -- dialogs -----------------------------------------------------------------------

	select(title: string, options: string[], opts?: ExtensionUIDialogOptions): Promise<string | undefined> {
		return selectDialog(this.host, title, options, opts);
	}

	confirm(title: string, message: string, opts?: ExtensionUIDialogOptions): Promise<boolean> {
		return confirmDialog(this.host, title, message, opts);
	}

	input(title: string, placeholder?: string, opts?: ExtensionUIDialogOptions): Promise<string | undefined> {
		return inputDialog(this.host, title, placeholder, opts);
	}

	editor(title: string, prefill?: string): Promise<string | undefined> {
		return editorDialog(this.host, title, prefill, (text) => this.host.externalEdit(text));
	}

	notify(message: string, type: "info" | "warning" | "error" = "info"): void {
		this.host.notify(message, type);
	}

	onTerminalInput(handler: TerminalInputHandler): () => void {
		return this.host.tui.addInputListener((data) => {
			try {
				return handler(data) ?? undefined;
			} catch (error) {
				this.host.notify(`Extension input handler failed: ${String(error)}`, "error");
				return undefined;
			}
		});
	}

	// -- status, working row, widgets, header, footer, title ---------------------------

	setStatus(key: string, text: string | undefined): void {
		if (text === undefined) this.statuses.delete(key);
		else this.statuses.set(key, text);
		const line = [...this.statuses.entries()]
			.sort(([a], [b]) => a.localeCompare(b))
			.map(([, v]) => v.replace(/[\r\n\t]+/g, " "))
			.join(" ");
		this.host.setStatusText(line || undefined);
	}

	setWorkingMessage(message?: string): void {
		this.host.working.setMessage(message);
	}

	setWorkingVisible(visible: boolean): void {
		this.host.working.setVisible(visible);
	}

	setWorkingIndicator(options?: WorkingIndicatorOptions): void {
		this.host.working.setIndicator(options);
	}

	setHiddenThinkingLabel(label?: string): void {
		this.host.setHiddenThinkingLabel(label);
	}

	setWidget(
		key: string,
		content: string[] | ((tui: TUI, theme: ExtensionTheme) => ExtensionComponent) | undefined,
		options?: ExtensionWidgetOptions,
	): void {
		const old = this.widgets.get(key);
		if (old) disposeOf(old.component);
		this.widgets.delete(key);
		if (content !== undefined) {
			const component =
				typeof content === "function"
					? this.build(`widget "${key}"`, () => content(this.host.tui, this.host.theme()))
					: new Text(content.join("\n"), 1, 0);
			if (component) this.widgets.set(key, { component, placement: options?.placement ?? "aboveEditor" });
		}
		const { widgetsAbove, widgetsBelow } = this.host.slots;
		widgetsAbove.clear();
		widgetsBelow.clear();
		for (const w of this.widgets.values())
			(w.placement === "belowEditor" ? widgetsBelow : widgetsAbove).addChild(w.component);
		this.host.tui.requestRender();
	}

	setFooter(
		factory:
			| ((tui: TUI, theme: ExtensionTheme, footerData: ReadonlyFooterDataProvider) => ExtensionComponent)
			| undefined,
	): void {
		disposeOf(this.footer);
		this.footer = factory
			? this.build("footer", () => factory(this.host.tui, this.host.theme(), this.footerData()))
			: undefined;
		const slot = this.host.slots.footer;
		slot.clear();
		slot.addChild(this.footer ?? this.host.defaultFooter);
		this.host.tui.requestRender();
	}

	setHeader(factory: ((tui: TUI, theme: ExtensionTheme) => ExtensionComponent) | undefined): void {
		disposeOf(this.header);
		this.header = factory ? this.build("header", () => factory(this.host.tui, this.host.theme())) : undefined;
		const slot = this.host.slots.header;
		slot.clear();
		slot.addChild(this.header ?? this.host.defaultHeader);
		this.host.tui.requestRender();
	}

	setTitle(title: string): void {
		this.host.setTitle(title);
	}

	private footerData(): ReadonlyFooterDataProvider {
		return {
			getGitBranch: () => this.host.gitBranch() ?? null,
			getExtensionStatuses: () => new Map(this.statuses),
			onBranchChange: (callback) => {
				this.branchListeners.add(callback);
				return () => this.branchListeners.delete(callback);
			},
		};
	}

	/** The app calls this when it re-reads the git branch. */
	branchMaybeChanged(): void {
		const now = this.host.gitBranch();
		if (now === this.lastBranch) return;
		this.lastBranch = now;
		for (const l of this.branchListeners) l();
	}

	// -- custom components and overlays ------------------------------------------------

	async custom<T>(
		factory: (
			tui: TUI,
			theme: ExtensionTheme,
			keybindings: KeybindingsManager,
			done: (result: T) => void,
		) => ExtensionComponent | Promise<ExtensionComponent>,
		options?: CustomComponentOptions,
	): Promise<T | undefined> {
		const { tui } = this.host;
		let finished = false;
		let close: (() => void) | undefined;
		let component: ExtensionComponent | undefined;
		let resolveResult: (value: T | undefined) => void = () => {};
		const result = new Promise<T | undefined>((resolve) => {
			resolveResult = resolve;
		});
		const done = (value: T) => {
			if (finished) return;
			finished = true;
			close?.();
			disposeOf(component);
			resolveResult(value);
		};
		try {
			component = await factory(tui, this.host.theme(), this.host.keybindings, done);
		} catch (error) {
			this.host.notify(
				`Extension component failed: ${error instanceof Error ? error.message : String(error)}`,
				"error",
			);
			return undefined;
		}
		if (finished) {
			disposeOf(component);
			return result;
		}
		if (options?.overlay) {
			const overlayOptions = options.overlayOptions;
			const resolved = typeof overlayOptions === "function" ? overlayOptions() : overlayOptions;
			const handle: OverlayHandle = tui.showOverlay(component, resolved ?? {});
			options.onHandle?.(handle);
			close = () => handle.hide();
		} else {
			close = this.host.showInEditorArea(component);
		}
		return result;
	}

	// -- editor --------------------------------------------------------------------------

	pasteToEditor(text: string): void {
		// As a bracketed paste, so the editor collapses a large one into a marker as when typed.
		this.host.editor().handleInput(`\x1b[200~${text}\x1b[201~`);
		this.host.tui.requestRender();
	}

	setEditorText(text: string): void {
		this.host.editor().setText(text);
		this.host.tui.requestRender();
	}

	getEditorText(): string {
		return this.host.editor().getText();
	}

	addAutocompleteProvider(factory: AutocompleteProviderFactory): void {
		this.autocompleteWrappers.push(factory);
		this.host.setAutocompleteWrappers(this.autocompleteWrappers);
	}

	/** Applies the stacked wrappers over `base` (a throwing wrapper is skipped). */
	wrapAutocomplete(base: AutocompleteProvider): AutocompleteProvider {
		let provider = base;
		for (const wrap of this.autocompleteWrappers)
			provider = this.build("autocomplete provider", () => wrap(provider)) ?? provider;
		return provider;
	}

	setEditorComponent(factory: EditorFactory | undefined): void {
		this.editorFactory = factory;
		if (!factory) {
			this.host.replaceEditor(undefined);
			return;
		}
		const editor = this.build("editor", () =>
			factory(this.host.tui, this.host.theme().getEditorTheme(), this.host.keybindings),
		);
		if (editor) this.host.replaceEditor(editor);
	}

	getEditorComponent(): EditorFactory | undefined {
		return this.editorFactory;
	}

	// -- themes and tool expansion -------------------------------------------------------

	getAllThemes(): { name: string; path: string | undefined }[] {
		return this.host.themes?.list().map((t) => ({ name: t.name, path: t.path })) ?? [];
	}

	getTheme(name: string): ExtensionTheme | undefined {
		return this.host.themes?.load(name);
	}

	setTheme(theme: string | ExtensionTheme): { success: boolean; error?: string } {
		if (typeof theme !== "string") {
			this.host.setTheme(theme);
			return { success: true };
		}
		const themes = this.host.themes;
		if (!themes) return { success: false, error: "Themes are fixed in this session" };
		const result = themes.select(theme);
		return result.ok ? { success: true } : { success: false, error: result.error };
	}

	getToolsExpanded(): boolean {
		return this.host.chat.toolOutputExpanded;
	}

	setToolsExpanded(expanded: boolean): void {
		this.host.chat.setToolsExpanded(expanded);
		this.host.tui.requestRender();
	}

	/** Session end: extension components are disposed. */
	/**
	 * Takes back everything the extensions put on the screen (a reload or a
	 * change of folder replaces them; the new instances set their own).
	 */
	reset(): void {
		for (const key of [...this.widgets.keys()]) this.setWidget(key, undefined);
		for (const key of [...this.statuses.keys()]) this.setStatus(key, undefined);
		if (this.header) this.setHeader(undefined);
		if (this.footer) this.setFooter(undefined);
		if (this.editorFactory) this.setEditorComponent(undefined);
		if (this.autocompleteWrappers.length > 0) {
			this.autocompleteWrappers.length = 0;
			this.host.setAutocompleteWrappers(this.autocompleteWrappers);
		}
		this.setWorkingMessage(undefined);
		this.setHiddenThinkingLabel(undefined);
	}

	dispose(): void {
		for (const w of this.widgets.values()) disposeOf(w.component);
		this.widgets.clear();
		disposeOf(this.header);
		disposeOf(this.footer);
	}
}
