// App-level keys, seen before the editor: interrupt, clear/exit, model and
// thinking cycling, expand/collapse, queueing and dequeueing messages,
// external editor, suspend. Keys pass through to whatever has focus when
// the editor is not focused (selectors handle their own keys).
import type { InputListenerResult } from "@pi/tui";
import type { InteractiveContext } from "../context.js";
import type { InputController } from "./input-controller.js";

/** Two presses closer together than this count as a double press. */
const DOUBLE_PRESS_MS = 500;

export interface KeyControllerHost {
	ctx: InteractiveContext;
	input: InputController;
	/** Whether the editor (not a selector) has focus. */
	editorFocused(): boolean;
	/** Runs `$VISUAL`/`$EDITOR` on the editor text. */
	openExternalEditor(): void;
	/** Ctrl+V: an image from the clipboard into the message. */
	pasteImage(): void;
	suspend(): void;
	now?: () => number;
}

export class KeyController {
	private lastEscape = 0;
	private lastCtrlC = 0;
	private readonly now: () => number;

	constructor(private readonly host: KeyControllerHost) {
		this.now = host.now ?? Date.now;
	}

	/** The TUI input listener. */
	readonly onInput = (data: string): InputListenerResult => {
		if (!this.host.editorFocused()) return undefined;
		const handled = this.handle(data);
		return handled ? { consume: true } : undefined;
	};

	/** An app key typed into an extension's editor (CustomEditor.onAppKey); true when used. */
	handleKey(data: string): boolean {
		return this.handle(data);
	}

	private handle(data: string): boolean {
		const { ctx } = this.host;
		const kb = ctx.keybindings;
		const editor = ctx.editor as { isShowingAutocomplete?: () => boolean };
		const autocomplete = editor.isShowingAutocomplete?.() === true;
		const empty = ctx.editor.getText().length === 0;

		if (kb.matches(data, "app.interrupt")) {
			if (autocomplete) return false;
			this.interrupt(empty);
			return true;
		}
		if (kb.matches(data, "app.clear")) {
			const now = this.now();
			if (now - this.lastCtrlC < DOUBLE_PRESS_MS) {
				void ctx.shutdown();
				return true;
			}
			this.lastCtrlC = now;
			ctx.editor.setText("");
			ctx.requestRender();
			return true;
		}
		if (kb.matches(data, "app.exit")) {
			if (!empty) return false;
			void ctx.shutdown();
			return true;
		}
		if (kb.matches(data, "app.message.followUp")) {
			const text = expandedText(ctx);
			if (!text.trim()) return true;
			ctx.editor.setText("");
			void this.host.input.submit(text, "followUp");
			return true;
		}
		if (kb.matches(data, "app.message.dequeue")) {
			void this.restoreQueue();
			return true;
		}
		if (kb.matches(data, "app.tools.expand")) {
			ctx.chat.setToolsExpanded(!ctx.chat.toolOutputExpanded);
			ctx.requestRender();
			return true;
		}
		if (kb.matches(data, "app.thinking.toggle")) {
			ctx.chat.setShowThinking(!ctx.chat.showThinking);
			ctx.showStatus(ctx.chat.showThinking ? "Thinking blocks: shown" : "Thinking blocks: hidden", "info");
			return true;
		}
		if (kb.matches(data, "app.thinking.cycle")) {
			if (autocomplete) return false;
			const level = ctx.session.cycleThinkingLevel();
			if (level === undefined) ctx.showStatus("The current model does not support thinking", "warning");
			ctx.refreshStatus();
			return true;
		}
		if (kb.matches(data, "app.model.cycleForward") || kb.matches(data, "app.model.cycleBackward")) {
			this.cycleModel(kb.matches(data, "app.model.cycleBackward") ? "backward" : "forward");
			return true;
		}
		if (kb.matches(data, "app.model.select")) return this.command("model");
		if (kb.matches(data, "app.session.new")) return this.command("new");
		if (kb.matches(data, "app.session.tree")) return this.command("tree");
		if (kb.matches(data, "app.session.fork")) return this.command("fork");
		if (kb.matches(data, "app.session.resume")) return this.command("resume");
		if (kb.matches(data, "app.editor.external")) {
			this.host.openExternalEditor();
			return true;
		}
		if (kb.matches(data, "app.clipboard.pasteImage")) {
			this.host.pasteImage();
			return true;
		}
		if (kb.matches(data, "app.suspend")) {
			this.host.suspend();
			return true;
		}
		return false;
	}

	/** Runs a command if registered (selectors come from another module); a no-op otherwise. */
	private command(name: string): boolean {
		if (this.host.ctx.commands.has(name)) void this.host.ctx.runCommand(name, "");
		return true;
	}

	private cycleModel(direction: "forward" | "backward"): void {
		const { ctx } = this.host;
		try {
			const result = ctx.session.cycleModel(direction);
			if (!result) ctx.showStatus("Only one model available", "warning");
			else ctx.showStatus(`Model: ${result.model.provider}/${result.model.id} • thinking ${result.thinkingLevel}`);
		} catch (error) {
			ctx.showStatus(error instanceof Error ? error.message : String(error), "error");
		}
		ctx.refreshStatus();
	}

	private interrupt(editorEmpty: boolean): void {
		const { ctx } = this.host;
		const s = ctx.session;
		if (s.isBashRunning) {
			s.abortBash();
			return;
		}
		if (s.isCompacting) {
			s.abortCompaction();
			return;
		}
		if (s.isStreaming || s.isRetrying) {
			void this.abortRun();
			return;
		}
		if (!editorEmpty) return;
		const now = this.now();
		if (now - this.lastEscape < DOUBLE_PRESS_MS) {
			this.lastEscape = 0;
			const action = ctx.settings.get("doubleEscapeAction") ?? "tree";
			if (action === "tree" || action === "fork") this.command(action);
			return;
		}
		this.lastEscape = now;
	}

	/** Esc while working: queued messages go back into the editor, then the run is aborted. */
	private async abortRun(): Promise<void> {
		const { ctx } = this.host;
		const queued = await ctx.session.clearQueue();
		this.prependToEditor([...queued.steering, ...queued.followUp]);
		await ctx.session.abort();
		ctx.refreshStatus();
	}

	private async restoreQueue(): Promise<void> {
		const queued = await this.host.ctx.session.clearQueue();
		const all = [...queued.steering, ...queued.followUp];
		if (all.length === 0) return;
		this.prependToEditor(all);
	}

	private prependToEditor(texts: string[]): void {
		if (texts.length === 0) return;
		const { ctx } = this.host;
		const current = ctx.editor.getText();
		ctx.editor.setText([...texts, ...(current ? [current] : [])].join("\n\n"));
		ctx.requestRender();
	}
}

function expandedText(ctx: InteractiveContext): string {
	return ctx.editor.getExpandedText?.() ?? ctx.editor.getText();
}
