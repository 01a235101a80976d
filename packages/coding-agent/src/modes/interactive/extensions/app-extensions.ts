// Extensions inside the terminal app: binds `ctx.ui` to the TUI, lists
// extension commands (and skills and prompt templates) in `/` completion,
// runs extension shortcuts, shows load problems and handler errors as
// notices in the transcript (never raw stderr over the screen), and starts
// the extensions (`session_start`) once the screen is up.
import type { ExtensionBridge } from "../../../agent-session/extension-bridge.js";
import type { ExtensionRunner } from "../../../extensions/runner.js";
import type { ExtensionError, ExtensionShortcut } from "../../../extensions/types.js";
import type { CommandRegistry, InteractiveContext, SlashCommand } from "../context.js";
import { type ExtensionUIHost, InteractiveExtensionUI } from "./extension-ui.js";
import { type HotkeyRow, ShortcutRouter } from "./shortcuts.js";

export interface InteractiveExtensions {
	bridge: ExtensionBridge;
	runner: ExtensionRunner;
	/** Load errors and warnings found before the app started, one message each. */
	problems: string[];
}

export interface AppExtensionsOptions extends InteractiveExtensions {
	ui: ExtensionUIHost;
	ctx: InteractiveContext;
	/** Sends typed text down the prompt path (extension commands, `input`, skills, templates). */
	submit(text: string): Promise<void>;
	/** Called after an extension command or shortcut ran (new entries may need drawing). */
	afterAction(): void;
}

export function formatExtensionError(e: ExtensionError): string {
	return `Extension error (${e.extensionPath}, ${e.event}): ${e.error}`;
}

export class AppExtensions {
	readonly ui: InteractiveExtensionUI;
	readonly shortcuts: ShortcutRouter;
	private readonly registered = new Set<string>();
	private offError: (() => void) | undefined;

	constructor(private o: AppExtensionsOptions) {
		this.ui = new InteractiveExtensionUI(o.ui);
		this.shortcuts = new ShortcutRouter({
			keybindings: o.ui.keybindings,
			shortcuts: () => this.o.runner.getShortcuts(),
			run: (s) => this.runShortcut(s),
		});
	}

	get runner(): ExtensionRunner {
		return this.o.runner;
	}

	get bridge(): ExtensionBridge {
		return this.o.bridge;
	}

	/** Binds the UI, reports problems, lists commands, then emits session_start. */
	async start(): Promise<void> {
		const { bridge, runner, ctx } = this.o;
		bridge.setUI(this.ui);
		this.offError = this.report(runner, ctx);
		for (const p of this.o.problems) ctx.showStatus(p, p.startsWith("Warning") ? "warning" : "error");
		for (const clash of this.shortcuts.clashes()) ctx.showStatus(clash, "warning");
		this.syncCommands(ctx.commands);
		await bridge.start("startup");
		// session_start handlers may register commands or tools.
		this.syncCommands(ctx.commands);
		this.o.afterAction();
	}

	/**
	 * The runtime replaced the extensions (reload, another folder): what the
	 * old instances drew is taken back, the new bridge gets this UI and the
	 * error notices, and their commands are listed. Called before their
	 * session_start; `syncCommands` again afterwards.
	 */
	rebind(next: InteractiveExtensions): void {
		this.offError?.();
		this.ui.reset();
		this.o = { ...this.o, ...next };
		const { bridge, runner, ctx } = this.o;
		bridge.setUI(this.ui);
		this.offError = this.report(runner, ctx);
		for (const p of next.problems) ctx.showStatus(p, p.startsWith("Warning") ? "warning" : "error");
		for (const clash of this.shortcuts.clashes()) ctx.showStatus(clash, "warning");
		this.syncCommands(ctx.commands);
	}

	/** Handler errors and later warnings (a late tool replacing a built-in) as notices; returns the unsubscribe. */
	private report(runner: ExtensionRunner, ctx: InteractiveContext): () => void {
		const offError = runner.onError((e) => ctx.showStatus(formatExtensionError(e), "error"));
		const offWarning = runner.onWarning((w) => ctx.showStatus(w, "warning"));
		return () => {
			offError();
			offWarning();
		};
	}

	async stop(): Promise<void> {
		await this.o.bridge.shutdown("quit");
		this.offError?.();
		this.ui.dispose();
	}

	/** Extension commands into the app's registry (completion); built-in names keep theirs. */
	syncCommands(registry: CommandRegistry): void {
		for (const name of this.registered) registry.unregister(name);
		this.registered.clear();
		for (const c of this.o.runner.getCommands()) {
			const name = c.invocationName;
			if (registry.has(name)) {
				this.o.ctx.showStatus(
					`Extension command /${name} (${c.extensionPath}) has the name of a built-in command; the built-in is used.`,
					"warning",
				);
				continue;
			}
			const command: SlashCommand = {
				name,
				description: c.description ?? "",
				getArgumentCompletions: c.getArgumentCompletions
					? async (prefix) => {
							try {
								return (await c.getArgumentCompletions?.(prefix)) ?? null;
							} catch {
								return null;
							}
						}
					: undefined,
				sendAsPrompt: true,
				run: async (args) => {
					await this.o.submit(args ? `/${name} ${args}` : `/${name}`);
					this.o.afterAction();
				},
			};
			registry.register(command);
			this.registered.add(name);
		}
	}

	hotkeys(): HotkeyRow[] {
		return this.shortcuts.rows();
	}

	private async runShortcut(s: ExtensionShortcut): Promise<void> {
		try {
			await s.handler(this.o.bridge.createContext());
		} catch (error) {
			this.o.runner.emitError({
				extensionPath: s.extensionPath,
				event: `shortcut:${s.shortcut}`,
				error: error instanceof Error ? error.message : String(error),
				stack: error instanceof Error ? error.stack : undefined,
			});
		}
		this.o.afterAction();
	}
}
