// What commands and controllers of the interactive mode get to work with.
// One object, built by InteractiveMode; everything a slash command may touch
// goes through it, so commands stay small files with no wiring of their own.
import type {
	AutocompleteItem,
	Component,
	EditorComponent,
	KeybindingsManager,
	TUI,
	SlashCommand as TuiSlashCommand,
} from "@pi/tui";
import type { AgentSession } from "../../agent-session/agent-session.js";
import type { SettingsManager } from "../../config/settings.js";
import type { ChatView } from "./components/chat-view.js";
import type { StatusKind } from "./components/notice.js";
import type { AppTheme } from "./theme-fallback.js";
import type { ThemeManager } from "./themes/theme-manager.js";

export type { StatusKind };

type Awaitable<T> = T | Promise<T>;

/** One slash command; see commands/registry.ts for how commands are written and registered. */
export interface SlashCommand {
	/** Without the leading slash. */
	name: string;
	description: string;
	argumentHint?: string;
	/** Completions for the argument text typed so far; null or [] for none. */
	getArgumentCompletions?(argumentPrefix: string): Awaitable<AutocompleteItem[] | null>;
	/** Runs the command; `args` is the trimmed text after the name. */
	run(args: string, ctx: InteractiveContext): Awaitable<void>;
	/** Not listed in autocomplete or /hotkeys, still runnable. */
	hidden?: boolean;
	/**
	 * Listed for completion only: typed, the text goes down the prompt path
	 * (extension commands, skills, prompt templates), queued while a run works.
	 */
	sendAsPrompt?: boolean;
}

/** The registry as commands see it (implemented by SlashCommandRegistry). */
export interface CommandRegistry {
	register(command: SlashCommand): void;
	unregister(name: string): void;
	get(name: string): SlashCommand | undefined;
	has(name: string): boolean;
	list(): SlashCommand[];
	onChange(listener: () => void): () => void;
	toAutocomplete(): TuiSlashCommand[];
}

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
	readonly commands: CommandRegistry;
	/** The transcript area: history, streamed messages, tool calls, notices. */
	readonly chat: ChatView;
	readonly editor: EditorComponent;
	/** The theme in force; components read it at render time. */
	readonly theme: AppTheme;
	/** Switches the theme and redraws everything (live reload). */
	setTheme(theme: AppTheme): void;
	/** Known themes, selection and live reload (themes/theme-manager.ts); absent in bare test setups. */
	readonly themes?: ThemeManager;
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
	/** Extension shortcuts for /hotkeys (absent without extensions). */
	extensionHotkeys?: () => { key: string; description: string; extensionPath: string }[];
}

export type { Component, EditorComponent };
