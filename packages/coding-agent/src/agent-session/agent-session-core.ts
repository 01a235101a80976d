// AgentSessionCore: how one AgentSession is put together and plugged into the
// agent-core Agent (AgentSession, agent-session.ts, adds the operations a
// host calls). The session does not run the loop: the Agent does. Product
// rules go in through the Agent's hooks and events:
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
import type { Agent, AgentEvent } from "@pi/agent-core";
import type { SettingsManager } from "../config/settings.js";
import type { SessionLifecycleHooks } from "../extensions/session-hooks.js";
import { ToolHooks } from "../extensions/tool-hooks.js";
import { InputPipeline } from "../input/pipeline.js";
import type { SessionManager } from "../session/session-manager.js";
import type { Timers } from "./backoff/timers.js";
import type { CacheWarmer } from "./cache-warmer.js";
import type { Compactor } from "./compaction/compactor.js";
import { DeferredSync, EntryBatch } from "./deferred-sync.js";
import type { AgentSessionEvent, AgentSessionListener } from "./events.js";
import { SessionListeners } from "./listeners.js";
import { MessageRecorder } from "./message-recorder.js";
import type { ModelRuntime } from "./model-runtime.js";
import { NestedToolRunner } from "./nested-tools.js";
import type { PromptRecorder } from "./prompt-recorder.js";
import { PromptRunner } from "./prompt-runner.js";
import { QueueReport } from "./queue-report.js";
import { createRecovery } from "./recovery/create-recovery.js";
import type { RunRecovery } from "./recovery/recovery.js";
import { createRouteFit } from "./route-fit.js";
import { RunBoundaries } from "./run-boundaries.js";
import type { SwitchObserver } from "./session-switch.js";
import { type AnyTool, SessionTools } from "./session-tools.js";
import { TranscriptSync } from "./transcript.js";
import { UserBash } from "./user-bash.js";

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

export class AgentSessionCore {
	readonly agent: Agent;
	readonly sessionManager: SessionManager;
	readonly settings: SettingsManager;
	readonly toolHooks = new ToolHooks();
	protected _cwd: string;
	protected switchObserver: SwitchObserver | undefined;
	protected readonly models: ModelRuntime;
	protected readonly promptRecorder: PromptRecorder;
	/** Every tool by name, the active ones, the declaration shaper (the extension bridge installs `prepareLoadout`). */
	protected readonly tools: SessionTools;
	protected readonly listeners = new SessionListeners();
	protected unsubscribeAgent: () => void;
	/** Records each ended message before it is announced; keeps the run's first failed write. */
	private readonly recorder: MessageRecorder;
	/** Typed prompts and extension messages to settled runs (prompt-runner.ts). */
	protected readonly runner: PromptRunner;
	/** The prompt's sync hold: its first entries are fdatasync'ed once (deferred-sync.ts). */
	private readonly deferredSync: DeferredSync;
	/** A message's sync hold: entries its message_end hooks append share its sync (deferred-sync.ts). */
	private readonly entryBatch: EntryBatch;
	protected readonly queue: QueueReport;
	/** Keeps the Agent's message cache in step with the session projection. */
	protected readonly transcript: TranscriptSync;
	/** Compaction and tree hooks (the extension runner installs them); none by default. */
	protected lifecycleHooks: SessionLifecycleHooks = {};
	/** Compaction (threshold, overflow, manual) and branch summaries. */
	readonly compactor: Compactor;
	/** Post-run recovery: auto-retry, overflow compaction, queued messages, `agent_settled`. */
	readonly recovery: RunRecovery;
	/** Commands the user runs directly (`!cmd`, RPC bash). */
	protected readonly userBash: UserBash;
	/** The prompt path: commands, `input` event, skills, templates, `before_agent_start` (src/input/). */
	readonly input = new InputPipeline();
	/** The `turn_end` and `agent_before_settle` boundaries (run-boundaries.ts). */
	private readonly boundaries: RunBoundaries;
	/** Keeps the conversation's prompt cache warm between requests (`/session` shows its next decision). */
	readonly cacheWarming: CacheWarmer | undefined;
	/** Tools calling tools (`ctx.executeTool`); their records become `nestedCalls` on the caller's result. */
	protected readonly nestedTools = new NestedToolRunner({
		getTools: () => this.tools.allTools(),
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
		this.entryBatch = new EntryBatch(this.sessionManager);

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
			isStreaming: () => this.runner.isStreaming,
		});
		this.recorder = new MessageRecorder({
			agent: this.agent,
			sessionManager: this.sessionManager,
			nestedTools: this.nestedTools,
			transcript: this.transcript,
			deferredSync: this.deferredSync,
			batch: this.entryBatch,
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
		if (this.entryBatch.isOpen) {
			// An entry a message_end hook appended is announced after the message's sync (message-recorder.ts).
			if (this.entryBatch.hold(event)) return Promise.resolve();
			// Anything else closes the batch first: the held entries are announced before it, in file order.
			return this.announceHeld(this.entryBatch.close()).then(() => this.emit(event));
		}
		// Entries appended under the prompt's deferSync are synced before any event that could announce one.
		this.deferredSync.beforeEvent(event.type);
		return this.listeners.emit(event);
	}

	private async announceHeld(events: AgentSessionEvent[]): Promise<void> {
		for (const event of events) await this.emit(event);
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
		return { systemPrompt: "", messages: this.transcript.project(), tools: this.tools.declared() };
	}

	/** Records the system prompt and tool declarations if they changed (append-only). */
	private recordSystemPrompt(): void {
		const declared = this.tools.declared();
		this.agent.setSystemPrompt(this.promptRecorder.render(declared, this.tools.active));
		this.promptRecorder.sync(this.sessionManager, declared, this.tools.active);
	}
}
