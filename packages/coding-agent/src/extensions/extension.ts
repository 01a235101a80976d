// One loaded extension: everything its factory registered, kept per
// extension so load order (the dispatch order) and "who registered what"
// (for conflict messages) are never lost. And the runtime all extensions of
// one process share: flag values, the event bus, and the host — the session
// side that carries out `pi.*` actions once it is bound.
import type { ImageContent, Model, TextContent, ThinkingLevel } from "@pi/ai";
import { ExtensionEventBus } from "./event-bus.js";
import type { ExtensionEventName } from "./events.js";
import { McpServerRegistry } from "./mcp-servers.js";
import type {
	AnyToolDefinition,
	CustomMessageInput,
	EntryRenderer,
	ExtensionError,
	ExtensionFlag,
	ExtensionShortcut,
	ExtensionVirtualModel,
	MarkdownMessageType,
	MarkdownTransformer,
	MessageRenderer,
	ProviderConfig,
	RegisteredCommand,
	SendMessageOptions,
	SendUserMessageOptions,
	SlashCommandInfo,
	SourceInfo,
	ToolInfo,
	ToolRendererResolver,
} from "./types.js";

// biome-ignore lint/suspicious/noExplicitAny: handlers of every event live in one table
export type AnyHandler = (event: any, ctx: any) => unknown;

export interface RegisteredTool {
	definition: AnyToolDefinition;
	sourceInfo: SourceInfo;
}

export interface LoadedExtension {
	/** The path as found (discovery, settings or -e). */
	path: string;
	/** Absolute path of the module that was loaded. */
	resolvedPath: string;
	sourceInfo: SourceInfo;
	handlers: Map<ExtensionEventName, AnyHandler[]>;
	tools: Map<string, RegisteredTool>;
	commands: Map<string, RegisteredCommand>;
	flags: Map<string, ExtensionFlag>;
	shortcuts: Map<string, ExtensionShortcut>;
	messageRenderers: Map<string, MessageRenderer>;
	entryRenderers: Map<string, EntryRenderer>;
	toolRenderers: ToolRendererResolver[];
	markdownTransformer?: { transformer: MarkdownTransformer; messageTypes: ReadonlySet<MarkdownMessageType> };
}

export function createExtensionRecord(path: string, resolvedPath: string, sourceInfo: SourceInfo): LoadedExtension {
	return {
		path,
		resolvedPath,
		sourceInfo,
		handlers: new Map(),
		tools: new Map(),
		commands: new Map(),
		flags: new Map(),
		shortcuts: new Map(),
		messageRenderers: new Map(),
		entryRenderers: new Map(),
		toolRenderers: [],
	};
}

/**
 * What the session side does for `pi.*`. The bridge that owns the
 * AgentSession implements it; until it is bound, actions that need a
 * session throw a clear "not available while loading" error.
 */
export interface ExtensionHost {
	sendMessage(message: CustomMessageInput, options: SendMessageOptions): void;
	sendUserMessage(content: string | (TextContent | ImageContent)[], options: SendUserMessageOptions): void;
	appendEntry(customType: string, data: unknown): void;
	setSessionName(name: string): void;
	getSessionName(): string | undefined;
	setLabel(entryId: string, label: string | undefined): void;
	getActiveTools(): string[];
	getAllTools(): ToolInfo[];
	setActiveTools(names: string[]): void;
	/** A tool was registered after start-up: make it available (and active unless it says otherwise). */
	refreshTools(): void;
	getCommands(): SlashCommandInfo[];
	getSettings(): Record<string, unknown>;
	setModel(model: Model): Promise<boolean>;
	getThinkingLevel(): ThinkingLevel;
	setThinkingLevel(level: ThinkingLevel): void;
	registerProvider(name: string, config: ProviderConfig, extensionPath: string): void;
	unregisterProvider(name: string, extensionPath: string): void;
	registerVirtualModel(model: ExtensionVirtualModel, extensionPath: string): void;
	unregisterVirtualModel(provider: string, id: string, extensionPath: string): void;
}

/** State shared by every extension of one runtime. */
export class ExtensionRuntime {
	readonly flagValues = new Map<string, boolean | string>();
	readonly events: ExtensionEventBus;
	/** `pi.registerMcpServer` registrations (never saved; the session's MCP extension connects them). */
	readonly mcpServers = new McpServerRegistry();
	/** registerProvider calls made while loading; applied when the host binds. */
	readonly pendingProviders: { name: string; config: ProviderConfig | undefined; extensionPath: string }[] = [];
	/** registerVirtualModel / unregisterVirtualModel calls made while loading, in order. */
	readonly pendingVirtualModels: (
		| { model: ExtensionVirtualModel; extensionPath: string }
		| { provider: string; id: string; extensionPath: string }
	)[] = [];
	host: ExtensionHost | undefined;
	/** Where errors go that happen outside a dispatch (event bus listeners); the runner replaces it. */
	reportError: (error: ExtensionError) => void = () => {};
	private stale: string | undefined;

	constructor() {
		this.events = new ExtensionEventBus((channel, error) =>
			this.reportError({
				extensionPath: "<event bus>",
				event: `events:${channel}`,
				error: error instanceof Error ? error.message : String(error),
				stack: error instanceof Error ? error.stack : undefined,
			}),
		);
	}

	/** The host, or a clear error when a `pi.*` action runs before the session exists. */
	requireHost(action: string): ExtensionHost {
		if (this.stale) throw new Error(this.stale);
		if (!this.host) {
			throw new Error(
				`pi.${action}() is not available while extensions load; call it from an event handler or command.`,
			);
		}
		return this.host;
	}

	/** Throws the stale message once this runtime's `pi` objects were invalidated. */
	assertActive(): void {
		if (this.stale) throw new Error(this.stale);
	}

	/** Marks this runtime's `pi` objects stale (session replaced or reloaded). */
	invalidate(message: string): void {
		this.stale = message;
		this.events.clear();
		this.mcpServers.setChangeListener(undefined);
	}

	get isStale(): boolean {
		return this.stale !== undefined;
	}

	/**
	 * Applies the provider registrations queued during loading (the CLI and the
	 * SDK do it before the starting model is chosen; `bind` does what is left).
	 */
	flushProviders(host: Pick<ExtensionHost, "registerProvider" | "unregisterProvider">): void {
		for (const p of this.pendingProviders.splice(0)) {
			if (p.config) host.registerProvider(p.name, p.config, p.extensionPath);
			else host.unregisterProvider(p.name, p.extensionPath);
		}
	}

	/**
	 * Applies the virtual model registrations queued during loading (the CLI
	 * and the SDK do it with the providers, before the starting model is chosen).
	 */
	flushVirtualModels(host: Pick<ExtensionHost, "registerVirtualModel" | "unregisterVirtualModel">): void {
		for (const v of this.pendingVirtualModels.splice(0)) {
			if ("model" in v) host.registerVirtualModel(v.model, v.extensionPath);
			else host.unregisterVirtualModel(v.provider, v.id, v.extensionPath);
		}
	}

	/** Binds the session side and applies the registrations still queued. */
	bind(host: ExtensionHost): void {
		this.host = host;
		this.flushProviders(host);
		this.flushVirtualModels(host);
	}
}
