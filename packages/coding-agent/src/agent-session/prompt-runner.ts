// From a prompt to a settled run. A typed prompt goes through the input
// pipeline (src/input/: extension command, `input` event, skill command,
// prompt template, `before_agent_start`); while a run is active it is queued
// as steering or follow-up, or refused. A run starts with the system prompt
// and tools recorded under the prompt's sync hold and ends when recovery
// (retry, overflow compaction, queued messages) has settled; a write that
// failed during it is rethrown then.
import type { Agent, AgentMessage } from "@pi/agent-core";
import type { ImageContent, UserMessage } from "@pi/ai";
import type { InputPipeline } from "../input/pipeline.js";
import type { InputSource, PromptInput } from "../input/types.js";
import type { DeferredSync } from "./deferred-sync.js";
import type { MessageRecorder } from "./message-recorder.js";
import type { ModelRuntime } from "./model-runtime.js";
import type { QueueReport } from "./queue-report.js";
import type { RunRecovery } from "./recovery/recovery.js";
import type { UserBash } from "./user-bash.js";

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

export interface PromptRunnerOptions {
	agent: Agent;
	input: InputPipeline;
	models: Pick<ModelRuntime, "assertUsable">;
	recovery: RunRecovery;
	userBash: UserBash;
	deferredSync: DeferredSync;
	recorder: MessageRecorder;
	queue: QueueReport;
	/** Records the system prompt and tool declarations if they changed. */
	recordSystemPrompt: () => void;
}

export class PromptRunner {
	/** A prompt is on its way through the input pipeline to the run. */
	private starting = false;

	constructor(private readonly o: PromptRunnerOptions) {}

	get isStreaming(): boolean {
		return this.starting || this.o.agent.state.isStreaming || this.o.recovery.isSettling;
	}

	/** See AgentSession.prompt. */
	async prompt(text: string, options: PromptOptions = {}): Promise<void> {
		const { input: pipeline } = this.o;
		const source = options.source ?? "interactive";
		const expandPromptTemplates = options.expandPromptTemplates !== false;
		const behavior = options.streamingBehavior;
		// Extension command and `input` event first, while the session is not
		// yet marked busy: a command may start runs of its own (sendUserMessage).
		// Without extension stages nothing is awaited here, so the session is busy in the same tick.
		const early = !pipeline.has("extensionCommand", "inputEvent")
			? { handled: false as const, input: { text, images: options.images } }
			: await pipeline.process(
					{ text, images: options.images },
					{ source, expandPromptTemplates, ...(this.isStreaming && behavior ? { streamingBehavior: behavior } : {}) },
					"extensionCommand",
					"inputEvent",
				);
		if (early.handled) return;
		if (this.isStreaming) {
			if (!behavior) throw new AgentSessionBusyError();
			const queued = await pipeline.process(
				early.input,
				{ source, expandPromptTemplates, streamingBehavior: behavior },
				"skillCommand",
			);
			return queued.handled ? undefined : this.enqueue(behavior, queued.input);
		}
		// Running from here on (a second prompt in the same tick is refused or queued).
		this.starting = true;
		try {
			const outcome = await pipeline.process(early.input, { source, expandPromptTemplates }, "skillCommand");
			if (outcome.handled) return;
			const input = outcome.input;
			await this.beginRun();
			const injected = await pipeline.beforeAgentStart(input);
			const message = userMessage(input.text, input.images);
			await this.o.agent.prompt(injected.length > 0 ? [message, ...injected] : message);
			await this.o.recovery.settle();
		} finally {
			this.starting = false;
			this.syncAfterRun();
		}
		this.endRun();
	}

	/** See AgentSession.promptMessages. */
	async promptMessages(messages: AgentMessage[]): Promise<void> {
		if (this.isStreaming) throw new AgentSessionBusyError();
		try {
			await this.beginRun();
			await this.o.agent.prompt(messages);
			await this.o.recovery.settle();
		} finally {
			this.syncAfterRun();
		}
		this.endRun();
	}

	/** Queues `kind` through the skill stage (steer / followUp while a run is active). */
	async queueInput(kind: "steer" | "followUp", text: string, images?: ImageContent[]): Promise<void> {
		const outcome = await this.o.input.process(
			{ text, images },
			{ source: "interactive", streamingBehavior: kind },
			"skillCommand",
		);
		if (!outcome.handled) await this.enqueue(kind, outcome.input);
	}

	private async enqueue(kind: "steer" | "followUp", input: PromptInput): Promise<void> {
		this.o.agent[kind](userMessage(input.text, input.images));
		await this.o.queue.emitIfChanged();
	}

	/** Usable model, no earlier failure, user commands flushed, recovery ready, sync hold open, prompt recorded. */
	private async beginRun(): Promise<void> {
		this.o.models.assertUsable();
		this.o.recorder.reset();
		this.o.userBash.flush();
		await this.o.recovery.beforePrompt();
		this.o.deferredSync.open();
		this.o.recordSystemPrompt();
	}

	/** The hold's end when the run ended before recording a message: a failed sync is the run's failure. */
	private syncAfterRun(): void {
		const error = this.o.deferredSync.closeAfterRun();
		if (error) this.o.recorder.fail(error);
	}

	private endRun(): void {
		this.o.userBash.flush(); // user commands that finished during the run
		if (this.o.recorder.failure) throw this.o.recorder.failure;
	}
}

function userMessage(text: string, images?: ImageContent[]): UserMessage {
	const content: UserMessage["content"] = [{ type: "text", text }];
	for (const image of images ?? []) content.push(image);
	return { role: "user", content, timestamp: Date.now() };
}
