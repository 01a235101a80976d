// The contexts extension code runs with: `ctx` in event handlers
// (`ExtensionContext`), in tools (`ExtensionToolContext`), in commands
// (`ExtensionCommandContext`) and in `project_trust` handlers, plus the
// message shapes `ctx`/`pi` send. Part of the public API; re-exported by
// types.ts, which is what extensions and builtins/ import.
import type { AgentToolResult, AgentToolUpdateCallback } from "@pi/agent-core";
import type {
	AssistantImages,
	AssistantMessage,
	ClassifierContext,
	ClassifierModel,
	ClassifierOptions,
	ClassifierResult,
	Context,
	ImageContent,
	ImageModel,
	ImagesContext,
	ImagesOptions,
	Model,
	ModelType,
	StreamOptions,
	TextContent,
	ThinkingLevel,
} from "@pi/ai";
import type { CompactionResult } from "../agent-session/compaction/summarize.js";
import type { CustomMessage } from "../messages.js";
import type { SessionManager } from "../session/session-manager.js";
import type { SystemPromptOptions } from "./run-events.js";
import type { ExtensionUIContext } from "./ui-types.js";

export type ExtensionMode = "tui" | "rpc" | "json" | "print";

export interface ContextUsage {
	/** Estimated context tokens; null when unknown (right after a compaction). */
	tokens: number | null;
	contextWindow: number;
	percent: number | null;
}

export interface CompactOptions {
	customInstructions?: string;
	onComplete?: (result: CompactionResult) => void;
	onError?: (error: Error) => void;
}

/** Session state as an extension may read it (no writers). */
export type ReadonlySessionManager = Pick<
	SessionManager,
	| "getCwd"
	| "getSessionDir"
	| "getSessionId"
	| "getSessionFile"
	| "getSessionName"
	| "getHeader"
	| "getEntries"
	| "getEntry"
	| "getBranch"
	| "getBranchEntries"
	| "getChildren"
	| "getTree"
	| "getLeafId"
	| "getLeafEntry"
	| "getLabel"
	| "buildSessionContext"
>;

/** A model with optional pinned thinking level, as `--models` / `enabledModels` scope them. */
export interface ScopedModelInfo {
	model: Model;
	thinkingLevel?: ThinkingLevel;
}

/** The model registry as extensions see it, plus one-shot requests through configured credentials. */
export interface ExtensionModelRegistry {
	getAll(): Model[];
	getAvailable(): Model[];
	find(provider: string, id: string): Model | undefined;
	hasAuth(model: Pick<Model, "provider">): boolean;
	getApiKey(model: Pick<Model, "provider">): Promise<string | undefined>;
	/** One request; failures come back as an assistant message with `stopReason: "error"`. */
	complete(model: Model, context: Context, options?: Omit<StreamOptions, "apiKey">): Promise<AssistantMessage>;
	/**
	 * Re-reads the model lists of dynamic providers (`refreshModels`), all or
	 * `options.providers`. Never rejects: failures come back per provider.
	 * Unbounded unless `options.signal` says otherwise.
	 */
	refresh(options?: {
		providers?: readonly string[];
		force?: boolean;
		signal?: AbortSignal;
	}): Promise<{ aborted: boolean; errors: ReadonlyMap<string, Error> }>;
	/** Every known model of a type (image and classifier models come from extension providers). */
	getModelsOfType<T extends ModelType>(type: T, provider?: string): readonly ModelOfType[T][];
	/** Models of a type whose provider has credentials, after the provider's availability filters. */
	getAvailableOfType<T extends ModelType>(type: T, provider?: string): Promise<readonly ModelOfType[T][]>;
	getModelOfType<T extends ModelType>(type: T, provider: string, id: string): ModelOfType[T] | undefined;
	/** Same as getModelOfType (1.6.0 has both names). */
	findOfType<T extends ModelType>(type: T, provider: string, id: string): ModelOfType[T] | undefined;
	/** Runs a classifier model with the provider's credentials. Never rejects: failures are `stopReason: "error"`. */
	classify(model: ClassifierModel, context: ClassifierContext, options?: ClassifierOptions): Promise<ClassifierResult>;
	/** Runs an image model with the provider's credentials. Never rejects. */
	generateImages(model: ImageModel, context: ImagesContext, options?: ImagesOptions): Promise<AssistantImages>;
}

/** The model shape of each model type. */
export interface ModelOfType {
	chat: Model;
	image: ImageModel;
	classifier: ClassifierModel;
}

/** `ctx` in every handler. */
export interface ExtensionContext {
	ui: ExtensionUIContext;
	mode: ExtensionMode;
	/** True in the interactive app and rpc; false in print and json. */
	hasUI: boolean;
	cwd: string;
	sessionManager: ReadonlySessionManager;
	modelRegistry: ExtensionModelRegistry;
	model: Model | undefined;
	scopedModels: readonly ScopedModelInfo[];
	thinkingLevel?: ThinkingLevel;
	isIdle(): boolean;
	isProjectTrusted(): boolean;
	/** The running turn's abort signal; undefined while idle. */
	signal: AbortSignal | undefined;
	abort(): void;
	hasPendingMessages(): boolean;
	/** Asks pi to end gracefully (no-op in print mode, which ends by itself). */
	shutdown(): void;
	getContextUsage(): ContextUsage | undefined;
	/** Starts a compaction without waiting for it. */
	compact(options?: CompactOptions): void;
	getSystemPrompt(): string;
}

/** `ctx` in a tool's execute(). */
export interface ExecuteToolOptions {
	/** Defaults to the calling tool's signal. */
	signal?: AbortSignal;
	/** Partial results of the nested tool, besides the tool_execution_update events. */
	onUpdate?: AgentToolUpdateCallback;
}

/** What `ctx.executeTool` resolves to; tool failures are results with `isError: true`, never rejections. */
export interface ToolCallOutcome {
	toolCall: { type: "toolCall"; id: string; name: string; arguments: Record<string, unknown> };
	result: AgentToolResult<unknown>;
	isError: boolean;
	/** Milliseconds the nested call took (hooks included). */
	durationMs?: number;
}

export interface ExtensionToolContext extends ExtensionContext {
	/** The tools `executeTool` can call. */
	readonly tools: readonly { name: string; description: string }[];
	/**
	 * Runs another tool as a call of this one: id `<this call's id>/<n>`,
	 * validation, `tool_call`/`tool_result` and `tool_execution_*` (all with
	 * `parentToolCallId`). No transcript entry; a bounded record becomes
	 * `nestedCalls` on this tool's result message.
	 */
	executeTool(name: string, args: unknown, options?: ExecuteToolOptions): Promise<ToolCallOutcome>;
}

export interface ReplacedSessionContext extends ExtensionCommandContext {
	sendMessage<T = unknown>(message: CustomMessageInput<T>, options?: SendMessageOptions): Promise<void>;
	sendUserMessage(content: string | (TextContent | ImageContent)[], options?: SendUserMessageOptions): Promise<void>;
}

/** `ctx` in a command handler: adds session control that would deadlock inside an event. */
export interface ExtensionCommandContext extends ExtensionContext {
	/**
	 * The base inputs pi builds the system prompt from now (the shape of before_agent_start's
	 * `systemPromptOptions`; a fresh copy). Without per-turn before_agent_start changes, `context`
	 * rewrites or payload rewrites. May hold whole context files: keep it to the extension.
	 */
	getSystemPromptOptions(): SystemPromptOptions;
	waitForIdle(): Promise<void>;
	newSession(options?: {
		parentSession?: string;
		setup?: (sessionManager: SessionManager) => Promise<void>;
		withSession?: (ctx: ReplacedSessionContext) => Promise<void>;
	}): Promise<{ cancelled: boolean }>;
	fork(
		entryId: string,
		options?: { position?: "before" | "at"; withSession?: (ctx: ReplacedSessionContext) => Promise<void> },
	): Promise<{ cancelled: boolean }>;
	navigateTree(
		targetId: string,
		options?: { summarize?: boolean; customInstructions?: string; replaceInstructions?: boolean; label?: string },
	): Promise<{ cancelled: boolean }>;
	switchSession(
		sessionPath: string,
		options?: { withSession?: (ctx: ReplacedSessionContext) => Promise<void> },
	): Promise<{ cancelled: boolean }>;
	reload(): Promise<void>;
}

/** What `project_trust` handlers get: only what is safe before the project is loaded. */
export interface ProjectTrustContext {
	cwd: string;
	mode: ExtensionMode;
	hasUI: boolean;
	ui: Pick<ExtensionUIContext, "select" | "confirm" | "input" | "notify">;
}

// -- messages -------------------------------------------------------------------------------

export type CustomMessageInput<T = unknown> = Pick<CustomMessage<T>, "customType" | "content" | "display" | "details">;

export interface SendMessageOptions {
	/** Start a run when idle (steer/followUp only). */
	triggerTurn?: boolean;
	/** Default "steer". */
	deliverAs?: "steer" | "followUp" | "nextTurn";
}

export interface SendUserMessageOptions {
	/** Required while a run is active. */
	deliverAs?: "steer" | "followUp";
	/** Run extension commands and expand skills / prompt templates. */
	expandPromptTemplates?: boolean;
}
