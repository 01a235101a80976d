// AgentSession coordinates one conversation. It does not run the loop: the
// agent-core Agent does. The session plugs product rules into the Agent's
// hooks and events:
//   - prepareRequest: every request's context is projected afresh from the
//     session tree (the only source of truth; the Agent's transcript is a cache);
//   - message_end: each message is appended to the session (durably) before
//     any listener of the session hears of it;
//   - beforeToolCall/afterToolCall: the seams extensions use (ToolHooks).
// Collaborators: ModelRuntime (model, level, keys), PromptRecorder (system
// prompt + tools as session history), session-stats. Compaction and retry
// will plug in through `runHooks` and the declared events.
import type { Agent, AgentEvent, AgentMessage, AgentTool, AgentTurnContext, AgentTurnDecision } from "@pi/agent-core";
import { type ImageContent, type Model, sumUsage, type ThinkingLevel, type UserMessage } from "@pi/ai";
import type { ScopedModel } from "../config/model-resolver.js";
import type { SettingsManager } from "../config/settings.js";
import type { AgentActivityOutcome, SessionBoundaryDraft } from "../extensions/events.js";
import type { SessionLifecycleHooks } from "../extensions/session-hooks.js";
import { ToolHooks } from "../extensions/tool-hooks.js";
import { InputPipeline } from "../input/pipeline.js";
import type { InputSource, PromptInput } from "../input/types.js";
import type { SessionManager } from "../session/session-manager.js";
import type { BashResult } from "../tools/bash.js";
import type { Timers } from "./backoff/timers.js";
import { commitDrafts, previewBoundary, validateDrafts } from "./boundary.js";
import type { Compactor } from "./compaction/compactor.js";
import { type NavigateTreeOptions, type NavigateTreeResult, navigateTree } from "./compaction/navigate-tree.js";
import type { CompactionResult } from "./compaction/summarize.js";
import type { AgentSessionEvent, AgentSessionListener } from "./events.js";
import { SessionListeners } from "./listeners.js";
import type { ModelCycleResult, ModelRuntime } from "./model-runtime.js";
import { type ExecuteToolOptions, type NestedToolOutcome, NestedToolRunner } from "./nested-tools.js";
import type { PromptRecorder } from "./prompt-recorder.js";
import { messageText, QueueReport } from "./queue-report.js";
import { createRecovery } from "./recovery/create-recovery.js";
import type { RunRecovery } from "./recovery/recovery.js";
import { type ContextUsage, computeStats, type SessionStats } from "./session-stats.js";
import {
	type ForkableMessage,
	gatedClone,
	gatedFork,
	gatedNewSession,
	gatedSwitch,
	getForkMessages,
	type SessionSwitchHost,
	type SwitchObserver,
} from "./session-switch.js";
import { TranscriptSync } from "./transcript.js";
import { UserBash, type UserBashOptions } from "./user-bash.js";

/** Agent events that announce no session entry: they may pass while a prompt's appends wait for their one sync. */
const ANNOUNCES_NO_ENTRY: ReadonlySet<string> = new Set([
	"agent_start",
	"turn_start",
	"message_start",
	"message_update",
]);

// biome-ignore lint/suspicious/noExplicitAny: tools of any schema live side by side
type AnyTool = AgentTool<any>;

export interface PromptOptions {
	images?: ImageContent[];
	/** Required while a run is active: queue as a steering message or as a follow-up. */
	streamingBehavior?: "steer" | "followUp";
	/** Where the prompt came from (the `input` event's source). Default "interactive". */
	source?: InputSource;
	/**
	 * false: `/name` is not a command (extension command, skill, template); the
	 * text is sent as typed after the `input` event. Default true.
	 */
	expandPromptTemplates?: boolean;
}

export class AgentSessionBusyError extends Error {
	constructor() {
		super(
			'A run is in progress. Pass streamingBehavior "steer" or "followUp" to queue this message, or wait for the run to end.',
		);
		this.name = "AgentSessionBusyError";
	}
}

export interface AgentSessionOptions {
	agent: Agent;
	sessionManager: SessionManager;
	settings: SettingsManager;
	models: ModelRuntime;
	prompt: PromptRecorder;
	/** Every tool the session may use, by name (built-in, custom, extension). */
	tools: AnyTool[];
	/** Names of the tools active at the start. */
	activeToolNames: string[];
	cwd: string;
	/** Timers for retry backoff (tests); default the real ones. */
	timers?: Timers;
}

export class AgentSession {
	readonly agent: Agent;
	readonly sessionManager: SessionManager;
	readonly settings: SettingsManager;
	readonly toolHooks = new ToolHooks();
	private _cwd: string;
	private switchObserver: SwitchObserver | undefined;
	private readonly models: ModelRuntime;
	private readonly promptRecorder: PromptRecorder;
	private readonly allTools: Map<string, AnyTool>;
	private activeTools: AnyTool[] = [];
	/** Shapes the declared tools from the active ones (the extension bridge installs `prepareLoadout` here). */
	private declarationShaper: ((active: readonly AnyTool[]) => AnyTool[]) | undefined;
	private readonly listeners = new SessionListeners();
	private unsubscribeAgent: () => void;
	private persistenceError: Error | undefined;
	/** Open while a prompt's first entries are appended (see `deferSync`). */
	private releaseDeferredSync: (() => void) | undefined;
	private readonly queue: QueueReport;
	/** Keeps the Agent's message cache in step with the session projection. */
	private readonly transcript: TranscriptSync;
	/** Compaction and tree hooks (the extension runner installs them); none by default. */
	private lifecycleHooks: SessionLifecycleHooks = {};
	/** Compaction (threshold, overflow, manual) and branch summaries. */
	readonly compactor: Compactor;
	/** Post-run recovery: auto-retry, overflow compaction, queued messages, `agent_settled`. */
	readonly recovery: RunRecovery;
	/** Commands the user runs directly (`!cmd`, RPC bash). */
	private readonly userBash: UserBash;
	/** The prompt path: commands, `input` event, skills, templates, `before_agent_start` (src/input/). */
	readonly input = new InputPipeline();
	/** A prompt is on its way through the input pipeline to the run. */
	private starting = false;
	/** Session entry of each recorded message (turn_end names the entries of its turn). */
	private readonly entryIds = new WeakMap<object, string>();
	/** How the last low-level turn ended (agent_before_settle reports it). */
	private lastOutcome: AgentActivityOutcome = "completed";
	/** Tools calling tools (`ctx.executeTool`); their records become `nestedCalls` on the caller's result. */
	private readonly nestedTools = new NestedToolRunner({
		getTools: () => this.getAllTools(),
		toolHooks: this.toolHooks,
		lastAssistant: () => {
			const messages = this.agent.state.messages;
			for (let i = messages.length - 1; i >= 0; i--) {
				const m = messages[i];
				if (m.role === "assistant") return m;
			}
			return undefined;
		},
		emit: (event) => this.emit(event),
	});

	constructor(o: AgentSessionOptions) {
		this.agent = o.agent;
		this.sessionManager = o.sessionManager;
		this.settings = o.settings;
		this.models = o.models;
		this.promptRecorder = o.prompt;
		this._cwd = o.cwd;
		this.allTools = new Map(o.tools.map((t) => [t.name, t]));
		this.setActiveToolsByName(o.activeToolNames);

		this.transcript = new TranscriptSync(this.agent, this.sessionManager);
		this.queue = new QueueReport(this.agent, (event) => this.emit(event));
		this.agent.prepareRequest = async () => ({ context: this.projectContext() });
		this.agent.beforeToolCall = this.toolHooks.runBefore;
		this.agent.afterToolCall = this.toolHooks.runAfter;
		const recovery = createRecovery({
			agent: this.agent,
			sessionManager: this.sessionManager,
			settings: this.settings,
			getModel: () => this.models.model,
			getThinkingLevel: () => this.models.thinkingLevel,
			emit: (event) => this.emit(event),
			timers: o.timers,
			getHooks: () => this.lifecycleHooks,
			transcript: this.transcript,
			beforeSettle: (aborted) => this.beforeSettle(aborted),
			getDirectStreamFn: () => this.models.directStreamFn,
		});
		this.compactor = recovery.compactor;
		this.recovery = recovery.recovery;
		this.agent.prepareNextTurn = this.recovery.prepareNextTurn;
		this.agent.finishTurn = (turn) => this.finishTurn(turn);
		const session = this;
		this.userBash = new UserBash({
			agent: this.agent,
			sessionManager: this.sessionManager,
			get cwd() {
				return session.cwd;
			},
			shellPath: this.settings.getShellPath(),
			isStreaming: () => this.isStreaming,
		});
		this.unsubscribeAgent = this.agent.subscribe((event) => this.onAgentEvent(event));
		// The Agent's transcript mirrors the active branch (a cache for UIs and stats).
		this.transcript.refresh();
	}

	/** The folder tools, `!` commands and the system prompt work in (moveTo changes it). */
	get cwd(): string {
		return this._cwd;
	}

	// -- events ------------------------------------------------------------------

	/** Adds a listener; returns the function that removes it. Listeners are awaited in order (listeners.ts). */
	subscribe(listener: AgentSessionListener): () => void {
		return this.listeners.add(listener);
	}

	protected emit(event: AgentSessionEvent): Promise<void> {
		// Entries appended under the prompt's deferSync are synced before any event that could announce one.
		if (this.releaseDeferredSync && !ANNOUNCES_NO_ENTRY.has(event.type)) this.syncDeferred();
		return this.listeners.emit(event);
	}

	/**
	 * Opens the prompt's sync hold: the system prompt, entries extensions append
	 * before the run and the first message are written as they come and
	 * fdatasync'ed once, when that message is recorded (or before any other event).
	 */
	private deferSync(): void {
		this.syncDeferred();
		this.releaseDeferredSync = this.sessionManager.deferSync();
	}

	/** Closes the hold: one fdatasync for what was appended under it (throws SessionWriteError). */
	private syncDeferred(): void {
		const release = this.releaseDeferredSync;
		this.releaseDeferredSync = undefined;
		release?.();
	}

	private async onAgentEvent(event: AgentEvent): Promise<void> {
		if (event.type === "message_end") {
			if (event.message.role === "toolResult") {
				// Calls this tool made to other tools are recorded on its result (never their results).
				const nested = this.nestedTools.take(event.message.toolCallId);
				if (nested) Object.assign(event.message, { nestedCalls: nested });
				const nestedUsage = this.nestedTools.takeUsage(event.message.toolCallId);
				if (nestedUsage) event.message.usage = sumUsage(event.message.usage, nestedUsage);
			}
			const original = event.message;
			const message = (await this.lifecycleHooks.messageEnd?.(original)) ?? original;
			try {
				const id = this.sessionManager.appendMessage(message as Parameters<SessionManager["appendMessage"]>[0]);
				this.syncDeferred();
				this.entryIds.set(original, id);
				this.entryIds.set(message, id);
			} catch (error) {
				// Nothing may be announced that is not recorded: stop the run, and say why first, so
				// json/rpc clients see the cause (file, errno) and not only an aborted run.
				if (!this.persistenceError) {
					this.persistenceError = error as Error;
					await this.emit(sessionWriteFailed(error, this.sessionManager.getSessionFile()));
				}
				this.agent.abort();
				return;
			}
			if (message !== original) {
				// The recorded message is the replacement: the Agent's copy follows, listeners hear of it.
				this.transcript.refresh();
				event = { ...event, message };
			}
		}
		if (event.type === "message_end" && event.message.role === "assistant") {
			const stop = (event.message as { stopReason?: string }).stopReason;
			this.lastOutcome = stop === "aborted" ? "aborted" : stop === "error" ? "error" : "completed";
		}
		await this.emit(event);
		if (event.type === "message_end" && event.message.role === "assistant")
			await this.recovery.onReplyEnd(event.message);
		if (event.type === "message_start" && event.message.role === "user") await this.queue.emitIfChanged();
	}

	// -- context -----------------------------------------------------------------

	/** The model context of the active branch, projected from the session tree (the Agent's copy follows). */
	private projectContext() {
		return { systemPrompt: "", messages: this.transcript.project(), tools: this.getDeclaredTools() };
	}

	// -- boundaries (turn_end, agent_before_settle) ---------------------------------

	private pendingMessages(): AgentMessage[] {
		const q = this.agent.getQueuedMessages();
		return [...q.steering, ...q.followUp] as AgentMessage[];
	}

	private preview = (entries: SessionBoundaryDraft[]) =>
		previewBoundary(this.sessionManager, entries, this.pendingMessages());

	/** Validates and appends a boundary's drafts; returns false when the proposal was rejected. */
	private commitBoundary(event: string, entries: SessionBoundaryDraft[]): boolean {
		if (entries.length === 0) return true;
		const problem = validateDrafts(this.sessionManager, entries);
		if (problem) {
			this.lifecycleHooks.reportError?.(event, `rejected the proposed entries: ${problem}`);
			return false;
		}
		commitDrafts(this.sessionManager, entries);
		this.transcript.refresh();
		return true;
	}

	/** agent-core's finishTurn: the `turn_end` boundary, after the turn's messages are recorded. */
	private async finishTurn(turn: AgentTurnContext): Promise<AgentTurnDecision | undefined> {
		const hook = this.lifecycleHooks.turnEnd;
		if (!hook) return undefined;
		const messageEntryId = this.entryIds.get(turn.message);
		if (!messageEntryId) return undefined;
		const stop = turn.message.stopReason;
		const decision = await hook(
			{
				message: turn.message,
				toolResults: turn.toolResults,
				messageEntryId,
				toolResultEntryIds: turn.toolResults.flatMap((r) => this.entryIds.get(r) ?? []),
				outcome: stop === "aborted" ? "aborted" : stop === "error" ? "error" : "completed",
			},
			{ entries: [], continue: false },
			this.preview,
		);
		const committed = this.commitBoundary("turn_end", decision.entries);
		// Error and aborted responses end the run whatever was asked; a continuation needs something to answer.
		if (!committed || !decision.continue || stop === "error" || stop === "aborted") return undefined;
		if (!this.preview([]).canContinue) {
			this.lifecycleHooks.reportError?.("turn_end", "asked to continue, but the context ends with an answer");
			return undefined;
		}
		return { action: "continue" };
	}

	/** The `agent_before_settle` boundary; true when one more run was asked for and can start. */
	private async beforeSettle(aborted: boolean): Promise<boolean> {
		const hook = this.lifecycleHooks.beforeSettle;
		if (!hook || aborted) return false;
		const decision = await hook(this.lastOutcome, { entries: [], continue: false }, this.preview);
		const committed = this.commitBoundary("agent_before_settle", decision.entries);
		if (!committed || !decision.continue) return false;
		if (!this.preview([]).canContinue) {
			this.lifecycleHooks.reportError?.(
				"agent_before_settle",
				"asked to continue, but the context ends with an answer",
			);
			return false;
		}
		return true;
	}

	// -- prompting ---------------------------------------------------------------

	get isStreaming(): boolean {
		return this.starting || this.agent.state.isStreaming || this.recovery.isSettling;
	}

	/**
	 * Sends a prompt through the input pipeline (src/input/) and resolves when
	 * the run has finished. While a run is active, `streamingBehavior` must say
	 * whether to steer or follow up; without it the call rejects with
	 * AgentSessionBusyError. Input a pipeline stage handled sends nothing.
	 */
	async prompt(text: string, options: PromptOptions = {}): Promise<void> {
		const source = options.source ?? "interactive";
		const expandPromptTemplates = options.expandPromptTemplates !== false;
		const behavior = options.streamingBehavior;
		// Extension command and `input` event first, while the session is not
		// yet marked busy: a command may start runs of its own (sendUserMessage).
		// Without extension stages nothing is awaited here, so the session is busy in the same tick.
		const early = !this.input.has("extensionCommand", "inputEvent")
			? { handled: false as const, input: { text, images: options.images } }
			: await this.input.process(
					{ text, images: options.images },
					{ source, expandPromptTemplates, ...(this.isStreaming && behavior ? { streamingBehavior: behavior } : {}) },
					"extensionCommand",
					"inputEvent",
				);
		if (early.handled) return;
		if (this.isStreaming) {
			if (!behavior) throw new AgentSessionBusyError();
			const queued = await this.input.process(
				early.input,
				{ source, expandPromptTemplates, streamingBehavior: behavior },
				"skillCommand",
			);
			return queued.handled ? undefined : this.enqueue(behavior, queued.input);
		}
		// Running from here on (a second prompt in the same tick is refused or queued).
		this.starting = true;
		try {
			const outcome = await this.input.process(early.input, { source, expandPromptTemplates }, "skillCommand");
			if (outcome.handled) return;
			const input = outcome.input;
			this.models.assertUsable();
			this.persistenceError = undefined;
			this.userBash.flush();
			await this.recovery.beforePrompt();
			this.deferSync();
			this.recordSystemPrompt();
			const injected = await this.input.beforeAgentStart(input);
			const message = this.userMessage(input.text, input.images);
			await this.agent.prompt(injected.length > 0 ? [message, ...injected] : message);
			await this.recovery.settle();
		} finally {
			this.starting = false;
			this.syncDeferredAfterRun();
		}
		this.userBash.flush(); // user commands that finished during the run
		if (this.persistenceError) throw this.persistenceError;
	}

	/** Starts a run from messages other than a typed prompt (an extension's custom message); resolves when it settled. */
	async promptMessages(messages: AgentMessage[]): Promise<void> {
		if (this.isStreaming) throw new AgentSessionBusyError();
		this.models.assertUsable();
		this.persistenceError = undefined;
		this.userBash.flush();
		await this.recovery.beforePrompt();
		this.deferSync();
		try {
			this.recordSystemPrompt();
			await this.agent.prompt(messages);
			await this.recovery.settle();
		} finally {
			this.syncDeferredAfterRun();
		}
		this.userBash.flush();
		if (this.persistenceError) throw this.persistenceError;
	}

	/** The hold's end when the run ended before recording a message: a failed sync is the run's persistence error. */
	private syncDeferredAfterRun(): void {
		try {
			this.syncDeferred();
		} catch (error) {
			this.persistenceError ??= error as Error;
		}
	}

	/** Appends a message to the session without a run (an extension's stored custom message). */
	appendMessage(message: AgentMessage): void {
		this.sessionManager.appendMessage(message as Parameters<SessionManager["appendMessage"]>[0]);
		this.transcript.refresh();
	}

	/** Queues a message delivered after the current tool batch, before the next request. */
	async steer(text: string, images?: ImageContent[]): Promise<void> {
		const outcome = await this.input.process(
			{ text, images },
			{ source: "interactive", streamingBehavior: "steer" },
			"skillCommand",
		);
		if (!outcome.handled) await this.enqueue("steer", outcome.input);
	}

	/** Queues a message delivered when the agent would otherwise stop. */
	async followUp(text: string, images?: ImageContent[]): Promise<void> {
		const outcome = await this.input.process(
			{ text, images },
			{ source: "interactive", streamingBehavior: "followUp" },
			"skillCommand",
		);
		if (!outcome.handled) await this.enqueue("followUp", outcome.input);
	}

	private async enqueue(kind: "steer" | "followUp", input: PromptInput): Promise<void> {
		this.agent[kind](this.userMessage(input.text, input.images));
		await this.queue.emitIfChanged();
	}

	/** Empties both queues and returns what was in them. */
	clearQueue(): Promise<{ steering: string[]; followUp: string[] }> {
		return this.queue.clear();
	}

	/** Aborts the active run and waits until it has ended. */
	async abort(): Promise<void> {
		this.recovery.abort();
		this.agent.abort();
		await this.agent.waitForIdle();
		await this.recovery.idle();
	}

	// -- compaction, retry, tree navigation -----------------------------------------

	/** Compacts the context now (aborting a run first); throws when there is nothing to compact, on failure or abort. */
	async compact(customInstructions?: string): Promise<CompactionResult> {
		await this.abort();
		return this.compactor.compact(customInstructions);
	}

	abortCompaction(): void {
		this.compactor.abort();
	}

	/** Cancels a retry backoff wait. */
	abortRetry(): void {
		this.recovery.retry.abort();
	}

	get isCompacting(): boolean {
		return this.compactor.isCompacting;
	}

	get isRetrying(): boolean {
		return this.recovery.retry.isWaiting;
	}

	get autoCompactionEnabled(): boolean {
		return this.settings.getCompactionSettings().enabled;
	}

	setAutoCompactionEnabled(enabled: boolean): void {
		this.settings.setCompactionEnabled(enabled);
	}

	get autoRetryEnabled(): boolean {
		return this.settings.getRetrySettings().enabled;
	}

	setAutoRetryEnabled(enabled: boolean): void {
		this.settings.setRetryEnabled(enabled);
	}

	/** Moves the leaf to another entry of the tree, optionally summarizing the path left behind. */
	async navigateTree(targetId: string, options: NavigateTreeOptions = {}): Promise<NavigateTreeResult> {
		if (this.isStreaming) throw new AgentSessionBusyError();
		return navigateTree(
			{
				sessionManager: this.sessionManager,
				compactor: this.compactor,
				hooks: this.lifecycleHooks,
				onContextChanged: this.transcript.refresh,
			},
			targetId,
			options,
		);
	}

	abortBranchSummary(): void {
		this.compactor.abortBranchSummary();
	}

	/** Installs the compaction/tree hooks (`session_before_compact` …); returns the function that removes them. */
	setLifecycleHooks(hooks: SessionLifecycleHooks): () => void {
		this.lifecycleHooks = hooks;
		return () => {
			if (this.lifecycleHooks === hooks) this.lifecycleHooks = {};
		};
	}

	private userMessage(text: string, images?: ImageContent[]): UserMessage {
		const content: UserMessage["content"] = [{ type: "text", text }];
		for (const image of images ?? []) content.push(image);
		return { role: "user", content, timestamp: Date.now() };
	}

	/** Records the system prompt and tool declarations if they changed (append-only). */
	private recordSystemPrompt(): void {
		const declared = this.getDeclaredTools();
		this.agent.setSystemPrompt(this.promptRecorder.render(declared, this.activeTools));
		this.promptRecorder.sync(this.sessionManager, declared, this.activeTools);
	}

	// -- model and thinking --------------------------------------------------------

	get model(): Model | undefined {
		return this.models.model;
	}

	get thinkingLevel(): ThinkingLevel {
		return this.models.thinkingLevel;
	}

	setModel(model: Model): void {
		const previousModel = this.models.model;
		this.models.setModel(model);
		void this.lifecycleHooks.modelSelect?.({ model, previousModel, source: "set" });
	}

	cycleModel(direction: "forward" | "backward" = "forward"): ModelCycleResult | undefined {
		const previousModel = this.models.model;
		const result = this.models.cycleModel(direction);
		if (result) void this.lifecycleHooks.modelSelect?.({ model: result.model, previousModel, source: "cycle" });
		return result;
	}

	/** The models Ctrl+P cycles through (with optional levels); empty means every model with credentials. */
	getScopedModels(): ScopedModel[] {
		return [...this.models.scopedModels];
	}

	/** Replaces the cycling scope for this run (/scoped-models); saving it is the caller's choice. */
	setScopedModels(models: readonly ScopedModel[]): void {
		this.models.scopedModels = [...models];
	}

	/** Sets the level, clamped to the model; returns the level in force. */
	setThinkingLevel(level: ThinkingLevel): ThinkingLevel {
		return this.models.setThinkingLevel(level);
	}

	cycleThinkingLevel(): ThinkingLevel | undefined {
		return this.models.cycleThinkingLevel();
	}

	getAvailableThinkingLevels(): ThinkingLevel[] {
		return this.models.getAvailableThinkingLevels();
	}

	/** Called by ModelRuntime when the level changed. */
	notifyThinkingLevelChanged(level: ThinkingLevel, previousLevel: ThinkingLevel): void {
		void this.emit({ type: "thinking_level_changed", level });
		void this.lifecycleHooks.thinkingLevelSelect?.({ level, previousLevel });
	}

	// -- tools -------------------------------------------------------------------

	getActiveToolNames(): string[] {
		return this.activeTools.map((t) => t.name);
	}

	getAllTools(): AnyTool[] {
		return [...this.allTools.values()];
	}

	/**
	 * The tools the next request declares: the active ones as the declaration
	 * shaper leaves them (some hidden, descriptions replaced). Hidden ones stay
	 * active and callable through `ctx.executeTool`.
	 */
	getDeclaredTools(): AnyTool[] {
		return this.declarationShaper ? this.declarationShaper(this.activeTools) : this.activeTools;
	}

	/** Installs the declaration shaper; returns the function that removes it. */
	setDeclarationShaper(shaper: (active: readonly AnyTool[]) => AnyTool[]): () => void {
		this.declarationShaper = shaper;
		return () => {
			if (this.declarationShaper === shaper) this.declarationShaper = undefined;
		};
	}

	/**
	 * Adds tools (a tool named like an existing one replaces it, e.g. an
	 * extension's `read`); those in `activate` become active too.
	 */
	addTools(tools: AnyTool[], activate: readonly string[] = []): void {
		for (const tool of tools) this.allTools.set(tool.name, tool);
		const names = [...new Set([...this.getActiveToolNames(), ...activate])];
		this.setActiveToolsByName(names);
	}

	/** Activates the named tools (unknown names are ignored); recorded with the next prompt. */
	setActiveToolsByName(names: readonly string[]): void {
		this.activeTools = names.map((n) => this.allTools.get(n)).filter((t): t is AnyTool => t !== undefined);
		this.agent.setTools(this.activeTools);
	}

	// -- session -----------------------------------------------------------------

	get sessionId(): string {
		return this.sessionManager.getSessionId();
	}

	get sessionFile(): string | undefined {
		return this.sessionManager.getSessionFile();
	}

	get messages(): AgentMessage[] {
		return this.agent.state.messages;
	}

	setSessionName(name: string): void {
		this.sessionManager.appendSessionInfo(name);
		void this.emit({ type: "session_info_changed", name: this.sessionManager.getSessionName() });
	}

	getSessionStats(): SessionStats {
		return computeStats(
			this.sessionManager.buildSessionContext().messages,
			this.sessionId,
			this.sessionFile,
			this.sessionManager.getEntries(),
		);
	}

	getContextUsage(): ContextUsage {
		// Reported usage counts only until a compaction or context edit changes what it measured.
		const tokens = this.compactor.estimate().tokens;
		const contextWindow = this.model?.contextWindow ?? 0;
		const percent = contextWindow > 0 ? Math.min(100, (tokens / contextWindow) * 100) : undefined;
		return { tokens, contextWindow, percent };
	}

	/** Text of the last assistant message, if any. */
	getLastAssistantText(): string | undefined {
		const messages = this.agent.state.messages;
		for (let i = messages.length - 1; i >= 0; i--) {
			if (messages[i].role === "assistant") return messageText(messages[i]);
		}
		return undefined;
	}

	// -- queue modes ---------------------------------------------------------------

	get steeringMode(): "all" | "one-at-a-time" {
		return this.agent.steeringMode;
	}

	/** How queued steering messages are delivered; saved as the default. */
	setSteeringMode(mode: "all" | "one-at-a-time"): void {
		this.agent.steeringMode = mode;
		this.settings.setSteeringMode(mode);
	}

	get followUpMode(): "all" | "one-at-a-time" {
		return this.agent.followUpMode;
	}

	/** How queued follow-up messages are delivered; saved as the default. */
	setFollowUpMode(mode: "all" | "one-at-a-time"): void {
		this.agent.followUpMode = mode;
		this.settings.setFollowUpMode(mode);
	}

	// -- switching sessions (delegated to session-switch.ts) --------------------------

	private get switchHost(): SessionSwitchHost {
		return {
			agent: this.agent,
			sessionManager: this.sessionManager,
			models: this.models,
			transcript: this.transcript,
			queue: this.queue,
			abort: () => this.abort(),
			hooks: this.lifecycleHooks,
			afterSwitch: this.switchObserver,
		};
	}

	/** A fresh, empty session (a run is aborted first); a `session_before_switch` handler may cancel it. */
	newSession(options: { parentSession?: string } = {}): Promise<{ cancelled: boolean }> {
		return gatedNewSession(this.switchHost, options);
	}

	/** Another session file (its model restored when usable); `session_before_switch` may cancel it. */
	switchSession(sessionPath: string): Promise<{ cancelled: boolean }> {
		return gatedSwitch(this.switchHost, sessionPath);
	}

	/** A new file with the path before user message `entryId`, whose text is returned; `session_before_fork` may cancel it. */
	fork(entryId: string): Promise<{ text: string; cancelled: boolean }> {
		return gatedFork(this.switchHost, entryId);
	}

	/** A new file with the active path through the current position (cancellable like fork). */
	clone(): Promise<{ cancelled: boolean }> {
		return gatedClone(this.switchHost);
	}

	/** Called after every completed switch (AgentSessionRuntime: a switch into another folder rebuilds its services). */
	setSwitchObserver(observer: SwitchObserver | undefined): void {
		this.switchObserver = observer;
	}

	/**
	 * The session now works in `cwd` (a switch entered another folder): tools,
	 * `!` commands and the system prompt follow; `builtinTools` are the
	 * built-in tools made for it (they replace the old folder's by name).
	 */
	moveTo(cwd: string, builtinTools: AnyTool[]): void {
		this._cwd = cwd;
		this.promptRecorder.setCwd(cwd);
		this.addTools(builtinTools);
	}

	/** Drops tools by name (an extension that is gone after a reload); active ones are deactivated. */
	removeTools(names: readonly string[]): void {
		for (const name of names) this.allTools.delete(name);
		this.setActiveToolsByName(this.getActiveToolNames().filter((n) => this.allTools.has(n)));
	}

	/** User messages that can be forked from. */
	getForkMessages(): ForkableMessage[] {
		return getForkMessages(this.sessionManager);
	}

	/**
	 * Runs another tool for the tool call `parentToolCallId` (`ctx.executeTool`):
	 * validation, `tool_call`/`tool_result` and `tool_execution_*` as for a
	 * model's call; no transcript entry. Never rejects for tool failures.
	 */
	executeNestedTool(
		parentToolCallId: string,
		name: string,
		args: unknown,
		options: ExecuteToolOptions & { parentSignal?: AbortSignal } = {},
	): Promise<NestedToolOutcome> {
		return this.nestedTools.execute(parentToolCallId, name, args, options);
	}

	// -- user bash -------------------------------------------------------------------

	/**
	 * Runs a shell command for the user; its output reaches the model with the
	 * next prompt. A `user_bash` handler may run it through its own backend or
	 * answer it without running anything; a handler that throws blocks it.
	 */
	async executeBash(command: string, options: UserBashOptions = {}): Promise<BashResult> {
		const decision = await this.lifecycleHooks.userBash?.({
			command,
			excludeFromContext: options.excludeFromContext ?? false,
			cwd: this.cwd,
		});
		if (decision?.result) return this.userBash.record(command, decision.result, options);
		return this.userBash.run(command, { ...options, operations: decision?.operations });
	}

	abortBash(): void {
		this.userBash.abort();
	}

	get isBashRunning(): boolean {
		return this.userBash.isRunning;
	}

	/** The registry of models the session can switch to. */
	get modelRegistry() {
		return this.models.registry;
	}

	/** Stops listening to the agent and releases the session file. */
	dispose(): void {
		this.unsubscribeAgent();
		this.listeners.clear();
		this.sessionManager.close();
	}
}

function sessionWriteFailed(error: unknown, fallbackFile: string | undefined): AgentSessionEvent {
	const fault = error as { sessionFile?: string; cause?: { code?: unknown }; message?: string };
	const code = typeof fault.cause?.code === "string" ? fault.cause.code : undefined;
	return {
		type: "session_write_failed",
		file: fault.sessionFile ?? fallbackFile,
		...(code ? { code } : {}),
		errorMessage: fault.message ?? String(error),
	};
}
