import type { ImageContent, Message, Model, StreamOptions, ThinkingLevel, UserMessage } from "@pi/ai";
import { runAgentLoop, runAgentLoopContinue } from "./agent-loop.js";
import type { AgentLoopConfig, AgentRequestUpdate, AgentStreamOptions } from "./hooks.js";
import { MessageQueue } from "./message-queue.js";
import { defaultConvertToLlm } from "./messages.js";
import type {
	AgentContext,
	AgentEvent,
	AgentMessage,
	AgentState,
	AgentTool,
	QueueMode,
	StreamFn,
	ToolExecutionMode,
} from "./types.js";

/** A subscriber; a returned promise is awaited before the next subscriber and the next event. */
export type AgentListener = (event: AgentEvent, signal: AbortSignal) => Promise<void> | void;

// biome-ignore lint/suspicious/noExplicitAny: tools of any parameter schema live side by side
type AnyTool = AgentTool<any>;

export interface AgentInitialState {
	systemPrompt?: string;
	model?: Model;
	thinkingLevel?: ThinkingLevel;
	tools?: AnyTool[];
	messages?: AgentMessage[];
}

/** Hooks are those of `AgentLoopConfig`; see their documentation there. */
export interface AgentOptions
	extends Pick<
		AgentLoopConfig,
		| "convertToLlm"
		| "transformContext"
		| "getApiKey"
		| "beforeToolCall"
		| "afterToolCall"
		| "finishTurn"
		| "prepareRequest"
		| "prepareNextTurn"
		| "toolAbortGraceMs"
	> {
	initialState?: AgentInitialState;
	/** Defaults to pi-ai's `stream` (or the one set with `setDefaultStreamFn`). */
	streamFn?: StreamFn;
	steeringMode?: QueueMode;
	followUpMode?: QueueMode;
	toolExecution?: ToolExecutionMode;
	sessionId?: string;
	thinkingBudgets?: StreamOptions["thinkingBudgets"];
	onPayload?: StreamOptions["onPayload"];
	onResponse?: StreamOptions["onResponse"];
	/** Further options for every request (temperature, maxTokens, headers, …). */
	streamOptions?: AgentStreamOptions;
	/** Told about subscribers that throw or reject (they never break the run). Default: ignored. */
	onListenerError?: (error: unknown, event: AgentEvent) => void;
}

/** Placeholder until a model is set; requests with it fail at the provider layer. */
const UNKNOWN_MODEL: Model = {
	id: "unknown",
	name: "unknown",
	api: "unknown",
	provider: "unknown",
	baseUrl: "",
	reasoning: false,
	input: ["text"],
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
	contextWindow: 0,
	maxTokens: 0,
};

interface ActiveRun {
	controller: AbortController;
	promise: Promise<void>;
}

/**
 * The stateful agent: transcript, model, tools, thinking level and two
 * queues around the stateless loop. The transcript (`state.messages`) is
 * built from the run's events, so listeners see it updated before they run.
 */
export class Agent {
	convertToLlm: NonNullable<AgentLoopConfig["convertToLlm"]>;
	transformContext?: AgentLoopConfig["transformContext"];
	streamFn?: StreamFn;
	getApiKey?: AgentLoopConfig["getApiKey"];
	beforeToolCall?: AgentLoopConfig["beforeToolCall"];
	afterToolCall?: AgentLoopConfig["afterToolCall"];
	finishTurn?: AgentLoopConfig["finishTurn"];
	prepareRequest?: AgentLoopConfig["prepareRequest"];
	prepareNextTurn?: AgentLoopConfig["prepareNextTurn"];
	toolExecution: ToolExecutionMode;
	toolAbortGraceMs?: number;
	sessionId?: string;
	thinkingBudgets?: StreamOptions["thinkingBudgets"];
	onPayload?: StreamOptions["onPayload"];
	onResponse?: StreamOptions["onResponse"];
	streamOptions: AgentStreamOptions;
	onListenerError?: (error: unknown, event: AgentEvent) => void;

	private systemPrompt: string;
	private model: Model;
	private thinkingLevel: ThinkingLevel;
	private tools: AnyTool[];
	private messages: AgentMessage[];
	private isStreaming = false;
	private streamingMessage: AgentMessage | undefined;
	private readonly pendingToolCalls = new Set<string>();
	private errorMessage: string | undefined;
	/** Settings changed while a run is active; applied at its next request. */
	private readonly changed = new Set<"systemPrompt" | "model" | "thinkingLevel" | "tools">();

	private listeners: AgentListener[] = [];
	private readonly steeringQueue: MessageQueue;
	private readonly followUpQueue: MessageQueue;
	private activeRun: ActiveRun | undefined;
	private readonly stateView: AgentState;

	constructor(options: AgentOptions = {}) {
		const initial = options.initialState ?? {};
		this.systemPrompt = initial.systemPrompt ?? "";
		this.model = initial.model ?? UNKNOWN_MODEL;
		this.thinkingLevel = initial.thinkingLevel ?? "off";
		this.tools = initial.tools?.slice() ?? [];
		this.messages = initial.messages?.slice() ?? [];
		this.convertToLlm = options.convertToLlm ?? defaultConvertToLlm;
		this.transformContext = options.transformContext;
		this.streamFn = options.streamFn;
		this.getApiKey = options.getApiKey;
		this.beforeToolCall = options.beforeToolCall;
		this.afterToolCall = options.afterToolCall;
		this.finishTurn = options.finishTurn;
		this.prepareRequest = options.prepareRequest;
		this.prepareNextTurn = options.prepareNextTurn;
		this.toolExecution = options.toolExecution ?? "parallel";
		this.toolAbortGraceMs = options.toolAbortGraceMs;
		this.sessionId = options.sessionId;
		this.thinkingBudgets = options.thinkingBudgets;
		this.onPayload = options.onPayload;
		this.onResponse = options.onResponse;
		this.streamOptions = options.streamOptions ?? {};
		this.onListenerError = options.onListenerError;
		this.steeringQueue = new MessageQueue(options.steeringMode);
		this.followUpQueue = new MessageQueue(options.followUpMode);
		this.stateView = this.createStateView();
	}

	// -- state -----------------------------------------------------------------

	/** Live view of the state; assigning `tools`/`messages` copies the array. */
	get state(): AgentState {
		return this.stateView;
	}

	setSystemPrompt(prompt: string): void {
		this.systemPrompt = prompt;
		this.markChanged("systemPrompt");
	}

	setModel(model: Model): void {
		this.model = model;
		this.markChanged("model");
	}

	setThinkingLevel(level: ThinkingLevel): void {
		this.thinkingLevel = level;
		this.markChanged("thinkingLevel");
	}

	setTools(tools: AnyTool[]): void {
		this.tools = tools.slice();
		this.markChanged("tools");
	}

	/** Replaces the transcript (copied). Meant for idle agents; a running loop keeps its own context. */
	replaceMessages(messages: AgentMessage[]): void {
		this.messages = messages.slice();
	}

	appendMessage(message: AgentMessage): void {
		this.messages.push(message);
	}

	// -- queues ----------------------------------------------------------------

	get steeringMode(): QueueMode {
		return this.steeringQueue.mode;
	}
	set steeringMode(mode: QueueMode) {
		this.steeringQueue.mode = mode;
	}
	get followUpMode(): QueueMode {
		return this.followUpQueue.mode;
	}
	set followUpMode(mode: QueueMode) {
		this.followUpQueue.mode = mode;
	}

	/** Queues a message for after the current tool batch (or the current response), before the next request. */
	steer(message: AgentMessage | string): void {
		this.steeringQueue.enqueue(toMessage(message));
	}

	/** Queues a message for when the agent would otherwise stop; it continues the same run. */
	followUp(message: AgentMessage | string): void {
		this.followUpQueue.enqueue(toMessage(message));
	}

	clearSteeringQueue(): void {
		this.steeringQueue.clear();
	}
	clearFollowUpQueue(): void {
		this.followUpQueue.clear();
	}
	clearAllQueues(): void {
		this.steeringQueue.clear();
		this.followUpQueue.clear();
	}
	hasQueuedMessages(): boolean {
		return this.steeringQueue.size > 0 || this.followUpQueue.size > 0;
	}
	/** The queued messages, oldest first (not removed). */
	getQueuedMessages(): { steering: readonly AgentMessage[]; followUp: readonly AgentMessage[] } {
		return { steering: this.steeringQueue.list().slice(), followUp: this.followUpQueue.list().slice() };
	}
	/** What the next drain point would take (steering first), under the queue modes; not removed. */
	peekQueuedMessages(): AgentMessage[] {
		const steering = this.steeringQueue.peek();
		return steering.length > 0 ? steering : this.followUpQueue.peek();
	}

	// -- events ----------------------------------------------------------------

	/** Adds a listener; returns the function that removes it. */
	subscribe(listener: AgentListener): () => void {
		this.listeners = [...this.listeners, listener];
		return () => {
			this.listeners = this.listeners.filter((l) => l !== listener);
		};
	}

	// -- runs ------------------------------------------------------------------

	/** The active run's abort signal, if a run is active. */
	get signal(): AbortSignal | undefined {
		return this.activeRun?.controller.signal;
	}

	/** Aborts the active run; a no-op while idle. */
	abort(): void {
		this.activeRun?.controller.abort();
	}

	/** Settles when the active run (including its `agent_end` listeners) has finished. */
	waitForIdle(): Promise<void> {
		return this.activeRun?.promise ?? Promise.resolve();
	}

	/** Clears transcript, queues and error state. Abort and wait for an active run first. */
	reset(): void {
		this.messages = [];
		this.streamingMessage = undefined;
		this.pendingToolCalls.clear();
		this.errorMessage = undefined;
		this.clearAllQueues();
	}

	/**
	 * Starts a run with a text prompt (plus images), a message or several
	 * messages. Resolves when the run and its listeners have finished; run
	 * failures end up in the transcript, not as a rejection.
	 */
	prompt(input: string, images?: ImageContent[]): Promise<void>;
	prompt(input: AgentMessage | AgentMessage[]): Promise<void>;
	async prompt(input: string | AgentMessage | AgentMessage[], images?: ImageContent[]): Promise<void> {
		if (this.activeRun) {
			throw new Error(
				"Agent is already processing a prompt. Use steer() or followUp() to queue messages, or wait for completion.",
			);
		}
		const prompts = typeof input === "string" ? [userMessage(input, images)] : Array.isArray(input) ? input : [input];
		return this.start(prompts);
	}

	/**
	 * Continues from the transcript (retry after an error, pending tool
	 * results). With an assistant message last, queued steering — else queued
	 * follow-up — messages are sent instead; with none, it throws.
	 */
	async continue(): Promise<void> {
		if (this.activeRun) throw new Error("Agent is already processing. Wait for completion before continuing.");
		const last = this.messages[this.messages.length - 1] as { role?: string } | undefined;
		if (!last) throw new Error("No messages to continue from");
		if (last.role === "assistant") {
			const queued = this.steeringQueue.size > 0 ? this.steeringQueue.drain() : this.followUpQueue.drain();
			if (queued.length === 0) throw new Error("Cannot continue from message role: assistant");
			return this.start(queued);
		}
		return this.start(undefined);
	}

	private start(prompts: AgentMessage[] | undefined): Promise<void> {
		const controller = new AbortController();
		const signal = controller.signal;
		this.isStreaming = true;
		this.streamingMessage = undefined;
		this.errorMessage = undefined;
		this.changed.clear();
		const context: AgentContext = {
			systemPrompt: this.systemPrompt,
			messages: this.messages.slice(),
			tools: this.tools.slice(),
		};
		const config = this.loopConfig();
		const emit = (event: AgentEvent) => this.process(event, signal);
		const run = prompts
			? runAgentLoop(prompts, context, config, emit, signal, this.streamFn)
			: runAgentLoopContinue(context, config, emit, signal, this.streamFn);
		const promise = run.then(
			() => this.finishRun(),
			() => this.finishRun(),
		);
		this.activeRun = { controller, promise };
		return promise;
	}

	private finishRun(): void {
		this.isStreaming = false;
		this.streamingMessage = undefined;
		this.pendingToolCalls.clear();
		this.activeRun = undefined;
	}

	private loopConfig(): AgentLoopConfig {
		const config: AgentLoopConfig = {
			...this.streamOptions,
			model: this.model,
			thinkingLevel: this.thinkingLevel,
			convertToLlm: this.convertToLlm,
			transformContext: this.transformContext,
			getApiKey: this.getApiKey,
			beforeToolCall: this.beforeToolCall,
			afterToolCall: this.afterToolCall,
			finishTurn: this.finishTurn,
			prepareNextTurn: this.prepareNextTurn,
			prepareRequest: this.requestPreparer(),
			getSteeringMessages: () => this.steeringQueue.drain(),
			getFollowUpMessages: () => this.followUpQueue.drain(),
			toolExecution: this.toolExecution,
			toolAbortGraceMs: this.toolAbortGraceMs,
		};
		if (this.sessionId !== undefined) config.sessionId = this.sessionId;
		if (this.thinkingBudgets !== undefined) config.thinkingBudgets = this.thinkingBudgets;
		if (this.onPayload !== undefined) config.onPayload = this.onPayload;
		if (this.onResponse !== undefined) config.onResponse = this.onResponse;
		return config;
	}

	/** Applies settings changed mid-run, then the user's `prepareRequest`. */
	private requestPreparer(): AgentLoopConfig["prepareRequest"] {
		const user = this.prepareRequest;
		return async (request, signal) => {
			let update: AgentRequestUpdate | undefined;
			if (this.changed.size > 0) {
				update = {};
				if (this.changed.has("model")) update.model = this.model;
				if (this.changed.has("thinkingLevel")) update.thinkingLevel = this.thinkingLevel;
				if (this.changed.has("tools") || this.changed.has("systemPrompt")) {
					update.context = { ...request.context };
					if (this.changed.has("tools")) update.context.tools = this.tools.slice();
					if (this.changed.has("systemPrompt")) update.context.systemPrompt = this.systemPrompt;
				}
				this.changed.clear();
				request = {
					context: update.context ?? request.context,
					model: update.model ?? request.model,
					thinkingLevel: update.thinkingLevel ?? request.thinkingLevel,
				};
			}
			if (!user) return update;
			const own = await user(request, signal);
			return own || update ? { ...update, ...own } : undefined;
		};
	}

	private markChanged(field: "systemPrompt" | "model" | "thinkingLevel" | "tools"): void {
		if (this.activeRun) this.changed.add(field);
	}

	/** Reduces an event into the state, then calls the listeners in order. */
	private process(event: AgentEvent, signal: AbortSignal): Promise<void> | undefined {
		switch (event.type) {
			case "message_start":
				if ((event.message as { role?: string }).role === "assistant") this.streamingMessage = event.message;
				break;
			case "message_update":
				this.streamingMessage = event.message;
				break;
			case "message_end": {
				this.streamingMessage = undefined;
				this.messages.push(event.message);
				const message = event.message as Partial<Message>;
				if (message.role === "assistant" && message.errorMessage !== undefined) {
					this.errorMessage = message.errorMessage;
				}
				break;
			}
			case "tool_execution_start":
				this.pendingToolCalls.add(event.toolCallId);
				break;
			case "tool_execution_end":
				this.pendingToolCalls.delete(event.toolCallId);
				break;
			case "agent_end":
				this.streamingMessage = undefined;
				break;
		}
		return this.notify(this.listeners, 0, event, signal);
	}

	private notify(
		listeners: AgentListener[],
		from: number,
		event: AgentEvent,
		signal: AbortSignal,
	): Promise<void> | undefined {
		for (let i = from; i < listeners.length; i++) {
			let result: Promise<void> | void;
			try {
				result = listeners[i](event, signal);
			} catch (error) {
				this.onListenerError?.(error, event);
				continue;
			}
			if (result && typeof result.then === "function") {
				return result.then(
					() => this.notify(listeners, i + 1, event, signal),
					(error: unknown) => {
						this.onListenerError?.(error, event);
						return this.notify(listeners, i + 1, event, signal);
					},
				);
			}
		}
		return undefined;
	}

	private createStateView(): AgentState {
		const agent = this;
		return {
			get systemPrompt() {
				return agent.systemPrompt;
			},
			set systemPrompt(value: string) {
				agent.setSystemPrompt(value);
			},
			get model() {
				return agent.model;
			},
			set model(value: Model) {
				agent.setModel(value);
			},
			get thinkingLevel() {
				return agent.thinkingLevel;
			},
			set thinkingLevel(value: ThinkingLevel) {
				agent.setThinkingLevel(value);
			},
			get tools() {
				return agent.tools;
			},
			set tools(value: AnyTool[]) {
				agent.setTools(value);
			},
			get messages() {
				return agent.messages;
			},
			set messages(value: AgentMessage[]) {
				agent.replaceMessages(value);
			},
			get isStreaming() {
				return agent.isStreaming;
			},
			get streamingMessage() {
				return agent.streamingMessage;
			},
			get pendingToolCalls(): ReadonlySet<string> {
				return agent.pendingToolCalls;
			},
			get errorMessage() {
				return agent.errorMessage;
			},
		};
	}
}

function userMessage(text: string, images?: ImageContent[]): UserMessage {
	return { role: "user", content: [{ type: "text", text }, ...(images ?? [])], timestamp: Date.now() };
}

function toMessage(message: AgentMessage | string): AgentMessage {
	return typeof message === "string" ? userMessage(message) : message;
}
