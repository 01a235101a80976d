// The extension bridge: plugs an ExtensionRunner into one AgentSession.
//   - carries out `pi.*` actions on the session (it is the runtime's host);
//   - builds `ctx` for handlers, tools and commands;
//   - turns agent-core hooks and session events into extension events:
//       tool_call/tool_result  through the session's ToolHooks (first block wins / chained patches)
//       context, context_with_system, forced system prompt  through the Agent's transformContext,
//         so they change the request only, never the session file
//       before_provider_request / after_provider_response  through the stream options
//       before_agent_start  through AgentSession.beforeAgentStart
//       every session event  forwarded with notify semantics;
//   - runs the extension stages of the input path (extension command, then
//     the `input` event) before a prompt reaches the session.
import type { AgentMessage, AgentTool, AgentToolResult } from "@pi/agent-core";
import {
	type AssistantMessage,
	complete,
	type ImageContent,
	type Message,
	type Model,
	replaySystemState,
} from "@pi/ai";
import { resolveConfigValue } from "../config/config-value.js";
import type { ExtensionHost } from "../extensions/extension.js";
import type { ExtensionRunner } from "../extensions/runner.js";
import type {
	AnyToolDefinition,
	CustomMessageInput,
	ExtensionCommandContext,
	ExtensionContext,
	ExtensionMode,
	ExtensionToolContext,
	InputSource,
	ProviderConfig,
	SendMessageOptions,
	SendUserMessageOptions,
	SlashCommandInfo,
	ToolInfo,
	ToolResultEvent,
} from "../extensions/types.js";
import type { ExtensionUIContext } from "../extensions/ui-types.js";
import type { CustomMessage } from "../messages.js";
import type { AgentSession } from "./agent-session.js";
import type { AgentSessionEvent } from "./events.js";

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
	/**
	 * --tools / --exclude-tools over tools registered after start-up (MCP):
	 * "excluded" tools never reach the session; "registered" ones are callable
	 * (codemode) but never activated by registration; undefined: as registered.
	 */
	lateToolFilter?: (name: string) => "excluded" | "registered" | undefined;
	/** Extra commands listed by `pi.getCommands()` (prompt templates, skills). */
	getOtherCommands?: () => SlashCommandInfo[];
}

export interface SubmitOptions {
	images?: ImageContent[];
	source?: InputSource;
	streamingBehavior?: "steer" | "followUp";
	/** Check for an extension command first (typed and RPC prompts always; sendUserMessage only on request). */
	commands?: boolean;
	/** Wait for runs extensions started meanwhile (default true; false inside such a run, which would wait for itself). */
	waitForExtensionRuns?: boolean;
}

function textOfContent(content: string | { type: string; text?: string }[]): string {
	if (typeof content === "string") return content;
	return content
		.filter((c) => c.type === "text")
		.map((c) => c.text ?? "")
		.join("\n");
}

function customMessage(input: CustomMessageInput): CustomMessage {
	return {
		role: "custom",
		customType: input.customType,
		content: input.content,
		display: input.display,
		...(input.details !== undefined ? { details: input.details } : {}),
		timestamp: Date.now(),
	};
}

export class ExtensionBridge {
	private readonly session: AgentSession;
	private readonly runner: ExtensionRunner;
	/** Runs started by extensions (sendUserMessage, triggerTurn); print mode waits for them. */
	private readonly started = new Set<Promise<void>>();
	/** `deliverAs: "nextTurn"` messages, sent with the next prompt. */
	private nextTurn: CustomMessage[] = [];
	/** The system prompt a before_agent_start handler forced on the current run. */
	private forcedSystemPrompt: string | undefined;
	private readonly pendingKeys: Promise<void>[] = [];
	private unsubscribe: (() => void) | undefined;
	private toolHookOffs: (() => void)[] = [];
	/** The definition each tool name was last added to the session with. */
	private registeredTools = new Map<string, AnyToolDefinition>();

	private ui: ExtensionUIContext;

	constructor(private readonly o: ExtensionBridgeOptions) {
		this.session = o.session;
		this.runner = o.runner;
		this.ui = o.ui;
	}

	/** Replaces `ctx.ui` (rpc mode binds its protocol UI once the server exists). */
	setUI(ui: ExtensionUIContext): void {
		this.ui = ui;
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
	async start(reason: "startup" | "reload" | "new" | "resume" | "fork" = "startup"): Promise<void> {
		this.runner.setContextFactory(() => this.createContext());
		this.runner.runtime.bind(this.host());
		await Promise.all(this.pendingKeys.splice(0));
		this.refreshTools();
		this.wireHooks();
		await this.runner.emit({ type: "session_start", reason });
		await this.runner.emitResourcesDiscover({
			type: "resources_discover",
			cwd: this.session.cwd,
			reason: reason === "reload" ? "reload" : "startup",
		});
	}

	/** Emits session_shutdown and detaches from the session. */
	async shutdown(reason: "quit" | "reload" | "new" | "resume" | "fork" = "quit"): Promise<void> {
		await this.runner.emit({ type: "session_shutdown", reason });
		this.unsubscribe?.();
		for (const off of this.toolHookOffs) off();
		this.runner.runtime.invalidate("This extension instance was shut down; its pi object can no longer be used.");
	}

	/** Waits until every run an extension started has settled. */
	async waitForIdle(): Promise<void> {
		while (this.started.size > 0) await Promise.allSettled([...this.started]);
		await this.session.agent.waitForIdle();
	}

	// -- the input path ------------------------------------------------------------------

	/**
	 * A prompt as the user (or an extension) submitted it: an extension
	 * command runs its handler; otherwise `input` handlers may transform or
	 * handle it; what is left goes to the session (skills and templates are
	 * expanded by the resource stages that follow, then before_agent_start).
	 */
	async submit(text: string, options: SubmitOptions = {}): Promise<void> {
		if (options.commands !== false && text.startsWith("/")) {
			const space = text.indexOf(" ");
			const name = space === -1 ? text.slice(1) : text.slice(1, space);
			const command = this.runner.getCommand(name);
			if (command) {
				const args = space === -1 ? "" : text.slice(space + 1).trim();
				try {
					await command.handler(args, this.createCommandContext());
				} catch (error) {
					this.runner.emitError({
						extensionPath: command.extensionPath,
						event: `command:/${command.invocationName}`,
						error: error instanceof Error ? error.message : String(error),
						stack: error instanceof Error ? error.stack : undefined,
					});
				}
				if (options.waitForExtensionRuns !== false) await this.waitForIdle();
				return;
			}
		}
		const input = await this.runner.emitInput(
			text,
			options.images,
			options.source ?? "interactive",
			this.session.isStreaming ? options.streamingBehavior : undefined,
		);
		if (input.action === "handled") return;
		await this.session.prompt(input.text, { images: input.images, streamingBehavior: options.streamingBehavior });
		if (options.waitForExtensionRuns !== false) await this.waitForIdle();
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
					input: (context.args ?? {}) as Record<string, unknown>,
					content: context.result.content,
					details: context.result.details,
					isError: context.isError,
				} as ToolResultEvent;
				const patch = await this.runner.emitToolResult(event);
				if (!patch) return undefined;
				return { content: patch.content, details: patch.details, isError: patch.isError };
			}),
		);

		agent.transformContext = async (messages) => this.transformRequest(messages);
		agent.onPayload = (payload) => this.runner.emitBeforeProviderRequest(payload);
		agent.onResponse = (response) => {
			void this.runner.emit({ type: "after_provider_response", status: response.status, headers: response.headers });
		};
		this.toolHookOffs.push(
			session.input.onAgentStart(async (input) => this.beforeAgentStart(input.text, input.images)),
		);
		this.unsubscribe = session.subscribe((event) => this.forward(event));
	}

	/** context → prompt/tools put back → context_with_system → a forced system prompt. Never touches the session. */
	private async transformRequest(messages: AgentMessage[]): Promise<AgentMessage[]> {
		let out = messages;
		if (this.runner.hasHandlers("context")) {
			const system = out.filter((m) => m.role === "system");
			const rest = out.filter((m) => m.role !== "system");
			const changed = await this.runner.emitContext("context", rest);
			if (changed !== rest) {
				// The prompt and tool state belong to pi: replay them into one head ahead of the returned list.
				const state = replaySystemState(system as Message[]);
				const head = { role: "system" as const, content: state.systemPrompt, toolsAdded: state.tools, timestamp: 0 };
				out = [...(system.length > 0 ? [head] : []), ...changed];
			}
		}
		if (this.runner.hasHandlers("context_with_system")) out = await this.runner.emitContext("context_with_system", out);
		if (this.forcedSystemPrompt !== undefined) {
			const state = replaySystemState(out.filter((m) => m.role === "system") as Message[]);
			const head = { role: "system" as const, content: this.forcedSystemPrompt, toolsAdded: state.tools, timestamp: 0 };
			out = [head, ...out.filter((m) => m.role !== "system")];
		}
		return out;
	}

	private async beforeAgentStart(text: string, images: ImageContent[] | undefined): Promise<AgentMessage[]> {
		this.forcedSystemPrompt = undefined;
		const injected: AgentMessage[] = this.nextTurn.splice(0);
		if (!this.runner.hasHandlers("before_agent_start")) return injected;
		const systemPrompt = this.currentSystemPrompt();
		const outcome = await this.runner.emitBeforeAgentStart(
			{
				type: "before_agent_start",
				messageType: "user",
				prompt: text,
				...(images && images.length > 0 ? { images } : {}),
				systemPromptOptions: {
					selectedTools: this.session.getActiveToolNames(),
					cwd: this.session.cwd,
					contextFiles: [],
					skills: [],
				},
			},
			systemPrompt,
		);
		if (outcome.systemPrompt !== undefined) this.forcedSystemPrompt = outcome.systemPrompt;
		for (const m of outcome.messages) injected.push(customMessage(m));
		return injected;
	}

	private currentSystemPrompt(): string {
		return replaySystemState(this.session.sessionManager.buildSessionContext().messages as Message[]).systemPrompt;
	}

	/** Session events → extension events (notify). */
	private async forward(event: AgentSessionEvent): Promise<void> {
		const r = this.runner;
		switch (event.type) {
			case "agent_start":
				return r.emit({ type: "agent_start" });
			case "agent_end":
				this.forcedSystemPrompt = undefined;
				return r.emit({ type: "agent_end", messages: event.messages });
			case "turn_start":
				return r.emit({ type: "turn_start", turnIndex: 0, timestamp: Date.now() });
			case "message_start":
				return r.emit({ type: "message_start", message: event.message });
			case "message_update":
				return r.emit({
					type: "message_update",
					message: event.message,
					assistantMessageEvent: event.assistantMessageEvent,
				});
			case "message_end":
				return r.emit({ type: "message_end", message: event.message } as never);
			case "tool_execution_start":
				return r.emit({
					type: "tool_execution_start",
					toolCallId: event.toolCallId,
					toolName: event.toolName,
					args: event.args,
				});
			case "tool_execution_update":
				return r.emit({
					type: "tool_execution_update",
					toolCallId: event.toolCallId,
					toolName: event.toolName,
					args: event.args,
					partialResult: event.partialResult,
				});
			case "tool_execution_end":
				return r.emit({
					type: "tool_execution_end",
					toolCallId: event.toolCallId,
					toolName: event.toolName,
					result: event.result,
					isError: event.isError,
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
				definition.execute(id, params, signal, onUpdate, this.createToolContext()) as Promise<AgentToolResult<unknown>>,
		};
	}

	/**
	 * Brings the session's tools in line with the registrations: new tools are
	 * added (active unless `defaultActive: false` or not directly exposed); a
	 * re-registered tool replaces the old one (tools cannot be unregistered —
	 * `exposure: "hidden"` withdraws one, so it is also deactivated).
	 */
	private refreshTools(): void {
		const changed = this.runner.getTools().filter((t) => this.registeredTools.get(t.definition.name) !== t.definition);
		if (changed.length === 0) return;
		const activate: string[] = [];
		const withdraw = new Set<string>();
		for (const t of changed) {
			const isNew = !this.registeredTools.has(t.definition.name);
			this.registeredTools.set(t.definition.name, t.definition);
			const exposure = t.definition.exposure ?? "direct";
			if (exposure === "hidden") withdraw.add(t.definition.name);
			else if (
				isNew &&
				t.definition.defaultActive !== false &&
				(exposure === "direct" || exposure === "model-only") &&
				this.o.lateToolFilter?.(t.definition.name) !== "registered"
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

	createContext(): ExtensionContext {
		const session = this.session;
		const registry = session.modelRegistry;
		return {
			ui: this.ui,
			mode: this.o.mode,
			hasUI: this.o.hasUI,
			cwd: session.cwd,
			sessionManager: session.sessionManager,
			modelRegistry: {
				getAll: () => registry.getAll(),
				getAvailable: () => registry.getAvailable(),
				find: (provider, id) => registry.find(provider, id),
				hasAuth: (model) => registry.hasAuth(model),
				getApiKey: (model) => registry.getApiKey(model),
				complete: async (model, context, options) =>
					complete(model, context, {
						...options,
						apiKey: await registry.getApiKey(model),
					}) as Promise<AssistantMessage>,
			},
			get model() {
				return session.model;
			},
			scopedModels: session.getScopedModels(),
			get thinkingLevel() {
				return session.thinkingLevel;
			},
			isIdle: () => !session.isStreaming,
			isProjectTrusted: () => this.o.projectTrusted,
			get signal() {
				return session.agent.signal;
			},
			abort: () => void session.abort(),
			hasPendingMessages: () => {
				const q = session.agent.getQueuedMessages();
				return q.steering.length + q.followUp.length > 0;
			},
			shutdown: () => this.o.onShutdownRequest?.(),
			getContextUsage: () => session.getContextUsage() as ReturnType<ExtensionContext["getContextUsage"]>,
			compact: (options) => {
				session.compact(options?.customInstructions).then(
					(result) => options?.onComplete?.(result),
					(error: unknown) => options?.onError?.(error instanceof Error ? error : new Error(String(error))),
				);
			},
			getSystemPrompt: () => this.forcedSystemPrompt ?? this.currentSystemPrompt(),
		};
	}

	private createToolContext(): ExtensionToolContext {
		return Object.assign(this.createContext(), { tools: this.session.getAllTools().map((t) => ({ name: t.name })) });
	}

	createCommandContext(): ExtensionCommandContext {
		const session = this.session;
		const unsupported = (what: string) => () =>
			Promise.reject(new Error(`ctx.${what}() is not available in ${this.o.mode} mode yet`));
		return Object.assign(this.createContext(), {
			waitForIdle: () => this.waitForIdle(),
			newSession: async (options?: { parentSession?: string }) => {
				const cancel = await this.runner.emitCancellable({ type: "session_before_switch", reason: "new" });
				if (cancel?.cancel) return { cancelled: true };
				await session.newSession({ parentSession: options?.parentSession });
				return { cancelled: false };
			},
			fork: async (entryId: string, options?: { position?: "before" | "at" }) => {
				const position = options?.position ?? "before";
				const cancel = await this.runner.emitCancellable({ type: "session_before_fork", entryId, position });
				if (cancel?.cancel) return { cancelled: true };
				if (position === "at") await session.clone();
				else await session.fork(entryId);
				return { cancelled: false };
			},
			navigateTree: async (targetId: string, options?: Parameters<AgentSession["navigateTree"]>[1]) => {
				const result = await session.navigateTree(targetId, options);
				return { cancelled: result.cancelled };
			},
			switchSession: async (sessionPath: string) => {
				const cancel = await this.runner.emitCancellable({
					type: "session_before_switch",
					reason: "resume",
					targetSessionFile: sessionPath,
				});
				if (cancel?.cancel) return { cancelled: true };
				await session.switchSession(sessionPath);
				return { cancelled: false };
			},
			reload: unsupported("reload"),
		}) as ExtensionCommandContext;
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

	private host(): ExtensionHost {
		const session = this.session;
		const registry = session.modelRegistry;
		return {
			sendMessage: (input: CustomMessageInput, options: SendMessageOptions) => {
				const message = customMessage(input);
				const deliverAs = options.deliverAs ?? "steer";
				if (deliverAs === "nextTurn") {
					this.nextTurn.push(message);
					return;
				}
				if (session.isStreaming) {
					if (options.triggerTurn === false)
						this.track(session.agent.waitForIdle().then(() => session.appendMessage(message)));
					else if (deliverAs === "followUp") session.agent.followUp(message);
					else session.agent.steer(message);
					return;
				}
				if (options.triggerTurn) this.track(session.promptMessages([message]));
				else session.appendMessage(message);
			},
			sendUserMessage: (content, options: SendUserMessageOptions) => {
				const text = textOfContent(content as string | { type: string; text?: string }[]);
				const images =
					typeof content === "string" ? undefined : (content.filter((c) => c.type === "image") as ImageContent[]);
				if (session.isStreaming) {
					if (!options.deliverAs)
						throw new Error('pi.sendUserMessage() while a run is active needs deliverAs: "steer" or "followUp"');
					this.track(session.prompt(text, { images, streamingBehavior: options.deliverAs }));
					return;
				}
				this.track(
					this.submit(text, {
						images,
						source: "extension",
						commands: options.expandPromptTemplates === true,
						waitForExtensionRuns: false,
					}),
				);
			},
			appendEntry: (customType, data) => {
				session.sessionManager.appendCustomEntry(customType, data);
			},
			setSessionName: (name) => session.setSessionName(name),
			getSessionName: () => session.sessionManager.getSessionName(),
			setLabel: (entryId, label) => {
				session.sessionManager.appendLabelChange(entryId, label);
			},
			getActiveTools: () => session.getActiveToolNames(),
			getAllTools: () => {
				const fromExtensions = new Map(this.runner.getTools().map((t) => [t.definition.name, t]));
				return session.getAllTools().map((tool): ToolInfo => {
					const ext = fromExtensions.get(tool.name);
					return {
						name: tool.name,
						description: tool.description,
						parameters: tool.parameters,
						...(ext?.definition.promptGuidelines ? { promptGuidelines: ext.definition.promptGuidelines } : {}),
						exposure: ext?.definition.exposure ?? "direct",
						...(ext?.definition.namespace ? { namespace: ext.definition.namespace } : {}),
						...(ext?.definition.annotations ? { annotations: ext.definition.annotations } : {}),
						...(ext?.definition.reachesTools ? { reachesTools: ext.definition.reachesTools } : {}),
						sourceInfo: ext?.sourceInfo ?? {
							path: `builtin:${tool.name}`,
							source: "builtin",
							scope: "temporary",
							origin: "top-level",
						},
					};
				});
			},
			setActiveTools: (names) => {
				const hidden = new Set(
					this.runner
						.getTools()
						.filter((t) => t.definition.exposure === "hidden")
						.map((t) => t.definition.name),
				);
				session.setActiveToolsByName(names.filter((n) => !hidden.has(n)));
			},
			refreshTools: () => this.refreshTools(),
			getCommands: () => [...this.listCommands(), ...(this.o.getOtherCommands?.() ?? [])],
			getSettings: () => structuredClone(session.settings.getSettings()) as Record<string, unknown>,
			setModel: async (model: Model) => {
				if (!registry.hasAuth(model)) return false;
				session.setModel(model);
				return true;
			},
			getThinkingLevel: () => session.thinkingLevel,
			setThinkingLevel: (level) => {
				session.setThinkingLevel(level);
			},
			registerProvider: (name, config) => this.registerProvider(name, config),
			unregisterProvider: (name) => {
				registry.unregisterProvider(name);
				registry.auth.removeRuntimeApiKey(name);
			},
		};
	}

	private registerProvider(name: string, config: ProviderConfig): void {
		const registry = this.session.modelRegistry;
		if (config.apiKey) {
			const label = `the apiKey of provider "${name}" (pi.registerProvider)`;
			const pending = resolveConfigValue(config.apiKey, { label }).then(
				(key) => registry.auth.setRuntimeApiKey(name, key),
				(error: unknown) =>
					this.runner.emitError({
						extensionPath: "<registerProvider>",
						event: "registerProvider",
						error: String(error),
					}),
			);
			this.pendingKeys.push(pending);
		}
		const existing = registry.getAll().filter((m) => m.provider === name);
		const models: Model[] = config.models
			? config.models.map((m) => ({
					id: m.id,
					name: m.name,
					api: (m.api ?? config.api ?? "openai-completions") as Model["api"],
					provider: name,
					baseUrl: m.baseUrl ?? config.baseUrl ?? "",
					reasoning: m.reasoning ?? false,
					input: m.input,
					cost: m.cost,
					contextWindow: m.contextWindow ?? 128_000,
					maxTokens: m.maxTokens ?? 16_384,
					...(m.headers || config.headers ? { headers: { ...config.headers, ...m.headers } } : {}),
					...(m.compat ? { compat: m.compat as Model["compat"] } : {}),
				}))
			: existing.map((m) => ({
					...m,
					...(config.baseUrl ? { baseUrl: config.baseUrl } : {}),
					...(config.headers ? { headers: { ...m.headers, ...config.headers } } : {}),
				}));
		if (config.models) registry.unregisterProvider(name);
		for (const model of models) registry.registerModel(model);
	}
}
