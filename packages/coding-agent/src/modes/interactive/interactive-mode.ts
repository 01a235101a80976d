// The `pi` terminal app: a pi-tui TUI over one AgentSession. This file only
// wires the parts together — transcript (components/chat-view), the editor's
// place (editor-slot), typed input (controllers/input-controller), app keys
// (controllers/key-controller), session events on the screen
// (session-events), footer numbers (footer-state), slash commands
// (commands/), extensions (extensions/), the runtime (runtime-binding).
// Layout, top to bottom: banner and transcript, a working indicator, queued
// messages, widgets, the editor (or a selector in its place), widgets, the
// footer.
import { basename } from "node:path";
import {
	CombinedAutocompleteProvider,
	Container,
	drawScreenRecord,
	getCapabilities,
	loadMarkdown,
	onMarkdownLoaded,
	ProcessTerminal,
	parseScreenRecord,
	setCapabilities,
	TUI,
} from "@pi/tui";
import type { AgentSession } from "../../agent-session/agent-session.js";
import { formatLoadWarning } from "../../session/load.js";
import type { AppHandle, InteractiveModeOptions, SubmitOptions } from "./app-options.js";
import { bannerData } from "./banner-data.js";
import { type CacheNotice, historyCacheNotices } from "./cache-notices.js";
import { readClipboardImage } from "./clipboard.js";
import { registerBuiltinCommands } from "./commands/builtin.js";
import { SlashCommandRegistry } from "./commands/registry.js";
import { syncResourceCommands } from "./commands/resource-commands.js";
import { AppEditor } from "./components/app-editor.js";
import { Banner } from "./components/banner.js";
import { ChatView } from "./components/chat-view.js";
import { Footer } from "./components/footer.js";
import { imageOptions } from "./components/image-options.js";
import { QueueView } from "./components/queue-view.js";
import { embedsWorkingStatus, WorkingRow } from "./components/working-row.js";
import type { InteractiveContext, StatusKind } from "./context.js";
import { InputController } from "./controllers/input-controller.js";
import { KeyController } from "./controllers/key-controller.js";
import { EditorSlot } from "./editor-slot.js";
import { ExtensionSlot } from "./extensions/extension-slot.js";
import type { ExtensionUIHost } from "./extensions/extension-ui.js";
import { editExternally } from "./external-editor.js";
import { createFileLister } from "./file-lister.js";
import { FooterState } from "./footer-state.js";
import { readGitBranch } from "./git-branch.js";
import { keyText, loadKeybindings } from "./keybindings.js";
import { askTrustInApp, bindRuntime, type RuntimeBindingHost, reloadCommand } from "./runtime-binding.js";
import { showSessionEvent } from "./session-events.js";
import { editInExternalEditor, suspendToShell } from "./terminal-handoffs.js";
import { type AppTheme, fallbackTheme, type ThinkingLevelName } from "./theme-fallback.js";
import { SYSTEM_THEME, ThemeManager } from "./themes/theme-manager.js";

export type { AppHandle, InteractiveModeOptions, SubmitOptions } from "./app-options.js";

export class InteractiveMode implements AppHandle {
	readonly tui: TUI;
	readonly chat: ChatView;
	/** The built-in editor (an extension's may be in its place: `ctx.editor`). */
	readonly editor: AppEditor;
	readonly commands = new SlashCommandRegistry();
	readonly ctx: InteractiveContext;
	private theme: AppTheme;
	/** Theme files and live reload; absent when a fixed theme was given (tests). */
	private readonly themes: ThemeManager | undefined;
	private readonly session: AgentSession;
	private readonly editorSlot: EditorSlot;
	private readonly working: WorkingRow;
	/** Session load warnings already shown (file:line), so /tree and reloads do not repeat them. */
	private readonly shownLoadWarnings = new Set<string>();
	private readonly headerSlot = new Container();
	private readonly footerSlot = new Container();
	private readonly widgetsAbove = new Container();
	private readonly widgetsBelow = new Container();
	private readonly banner: Banner;
	/** The extensions: from start-up, or from the first /reload that finds any. */
	private readonly extensions: ExtensionSlot;
	private updateAutocomplete: () => void = () => {};
	private resourceCommandNames = new Set<string>();
	private readonly queueView: QueueView;
	private readonly footer: Footer;
	private readonly footerState: FooterState;
	private readonly input: InputController;
	private readonly keys: KeyController;
	private unsubscribe: (() => void) | undefined;
	private offRuntime: (() => void) | undefined;
	private finished: ((code: number) => void) | undefined;
	private readonly done: Promise<number>;
	private shuttingDown = false;
	private readonly showProgress: boolean;

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
		// A closed window or a dropped ssh connection: no one is left to answer, so the app ends as on
		// SIGHUP, which usually comes with it (a run is aborted and recorded; the same exit code,
		// whichever is seen first). Said on stderr when it is not that same terminal.
		this.tui.onTerminalLost = (error) => {
			if (!process.stderr.isTTY)
				process.stderr.write(`pi: the terminal is gone (${error.message}); the session is saved, exiting.\n`);
			void this.shutdown(0);
		};
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
		this.editorSlot = new EditorSlot(this.tui, this.editor, {
			submit: (text) => void this.input.submit(text),
			changed: () => this.updateEditorBorder(),
			appKey: (data) => this.keys.handleKey(data) || this.extensions.handleShortcut(data),
			replaced: (editor) => {
				this.working.embedIn(editor !== this.editor && embedsWorkingStatus(editor) ? editor : undefined);
				this.updateAutocomplete();
				this.updateEditorBorder();
			},
		});
		this.working = new WorkingRow(this.tui, themeSource);
		this.queueView = new QueueView(themeSource);
		this.footerState = new FooterState(o.session, o.cwd, readGitBranch(o.cwd), () => this.tui.requestRender());
		this.footer = new Footer(themeSource, () => this.footerState.data);

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
				return mode.editorSlot.active;
			},
			get theme() {
				return mode.theme;
			},
			setTheme: (theme) => this.setTheme(theme),
			themes: this.themes,
			showStatus: (text, kind) => this.showStatus(text, kind),
			showInEditorArea: (component) => this.editorSlot.show(component),
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
			openExternalEditor: () => editInExternalEditor(this.tui, this.editorSlot.active, this.ctx.showStatus),
			pasteImage: () => void this.pasteImage(),
			suspend: () => suspendToShell(this.tui),
		});
		this.extensions = new ExtensionSlot({
			tui: this.tui,
			ctx: this.ctx,
			chat: this.chat,
			uiHost: () => this.extensionUIHost(),
			builtinEditorFocused: () => this.tui.getFocus() === this.editor,
			submit: (text) => this.submitText(text, {}),
			afterAction: () => this.chat.syncEntries(this.session.sessionManager),
			rendererHooks: {
				theme: themeSource,
				keyText: (id) => keyText(keybindings, id),
				requestRender: () => this.tui.requestRender(),
				cwd: o.cwd,
			},
			updateAutocomplete: () => this.updateAutocomplete(),
		});

		registerBuiltinCommands(this.commands);
		if (o.runtime) this.commands.register(reloadCommand(o.runtime, this.runtimeHost()));
		o.registerCommands?.(this.commands);
		const lister = createFileLister();
		this.updateAutocomplete = () => {
			const base = new CombinedAutocompleteProvider(this.commands.toAutocomplete(), o.cwd, { listFiles: lister });
			this.editorSlot.active.setAutocompleteProvider?.(this.extensions.wrapAutocomplete(base));
		};
		this.updateAutocomplete();
		this.commands.onChange(() => this.updateAutocomplete());
		this.updateEditorBorder();

		this.banner = new Banner(
			themeSource,
			bannerData(o, o.session, keybindings, [...keyWarnings, ...(this.themes?.getWarnings() ?? [])]),
		);
		this.headerSlot.addChild(this.banner);
		this.footerSlot.addChild(this.footer);
		this.tui.addChild(this.headerSlot);
		this.tui.addChild(this.chat);
		this.tui.addChild(this.working);
		this.tui.addChild(this.queueView);
		this.tui.addChild(this.widgetsAbove);
		this.tui.addChild(this.editorSlot.area);
		this.tui.addChild(this.widgetsBelow);
		this.tui.addChild(this.footerSlot);
		this.tui.setFocus(this.editor);
		this.tui.addInputListener(this.keys.onInput);

		if (o.extensions) this.extensions.attach(o.extensions);

		if (o.runtime) this.offRuntime = bindRuntime(o.runtime, this.runtimeHost());
		this.done = new Promise((resolve) => {
			this.finished = resolve;
		});
		o.bindApp?.(this);
	}

	/** Starts the app; resolves with the exit code when the user quits. */
	async run(): Promise<number> {
		this.unsubscribe = this.session.subscribe((event) =>
			showSessionEvent(event, {
				session: this.session,
				tui: this.tui,
				chat: this.chat,
				working: this.working,
				queue: this.queueView,
				showProgress: this.showProgress,
				refreshStatus: () => this.refreshStatus(),
				showStatus: (text, kind) => this.showStatus(text, kind),
				cacheNotices: () => this.session.settings.getShowCacheMissNotices(),
			}),
		);
		this.themes?.onChange((theme) => this.setTheme(theme));
		this.themes?.onWarning((message) => this.showStatus(message, "warning"));
		this.themes?.startWatching();
		// `system` and light/dark pairs follow the terminal when it reports a scheme change.
		const themes = this.themes;
		if (themes) this.tui.onColorSchemeChange((appearance) => themes.setAppearance(appearance));
		const history = this.session.sessionManager.buildSessionProjection().entries;
		// marked loads on demand (tens of ms of regex tables): before a resumed transcript is drawn,
		// after the first screen of a new session (see @pi/tui's markdown.ts).
		if (history.some((e) => e.messages.length > 0)) await loadMarkdown();
		this.chat.renderHistory(history, this.historyCacheNotices());
		this.chat.syncEntries(this.session.sessionManager, true);
		// The start-up session's damaged lines were reported with the start-up warnings.
		for (const w of this.session.sessionManager.getLoadWarnings())
			this.shownLoadWarnings.add(`${w.file}:${w.line}:${w.message}`);
		const adopted = this.o.startScreen?.adopt(parseScreenRecord);
		if (adopted) this.tui.adoptScreen(adopted);
		this.tui.start();
		this.tui.terminal.setTitle?.(`pi - ${basename(this.o.cwd)}`);
		this.tui.requestRender();
		// Markdown drawn before the load shows plain, then as markdown from the render after it. Transcript
		// items cache their lines (CachedItem), so they are drawn again: a reply that arrived before the
		// load would stay plain otherwise.
		onMarkdownLoaded(() => {
			this.tui.invalidate();
			this.tui.requestRender();
		});
		// The frame is drawn on the next tick. In the built CLI, import() of a bundled module resolves
		// in a microtask, which would run before that tick: marked's module body (its regex tables)
		// would delay the first screen. One turn of the event loop puts the load after the frame.
		await new Promise<void>((resolve) => setImmediate(resolve));
		const first = this.tui.firstFrame;
		if (first && this.o.onFirstFrame) {
			const { bytes, state } = drawScreenRecord(first);
			this.o.onFirstFrame(first, bytes, state.cursorRow);
		}
		await loadMarkdown();
		// Extensions start once the screen is up: session_start handlers may ask, set widgets or the editor.
		await this.extensions.start();
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

	// -- status, footer, editor border, theme ---------------------------------------

	refreshStatus(): void {
		this.footerState.refresh();
		this.updateEditorBorder();
		this.tui.requestRender();
	}

	private updateEditorBorder(): void {
		const t = this.theme;
		const editor = this.editorSlot.active;
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

	// -- extensions and the runtime -------------------------------------------------------

	/** What ctx.ui draws on: the layout's slots, the footer, the working row, the editor. */
	private extensionUIHost(): ExtensionUIHost {
		const mode = this;
		return {
			tui: this.tui,
			theme: () => this.theme,
			keybindings: this.ctx.keybindings,
			themes: this.themes,
			setTheme: (theme) => this.setTheme(theme),
			notify: (text, kind) => this.showStatus(text, kind),
			showInEditorArea: (component) => this.editorSlot.show(component),
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
				this.footerState.status = text;
				this.refreshStatus();
			},
			gitBranch: () => this.footerState.gitBranch,
			working: this.working,
			setHiddenThinkingLabel: (label) => this.chat.setHiddenThinkingLabel(label),
			editor: () => this.editorSlot.active,
			replaceEditor: (editor) => this.editorSlot.replace(editor),
			setAutocompleteWrappers: () => this.extensions.wrappersChanged(),
			chat: this.chat,
			externalEdit: (text) => editExternally(this.tui, text),
			setTitle: (title) => this.tui.terminal.setTitle?.(title),
		};
	}

	/** What runtime-binding.ts needs of the app. */
	private runtimeHost(): RuntimeBindingHost {
		return {
			ctx: this.ctx,
			rebindExtensions: (next) => this.extensions.rebind(next),
			afterExtensionsStarted: () => this.afterResourcesChanged(),
		};
	}

	/** Extension commands, templates and skills in `/`, the theme list, redrawn (after reload or a switch). */
	private afterResourcesChanged(): void {
		this.extensions.extensions?.syncCommands(this.commands);
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

	/** Cache notices re-derived for history (only with showCacheMissNotices: it reads the whole branch). */
	private historyCacheNotices(): Map<string, CacheNotice[]> | undefined {
		if (!this.session.settings.getShowCacheMissNotices()) return undefined;
		const registry = this.session.modelRegistry;
		return historyCacheNotices(this.session.sessionManager.getBranch(), (p, m) => registry.find(p, m)?.cost.cacheRead);
	}

	redrawSession(): void {
		this.reloadFromSession();
	}

	private reloadFromSession(): void {
		if (this.o.runtime) this.afterResourcesChanged();
		this.chat.clear();
		this.queueView.set([], []);
		this.chat.renderHistory(this.session.sessionManager.buildSessionProjection().entries, this.historyCacheNotices());
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

	// -- clipboard and leaving ----------------------------------------------------------

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
		this.editorSlot.active.insertTextAtCursor?.(`${this.input.addImage(png, "image/png")} `);
		this.tui.requestRender();
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
		await this.extensions.stop();
		this.working.hide();
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
			undefined,
			options.terminalBackground,
		);
		options = { ...options, appearance: detected.appearance };
	}
	// However the theme was decided, the CLI's query is over before the TUI reads input.
	await options.terminalBackground;
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
