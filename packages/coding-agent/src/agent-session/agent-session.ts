// AgentSession coordinates one conversation: the operations a host (CLI
// modes, SDK, extensions' ctx) calls — prompting and queues, compaction,
// retry and tree navigation, model and thinking level, tools, session
// switching, user bash. Each delegates to a collaborator; how they are built
// and plugged into the agent-core Agent is AgentSessionCore (agent-session-core.ts).
import type { AgentMessage, StreamFn } from "@pi/agent-core";
import type { ImageContent, Model, ThinkingLevel } from "@pi/ai";
import type { ScopedModel } from "../config/model-resolver.js";
import type { SessionLifecycleHooks } from "../extensions/session-hooks.js";
import { messageText } from "../messages.js";
import type { SessionManager } from "../session/session-manager.js";
import type { BashResult } from "../tools/bash.js";
import { AgentSessionCore } from "./agent-session-core.js";
import { type NavigateTreeOptions, type NavigateTreeResult, navigateTree } from "./compaction/navigate-tree.js";
import type { CompactionResult } from "./compaction/summarize.js";
import type { ModelCycleResult } from "./model-runtime.js";
import type { ExecuteToolOptions, NestedToolOutcome } from "./nested-tools.js";
import type { SystemPromptInputs } from "./prompt-recorder.js";
import { AgentSessionBusyError, type PromptOptions } from "./prompt-runner.js";
import { billedUsage, type ContextUsage, computeStats, type SessionStats } from "./session-stats.js";
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
import type { AnyTool } from "./session-tools.js";
import type { UserBashOptions } from "./user-bash.js";

export type { AgentSessionOptions } from "./agent-session-core.js";
export { AgentSessionBusyError, type PromptOptions } from "./prompt-runner.js";

export class AgentSession extends AgentSessionCore {
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

	/**
	 * Appends a message to the session without a run (an extension's stored custom message, announced
	 * as `entry_appended` like `pi.appendEntry`'s entries: no run event describes it).
	 */
	appendMessage(message: AgentMessage): void {
		const id = this.sessionManager.appendMessage(message as Parameters<SessionManager["appendMessage"]>[0]);
		this.transcript.refresh();
		const entry = message.role === "custom" ? this.sessionManager.getEntry(id) : undefined;
		if (entry) void this.emit({ type: "entry_appended", entry });
	}

	/** Realigns the Agent's copy of the transcript after entries were written straight to the SessionManager. */
	refreshTranscript(): void {
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
			this.sessionManager.fold(billedUsage),
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

	/**
	 * A new file with the path before user message `entryId`, whose text is returned (position
	 * "before", the default), or with the path through entry `entryId` itself ("at": a clone of
	 * that point, text ""); `session_before_fork` may cancel it.
	 */
	fork(entryId: string, options: { position?: "before" | "at" } = {}): Promise<{ text: string; cancelled: boolean }> {
		return gatedFork(this.switchHost, entryId, options.position);
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
