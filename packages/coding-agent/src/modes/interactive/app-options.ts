// What the app is started with (InteractiveModeOptions: the session, folders,
// start-up prompts, extensions, runtime) and what typed text is sent with.
import type { ImageContent } from "@pi/ai";
import type { BackgroundQueryResult, ScreenRecord, Terminal } from "@pi/tui";
import type { AgentSession } from "../../agent-session/agent-session.js";
import type { AgentSessionRuntime } from "../../runtime/agent-session-runtime.js";
import type { TrustQuestionAnswer } from "../../runtime/services.js";
import type { SlashCommandRegistry } from "./commands/registry.js";
import type { ResourceCommandSource } from "./commands/resource-commands.js";
import type { StatusKind } from "./context.js";
import type { InteractiveExtensions } from "./extensions/app-extensions.js";
import type { AppTheme } from "./theme-fallback.js";

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
	/**
	 * That question (OSC 11), already sent by the CLI as soon as it knew the app would draw with a
	 * theme that follows the terminal: runInteractiveMode waits for this answer instead of asking.
	 */
	terminalBackground?: Promise<BackgroundQueryResult>;
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
	bindApp?: (app: AppHandle) => void;
	/**
	 * A frame already on the screen (the CLI's early frame, cli/early-frame.ts). Right before the TUI's
	 * terminal starts, `adopt(check)` hands over its record as `check` makes it (parseScreenRecord),
	 * or undefined when the frame is gone or the record is not one (then it was erased).
	 */
	startScreen?: { adopt<T>(check: (record: unknown) => T | undefined): T | undefined };
	/**
	 * Gets the app's first frame once it is drawn, with the bytes that draw it on a fresh screen and the
	 * row the cursor then rests on (@pi/tui screen-record.ts): the CLI keeps them for the next start.
	 */
	onFirstFrame?: (frame: ScreenRecord, bytes: string, cursorRow: number) => void;
}

export interface SubmitOptions {
	images?: ImageContent[];
	streamingBehavior?: "steer" | "followUp";
}

/** What the CLI may do with the running app (InteractiveMode implements it). */
export interface AppHandle {
	showStatus(text: string, kind?: StatusKind): void;
	shutdown(code?: number): Promise<void>;
	/** The trust question while the app runs (a switch entered a folder that needs one). */
	askProjectTrust(cwd: string, resources: readonly string[]): Promise<TrustQuestionAnswer>;
	/** Draws the session afresh (an extension command moved it: ctx.newSession, fork, switchSession). */
	redrawSession(): void;
}
