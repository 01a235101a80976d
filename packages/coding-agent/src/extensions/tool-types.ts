// The tool shapes of the extension API: `pi.registerTool()`'s definition,
// its renderers' context, exposure, namespaces, loadouts and the `ToolInfo`
// `pi.getAllTools()` lists. Re-exported by types.ts.
import type { AgentToolResult, AgentToolUpdateCallback, ToolExecutionMode } from "@pi/agent-core";
import type { Component } from "@pi/tui";
import type { Static, TSchema } from "typebox";
import type { ExtensionToolContext } from "./context-types.js";
import type { ExtensionTheme } from "./ui-types.js";

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
