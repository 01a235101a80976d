// The extension bridge: plugs an ExtensionRunner into one AgentSession.
//   - carries out `pi.*` actions on the session (it is the runtime's host:
//     extension-host.ts);
//   - builds `ctx` for handlers, tools and commands (extension-context.ts);
//   - turns agent-core hooks and session events into extension events:
//       tool_call/tool_result  through the session's ToolHooks (first block wins / chained patches)
//       context, context_with_system, forced system prompt  through the Agent's transformContext,
//         so they change the request only, never the session file (extension-request.ts)
//       before_provider_request / after_provider_response  through the stream options
//       before_provider_headers / provider_stream_event  through pi-ai's onHeaders / onStreamEvent
//       before_agent_start  through AgentSession.beforeAgentStart
//       cache_warming_decision  through the session's CacheWarmer (last action wins)
//       every session event  forwarded with notify semantics;
//   - installs the extension stages of the session's input pipeline
//     (extension command, then the `input` event: extension-input.ts).
import type { AgentTool, AgentToolResult } from "@pi/agent-core";
import type { ImageContent, TextContent } from "@pi/ai";
import type { ReplacedSessionContext } from "../extensions/context-types.js";
import { McpServersWatch } from "../extensions/mcp-watch.js";
import type { ExtensionRunner } from "../extensions/runner.js";
import type {
	AnyToolDefinition,
	CustomMessageInput,
	ExtensionCommandContext,
	ExtensionContext,
	ExtensionMode,
	InputSource,
	SendMessageOptions,
	SendUserMessageOptions,
	SlashCommandInfo,
	ToolResultEvent,
} from "../extensions/types.js";
import type { ExtensionUIContext } from "../extensions/ui-types.js";
import type { AgentSession } from "./agent-session.js";
import type { AgentSessionEvent } from "./events.js";
import {
	createCommandContext,
	createExtensionContext,
	createToolContext,
	type ExtensionContextDeps,
} from "./extension-context.js";
import { createExtensionHost, createMessageSenders } from "./extension-host.js";
import { useExtensionInput } from "./extension-input.js";
import { createLifecycleHooks, TurnCounter, withPromptEvents } from "./extension-lifecycle.js";
import { ExtensionRequestShaper, installProviderHooks } from "./extension-request.js";
import { createDeclarationShaper } from "./tool-loadout.js";

// biome-ignore lint/suspicious/noExplicitAny: tools of any schema live side by side
type AnyTool = AgentTool<any>;

export interface ExtensionBridgeOptions {
	session: AgentSession;
	runner: ExtensionRunner;
	mode: ExtensionMode;
	ui: ExtensionUIContext;
	hasUI: boolean;
	projectTrusted: boolean;
	/** `ctx.shutdown()`: the mode ends the process when it can. */
	onShutdownRequest?: () => void;
	/** A command's ctx moved the session (newSession, fork, switchSession): the app redraws it. */
	onSessionReplaced?: () => void;
	/**
	 * --tools / --exclude-tools over tools registered after start-up (MCP):
	 * "excluded" tools never reach the session; "registered" ones are callable
	 * (codemode) but never activated by registration; "activate" ones are
	 * activated even when registered inactive; undefined: as registered.
	 */
	lateToolFilter?: (name: string) => "excluded" | "registered" | "activate" | undefined;
	/** Extra commands listed by `pi.getCommands()` (prompt templates, skills). */
	getOtherCommands?: () => SlashCommandInfo[];
	/** Where `resources_discover` results go: the resource loader's extension paths (skills, prompts, themes). */
	addResourcePaths?: (paths: { skillPaths: string[]; promptPaths: string[]; themePaths: string[] }) => Promise<void>;
	/** `ctx.reload()` of a command (AgentSessionRuntime.reload); without it ctx.reload rejects. */
	onReloadRequest?: () => Promise<{ ok: boolean; errors: string[] }>;
	/**
	 * The bridge in charge now (AgentSessionRuntime: a switch into another folder replaces it);
	 * withSession callbacks get its context. Without it, this bridge's.
	 */
	currentBridge?: () => ExtensionBridge | undefined;
}

export interface SubmitOptions {
	images?: ImageContent[];
	source?: InputSource;
	streamingBehavior?: "steer" | "followUp";
	/**
	 * `/name` is a command (extension command, skill, template): typed and RPC
	 * prompts always; sendUserMessage only with `expandPromptTemplates`. Default true.
	 */
	commands?: boolean;
	/** Wait for runs extensions started meanwhile (default true; false inside such a run, which would wait for itself). */
	waitForExtensionRuns?: boolean;
}

/** The calling tool of a nested call (`ctx.executeTool`), when there is one. */
function parentOf(event: object): { parentToolCallId?: string } {
	const parent = (event as { parentToolCallId?: unknown }).parentToolCallId;
	return typeof parent === "string" ? { parentToolCallId: parent } : {};
}

export class ExtensionBridge {
	private readonly session: AgentSession;
	private readonly runner: ExtensionRunner;
	/** Runs started by extensions (sendUserMessage, triggerTurn); print mode waits for them. */
	private readonly started = new Set<Promise<void>>();
	private readonly request: ExtensionRequestShaper;
	private readonly pendingKeys: Promise<void>[] = [];
	private unsubscribe: (() => void) | undefined;
	private toolHookOffs: (() => void)[] = [];
	/** The definition each tool name was last added to the session with. */
	private registeredTools = new Map<string, AnyToolDefinition>();
	/** turn_start / turn_end carry the turn's index within the low-level run. */
	private readonly turns = new TurnCounter();
	/** Open blocking dialogs (ui_prompt_start/end coalesce nested ones). */
	private readonly promptSpan = { depth: 0 };

	private ui: ExtensionUIContext;
	/** `mcp_servers_change` and the report of registrations nothing connects. */
	private readonly mcpServers: McpServersWatch;

	constructor(private readonly o: ExtensionBridgeOptions) {
		this.session = o.session;
		this.runner = o.runner;
		this.mcpServers = new McpServersWatch(o.runner);
		this.ui = o.ui;
		this.request = new ExtensionRequestShaper(o.session, o.runner);
	}

	/** Replaces `ctx.ui` (rpc mode binds its protocol UI once the server exists). */
	setUI(ui: ExtensionUIContext): void {
		this.ui = ui;
	}

	/** Names of the tools this bridge added to the session (a reload drops the ones no new instance registers). */
	registeredToolNames(): string[] {
		return [...this.registeredTools.keys()];
	}

	/** Extension commands as `get_commands` lists them. */
	listCommands(): SlashCommandInfo[] {
		return this.runner.getCommands().map((c) => ({
			name: c.invocationName,
			description: c.description,
			source: "extension",
			sourceInfo: c.sourceInfo,
		}));
	}

	/** Binds the runtime, registers tools, wires the hooks, then emits session_start and resources_discover. */
	async start(
		reason: "startup" | "reload" | "new" | "resume" | "fork" = "startup",
		previousSessionFile?: string,
	): Promise<void> {
		this.runner.setContextFactory(() => this.createContext());
		this.runner.runtime.bind(this.host());
		this.mcpServers.start();
		await Promise.all(this.pendingKeys.splice(0));
		this.refreshTools();
		this.wireHooks();
		await this.runner.emit({ type: "session_start", reason, ...(previousSessionFile ? { previousSessionFile } : {}) });
		this.mcpServers.reportUnhandled();
		const discovered = await this.runner.emitResourcesDiscover({
			type: "resources_discover",
			cwd: this.session.cwd,
			reason: reason === "reload" ? "reload" : "startup",
		});
		const found = discovered.skillPaths.length + discovered.promptPaths.length + discovered.themePaths.length;
		if (found > 0) await this.o.addResourcePaths?.(discovered);
	}

	/** Emits session_shutdown and detaches from the session. */
	async shutdown(reason: "quit" | "reload" | "new" | "resume" | "fork" = "quit"): Promise<void> {
		await this.runner.emit({ type: "session_shutdown", reason });
		this.unsubscribe?.();
		for (const off of this.toolHookOffs) off();
		this.runner.runtime.invalidate("This extension instance was shut down; its pi object can no longer be used.");
	}

	/** Waits until every run an extension started has settled, then until the agent is idle. */
	async waitForIdle(): Promise<void> {
		await this.waitForExtensionRuns();
		await this.session.agent.waitForIdle();
	}

	/** Waits until every run an extension started (sendUserMessage, triggerTurn) has settled. */
	async waitForExtensionRuns(): Promise<void> {
		while (this.started.size > 0) await Promise.allSettled([...this.started]);
	}

	// -- the input path ------------------------------------------------------------------

	/**
	 * A prompt as the user (or an extension) submitted it, down the session's
	 * one input path (extension command → `input` event → skill command →
	 * prompt template → before_agent_start; the extension stages are installed
	 * by `start`). Resolves when the run is over and, unless
	 * `waitForExtensionRuns` is false, when the runs extensions started
	 * meanwhile are too (print mode exits after them).
	 */
	async submit(text: string, options: SubmitOptions = {}): Promise<void> {
		// A message queued into a running run (steer/followUp) returns once queued: waiting for
		// idle here would hold an RPC "queued" answer until the whole run ends.
		const queued = this.session.isStreaming && options.streamingBehavior !== undefined;
		await this.session.prompt(text, {
			images: options.images,
			source: options.source ?? "interactive",
			streamingBehavior: options.streamingBehavior,
			expandPromptTemplates: options.commands !== false,
		});
		if (!queued && options.waitForExtensionRuns !== false) await this.waitForIdle();
	}

	// -- hooks -----------------------------------------------------------------------------

	private wireHooks(): void {
		const session = this.session;
		const agent = session.agent;
		this.toolHookOffs.push(
			session.toolHooks.onBeforeToolCall(async (context) => {
				const input = (context.args ?? {}) as Record<string, unknown>;
				const result = await this.runner.emitToolCall({
					type: "tool_call",
					toolCallId: context.toolCall.id,
					toolName: context.toolCall.name,
					...(context.parentToolCallId ? { parentToolCallId: context.parentToolCallId } : {}),
					input,
				});
				if (result?.block) return { block: true, reason: result.reason, terminate: result.terminate };
				return undefined;
			}),
			session.toolHooks.onAfterToolCall(async (context) => {
				const event = {
					type: "tool_result",
					toolCallId: context.toolCall.id,
					toolName: context.toolCall.name,
					...(context.parentToolCallId ? { parentToolCallId: context.parentToolCallId } : {}),
					input: (context.args ?? {}) as Record<string, unknown>,
					content: context.result.content,
					details: context.result.details,
					isError: context.isError,
					...(context.result.usage ? { usage: context.result.usage } : {}),
				} as ToolResultEvent;
				const patch = await this.runner.emitToolResult(event);
				if (!patch) return undefined;
				return { content: patch.content, details: patch.details, isError: patch.isError, usage: patch.usage };
			}),
		);

		agent.transformContext = async (messages) => this.request.transformRequest(messages);
		agent.onPayload = (payload) => this.runner.emitBeforeProviderRequest(payload);
		agent.onResponse = (response) => {
			void this.runner.emit({ type: "after_provider_response", status: response.status, headers: response.headers });
		};
		installProviderHooks(agent.streamOptions, this.runner);
		// Image and classifier requests (ctx.modelRegistry, codemode) get the same two events.
		this.toolHookOffs.push(
			session.modelRegistry.operations.setRequestHooks({
				onPayload: (payload) => this.runner.emitBeforeProviderRequest(payload),
				onResponse: (response) => {
					void this.runner.emit({
						type: "after_provider_response",
						status: response.status,
						headers: response.headers,
					});
				},
			}),
		);
		this.toolHookOffs.push(
			session.input.onAgentStart(async (input) => this.request.beforeAgentStart(input.text, input.images)),
		);
		this.toolHookOffs.push(session.setLifecycleHooks(createLifecycleHooks(this.runner, this.turns)));
		// cache_warming_decision: the last handler returning an action decides each refresh.
		const warmer = session.cacheWarming;
		if (warmer) this.toolHookOffs.push(warmer.setDecisionHook((event) => this.runner.emitCacheWarmingDecision(event)));
		this.toolHookOffs.push(session.setDeclarationShaper(createDeclarationShaper(session, this.runner)));
		this.toolHookOffs.push(
			useExtensionInput(session.input, {
				runner: this.runner,
				commandContext: () => this.createCommandContext(),
				waitForExtensionRuns: () => this.waitForExtensionRuns(),
			}),
		);
		this.unsubscribe = session.subscribe((event) => this.forward(event));
	}

	/** Session events → extension events (notify). */
	private async forward(event: AgentSessionEvent): Promise<void> {
		const r = this.runner;
		switch (event.type) {
			case "agent_start":
				this.turns.index = 0;
				return r.emit({ type: "agent_start" });
			case "agent_end":
				this.request.endRun();
				return r.emit({ type: "agent_end", messages: event.messages });
			case "turn_start":
				return r.emit({ type: "turn_start", turnIndex: this.turns.index, timestamp: Date.now() });
			case "turn_end":
				// The turn_end boundary itself ran before (the session's finishTurn seam); count the turn.
				this.turns.index++;
				return;
			case "message_start":
				return r.emit({ type: "message_start", message: event.message });
			case "message_update":
				return r.emit({
					type: "message_update",
					message: event.message,
					assistantMessageEvent: event.assistantMessageEvent,
				});
			// message_end runs as the session's messageEnd seam (a replacement is recorded), not here.
			case "tool_execution_start":
				return r.emit({
					type: "tool_execution_start",
					toolCallId: event.toolCallId,
					toolName: event.toolName,
					args: event.args,
					...parentOf(event),
				});
			case "tool_execution_update":
				return r.emit({
					type: "tool_execution_update",
					toolCallId: event.toolCallId,
					toolName: event.toolName,
					args: event.args,
					partialResult: event.partialResult,
					...parentOf(event),
				});
			case "tool_execution_end":
				return r.emit({
					type: "tool_execution_end",
					toolCallId: event.toolCallId,
					toolName: event.toolName,
					result: event.result,
					isError: event.isError,
					...parentOf(event),
				});
			case "compaction_end":
				if (event.result) return; // a stored compaction was announced as session_compact
				return r.emit({
					type: "session_compact_failed",
					reason: event.reason,
					...(event.errorMessage ? { errorMessage: event.errorMessage } : {}),
					aborted: event.aborted,
					willRetry: event.willRetry,
					fromExtension: false,
				});
			case "agent_settled":
				return r.emit({ type: "agent_settled", aborted: event.aborted });
			case "session_info_changed":
				return r.emit({ type: "session_info_changed", name: event.name });
			default:
				return;
		}
	}

	// -- tools -------------------------------------------------------------------------------

	private wrapTool(definition: AnyToolDefinition): AnyTool {
		return {
			name: definition.name,
			label: definition.label ?? definition.name,
			description: definition.description,
			parameters: definition.parameters,
			...(definition.executionMode ? { executionMode: definition.executionMode } : {}),
			...(definition.prepareArguments
				? {
						prepareArguments: (args: Record<string, unknown>) =>
							definition.prepareArguments?.(args) as Record<string, unknown>,
					}
				: {}),
			execute: (id, params, signal, onUpdate) =>
				definition.execute(id, params, signal, onUpdate, this.createToolContext(id, signal)) as Promise<
					AgentToolResult<unknown>
				>,
		};
	}

	/**
	 * Brings the session's tools in line with the registrations: new tools are
	 * added (active unless `defaultActive: false` or not directly exposed); a
	 * re-registered tool replaces the old one (tools cannot be unregistered —
	 * `exposure: "hidden"` withdraws one, so it is also deactivated).
	 */
	private refreshTools(): void {
		// A late tool replacing a built-in extension (codemode, tool_search): the built-in's tools leave, so
		// the replacement comes in as a new tool (active unless it says otherwise), as at load.
		const retired = this.runner.retireReplacedBuiltins().flatMap((ext) => [...ext.tools.keys()]);
		if (retired.length > 0) {
			for (const name of retired) this.registeredTools.delete(name);
			this.session.removeTools(retired);
		}
		const changed = this.runner.getTools().filter((t) => this.registeredTools.get(t.definition.name) !== t.definition);
		if (changed.length === 0) return;
		const activate: string[] = [];
		const withdraw = new Set<string>();
		for (const t of changed) {
			const isNew = !this.registeredTools.has(t.definition.name);
			this.registeredTools.set(t.definition.name, t.definition);
			const exposure = t.definition.exposure ?? "direct";
			const verdict = this.o.lateToolFilter?.(t.definition.name);
			if (exposure === "hidden") withdraw.add(t.definition.name);
			// Named exactly in --tools / defaultTools (`+codemode`): declared even when registered inactive.
			else if (isNew && verdict === "activate") activate.push(t.definition.name);
			else if (
				isNew &&
				t.definition.defaultActive !== false &&
				(exposure === "direct" || exposure === "model-only") &&
				verdict !== "registered"
			)
				activate.push(t.definition.name);
		}
		this.session.addTools(
			changed
				.filter((t) => this.o.lateToolFilter?.(t.definition.name) !== "excluded")
				.map((t) => this.wrapTool(t.definition)),
			activate,
		);
		if (withdraw.size > 0)
			this.session.setActiveToolsByName(this.session.getActiveToolNames().filter((n) => !withdraw.has(n)));
	}

	// -- contexts ----------------------------------------------------------------------------

	private contextDeps(): ExtensionContextDeps {
		return {
			session: this.session,
			runner: this.runner,
			mode: this.o.mode,
			hasUI: this.o.hasUI,
			projectTrusted: this.o.projectTrusted,
			ui: () => withPromptEvents(this.ui, this.runner, this.promptSpan),
			onShutdownRequest: this.o.onShutdownRequest,
			onSessionReplaced: this.o.onSessionReplaced,
			waitForIdle: () => this.waitForIdle(),
			systemPrompt: () => this.request.systemPrompt(),
			reload: this.o.onReloadRequest,
			replacedContext: () => (this.o.currentBridge?.() ?? this).createReplacedSessionContext(),
		};
	}

	createContext(): ExtensionContext {
		return createExtensionContext(this.contextDeps());
	}

	private createToolContext(toolCallId: string, signal: AbortSignal | undefined) {
		return createToolContext(this.contextDeps(), toolCallId, signal);
	}

	createCommandContext(): ExtensionCommandContext {
		return createCommandContext(this.contextDeps());
	}

	/** withSession's ctx: a command ctx whose senders resolve when the run they start has ended. */
	createReplacedSessionContext(): ReplacedSessionContext {
		const senders = createMessageSenders({
			session: this.session,
			request: this.request,
			submit: (text, options) => this.submit(text, options),
		});
		return Object.assign(this.createCommandContext(), {
			sendMessage: async (message: CustomMessageInput, options: SendMessageOptions = {}) => {
				await senders.sendMessage(message, options);
			},
			sendUserMessage: async (
				content: string | (TextContent | ImageContent)[],
				options: SendUserMessageOptions = {},
			) => {
				await senders.sendUserMessage(content, options);
			},
		}) as ReplacedSessionContext;
	}

	// -- pi.* actions --------------------------------------------------------------------------

	private track(run: Promise<void>): void {
		const p = run.catch((error: unknown) =>
			this.runner.emitError({
				extensionPath: "<extension>",
				event: "run",
				error: error instanceof Error ? error.message : String(error),
			}),
		);
		this.started.add(p);
		void p.finally(() => this.started.delete(p));
	}

	private host() {
		return createExtensionHost({
			session: this.session,
			runner: this.runner,
			request: this.request,
			track: (run) => this.track(run),
			submit: (text, options) => this.submit(text, options),
			refreshTools: () => this.refreshTools(),
			listCommands: () => this.listCommands(),
			getOtherCommands: this.o.getOtherCommands,
			pendingKeys: this.pendingKeys,
		});
	}
}
