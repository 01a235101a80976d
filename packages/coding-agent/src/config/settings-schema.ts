// The known settings keys and their defaults (the reference's docs/settings.md).
// Unknown keys are kept as they are: extensions and newer versions add their own.
import type { ThinkingLevel } from "@pi/ai";

export type QueueMode = "all" | "one-at-a-time";
export type Transport = "sse" | "websocket" | "websocket-cached" | "auto";
/** `cacheWarming`: keep prompt caches warm never, during runs only, or during runs and up to 30 min after. */
export type CacheWarmingMode = "off" | "streaming" | "idle";
export const CACHE_WARMING_MODES: readonly CacheWarmingMode[] = ["off", "streaming", "idle"];
export const DEFAULT_CACHE_WARMING: CacheWarmingMode = "idle";

export interface CompactionSettings {
	enabled: boolean;
	reserveTokens: number;
	keepRecentTokens: number;
}

export interface BranchSummarySettings {
	reserveTokens: number;
	skipPrompt: boolean;
}

export interface ProviderRetrySettings {
	/** No byte from the provider for this long ends the request (retryable). pi-ai's default: 10 min; 0: off. */
	timeoutMs?: number;
	/** Caps on one response (pi-ai's defaults: 64 MiB, 60 min); past them the request ends with an error. */
	maxResponseBytes?: number;
	maxResponseMs?: number;
	maxRetries?: number;
	/** Longest server-requested delay we wait for; 0 turns the cap off. */
	maxRetryDelayMs: number;
}

export interface RetrySettings {
	enabled: boolean;
	maxRetries: number;
	baseDelayMs: number;
	/** Longest agent-level retry wait (backoff or server-requested); default 60 000, 0 turns the cap off. */
	maxAgentDelayMs?: number;
	provider: ProviderRetrySettings;
}

export interface TerminalSettings {
	showImages: boolean;
	imageWidthCells: number;
	clearOnShrink: boolean;
	showTerminalProgress: boolean;
}

export interface ImageSettings {
	autoResize: boolean;
	blockImages: boolean;
}

export type PackageSource =
	| string
	| {
			source: string;
			/**
			 * false: nothing of the package loads but what the filters below name
			 * (`+path`, patterns); a project entry with it is a delta over the user's
			 * entry for the same package instead of replacing it.
			 */
			autoload?: boolean;
			extensions?: string[];
			skills?: string[];
			prompts?: string[];
			themes?: string[];
	  };

/** Settings as stored in a file: every key optional, unknown keys allowed. */
export interface Settings {
	/** Project trust where no --approve/--no-approve or saved decision applies ("ask": not loaded where nobody can be asked). */
	defaultProjectTrust?: "ask" | "always" | "never";
	defaultProvider?: string;
	defaultModel?: string;
	defaultThinkingLevel?: ThinkingLevel;
	hideThinkingBlock?: boolean;
	/** Transcript notices for significant prompt-cache misses, cache warms and summary costs (default false). */
	showCacheMissNotices?: boolean;
	/** Prompt-cache warming (default "idle"); read from the user's settings only, never a project's. */
	cacheWarming?: CacheWarmingMode;
	thinkingBudgets?: Partial<Record<"minimal" | "low" | "medium" | "high", number>>;
	transport?: Transport;
	steeringMode?: QueueMode;
	followUpMode?: QueueMode;
	theme?: string;
	quietStartup?: boolean;
	collapseChangelog?: boolean;
	enableInstallTelemetry?: boolean;
	doubleEscapeAction?: "tree" | "fork" | "none";
	treeFilterMode?: "default" | "no-tools" | "user-only" | "labeled-only" | "all";
	editorPaddingX?: number;
	autocompleteMaxVisible?: number;
	showHardwareCursor?: boolean;
	warnings?: { anthropicExtraUsage?: boolean };
	compaction?: Partial<CompactionSettings>;
	branchSummary?: Partial<BranchSummarySettings>;
	retry?: Partial<Omit<RetrySettings, "provider">> & { provider?: Partial<ProviderRetrySettings> };
	terminal?: Partial<TerminalSettings>;
	images?: Partial<ImageSettings>;
	shellPath?: string;
	shellCommandPrefix?: string;
	npmCommand?: string[];
	/** What `pi update` runs to update pi itself ({packageName}, {version}, {installSpec}); user settings only. */
	selfUpdateCommand?: string[];
	sessionDir?: string;
	enabledModels?: string[];
	markdown?: { codeBlockIndent?: string };
	packages?: PackageSource[];
	extensions?: string[];
	skills?: string[];
	prompts?: string[];
	themes?: string[];
	enableSkillCommands?: boolean;
	lastChangelogVersion?: string;
	[key: string]: unknown;
}

export const DEFAULT_THINKING_LEVEL: ThinkingLevel = "medium";

export const DEFAULT_COMPACTION: CompactionSettings = { enabled: true, reserveTokens: 16384, keepRecentTokens: 20000 };
export const DEFAULT_BRANCH_SUMMARY: BranchSummarySettings = { reserveTokens: 16384, skipPrompt: false };
export const DEFAULT_RETRY: RetrySettings = {
	enabled: true,
	maxRetries: 3,
	baseDelayMs: 2000,
	provider: { maxRetryDelayMs: 60_000 },
};
export const DEFAULT_TERMINAL: TerminalSettings = {
	showImages: true,
	imageWidthCells: 60,
	clearOnShrink: false,
	showTerminalProgress: false,
};
export const DEFAULT_IMAGES: ImageSettings = { autoResize: true, blockImages: false };
