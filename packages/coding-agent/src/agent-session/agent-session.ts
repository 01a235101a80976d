// AgentSession coordinates one conversation. It does not run the loop: the
// agent-core Agent does. The session plugs product rules into the Agent's
// hooks and events:
//   - prepareRequest: every request's context is projected afresh from the
//     session tree (the only source of truth; the Agent's transcript is a cache);
//   - message_end: each message is appended to the session (durably) before
//     any listener of the session hears of it;
//   - beforeToolCall/afterToolCall: the seams extensions use (ToolHooks).
// Collaborators, one job each: PromptRunner (prompt -> input pipeline ->
// settled run), MessageRecorder (message_end -> session entry), DeferredSync
// (the prompt's one fdatasync), RunBoundaries (turn_end, agent_before_settle),
// SessionTools (registered, active and declared tools), ModelRuntime (model,
// level, keys), PromptRecorder (system prompt + tools as session history),
// recovery/ (retry, compaction, queues), session-switch, user-bash.
import type { Agent, AgentEvent, AgentMessage, StreamFn } from "@pi/agent-core";
import type { ImageContent, Model, ThinkingLevel } from "@pi/ai";
import type { ScopedModel } from "../config/model-resolver.js";
import type { SettingsManager } from "../config/settings.js";
import type { SessionLifecycleHooks } from "../extensions/session-hooks.js";
import { ToolHooks } from "../extensions/tool-hooks.js";
import { InputPipeline } from "../input/pipeline.js";
import type { SessionManager } from "../session/session-manager.js";
import type { BashResult } from "../tools/bash.js";
import type { Timers } from "./backoff/timers.js";
import type { CacheWarmer } from "./cache-warmer.js";
import type { Compactor } from "./compaction/compactor.js";
import { type NavigateTreeOptions, type NavigateTreeResult, navigateTree } from "./compaction/navigate-tree.js";
import type { CompactionResult } from "./compaction/summarize.js";
import { DeferredSync } from "./deferred-sync.js";
import type { AgentSessionEvent, AgentSessionListener } from "./events.js";
import { SessionListeners } from "./listeners.js";
import { MessageRecorder } from "./message-recorder.js";
import type { ModelCycleResult, ModelRuntime } from "./model-runtime.js";
import { type ExecuteToolOptions, type NestedToolOutcome, NestedToolRunner } from "./nested-tools.js";
import type { PromptRecorder, SystemPromptInputs } from "./prompt-recorder.js";
import { AgentSessionBusyError, type PromptOptions, PromptRunner } from "./prompt-runner.js";
import { messageText, QueueReport } from "./queue-report.js";
import { createRecovery } from "./recovery/create-recovery.js";
import type { RunRecovery } from "./recovery/recovery.js";
import { createRouteFit } from "./route-fit.js";
import { RunBoundaries } from "./run-boundaries.js";
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
import { type AnyTool, SessionTools } from "./session-tools.js";
import { TranscriptSync } from "./transcript.js";
import { UserBash, type UserBashOptions } from "./user-bash.js";

export { AgentSessionBusyError, type PromptOptions } from "./prompt-runner.js";

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
	/** Prompt-cache warming (cache-warmer.ts); the session announces its entries and errors, and ends it on dispose. */
	cacheWarmer?: CacheWarmer;
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
	/** Every tool by name, the active ones, the declaration shaper (the extension bridge installs `prepareLoadout`). */
	private readonly tools: SessionTools;
	private readonly listeners = new SessionListeners();
	private unsubscribeAgent: () => void;
	/** Records each ended message before it is announced; keeps the run's first failed write. */
	private readonly recorder: MessageRecorder;
	/** Typed prompts and extension messages to settled runs (prompt-runner.ts). */
	private readonly runner: PromptRunner;
	/** The prompt's sync hold: its first entries are fdatasync'ed once (deferred-sync.ts). */
	private readonly deferredSync: DeferredSync;
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
	/** The `turn_end` and `agent_before_settle` boundaries (run-boundaries.ts). */
	private readonly boundaries: RunBoundaries;
	/** Keeps the conversation's prompt cache warm between requests (`/session` shows its next decision). */
	readonly cacheWarming: CacheWarmer | undefined;
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
		this.tools = new SessionTools(this.agent, o.tools, o.activeToolNames);
		this.deferredSync = new DeferredSync(this.sessionManager);

		this.transcript = new TranscriptSync(this.agent, this.sessionManager);
		this.boundaries = new RunBoundaries({
			agent: this.agent,
			sessionManager: this.sessionManager,
			transcript: this.transcript,
			getHooks: () => this.lifecycleHooks,
		});
		this.queue = new QueueReport(this.agent, (event) => this.emit(event));
		this.agent.prepareRequest = async () => ({ context: this.projectContext() });
		this.agent.beforeToolCall = this.toolHooks.runBefore;
		this.agent.afterToolCall = this.toolHooks.runAfter;
		const recovery = createRecovery({
			agent: this.agent,
			sessionManager: this.sessionManager,
			settings: this.settings,
			getModel: () => this.models.model,
			getContextWindow: () => this.models.contextWindowFor(this.agent.state.messages),
			replyModel: (reply) => this.models.replyModel(reply),
			getThinkingLevel: () => this.models.thinkingLevel,
			emit: (event) => this.emit(event),
			timers: o.timers,
			getHooks: () => this.lifecycleHooks,
			transcript: this.transcript,
			beforeSettle: this.boundaries.beforeSettle,
			getDirectStreamFn: () => this.models.directStreamFn,
		});
		this.compactor = recovery.compactor;
		this.recovery = recovery.recovery;
		this.agent.prepareNextTurn = this.recovery.prepareNextTurn;
		this.models.setRouteFit(
			createRouteFit({ agent: this.agent, compactor: this.compactor, project: () => this.transcript.project() }),
		);
		this.agent.finishTurn = this.boundaries.finishTurn;
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
		this.recorder = new MessageRecorder({
			agent: this.agent,
			sessionManager: this.sessionManager,
			nestedTools: this.nestedTools,
			transcript: this.transcript,
			deferredSync: this.deferredSync,
			boundaries: this.boundaries,
			getHooks: () => this.lifecycleHooks,
			emit: (event) => this.emit(event),
		});
		this.runner = new PromptRunner({
			agent: this.agent,
			input: this.input,
			models: this.models,
			recovery: this.recovery,
			userBash: this.userBash,
			deferredSync: this.deferredSync,
			recorder: this.recorder,
			queue: this.queue,
			recordSystemPrompt: () => this.recordSystemPrompt(),
		});
		this.unsubscribeAgent = this.agent.subscribe((event) => this.onAgentEvent(event));
		this.cacheWarming = o.cacheWarmer;
		if (o.cacheWarmer) {
			o.cacheWarmer.onWarmed = (entry) => void this.emit({ type: "entry_appended", entry });
			o.cacheWarmer.onError = (errorMessage) => void this.emit({ type: "cache_warming_error", errorMessage });
		}
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
		this.deferredSync.beforeEvent(event.type);
		return this.listeners.emit(event);
	}

	private async onAgentEvent(event: AgentEvent): Promise<void> {
		if (event.type === "message_end") {
			const recorded = await this.recorder.record(event);
			if (!recorded) return;
			event = recorded;
		}
		if (event.type === "message_end" && event.message.role === "assistant")
			this.boundaries.replyEnded((event.message as { stopReason?: string }).stopReason);
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

	// -- prompting ---------------------------------------------------------------

	get isStreaming(): boolean {
		return this.runner.isStreaming;
	}

	/**
	 * Sends a prompt through the input pipeline (src/input/) and resolves when
	 * the run has finished. While a run is active, `streamingBehavior` must say
	 * whether to steer or follow up; without it the call rejects with
	 * AgentSessionBusyError. Input a pipeline stage handled sends nothing.
	 */
	prompt(text: string, options: PromptOptions = {}): Promise<void> {
		return this.runner.prompt(text, options);
	}

	/** Starts a run from messages other than a typed prompt (an extension's custom message); resolves when it settled. */
	promptMessages(messages: AgentMessage[]): Promise<void> {
		return this.runner.promptMessages(messages);
	}

	/** Appends a message to the session without a run (an extension's stored custom message). */
	appendMessage(message: AgentMessage): void {
		this.sessionManager.appendMessage(message as Parameters<SessionManager["appendMessage"]>[0]);
		this.transcript.refresh();
	}

	/** Queues a message delivered after the current tool batch, before the next request. */
	steer(text: string, images?: ImageContent[]): Promise<void> {
		return this.runner.queueInput("steer", text, images);
	}

	/** Queues a message delivered when the agent would otherwise stop. */
	followUp(text: string, images?: ImageContent[]): Promise<void> {
		return this.runner.queueInput("followUp", text, images);
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

	/** Records the system prompt and tool declarations if they changed (append-only). */
	private recordSystemPrompt(): void {
		const declared = this.getDeclaredTools();
		this.agent.setSystemPrompt(this.promptRecorder.render(declared, this.tools.active));
		this.promptRecorder.sync(this.sessionManager, declared, this.tools.active);
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
		return this.tools.activeNames();
	}

	getAllTools(): AnyTool[] {
		return this.tools.allTools();
	}

	/**
	 * The tools the next request declares: the active ones as the declaration
	 * shaper leaves them (some hidden, descriptions replaced). Hidden ones stay
	 * active and callable through `ctx.executeTool`.
	 */
	getDeclaredTools(): AnyTool[] {
		return this.tools.declared();
	}

	/** Installs the declaration shaper; returns the function that removes it. */
	setDeclarationShaper(shaper: (active: readonly AnyTool[]) => AnyTool[]): () => void {
		return this.tools.setDeclarationShaper(shaper);
	}

	/**
	 * Adds tools (a tool named like an existing one replaces it, e.g. an
	 * extension's `read`); those in `activate` become active too.
	 */
	addTools(tools: AnyTool[], activate: readonly string[] = []): void {
		this.tools.add(tools, activate);
	}

	/** Activates the named tools (unknown names are ignored); recorded with the next prompt. */
	setActiveToolsByName(names: readonly string[]): void {
		this.tools.setActiveByName(names);
	}

	/** Drops tools by name (an extension that is gone after a reload); active ones are deactivated. */
	removeTools(names: readonly string[]): void {
		this.tools.remove(names);
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

	/**
	 * The base inputs of the system prompt with the active tools: before_agent_start's
	 * `systemPromptOptions` and a command's `ctx.getSystemPromptOptions()`. A fresh copy each call.
	 */
	getSystemPromptOptions(): SystemPromptInputs & { selectedTools: string[] } {
		return { ...this.promptRecorder.inputs(), selectedTools: this.getActiveToolNames() };
	}

	/** `pi.appendEntry`: a custom entry (never sent to the model), announced as `entry_appended` (json/rpc). */
	appendCustomEntry(customType: string, data: unknown): void {
		const entry = this.sessionManager.getEntry(this.sessionManager.appendCustomEntry(customType, data));
		if (entry) void this.emit({ type: "entry_appended", entry });
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
		const contextWindow = this.models.contextWindowFor(this.agent.state.messages);
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

	/** The stream function of requests outside the loop (virtual models routed with reason `direct`). */
	get directStreamFn(): StreamFn {
		return this.models.directStreamFn;
	}

	/** Stops listening to the agent and releases the session file. */
	dispose(): void {
		this.cacheWarming?.dispose();
		this.unsubscribeAgent();
		this.listeners.clear();
		this.sessionManager.close();
	}
}
