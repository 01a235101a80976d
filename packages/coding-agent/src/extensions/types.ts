// The public extension API: what an extension's default export receives
// (`ExtensionAPI`, "pi"), what its handlers receive (`ExtensionContext`,
// "ctx"), and the shapes it registers (tools, commands, flags, shortcuts,
// providers, renderers). Names and signatures follow upstream Pi 1.6.0 so
// extensions written for it type-check and run here. Events and their
// dispatch rules are in events.ts; `ctx.ui` is in ui-types.ts.
import type { AgentMessage, AgentToolResult, AgentToolUpdateCallback, ToolExecutionMode } from "@pi/agent-core";
import type {
	AssistantMessage,
	AssistantMessageEventStream,
	Context,
	ImageContent,
	Model,
	NormalizedContext,
	StreamOptions,
	TextContent,
	ThinkingLevel,
} from "@pi/ai";
import type { AutocompleteItem, Component } from "@pi/tui";
import type { Static, TSchema } from "typebox";
import type { CompactionResult } from "../agent-session/compaction/summarize.js";
import type { ModelRoute, ModelRouteRequest, VirtualModelDefinition } from "../config/virtual-models.js";
import type { CustomMessage } from "../messages.js";
import type { SessionManager } from "../session/session-manager.js";
import type { CustomEntry } from "../session/types.js";
import type { EventBus } from "./event-bus.js";
import type { ExtensionEventMap, ExtensionEventName, ProjectTrustEvent, ProjectTrustEventResult } from "./events.js";
import type { ExtensionTheme, ExtensionUIContext } from "./ui-types.js";

/** The global config dir (`$PI_CODING_AGENT_DIR`, else `~/.pi/agent`), where user-level config files live. */
export { canOpenBrowser, openBrowser } from "../auth/open-browser.js";
export { parsePastedAuthorization } from "../auth/pasted-authorization.js";
export { getAgentDir } from "../config/paths.js";
export * from "./events.js";
export * from "./ui-types.js";

/**
 * The version of this API. An extension may declare the range it supports
 * (`package.json` `engines.pi`, or `export const piApi = ">=1.6 <2"`); a
 * mismatch is reported by name instead of failing somewhere inside it.
 */
export const EXTENSION_API_VERSION = "1.6.0";

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

// -- tools ---------------------------------------------------------------------------

export interface ToolRenderResultOptions {
	expanded: boolean;
	isPartial: boolean;
}

/** Passed to tool renderers by the interactive app. */
export interface ToolRenderContext<TState = unknown, TArgs = unknown> {
	args: TArgs;
	toolCallId: string;
	invalidate: () => void;
	lastComponent: Component | undefined;
	state: TState;
	cwd: string;
	executionStarted: boolean;
	argsComplete: boolean;
	isPartial: boolean;
	expanded: boolean;
	showImages: boolean;
	isError: boolean;
	durationMs: number | undefined;
	outputPad: number;
	keyText(keybinding: string): string;
	keyHint(keybinding: string, description: string): string;
}

export type ToolExposure = "direct" | "model-only" | "codemode" | "deferred" | "hidden";

/**
 * A group of related tools (an MCP server's tools are one: `mcp__<server>`).
 * Codemode lists a namespace under one heading with its `description`;
 * scripts read `instructions` with `describeNamespace(name)`. `aliases` are
 * other names the namespace may be looked up by (the bare server name).
 */
export interface ToolNamespace {
	name: string;
	aliases?: string[];
	description?: string;
	instructions?: string;
}

/**
 * Which tools one call of a tool that orchestrates other tools may reach:
 * `"all"`, or the words of its input that may name them (a word refers to
 * every tool or namespace whose name contains it). Extensions that register
 * tools late (MCP) read it in their `tool_call` handler and finish
 * registering what the call needs before it runs.
 */
export type ReachesTools = (input: Record<string, unknown>) => "all" | string[];

/**
 * What `prepareLoadout` sees: the tools declared to the model (active, before
 * any declaration is hidden), the tools other tools may call now through
 * `ctx.executeTool` (active ones and every `codemode`/`deferred` one; never
 * `hidden` or `model-only`), and every registered tool.
 */
export interface ToolLoadout {
	declared: ToolInfo[];
	callable: ToolInfo[];
	all: ToolInfo[];
}

/**
 * What an orchestrating tool changes about the request while it is active:
 * replacement `descriptions` for declared tools (its own included) and
 * `hiddenDeclarations`, active tools left out of the request's declarations
 * (and the system prompt's tool list and rules) that stay active and callable
 * through `ctx.executeTool`.
 */
export interface ToolLoadoutChanges {
	descriptions?: Record<string, string>;
	hiddenDeclarations?: string[];
}

export type PrepareLoadout = (loadout: ToolLoadout) => ToolLoadoutChanges | undefined;

export interface ToolAnnotations {
	readOnlyHint?: boolean;
	destructiveHint?: boolean;
	idempotentHint?: boolean;
	openWorldHint?: boolean;
}

/** `pi.registerTool()`'s argument. */
// biome-ignore lint/suspicious/noExplicitAny: renderer state is the tool author's own type (as upstream)
export interface ToolDefinition<TParams extends TSchema = TSchema, TDetails = unknown, TState = any> {
	name: string;
	label: string;
	description: string;
	/** One line in the system prompt's tool list; custom tools without it are not listed. */
	promptSnippet?: string;
	/** Rule bullets added to the system prompt while the tool is active. */
	promptGuidelines?: string[];
	parameters: TParams;
	renderShell?: "default" | "self";
	prepareArguments?: (args: unknown) => Static<TParams>;
	exposure?: ToolExposure;
	namespace?: ToolNamespace;
	annotations?: ToolAnnotations;
	reachesTools?: ReachesTools;
	/** While this tool is active: shapes what the model is declared (see ToolLoadoutChanges). */
	prepareLoadout?: PrepareLoadout;
	/**
	 * What else `prepareLoadout` depends on (the settings it reads), as a
	 * JSON-serialisable value. pi runs `prepareLoadout` again only when the
	 * active tools, the registered tools or this value changed.
	 */
	loadoutKey?: () => unknown;
	/** Default true: registering activates the tool. */
	defaultActive?: boolean;
	executionMode?: ToolExecutionMode;
	execute(
		toolCallId: string,
		params: Static<TParams>,
		signal: AbortSignal | undefined,
		onUpdate: AgentToolUpdateCallback<TDetails> | undefined,
		ctx: ExtensionToolContext,
	): Promise<AgentToolResult<TDetails>>;
	renderCall?: (
		args: Static<TParams>,
		theme: ExtensionTheme,
		context: ToolRenderContext<TState, Static<TParams>>,
	) => Component;
	renderResult?: (
		result: AgentToolResult<TDetails>,
		options: ToolRenderResultOptions,
		theme: ExtensionTheme,
		context: ToolRenderContext<TState, Static<TParams>>,
	) => Component;
}

// biome-ignore lint/suspicious/noExplicitAny: a registry holds tools of every schema
export type AnyToolDefinition = ToolDefinition<any, any, any>;

/** Keeps parameter inference for a tool assigned to a variable before registration. */
// biome-ignore lint/suspicious/noExplicitAny: see AnyToolDefinition
export function defineTool<TParams extends TSchema, TDetails = unknown, TState = any>(
	tool: ToolDefinition<TParams, TDetails, TState>,
): ToolDefinition<TParams, TDetails, TState> & AnyToolDefinition {
	return tool as ToolDefinition<TParams, TDetails, TState> & AnyToolDefinition;
}

export type ToolRenderers = Pick<AnyToolDefinition, "renderShell" | "renderCall" | "renderResult">;
export type ToolRendererResolver = (
	toolName: string,
	next: () => ToolRenderers | undefined,
) => ToolRenderers | undefined;

/** Where a tool or command came from. */
export interface SourceInfo {
	path: string;
	source: string;
	scope: "user" | "project" | "temporary";
	origin: "package" | "top-level";
	baseDir?: string;
}

export interface ToolInfo {
	name: string;
	description: string;
	parameters: TSchema;
	promptGuidelines?: string[];
	exposure: ToolExposure;
	namespace?: ToolNamespace;
	annotations?: ToolAnnotations;
	reachesTools?: ReachesTools;
	sourceInfo: SourceInfo;
}

// -- commands, shortcuts, flags, renderers --------------------------------------------------

export interface RegisteredCommand {
	name: string;
	sourceInfo: SourceInfo;
	description?: string;
	getArgumentCompletions?: (argumentPrefix: string) => AutocompleteItem[] | null | Promise<AutocompleteItem[] | null>;
	handler: (args: string, ctx: ExtensionCommandContext) => Promise<void> | void;
}

export interface SlashCommandInfo {
	name: string;
	description?: string;
	source: "extension" | "prompt" | "skill";
	sourceInfo: SourceInfo;
}

export interface ExtensionShortcut {
	shortcut: string;
	description?: string;
	handler: (ctx: ExtensionContext) => Promise<void> | void;
	extensionPath: string;
}

export type ExtensionFlagOptions =
	| { description?: string; type: "boolean"; default?: boolean }
	| { description?: string; type: "string"; default?: string };

export interface ExtensionFlag {
	name: string;
	description?: string;
	type: "boolean" | "string";
	default?: boolean | string;
	extensionPath: string;
}

export interface MessageRenderOptions {
	expanded: boolean;
	outputPad: number;
	keyText(keybinding: string): string;
	keyHint(keybinding: string, description: string): string;
}
export interface EntryRenderOptions {
	expanded: boolean;
	keyText(keybinding: string): string;
	keyHint(keybinding: string, description: string): string;
}
export type MessageRenderer<T = unknown> = (
	message: CustomMessage<T>,
	options: MessageRenderOptions,
	theme: ExtensionTheme,
) => Component | undefined;
export type EntryRenderer<T = unknown> = (
	entry: CustomEntry<T>,
	options: EntryRenderOptions,
	theme: ExtensionTheme,
) => Component | undefined;

export type MarkdownMessageType = "user" | "assistant" | "assistant-thinking" | "custom" | "summary" | "changelog";
export interface MarkdownTransformContext {
	messageType: MarkdownMessageType;
	isStreaming: boolean;
	availableWidth: number;
	messageId?: string;
	timestamp?: string;
}
export type MarkdownTransformer = (markdown: string, context: MarkdownTransformContext) => string;
export interface MarkdownTransformerOptions {
	messageTypes?: readonly MarkdownMessageType[];
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

// -- exec ------------------------------------------------------------------------------------

export interface ExecOptions {
	signal?: AbortSignal;
	/** Milliseconds; the command is terminated after it. */
	timeout?: number;
	cwd?: string;
	/** Bytes of stdout + stderr kept (default 256 MiB); past it the command is terminated. */
	maxBuffer?: number;
}

export interface ExecResult {
	stdout: string;
	stderr: string;
	/** Exit code; 128 + signal number when a signal ended the command. */
	code: number;
	/** True when pi terminated the command (timeout, abort, maxBuffer). */
	killed: boolean;
	truncated?: boolean;
}

// -- providers ---------------------------------------------------------------------------------

export interface ProviderModelConfig {
	id: string;
	name: string;
	api?: string;
	baseUrl?: string;
	reasoning?: boolean;
	input: ("text" | "image")[];
	cost: { input: number; output: number; cacheRead: number; cacheWrite: number };
	contextWindow?: number;
	maxTokens?: number;
	headers?: Record<string, string>;
	compat?: Record<string, unknown>;
}

/** `pi.registerVirtualModel(model)`: a virtual model whose router also gets the extension context. */
export interface ExtensionVirtualModel<TState = unknown> extends Omit<VirtualModelDefinition<TState>, "route"> {
	route(request: ModelRouteRequest<TState>, ctx: ExtensionContext): ModelRoute<TState> | Promise<ModelRoute<TState>>;
}

/** `pi.registerProvider(name, config)`. */
export interface ProviderConfig {
	name?: string;
	baseUrl?: string;
	/** Literal, `$ENV`/`${ENV}`, or `!command`. */
	apiKey?: string;
	api?: string;
	headers?: Record<string, string>;
	authHeader?: boolean;
	/** Replaces the provider's models. Without it, `baseUrl`/`headers` override the existing ones. */
	models?: ProviderModelConfig[];
	/** A login for `/login` (and `pi auth login` with `-e`): the provider then appears in the login list. */
	oauth?: ProviderOAuthConfig;
	/**
	 * The provider's own wire protocol, registered as the adapter of `api`
	 * (default `"<provider>-api"`). Gets the normalized transcript: the prompt
	 * and tools are in its system messages (`getCurrentSystemPrompt`,
	 * `getCurrentTools`), the resolved key in `options.apiKey`. Must end with one
	 * `done` or `error` event; a throw becomes an error reply.
	 */
	streamSimple?: ProviderStreamFunction;
}

/** A custom wire protocol (`ProviderConfig.streamSimple`). */
export type ProviderStreamFunction = (
	model: Model,
	context: NormalizedContext,
	options: StreamOptions & { apiKey: string },
) => AssistantMessageEventStream;

/** Stored OAuth tokens as an extension sees them (auth.json's entry without its `type`). */
export interface OAuthCredentials {
	access: string;
	refresh: string;
	/** Unix ms after which `access` is refreshed. */
	expires: number;
	[extra: string]: unknown;
}

/** What an extension's OAuth `login()` can ask of whoever runs it (the app's /login, `pi auth login`). */
export interface OAuthLoginCallbacks {
	/** Open this URL in a browser. */
	onAuth(info: { url: string; instructions?: string }): void;
	onDeviceCode(info: { userCode: string; verificationUri: string; expiresInSeconds?: number }): void;
	/** Free text; rejects when the login is cancelled. */
	onPrompt(prompt: { message: string; placeholder?: string; allowEmpty?: boolean }): Promise<string>;
	onProgress?(message: string): void;
	/** A pasted code or redirect URL. */
	onManualCodeInput?(): Promise<string>;
	onSelect(prompt: { message: string; options: { id: string; label: string }[] }): Promise<string | undefined>;
	signal?: AbortSignal;
}

/** `ProviderConfig.oauth`: the provider's account login. */
export interface ProviderOAuthConfig {
	/** Shown in the login list. */
	name: string;
	isSubscription?: boolean;
	/** Ignored (kept for source compatibility with 1.6.0). */
	usesCallbackServer?: boolean;
	/** Runs the login; resolves with the tokens pi stores in auth.json. */
	login(callbacks: OAuthLoginCallbacks): Promise<OAuthCredentials>;
	/** New tokens for expired ones (called under auth.json's lock, once across processes). */
	refreshToken(credentials: OAuthCredentials, signal: AbortSignal): Promise<OAuthCredentials>;
	/** The key requests send for these tokens. */
	getApiKey(credentials: OAuthCredentials): string;
}

/**
 * `pi.registerProvider(provider)`: the object form. Its `id` is the provider
 * name; `api` may be an API name or an implementation with `streamSimple`;
 * `getModels()` may stand in for `models`. Other pi-ai `Provider` members
 * (native `auth`, `refreshModels`, image and classifier operations) are not
 * supported by this build and are reported as an error naming the extension.
 */
export interface ProviderDefinition extends Omit<ProviderConfig, "api"> {
	id: string;
	api?: string | { streamSimple?: ProviderStreamFunction; stream?: ProviderStreamFunction };
	getModels?(): ProviderModelConfig[];
	stream?: ProviderStreamFunction;
}

// -- the API ------------------------------------------------------------------------------------

// biome-ignore lint/suspicious/noConfusingVoidType: handlers that return nothing are typed `void` by TypeScript
type HandlerResult<R> = R | undefined | void;
export type ExtensionHandler<E, R = undefined> = (
	event: E,
	ctx: ExtensionContext,
) => Promise<HandlerResult<R>> | HandlerResult<R>;
export type ProjectTrustHandler = (
	event: ProjectTrustEvent,
	ctx: ProjectTrustContext,
) => Promise<ProjectTrustEventResult> | ProjectTrustEventResult;

type OnOverloads = {
	[K in ExtensionEventName]: (
		event: K,
		handler: K extends "project_trust"
			? ProjectTrustHandler
			: ExtensionHandler<ExtensionEventMap[K][0], ExtensionEventMap[K][1]>,
	) => () => void;
};
type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;

/** `pi`: what an extension's factory receives. 33 members as in 1.6.0, plus `apiVersion`. */
export interface ExtensionAPI {
	/** Subscribe to an event; returns the function that removes this one registration. */
	on: UnionToIntersection<OnOverloads[ExtensionEventName]>;
	// biome-ignore lint/suspicious/noExplicitAny: renderer state is the tool author's own type (as upstream)
	registerTool<TParams extends TSchema = TSchema, TDetails = unknown, TState = any>(
		tool: ToolDefinition<TParams, TDetails, TState>,
	): void;
	registerCommand(name: string, options: Omit<RegisteredCommand, "name" | "sourceInfo">): void;
	registerShortcut(
		shortcut: string,
		options: { description?: string; handler: (ctx: ExtensionContext) => Promise<void> | void },
	): void;
	registerFlag(name: string, options: ExtensionFlagOptions): void;
	getFlag(name: string): boolean | string | undefined;
	registerMessageRenderer<T = unknown>(customType: string, renderer: MessageRenderer<T>): void;
	registerMarkdownTransformer(transformer: MarkdownTransformer, options?: MarkdownTransformerOptions): void;
	registerEntryRenderer<T = unknown>(customType: string, renderer: EntryRenderer<T>): void;
	registerToolRenderer(resolver: ToolRendererResolver): void;
	sendMessage<T = unknown>(message: CustomMessageInput<T>, options?: SendMessageOptions): void;
	sendUserMessage(content: string | (TextContent | ImageContent)[], options?: SendUserMessageOptions): void;
	/** A `custom` entry in the session: extension state, never sent to the model. */
	appendEntry<T = unknown>(customType: string, data?: T): void;
	setSessionName(name: string): void;
	getSessionName(): string | undefined;
	setLabel(entryId: string, label: string | undefined): void;
	/** Runs a program without a shell. */
	exec(command: string, args: string[], options?: ExecOptions): Promise<ExecResult>;
	getActiveTools(): string[];
	getAllTools(): ToolInfo[];
	getSettings(): Record<string, unknown>;
	/** Unknown and hidden names are ignored. */
	setActiveTools(toolNames: string[]): void;
	getCommands(): SlashCommandInfo[];
	/** False when the model's provider has no credentials. */
	setModel(model: Model): Promise<boolean>;
	getThinkingLevel(): ThinkingLevel;
	setThinkingLevel(level: ThinkingLevel): void;
	/** Adds or overrides a provider; later calls take effect at once (no /reload). */
	registerProvider(name: string, config: ProviderConfig): void;
	registerProvider(provider: ProviderDefinition): void;
	/** Removes the provider's models, login and stream; built-ins it replaced come back. */
	unregisterProvider(name: string): void;
	registerMcpServer(name: string, config: Record<string, unknown>): void;
	unregisterMcpServer(name: string): void;
	getMcpServers(): { name: string; extensionPath: string; config: Record<string, unknown> }[];
	/**
	 * A selectable catalog entry whose `route(request, ctx)` picks the physical
	 * model and level of each request (docs/virtual-models.md). The same
	 * provider and id again replaces it; unregisterProvider leaves it.
	 */
	registerVirtualModel<TState = unknown>(model: ExtensionVirtualModel<TState>): void;
	unregisterVirtualModel(provider: string, id: string): void;
	events: EventBus;
	/** This build's extension API version (see EXTENSION_API_VERSION). */
	readonly apiVersion: string;
}

/** An extension module's default export. */
export type ExtensionFactory = (pi: ExtensionAPI) => void | Promise<void>;

/** A handler error, reported as an `extension_error` event (json/rpc) or on stderr (print). */
export interface ExtensionError {
	extensionPath: string;
	event: string;
	error: string;
	stack?: string;
}

export type { AgentMessage };
