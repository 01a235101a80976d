// The app's hold on its extensions, which may arrive late: present from
// start-up, or brought by the first /reload that finds any. Attaching a set
// gives it ctx.ui, its shortcuts (while the built-in editor has focus), the
// /hotkeys rows and the transcript renderers; later sets (reload, another
// folder) are rebound to the same screen.
import type { AutocompleteProvider, TUI } from "@pi/tui";
import type { ChatView } from "../components/chat-view.js";
import type { InteractiveContext } from "../context.js";
import { AppExtensions, type InteractiveExtensions } from "./app-extensions.js";
import type { ExtensionUIHost } from "./extension-ui.js";
import { ExtensionRenderers, type RendererHooks } from "./renderers.js";

export interface ExtensionSlotParts {
	tui: TUI;
	ctx: InteractiveContext;
	chat: ChatView;
	/** What ctx.ui draws on (built once, by the app). */
	uiHost(): ExtensionUIHost;
	/** Whether the built-in editor has focus (an extension's editor routes shortcuts itself). */
	builtinEditorFocused(): boolean;
	/** Typed text down the prompt path. */
	submit(text: string): Promise<void>;
	/** After an extension command or shortcut ran. */
	afterAction(): void;
	rendererHooks: RendererHooks;
	/** Rebuilds the editor's autocomplete (wrappers changed). */
	updateAutocomplete(): void;
}

export class ExtensionSlot {
	private current: AppExtensions | undefined;
	private wrap: ((base: AutocompleteProvider) => AutocompleteProvider) | undefined;

	constructor(private readonly p: ExtensionSlotParts) {}

	/** The extensions in the app; undefined while there are none. */
	get extensions(): AppExtensions | undefined {
		return this.current;
	}

	/** The start-up set (not started here: start() does that once the screen is up). */
	attach(ext: InteractiveExtensions): void {
		const { p } = this;
		const extensions = new AppExtensions({
			...ext,
			ui: p.uiHost(),
			ctx: p.ctx,
			submit: (text) => p.submit(text),
			afterAction: () => p.afterAction(),
		});
		const shortcuts = extensions.shortcuts;
		p.tui.addInputListener((data) =>
			p.builtinEditorFocused() && shortcuts.handle(data) ? { consume: true } : undefined,
		);
		p.ctx.extensionHotkeys = () => this.current?.hotkeys() ?? [];
		p.chat.renderers = new ExtensionRenderers(ext.runner, p.rendererHooks);
		this.current = extensions;
	}

	/** A new set from the runtime (reload, another folder), before its session_start; the first one attaches. */
	rebind(next: InteractiveExtensions): void {
		if (!this.current) this.attach(next);
		else this.p.chat.renderers = new ExtensionRenderers(next.runner, this.p.rendererHooks);
		this.current?.rebind(next);
	}

	/** session_start for the start-up set; a failure is a notice. */
	async start(): Promise<void> {
		if (!this.current) return;
		try {
			await this.current.start();
		} catch (error) {
			this.p.ctx.showStatus(
				`Extensions failed to start: ${error instanceof Error ? error.message : String(error)}`,
				"error",
			);
		}
	}

	/** session_shutdown; handler errors were reported, leaving goes on. */
	async stop(): Promise<void> {
		try {
			await this.current?.stop();
		} catch {
			// reported by the runner
		}
	}

	/** An extension shortcut for `data`, run; true when one matched. */
	handleShortcut(data: string): boolean {
		return this.current?.shortcuts.handle(data) ?? false;
	}

	/** The extensions' autocomplete wrappers over `base` (ctx.ui.addAutocompleteProvider). */
	wrapAutocomplete(base: AutocompleteProvider): AutocompleteProvider {
		return this.wrap ? this.wrap(base) : base;
	}

	/** ctx.ui changed its wrappers. */
	wrappersChanged(): void {
		const ext = this.current;
		this.wrap = ext ? (base) => ext.ui.wrapAutocomplete(base) : undefined;
		this.p.updateAutocomplete();
	}
}
