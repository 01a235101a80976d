// The UI half of the extension contract: what `ctx.ui` offers an extension,
// and the theme it draws with. Every mode *implements* ExtensionUIContext
// (rpc: modes/rpc/extension-ui.ts; print/json: the no-UI defaults; interactive:
// the app), so this file imports nothing from modes/. Names and signatures
// follow upstream 1.6.0's `ExtensionUIContext` so extensions written for Pi
// type-check against ours; `extensions/types.ts` re-exports all of it.
//
// Rule for implementations without a user to ask (print, json, a closed rpc
// stream): dialogs resolve to their "dismissed" value (`undefined`, `false`
// for confirm), fire-and-forget calls do nothing, `getEditorText()` is "".
import type {
	AutocompleteProvider,
	Component,
	EditorComponent,
	EditorTheme,
	KeybindingsManager,
	MarkdownTheme,
	OverlayHandle,
	OverlayOptions,
	SelectListTheme,
	SettingsListTheme,
	TUI,
} from "@pi/tui";

// -- theme ----------------------------------------------------------------------

/** Foreground colour tokens (the names upstream theme files use). */
export type ThemeColor =
	| "accent"
	| "border"
	| "borderAccent"
	| "borderMuted"
	| "success"
	| "error"
	| "warning"
	| "muted"
	| "dim"
	| "text"
	| "thinkingText"
	| "userMessageText"
	| "customMessageText"
	| "customMessageLabel"
	| "toolTitle"
	| "toolOutput"
	| "mdHeading"
	| "mdLink"
	| "mdLinkUrl"
	| "mdCode"
	| "mdCodeBlock"
	| "mdCodeBlockBorder"
	| "mdQuote"
	| "mdQuoteBorder"
	| "mdHr"
	| "mdListBullet"
	| "toolDiffAdded"
	| "toolDiffRemoved"
	| "toolDiffContext"
	| "syntaxComment"
	| "syntaxKeyword"
	| "syntaxFunction"
	| "syntaxVariable"
	| "syntaxString"
	| "syntaxNumber"
	| "syntaxType"
	| "syntaxOperator"
	| "syntaxPunctuation"
	| "thinkingOff"
	| "thinkingMinimal"
	| "thinkingLow"
	| "thinkingMedium"
	| "thinkingHigh"
	| "thinkingXhigh"
	| "bashMode";

/** Background colour tokens. */
export type ThemeBg =
	| "selectedBg"
	| "userMessageBg"
	| "customMessageBg"
	| "toolPendingBg"
	| "toolSuccessBg"
	| "toolErrorBg";

export type ThinkingLevelName = "off" | "minimal" | "low" | "medium" | "high" | "xhigh" | "max";

/**
 * The theme extensions and the interactive app's components draw with.
 * Components ask it at render time; they never hold colours themselves.
 */
export interface ExtensionTheme {
	readonly name: string;
	fg(color: ThemeColor, text: string): string;
	bg(color: ThemeBg, text: string): string;
	bold(text: string): string;
	italic(text: string): string;
	underline(text: string): string;
	strikethrough(text: string): string;
	inverse(text: string): string;
	getThinkingBorderColor(level: ThinkingLevelName): (text: string) => string;
	getBashModeBorderColor(): (text: string) => string;
	getMarkdownTheme(): MarkdownTheme;
	getEditorTheme(): EditorTheme;
	getSelectListTheme(): SelectListTheme;
	getSettingsListTheme(): SettingsListTheme;
}

/** Upstream's name for the theme type. */
export type Theme = ExtensionTheme;

// -- UI context -------------------------------------------------------------------

/** Options every dialog takes. */
export interface ExtensionUIDialogOptions {
	/** Dismisses the dialog when aborted. */
	signal?: AbortSignal;
	/** Milliseconds until the dialog is dismissed by itself. */
	timeout?: number;
}

export type WidgetPlacement = "aboveEditor" | "belowEditor";

export interface ExtensionWidgetOptions {
	/** Default "aboveEditor". */
	placement?: WidgetPlacement;
}

/** A raw terminal input listener: may consume the input or rewrite it. */
export type TerminalInputHandler = (data: string) => { consume?: boolean; data?: string } | undefined;

export interface WorkingIndicatorOptions {
	/** Animation frames; `[]` hides the indicator, one frame is static. Drawn verbatim. */
	frames?: string[];
	intervalMs?: number;
}

/** Wraps the current autocomplete provider with more behaviour. */
export type AutocompleteProviderFactory = (current: AutocompleteProvider) => AutocompleteProvider;

export type EditorFactory = (tui: TUI, theme: EditorTheme, keybindings: KeybindingsManager) => EditorComponent;

/** A component an extension hands to the UI; `dispose` runs when it is removed. */
export type ExtensionComponent = Component & { dispose?(): void };

/** Data a custom footer may show that extensions cannot otherwise reach. */
export interface ReadonlyFooterDataProvider {
	getGitBranch(): string | null;
	/** Texts set with `ctx.ui.setStatus`, by key. */
	getExtensionStatuses(): ReadonlyMap<string, string>;
	onBranchChange(callback: () => void): () => void;
}

export interface CustomComponentOptions {
	/** Show as an overlay above the app instead of in place of the editor. */
	overlay?: boolean;
	overlayOptions?: OverlayOptions | (() => OverlayOptions);
	onHandle?: (handle: OverlayHandle) => void;
}

/**
 * `ctx.ui`: how an extension talks to the user. Implemented by each mode;
 * see the rule at the top of this file for modes without a user.
 */
export interface ExtensionUIContext {
	select(title: string, options: string[], opts?: ExtensionUIDialogOptions): Promise<string | undefined>;
	confirm(title: string, message: string, opts?: ExtensionUIDialogOptions): Promise<boolean>;
	input(title: string, placeholder?: string, opts?: ExtensionUIDialogOptions): Promise<string | undefined>;
	/** A multi-line editor dialog, prefilled. */
	editor(title: string, prefill?: string): Promise<string | undefined>;
	notify(message: string, type?: "info" | "warning" | "error"): void;
	/** Raw terminal input (interactive only); returns the unsubscribe function. */
	onTerminalInput(handler: TerminalInputHandler): () => void;
	/** Footer/status text under `key`; undefined clears it. */
	setStatus(key: string, text: string | undefined): void;
	/** The working message while streaming; no argument restores the default. */
	setWorkingMessage(message?: string): void;
	setWorkingVisible(visible: boolean): void;
	setWorkingIndicator(options?: WorkingIndicatorOptions): void;
	/** Label shown for hidden thinking blocks; no argument restores the default. */
	setHiddenThinkingLabel(label?: string): void;
	/** Lines (every mode) or a component factory (interactive only) above or below the editor. */
	setWidget(
		key: string,
		content: string[] | ((tui: TUI, theme: ExtensionTheme) => ExtensionComponent) | undefined,
		options?: ExtensionWidgetOptions,
	): void;
	setFooter(
		factory:
			| ((tui: TUI, theme: ExtensionTheme, footerData: ReadonlyFooterDataProvider) => ExtensionComponent)
			| undefined,
	): void;
	setHeader(factory: ((tui: TUI, theme: ExtensionTheme) => ExtensionComponent) | undefined): void;
	/** The terminal window/tab title. */
	setTitle(title: string): void;
	/** Shows a focused component until it calls `done(result)`; no-UI modes resolve undefined at once. */
	custom<T>(
		factory: (
			tui: TUI,
			theme: ExtensionTheme,
			keybindings: KeybindingsManager,
			done: (result: T) => void,
		) => ExtensionComponent | Promise<ExtensionComponent>,
		options?: CustomComponentOptions,
	): Promise<T | undefined>;
	/** Pastes into the editor (large pastes collapse as when typed). */
	pasteToEditor(text: string): void;
	setEditorText(text: string): void;
	getEditorText(): string;
	addAutocompleteProvider(factory: AutocompleteProviderFactory): void;
	/** Replaces the input editor; undefined restores the default. */
	setEditorComponent(factory: EditorFactory | undefined): void;
	getEditorComponent(): EditorFactory | undefined;
	/** The theme in force. */
	readonly theme: ExtensionTheme;
	getAllThemes(): { name: string; path: string | undefined }[];
	getTheme(name: string): ExtensionTheme | undefined;
	setTheme(theme: string | ExtensionTheme): { success: boolean; error?: string };
	getToolsExpanded(): boolean;
	setToolsExpanded(expanded: boolean): void;
}
