// The public extension API: what an extension's default export receives
// (`ExtensionAPI`, "pi"), the shapes it registers (commands, flags,
// shortcuts, renderers; tools in tool-types.ts, providers in
// provider-types.ts) and what its handlers receive (context-types.ts).
// Names and signatures follow upstream Pi 1.6.0 so extensions written for it
// type-check and run here. Events and their dispatch rules are in events.ts;
// `ctx.ui` is in ui-types.ts. This file re-exports all of them: it is the one
// module extensions and builtins/ import.
import type { AgentMessage } from "@pi/agent-core";
import type { ImageContent, Model, TextContent, ThinkingLevel } from "@pi/ai";
import type { AutocompleteItem, Component } from "@pi/tui";
import type { TSchema } from "typebox";
import type { CustomMessage } from "../messages.js";
import type { CustomEntry } from "../session/types.js";
import type {
	CustomMessageInput,
	ExtensionCommandContext,
	ExtensionContext,
	ProjectTrustContext,
	SendMessageOptions,
	SendUserMessageOptions,
} from "./context-types.js";
import type { EventBus } from "./event-bus.js";
import type { ExtensionEventMap, ExtensionEventName, ProjectTrustEvent, ProjectTrustEventResult } from "./events.js";
import type { McpServerConfig, RegisteredMcpServer } from "./mcp-servers.js";
import type { ExtensionVirtualModel, ProviderConfig, ProviderDefinition } from "./provider-types.js";
import type { SourceInfo, ToolDefinition, ToolInfo, ToolRendererResolver } from "./tool-types.js";
import type { ExtensionTheme } from "./ui-types.js";

/** The global config dir (`$PI_CODING_AGENT_DIR`, else `~/.pi/agent`), where user-level config files live. */
export { canOpenBrowser, openBrowser } from "../auth/open-browser.js";
export { parsePastedAuthorization } from "../auth/pasted-authorization.js";
export { getAgentDir } from "../config/paths.js";
export * from "./context-types.js";
export * from "./events.js";
export {
	checkMcpExposure,
	checkMcpServerConfig,
	checkMcpToolExposure,
	isClientMetadataDocumentCallback,
	isValidMcpServerName,
	MCP_EXPOSURES,
	type McpExposure,
	type McpHttpServerConfig,
	type McpOAuthConfig,
	type McpServerConfig,
	type McpStdioServerConfig,
	mcpServerKey,
	type RegisteredMcpServer,
} from "./mcp-servers.js";
export * from "./provider-types.js";
export * from "./tool-types.js";
export * from "./ui-types.js";

/**
 * The version of this API. An extension may declare the range it supports
 * (`package.json` `engines.pi`, or `export const piApi = ">=1.6 <2"`); a
 * mismatch is reported by name instead of failing somewhere inside it.
 */
export const EXTENSION_API_VERSION = "1.6.0";

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
	/**
	 * An MCP server for this session (docs/extensions.md "MCP servers"), with
	 * the config of an mcp.json `mcpServers` entry. Registered while loading it
	 * connects at session start; later, right away. The same name again
	 * replaces this extension's registration. Never saved; an mcp.json server
	 * of the same name wins. Throws for an invalid name or config and for a
	 * name another extension registered.
	 */
	registerMcpServer(name: string, config: McpServerConfig): void;
	/** Removes a server this extension registered; its connection closes and its tools become unreachable. */
	unregisterMcpServer(name: string): void;
	/** Every registered server (copies), in registration order. */
	getMcpServers(): RegisteredMcpServer[];
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
