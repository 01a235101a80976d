// The `pi` terminal app: a pi-tui TUI over one AgentSession. This file only
// wires the parts together — transcript (components/chat-view), editor and
// its submissions (controllers/input-controller), app keys
// (controllers/key-controller), status line and footer, slash commands
// (commands/). Layout, top to bottom: banner and transcript, a working
// indicator, queued messages, the editor (or a selector in its place), the
// footer.
import { basename } from "node:path";
import { type ImageContent, sendsThinkingLevel } from "@pi/ai";
import {
	type AutocompleteProvider,
	CombinedAutocompleteProvider,
	type Component,
	Container,
	type EditorComponent,
	getCapabilities,
	ProcessTerminal,
	setCapabilities,
	type Terminal,
	TUI,
} from "@pi/tui";
import type { AgentSession } from "../../agent-session/agent-session.js";
import type { AgentSessionEvent } from "../../agent-session/events.js";
import { formatNoApiKeyMessage, formatNoModelsMessage } from "../../config/auth-guidance.js";
import type { AgentSessionRuntime } from "../../runtime/agent-session-runtime.js";
import { formatLoadWarning } from "../../session/load.js";
import { readClipboardImage } from "./clipboard.js";
import { registerBuiltinCommands } from "./commands/builtin.js";
import { SlashCommandRegistry } from "./commands/registry.js";
import { type ResourceCommandSource, syncResourceCommands } from "./commands/resource-commands.js";
import { AppEditor } from "./components/app-editor.js";
import { Banner } from "./components/banner.js";
import { ChatView } from "./components/chat-view.js";
import { Footer, type FooterData } from "./components/footer.js";
import { imageOptions } from "./components/image-options.js";
import { QueueView } from "./components/queue-view.js";
import { embedsWorkingStatus, WORKING, WorkingRow } from "./components/working-row.js";
import type { InteractiveContext, StatusKind } from "./context.js";
import { InputController } from "./controllers/input-controller.js";
import { KeyController } from "./controllers/key-controller.js";
import { AppExtensions, type InteractiveExtensions } from "./extensions/app-extensions.js";
import type { ExtensionUIHost } from "./extensions/extension-ui.js";
import { ExtensionRenderers } from "./extensions/renderers.js";
import { editExternally } from "./external-editor.js";
import { createFileLister } from "./file-lister.js";
import { readGitBranch } from "./git-branch.js";
import { keyText, loadKeybindings } from "./keybindings.js";
import { askTrustInApp, bindRuntime, type RuntimeBindingHost, reloadCommand } from "./runtime-binding.js";
import { type AppTheme, fallbackTheme, type ThinkingLevelName } from "./theme-fallback.js";
import { SYSTEM_THEME, ThemeManager } from "./themes/theme-manager.js";

export interface InteractiveModeOptions {
	session: AgentSession;
	cwd: string;
	agentDir: string;
	sessionDir?: string;
	version: string;
	/** Loaded context files (paths) and skills (names), for the banner. */
	contextFiles?: string[];
	skills?: string[];
	/** Start-up problems to show in the banner. */
	warnings?: string[];
	/** The prompt from the command line (text, @files, piped stdin), sent at once. */
	initialPrompt?: { text: string; images: ImageContent[] };
	/** Further command-line messages, each sent after the previous run. */
	followingPrompts?: string[];
	/** `-r`: open the session picker first. */
	openResumePicker?: boolean;
	/** Tests: a terminal other than the process TTY. */
	terminal?: Terminal;
	theme?: AppTheme;
	/** Theme files from the resource loader, in precedence order (trust already applied). */
	themeFiles?: string[];
	/** `--use-theme` (themes/theme-manager.ts). */
	useTheme?: string;
	/** The terminal's background; runInteractiveMode asks the terminal when the theme follows it. */
	appearance?: "light" | "dark";
	/** Extra commands (extensions, tests). */
	registerCommands?: (registry: SlashCommandRegistry) => void;
	/** Loaded extensions: ctx.ui in the app, their commands, shortcuts and errors. */
	extensions?: InteractiveExtensions;
	/** The session's runtime: /reload, and the folder's services after a switch (runtime-binding.ts). */
	runtime?: AgentSessionRuntime;
	/**
	 * The prompt path for typed text (extension commands, `input` handlers,
	 * skills, templates); default `session.prompt`.
	 */
	submit?: (text: string, options: SubmitOptions) => Promise<void>;
	/** Prompt templates and skills for `/` completion. */
	resourceCommands?: ResourceCommandSource;
	/** Gets the app once it exists (the CLI routes late notices and ctx.shutdown() to it). */
	bindApp?: (app: InteractiveMode) => void;
}

export interface SubmitOptions {
	images?: ImageContent[];
	streamingBehavior?: "steer" | "followUp";
}

export class InteractiveMode {
	readonly tui: TUI;
	readonly chat: ChatView;
	readonly editor: AppEditor;
	/** The editor in use: the built-in one or an extension's (ctx.ui.setEditorComponent). */
	private activeEditor: EditorComponent;
	readonly commands = new SlashCommandRegistry();
	readonly ctx: InteractiveContext;
	private theme: AppTheme;
	/** Theme files and live reload; absent when a fixed theme was given (tests). */
	private readonly themes: ThemeManager | undefined;
	private readonly session: AgentSession;
	private readonly editorArea = new Container();
	private readonly working: WorkingRow;
	/** Session load warnings already shown (file:line), so /tree and reloads do not repeat them. */
	private readonly shownLoadWarnings = new Set<string>();
	private readonly headerSlot = new Container();
	private readonly footerSlot = new Container();
	private readonly widgetsAbove = new Container();
	private readonly widgetsBelow = new Container();
	private readonly banner: Banner;
	/** Set at start-up, or by the first /reload that finds extensions. */
	private extensions: AppExtensions | undefined;
	private autocompleteWrap: ((base: AutocompleteProvider) => AutocompleteProvider) | undefined;
	private updateAutocomplete: () => void = () => {};
	private resourceCommandNames = new Set<string>();
	private readonly queueView: QueueView;
	private readonly footer: Footer;
	private footerData: FooterData;
	private readonly input: InputController;
	private readonly keys: KeyController;
	private unsubscribe: (() => void) | undefined;
	private offRuntime: (() => void) | undefined;
	private finished: ((code: number) => void) | undefined;
	private readonly done: Promise<number>;
	private shuttingDown = false;
	private readonly showProgress: boolean;
	private readonly gitBranch: string | undefined;
	/** Extension statuses (ctx.ui.setStatus), joined for the footer. */
	private statusText: string | undefined;

	constructor(private readonly o: InteractiveModeOptions) {
		this.session = o.session;
		this.themes = o.theme
			? undefined
			: new ThemeManager({
					cwd: o.cwd,
					agentDir: o.agentDir,
					settings: o.session.settings,
					files: o.themeFiles ?? [],
					useTheme: o.useTheme,
					appearance: o.appearance,
				});
		this.theme = o.theme ?? this.themes?.current ?? fallbackTheme;
		const themeSource = () => this.theme;
		const { manager: keybindings, warnings: keyWarnings } = loadKeybindings(o.agentDir);
		this.tui = new TUI(o.terminal ?? new ProcessTerminal());
		const terminalSettings = o.session.settings.getTerminalSettings();
		this.tui.setClearOnShrink(terminalSettings.clearOnShrink);
		this.showProgress = terminalSettings.showTerminalProgress;
		imageOptions.maxWidthCells = terminalSettings.imageWidthCells;
		// Without images, pictures are a one-line placeholder (pi-tui's fallback).
		if (!terminalSettings.showImages) setCapabilities({ ...getCapabilities(), images: null });
		this.chat = new ChatView(themeSource, { showThinking: !o.session.settings.getHideThinkingBlock() }, () =>
			this.tui.requestRender(),
		);
		this.editor = new AppEditor(this.tui, this.theme.getEditorTheme(), {
			paddingX: numberSetting(o.session.settings.get("editorPaddingX"), 0),
			autocompleteMaxVisible: numberSetting(o.session.settings.get("autocompleteMaxVisible"), 5),
		});
		this.activeEditor = this.editor;
		this.working = new WorkingRow(this.tui, themeSource);
		this.queueView = new QueueView(themeSource);
		this.gitBranch = readGitBranch(o.cwd);
		this.footerData = this.computeFooterData();
		this.footer = new Footer(themeSource, () => this.footerData);

		const mode = this;
		this.ctx = {
			session: o.session,
			tui: this.tui,
			// A switch into another folder moves the session there (src/runtime/).
			get cwd() {
				return o.runtime?.cwd ?? o.cwd;
			},
			agentDir: o.agentDir,
			sessionDir: o.sessionDir,
			settings: o.session.settings,
			keybindings,
			commands: this.commands,
			chat: this.chat,
			get editor() {
				return mode.activeEditor;
			},
			get theme() {
				return mode.theme;
			},
			setTheme: (theme) => this.setTheme(theme),
			themes: this.themes,
			showStatus: (text, kind) => this.showStatus(text, kind),
			showInEditorArea: (component) => this.showInEditorArea(component),
			reloadFromSession: () => this.reloadFromSession(),
			refreshStatus: () => this.refreshStatus(),
			requestRender: () => this.tui.requestRender(),
			runCommand: (name, args) => this.runCommand(name, args ?? ""),
			shutdown: () => this.shutdown(),
		};
		this.input = new InputController(this.ctx, (text, options) => this.submitText(text, options));
		this.keys = new KeyController({
			ctx: this.ctx,
			input: this.input,
			// An extension's editor routes app keys itself (CustomEditor.onAppKey).
			editorFocused: () => this.tui.getFocus() === this.editor,
			openExternalEditor: () => this.openExternalEditor(),
			pasteImage: () => void this.pasteImage(),
			suspend: () => this.suspend(),
		});

		registerBuiltinCommands(this.commands);
		if (o.runtime) this.commands.register(reloadCommand(o.runtime, this.runtimeHost()));
		o.registerCommands?.(this.commands);
		const lister = createFileLister();
		this.updateAutocomplete = () => {
			const base = new CombinedAutocompleteProvider(this.commands.toAutocomplete(), o.cwd, { listFiles: lister });
			this.activeEditor.setAutocompleteProvider?.(this.autocompleteWrap ? this.autocompleteWrap(base) : base);
		};
		this.updateAutocomplete();
		this.commands.onChange(() => this.updateAutocomplete());

		this.wireEditor(this.editor);
		this.updateEditorBorder();

		this.banner = new Banner(themeSource, this.bannerData([...keyWarnings, ...(this.themes?.getWarnings() ?? [])]));
		this.headerSlot.addChild(this.banner);
		this.footerSlot.addChild(this.footer);
		this.tui.addChild(this.headerSlot);
		this.tui.addChild(this.chat);
		this.tui.addChild(this.working);
		this.tui.addChild(this.queueView);
		this.tui.addChild(this.widgetsAbove);
		this.tui.addChild(this.editorArea);
		this.tui.addChild(this.widgetsBelow);
		this.tui.addChild(this.footerSlot);
		this.editorArea.addChild(this.editor);
		this.tui.setFocus(this.editor);
		this.tui.addInputListener(this.keys.onInput);

		if (o.extensions) this.extensions = this.attachExtensions(o.extensions);

		if (o.runtime) this.offRuntime = bindRuntime(o.runtime, this.runtimeHost());
		this.done = new Promise((resolve) => {
			this.finished = resolve;
		});
		o.bindApp?.(this);
	}

	/** Starts the app; resolves with the exit code when the user quits. */
	async run(): Promise<number> {
		this.unsubscribe = this.session.subscribe((event) => this.onSessionEvent(event));
		this.themes?.onChange((theme) => this.setTheme(theme));
		this.themes?.onWarning((message) => this.showStatus(message, "warning"));
		this.themes?.startWatching();
		// `system` and light/dark pairs follow the terminal when it reports a scheme change.
		const themes = this.themes;
		if (themes) this.tui.onColorSchemeChange((appearance) => themes.setAppearance(appearance));
		this.chat.renderHistory(this.session.sessionManager.buildSessionProjection().entries);
		this.chat.syncEntries(this.session.sessionManager, true);
		// The start-up session's damaged lines were reported with the start-up warnings.
		for (const w of this.session.sessionManager.getLoadWarnings())
			this.shownLoadWarnings.add(`${w.file}:${w.line}:${w.message}`);
		this.tui.start();
		this.tui.terminal.setTitle?.(`pi - ${basename(this.o.cwd)}`);
		this.tui.requestRender();
		// Extensions start once the screen is up: session_start handlers may ask, set widgets or the editor.
		if (this.extensions) {
			try {
				await this.extensions.start();
			} catch (error) {
				this.showStatus(
					`Extensions failed to start: ${error instanceof Error ? error.message : String(error)}`,
					"error",
				);
			}
		}
		// resources_discover may have added skills, templates and themes.
		if (this.o.runtime) this.afterResourcesChanged();
		else this.syncResourceCommands();
		if (this.o.openResumePicker) {
			// "startup": cancelling the picker quits, as `pi -r` does in the reference.
			if (this.commands.has("resume")) await this.runCommand("resume", "startup");
			else
				this.showStatus(
					"The session picker is not available in this build. Use -c to continue the most recent session, or --session <path|id>.",
					"warning",
				);
		}
		void this.sendInitialPrompts();
		return this.done;
	}

	private async sendInitialPrompts(): Promise<void> {
		const initial = this.o.initialPrompt;
		if (initial) {
			try {
				await this.submitText(initial.text, { images: initial.images });
			} catch (error) {
				this.showStatus(error instanceof Error ? error.message : String(error), "error");
				return;
			}
		}
		for (const m of this.o.followingPrompts ?? []) await this.input.submit(m);
	}

	// -- session events ------------------------------------------------------------

	/** Templates and skills in `/` completion (after extension commands, which keep their names). */
	syncResourceCommands(): void {
		if (!this.o.resourceCommands) return;
		this.resourceCommandNames = syncResourceCommands(this.commands, this.o.resourceCommands, this.resourceCommandNames);
	}

	/** Typed text down the prompt path (see InteractiveModeOptions.submit). */
	private async submitText(text: string, options: SubmitOptions): Promise<void> {
		try {
			await (this.o.submit ? this.o.submit(text, options) : this.session.prompt(text, options));
		} finally {
			// An extension command may have added entries or messages without events.
			this.chat.syncEntries(this.session.sessionManager);
		}
	}

	private onSessionEvent(event: AgentSessionEvent): void {
		// Entries added outside events (extension entries, messages appended while idle) are drawn first, in order.
		if (event.type === "message_start") this.chat.syncEntries(this.session.sessionManager);
		this.chat.handleEvent(event);
		if (event.type === "message_end") this.chat.syncEntries(this.session.sessionManager, true);
		switch (event.type) {
			case "agent_start":
				if (this.showProgress) this.tui.terminal.setProgress?.(true);
				this.showLoader(WORKING);
				break;
			case "agent_settled":
				if (this.showProgress) this.tui.terminal.setProgress?.(false);
				this.hideLoader();
				this.refreshStatus();
				break;
			case "compaction_start":
				this.showLoader(
					event.reason === "manual" ? "Compacting context... (esc to cancel)" : "Auto-compacting... (esc to cancel)",
				);
				break;
			case "compaction_end":
				if (this.session.isStreaming) this.showLoader(WORKING);
				else this.hideLoader();
				this.refreshStatus();
				break;
			case "queue_update":
				this.queueView.set(event.steering, event.followUp);
				this.tui.requestRender();
				break;
			case "message_end":
			case "session_info_changed":
			case "thinking_level_changed":
				this.refreshStatus();
				break;
			case "session_write_failed":
				// The run stops here (nothing unrecorded is announced); say where and why.
				this.showStatus(
					`Session not saved: writing ${event.file ?? "the session file"} failed${event.code ? ` (${event.code})` : ""}: ${event.errorMessage}. The run stopped; entries before this one are on disk.`,
					"error",
				);
				break;
			default:
				break;
		}
	}

	private showLoader(message: string): void {
		this.working.show(message);
	}

	private hideLoader(): void {
		this.working.hide();
	}

	// -- status, footer, editor border ---------------------------------------------

	private computeFooterData(): FooterData {
		const s = this.session;
		const stats = s.getSessionStats();
		const usage = s.getContextUsage();
		const model = s.model;
		return {
			cwd: this.o.cwd,
			gitBranch: this.gitBranch,
			sessionName: s.sessionManager.getSessionName(),
			tokens: {
				input: stats.tokens.input,
				output: stats.tokens.output,
				cacheRead: stats.tokens.cacheRead,
				cacheWrite: stats.tokens.cacheWrite,
			},
			cost: stats.cost,
			contextPercent: usage.percent,
			contextWindow: usage.contextWindow,
			autoCompact: s.autoCompactionEnabled,
			// The level is shown only when requests actually carry it (not to a local server without reasoning_effort).
			model: model ? { provider: model.provider, id: model.id, reasoning: sendsThinkingLevel(model) } : undefined,
			thinkingLevel: s.thinkingLevel,
			status: this.statusText,
		};
	}

	refreshStatus(): void {
		this.footerData = this.computeFooterData();
		this.updateEditorBorder();
		this.tui.requestRender();
	}

	private updateEditorBorder(): void {
		const t = this.theme;
		const editor = this.activeEditor;
		const text = editor.getText();
		if (text.startsWith("!")) editor.borderColor = t.getBashModeBorderColor();
		else editor.borderColor = t.getThinkingBorderColor(this.session.thinkingLevel as ThinkingLevelName);
	}

	showStatus(text: string, kind: StatusKind = "info"): void {
		this.chat.addNotice(text, kind);
	}

	private setTheme(theme: AppTheme): void {
		this.theme = theme;
		this.updateEditorBorder();
		this.tui.invalidate();
		this.tui.requestRender(true);
	}

	private bannerData(keyWarnings: string[]) {
		const kb = this.ctx.keybindings;
		const warnings = [...(this.o.warnings ?? []), ...keyWarnings];
		const model = this.session.model;
		const registry = this.session.modelRegistry;
		if (!model) warnings.push(formatNoModelsMessage(this.o.agentDir));
		else if (!registry.hasAuth(model)) warnings.push(formatNoApiKeyMessage(model.provider, this.o.agentDir));
		return {
			version: this.o.version,
			model: model ? `${model.provider}/${model.id} • thinking ${this.session.thinkingLevel}` : undefined,
			contextFiles: this.o.contextFiles ?? [],
			skills: this.o.skills ?? [],
			hints: [
				[keyText(kb, "app.interrupt"), "interrupt"],
				[`${keyText(kb, "app.clear")}/${keyText(kb, "app.exit")}`, "clear/exit"],
				["/", "commands"],
				["!", "bash"],
				[keyText(kb, "app.tools.expand"), "expand tools"],
			] as [string, string][],
			warnings,
			quiet: this.session.settings.getQuietStartup(),
		};
	}

	// -- commands and editor area ---------------------------------------------------

	async runCommand(name: string, args: string): Promise<boolean> {
		const command = this.commands.get(name);
		if (!command) return false;
		try {
			await command.run(args, this.ctx);
		} catch (error) {
			this.showStatus(error instanceof Error ? error.message : String(error), "error");
		}
		this.tui.requestRender();
		return true;
	}

	private showInEditorArea(component: Component): () => void {
		this.editorArea.clear();
		this.editorArea.addChild(component);
		this.tui.setFocus(component);
		this.tui.requestRender();
		let restored = false;
		return () => {
			if (restored) return;
			restored = true;
			this.editorArea.clear();
			this.editorArea.addChild(this.activeEditor);
			this.tui.setFocus(this.activeEditor);
			this.tui.requestRender();
		};
	}

	// -- extensions -------------------------------------------------------------------

	private wireEditor(editor: EditorComponent): void {
		editor.onSubmit = (text) => {
			void this.input.submit(text);
		};
		editor.onChange = () => this.updateEditorBorder();
	}

	/** Puts an extension's editor in place of the built-in one (undefined: back to the built-in). */
	private replaceEditor(next: EditorComponent | undefined): void {
		const previous = this.activeEditor;
		const editor = next ?? this.editor;
		if (editor === previous) return;
		const text = previous.getText();
		this.activeEditor = editor;
		this.wireEditor(editor);
		const custom = editor as EditorComponent & { onAppKey?: (data: string) => boolean };
		if (editor !== this.editor && "onAppKey" in custom) {
			custom.onAppKey = (data) => this.keys.handleKey(data) || (this.extensions?.shortcuts.handle(data) ?? false);
		}
		editor.setText(text);
		this.working.embedIn(editor !== this.editor && embedsWorkingStatus(editor) ? editor : undefined);
		this.updateAutocomplete();
		this.updateEditorBorder();
		const showing = this.editorArea.children.includes(previous);
		if (showing) {
			this.editorArea.clear();
			this.editorArea.addChild(editor);
			this.tui.setFocus(editor);
		}
		this.tui.requestRender();
	}

	/** ctx.ui, shortcuts, /hotkeys rows and renderers for a set of extensions (not started here). */
	private attachExtensions(ext: InteractiveExtensions): AppExtensions {
		const extensions = new AppExtensions({
			...ext,
			ui: this.extensionUIHost(),
			ctx: this.ctx,
			submit: (text) => this.submitText(text, {}),
			afterAction: () => this.chat.syncEntries(this.session.sessionManager),
		});
		const shortcuts = extensions.shortcuts;
		this.tui.addInputListener((data) =>
			this.tui.getFocus() === this.editor && shortcuts.handle(data) ? { consume: true } : undefined,
		);
		this.ctx.extensionHotkeys = () => this.extensions?.hotkeys() ?? [];
		this.chat.renderers = new ExtensionRenderers(ext.runner, this.rendererHooks());
		return extensions;
	}

	private rendererHooks(): ConstructorParameters<typeof ExtensionRenderers>[1] {
		const keybindings = this.ctx.keybindings;
		return {
			theme: () => this.theme,
			keyText: (id) => keyText(keybindings, id),
			requestRender: () => this.tui.requestRender(),
			cwd: this.o.cwd,
		};
	}

	private extensionUIHost(): ExtensionUIHost {
		const mode = this;
		return {
			tui: this.tui,
			theme: () => this.theme,
			keybindings: this.ctx.keybindings,
			themes: this.themes,
			setTheme: (theme) => this.setTheme(theme),
			notify: (text, kind) => this.showStatus(text, kind),
			showInEditorArea: (component) => this.showInEditorArea(component),
			slots: {
				header: this.headerSlot,
				widgetsAbove: this.widgetsAbove,
				widgetsBelow: this.widgetsBelow,
				footer: this.footerSlot,
			},
			get defaultHeader() {
				return mode.banner;
			},
			defaultFooter: this.footer,
			setStatusText: (text) => {
				this.statusText = text;
				this.refreshStatus();
			},
			gitBranch: () => this.gitBranch,
			working: this.working,
			setHiddenThinkingLabel: (label) => this.chat.setHiddenThinkingLabel(label),
			editor: () => this.activeEditor,
			replaceEditor: (editor) => this.replaceEditor(editor),
			setAutocompleteWrappers: () => {
				const ext = this.extensions;
				this.autocompleteWrap = ext ? (base) => ext.ui.wrapAutocomplete(base) : undefined;
				this.updateAutocomplete();
			},
			chat: this.chat,
			externalEdit: (text) => editExternally(this.tui, text),
			setTitle: (title) => this.tui.terminal.setTitle?.(title),
		};
	}

	/** What runtime-binding.ts needs of the app. */
	private runtimeHost(): RuntimeBindingHost {
		return {
			ctx: this.ctx,
			rebindExtensions: (next) => {
				// The app started without extensions: the first set found takes the screen now.
				if (!this.extensions) this.extensions = this.attachExtensions(next);
				else this.chat.renderers = new ExtensionRenderers(next.runner, this.rendererHooks());
				this.extensions.rebind(next);
			},
			afterExtensionsStarted: () => this.afterResourcesChanged(),
		};
	}

	/** Extension commands, templates and skills in `/`, the theme list, redrawn (after reload or a switch). */
	private afterResourcesChanged(): void {
		this.extensions?.syncCommands(this.commands);
		this.syncResourceCommands();
		const files = this.o.runtime?.services.resources.getThemeFiles().map((t) => t.path);
		if (files) for (const w of this.themes?.setFiles(files) ?? []) this.showStatus(w, "warning");
		this.chat.syncEntries(this.session.sessionManager);
		this.refreshStatus();
	}

	/** The trust question while the app runs (a switch entered a folder that needs one). */
	askProjectTrust(cwd: string, resources: readonly string[]) {
		return askTrustInApp(this.ctx, cwd, resources);
	}

	private reloadFromSession(): void {
		if (this.o.runtime) this.afterResourcesChanged();
		this.chat.clear();
		this.queueView.set([], []);
		this.chat.renderHistory(this.session.sessionManager.buildSessionProjection().entries);
		// A session opened now (/resume, /import) names its damaged lines after its history, once.
		for (const w of this.session.sessionManager.getLoadWarnings()) {
			const key = `${w.file}:${w.line}:${w.message}`;
			if (this.shownLoadWarnings.has(key)) continue;
			this.shownLoadWarnings.add(key);
			this.showStatus(formatLoadWarning(w), "warning");
		}
		this.refreshStatus();
		this.tui.requestRender(true);
	}

	// -- terminal hand-offs ---------------------------------------------------------

	private openExternalEditor(): void {
		if (!(process.env.VISUAL || process.env.EDITOR)) {
			this.showStatus("Set $VISUAL or $EDITOR to edit the message in an external editor", "warning");
			return;
		}
		const editor = this.activeEditor;
		const edited = editExternally(this.tui, editor.getExpandedText?.() ?? editor.getText());
		if (edited !== undefined) editor.setText(edited);
	}

	/** Ctrl+V: a clipboard image goes out with the next message; a marker shows where. */
	async pasteImage(read: () => Promise<Buffer | undefined> = readClipboardImage): Promise<void> {
		if (this.session.settings.getImageSettings().blockImages) {
			this.showStatus("Images are blocked by the images.blockImages setting", "warning");
			return;
		}
		const png = await read();
		if (!png) {
			this.showStatus("No image on the clipboard (or no clipboard tool: wl-paste, xclip, pngpaste)", "warning");
			return;
		}
		this.activeEditor.insertTextAtCursor?.(`${this.input.addImage(png, "image/png")} `);
		this.tui.requestRender();
	}

	private suspend(): void {
		if (process.platform === "win32") return;
		this.tui.stop();
		process.once("SIGCONT", () => {
			this.tui.start();
			this.tui.requestRender(true);
		});
		process.kill(0, "SIGTSTP");
	}

	/** Leaves the app: aborts a run (recording it), restores the terminal, resolves run(). */
	async shutdown(code = 0): Promise<void> {
		if (this.shuttingDown) return;
		this.shuttingDown = true;
		if (this.session.isStreaming || this.session.isCompacting) {
			this.session.abortCompaction();
			await this.session.abort();
		}
		if (this.session.isBashRunning) this.session.abortBash();
		if (this.extensions) {
			try {
				await this.extensions.stop();
			} catch {
				// session_shutdown handler errors were reported; leaving goes on.
			}
		}
		this.hideLoader();
		if (this.showProgress) this.tui.terminal.setProgress?.(false);
		this.unsubscribe?.();
		this.offRuntime?.();
		this.themes?.dispose();
		this.tui.stop();
		await this.tui.terminal.drainInput?.(1000, 50);
		this.finished?.(code);
	}
}

function numberSetting(value: unknown, fallback: number): number {
	return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}

/** Runs the interactive app until the user quits; returns the exit code. */
export async function runInteractiveMode(options: InteractiveModeOptions): Promise<number> {
	if (!options.theme && !options.terminal && options.appearance === undefined) {
		const { detectTerminalAppearance } = await import("./themes/terminal-appearance.js");
		const setting = options.useTheme ?? options.session.settings.getTheme() ?? SYSTEM_THEME;
		const detected = await detectTerminalAppearance(
			setting,
			{ input: process.stdin, output: process.stdout },
			process.env,
		);
		options = { ...options, appearance: detected.appearance };
	}
	const mode = new InteractiveMode(options);
	const onSignal = () => {
		void mode.shutdown(0);
	};
	process.on("SIGTERM", onSignal);
	process.on("SIGHUP", onSignal);
	try {
		return await mode.run();
	} finally {
		process.off("SIGTERM", onSignal);
		process.off("SIGHUP", onSignal);
	}
}
