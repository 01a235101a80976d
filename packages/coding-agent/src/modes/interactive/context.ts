// What commands and controllers of the interactive mode get to work with.
// One object, built by InteractiveMode; everything a slash command may touch
// goes through it, so commands stay small files with no wiring of their own.
import type { Component, EditorComponent, KeybindingsManager, TUI } from "@pi/tui";
import type { AgentSession } from "../../agent-session/agent-session.js";
import type { SettingsManager } from "../../config/settings.js";
import type { SlashCommandRegistry } from "./commands/registry.js";
import type { ChatView } from "./components/chat-view.js";
import type { AppTheme } from "./theme-fallback.js";

export type StatusKind = "info" | "warning" | "error";

export interface InteractiveContext {
	readonly session: AgentSession;
	readonly tui: TUI;
	readonly cwd: string;
	/** Global config dir (auth.json, models.json, keybindings.json, themes/). */
	readonly agentDir: string;
	/** Where this cwd's sessions are listed from (the session picker). */
	readonly sessionDir: string | undefined;
	readonly settings: SettingsManager;
	readonly keybindings: KeybindingsManager;
	readonly commands: SlashCommandRegistry;
	/** The transcript area: history, streamed messages, tool calls, notices. */
	readonly chat: ChatView;
	readonly editor: EditorComponent;
	/** The theme in force; components read it at render time. */
	readonly theme: AppTheme;
	/** Switches the theme and redraws everything (live reload). */
	setTheme(theme: AppTheme): void;
	/** A one-line notice in the transcript. */
	showStatus(text: string, kind?: StatusKind): void;
	/**
	 * Shows `component` in place of the editor and focuses it (selectors,
	 * pickers); the returned function puts the editor back.
	 */
	showInEditorArea(component: Component): () => void;
	/** Re-renders the transcript from the session (after switching sessions or moving the leaf). */
	reloadFromSession(): void;
	/** Redraws footer and editor border (model, thinking level, name, usage). */
	refreshStatus(): void;
	requestRender(): void;
	/** Runs a registered command by name; false when there is none. */
	runCommand(name: string, args?: string): Promise<boolean>;
	/** Leaves the app (restores the terminal, flushes settings). */
	shutdown(): Promise<void>;
}

export type { Component, EditorComponent };
