import {
	type AssistantMessage,
	EventStream,
	type Message,
	type Model,
	type StreamOptions,
	type ThinkingLevel,
} from "@pi/ai";
import type { AgentLoopConfig, AgentLoopTurnUpdate, AgentRequestUpdate, AgentTurnContext } from "./hooks.js";
import { ABORTED_INFO, defaultConvertToLlm, errorText, failedAssistantMessage } from "./messages.js";
import { requestResponse } from "./response.js";
import { SerialEmitter } from "./serial-emitter.js";
import { getDefaultStreamFn } from "./stream-fn.js";
import { describeHookError, executeToolBatch } from "./tool-execution.js";
import type { AgentContext, AgentEvent, AgentEventSink, AgentMessage, AgentToolCall, StreamFn } from "./types.js";

// The two-level loop. Inner: one turn = one request plus its tool batch,
// repeated while tool results or steering messages call for another request.
// Outer: when the run would end, follow-up messages start another inner loop
// in the same run (one agent_start/agent_end, one abort signal).

/** Starts a run with new prompt messages; the returned stream yields its events and resolves the new messages. */
export function agentLoop(
	prompts: AgentMessage[],
	context: AgentContext,
	config: AgentLoopConfig,
	signal?: AbortSignal,
	streamFn?: StreamFn,
): EventStream<AgentEvent, AgentMessage[]> {
	return streamOf((emit) => runAgentLoop(prompts, context, config, emit, signal, streamFn));
}

/**
 * Continues from the context as it is (retry after an error, tool results
 * already present). The last message must not be an assistant message.
 */
export function agentLoopContinue(
	context: AgentContext,
	config: AgentLoopConfig,
	signal?: AbortSignal,
	streamFn?: StreamFn,
): EventStream<AgentEvent, AgentMessage[]> {
	assertContinuable(context);
	return streamOf((emit) => runAgentLoopContinue(context, config, emit, signal, streamFn));
}

/** Like `agentLoop`, delivering events to `emit` (awaited when it returns a promise). Never rejects. */
export function runAgentLoop(
	prompts: AgentMessage[],
	context: AgentContext,
	config: AgentLoopConfig,
	emit: AgentEventSink,
	signal?: AbortSignal,
	streamFn?: StreamFn,
): Promise<AgentMessage[]> {
	return new Run(context, config, emit, signal, streamFn).run(prompts);
}

/** Like `agentLoopContinue`, delivering events to `emit`. Rejects only when the context cannot be continued. */
export async function runAgentLoopContinue(
	context: AgentContext,
	config: AgentLoopConfig,
	emit: AgentEventSink,
	signal?: AbortSignal,
	streamFn?: StreamFn,
): Promise<AgentMessage[]> {
	assertContinuable(context);
	return new Run(context, config, emit, signal, streamFn).run(undefined);
}

function assertContinuable(context: AgentContext): void {
	const last = context.messages[context.messages.length - 1] as { role?: string } | undefined;
	if (!last) throw new Error("Cannot continue: no messages in context");
	if (last.role === "assistant") throw new Error("Cannot continue from message role: assistant");
}

function streamOf(start: (emit: AgentEventSink) => Promise<AgentMessage[]>): EventStream<AgentEvent, AgentMessage[]> {
	const stream = new EventStream<AgentEvent, AgentMessage[]>(
		(event) => event.type === "agent_end",
		(event) => (event.type === "agent_end" ? event.messages : []),
	);
	start((event) => stream.push(event)).then(
		(messages) => stream.end(messages),
		() => stream.end([]),
	);
	return stream;
}

/** Config keys the loop consumes itself; everything else is passed to the stream function. */
const LOOP_KEYS = new Set<string>([
	"model",
	"thinkingLevel",
	"streamFn",
	"apiKey",
	"prepareRequest",
	"transformContext",
	"convertToLlm",
	"getApiKey",
	"beforeToolCall",
	"afterToolCall",
	"finishTurn",
	"prepareNextTurn",
	"getSteeringMessages",
	"getFollowUpMessages",
	"toolExecution",
	"toolAbortGraceMs",
]);

class LoopFailure {
	constructor(readonly message: string) {}
}

class Run {
	private context: AgentContext;
	private model: Model;
	private thinkingLevel: ThinkingLevel;
	private readonly newMessages: AgentMessage[] = [];
	private readonly emitter: SerialEmitter;
	private readonly signal: AbortSignal;
	private readonly streamFn: StreamFn;
	private readonly passThrough: StreamOptions;
	private turnOpen = false;

	constructor(
		context: AgentContext,
		private readonly config: AgentLoopConfig,
		emit: AgentEventSink,
		signal: AbortSignal | undefined,
		streamFn: StreamFn | undefined,
	) {
		this.context = { ...context, messages: context.messages.slice() };
		this.model = config.model;
		this.thinkingLevel = config.thinkingLevel ?? "off";
		this.emitter = new SerialEmitter(emit);
		this.signal = signal ?? new AbortController().signal;
		this.streamFn = streamFn ?? config.streamFn ?? getDefaultStreamFn();
		const passThrough: Record<string, unknown> = {};
		for (const key of Object.keys(config)) {
			if (!LOOP_KEYS.has(key)) passThrough[key] = (config as unknown as Record<string, unknown>)[key];
		}
		this.passThrough = passThrough as StreamOptions;
	}

	async run(prompts: AgentMessage[] | undefined): Promise<AgentMessage[]> {
		try {
			await this.emit({ type: "agent_start" });
			await this.startTurn();
			if (prompts) for (const prompt of prompts) await this.append(prompt);
			await this.loop();
		} catch (error) {
			await this.fail(error);
		}
		await this.emit({ type: "agent_end", messages: this.newMessages });
		await this.emitter.idle();
		return this.newMessages;
	}

	private async loop(): Promise<void> {
		const { config, signal } = this;
		let pending = await this.poll("getSteeringMessages");
		let needRequest = true;
		let firstTurn = true;
		let lastTurn: AgentTurnContext | undefined;
		for (;;) {
			while (needRequest || pending.length > 0) {
				if (!firstTurn) await this.startTurn();
				firstTurn = false;
				for (const message of pending) await this.append(message);
				pending = [];

				const message = signal.aborted ? await this.abortedResponse() : await this.request();
				if (message.stopReason === "error" || message.stopReason === "aborted") {
					// Hard exit: the decision is ignored, and a throw here must not mask the provider error.
					await this.callFinishTurn(this.turnContext(message, [])).catch(() => undefined);
					await this.endTurn(message, []);
					return;
				}

				const toolCalls = message.content.filter((block): block is AgentToolCall => block.type === "toolCall");
				let toolResults: AgentTurnContext["toolResults"] = [];
				let terminate = false;
				if (toolCalls.length > 0) {
					const outcome = await executeToolBatch({
						assistantMessage: message,
						toolCalls,
						context: this.context,
						config,
						signal,
						emit: (event) => this.emitter.emit(event),
						commit: (result) => this.appendSync(result),
					});
					toolResults = outcome.results;
					terminate = outcome.terminate;
					if (outcome.hookError !== undefined) {
						await this.endTurn(message, toolResults);
						throw new LoopFailure(describeHookError(outcome.hookError));
					}
				}

				const turn = this.turnContext(message, toolResults);
				lastTurn = turn;
				let decision: Awaited<ReturnType<Run["callFinishTurn"]>>;
				try {
					decision = await this.callFinishTurn(turn);
				} finally {
					// turn_end always reports the turn's own response, even when the hook failed.
					await this.endTurn(message, toolResults);
				}
				if (decision?.action === "end") return;

				needRequest = toolCalls.length > 0 && !terminate;
				if (signal.aborted) {
					// Queues stay untouched; a pending request becomes the aborted response of the next turn.
					if (!needRequest) return;
					continue;
				}
				pending = await this.poll("getSteeringMessages");
				if (decision?.action === "continue") needRequest = true;
				if (needRequest || pending.length > 0) pending = await this.prepareNextTurn(turn, pending);
			}
			if (signal.aborted) return;
			const followUps = await this.poll("getFollowUpMessages");
			if (followUps.length === 0) return;
			pending = lastTurn ? await this.prepareNextTurn(lastTurn, followUps) : followUps;
		}
	}

	// -- requests --------------------------------------------------------------

	private async request(): Promise<AssistantMessage> {
		const { config, signal } = this;
		if (config.prepareRequest) {
			const update = await this.hook("prepareRequest", () =>
				config.prepareRequest?.(
					{ context: this.context, model: this.model, thinkingLevel: this.thinkingLevel },
					signal,
				),
			);
			this.applyUpdate(update);
		}
		let messages = this.context.messages;
		if (config.transformContext) {
			const transform = config.transformContext;
			messages = await this.hook("transformContext", () => transform(messages, signal));
		}
		const convert = config.convertToLlm ?? defaultConvertToLlm;
		const llmMessages: Message[] = await this.hook("convertToLlm", () => convert(messages));
		let apiKey = config.apiKey;
		if (config.getApiKey) {
			const getApiKey = config.getApiKey;
			apiKey = (await this.hook("getApiKey", () => getApiKey(this.model.provider))) ?? apiKey;
		}
		if (signal.aborted) return this.abortedResponse();
		const options: StreamOptions = { ...this.passThrough, signal };
		if (apiKey !== undefined) options.apiKey = apiKey;
		const thinkingLevel = this.thinkingLevel;
		if (thinkingLevel !== "off") options.reasoning = thinkingLevel;
		return requestResponse({
			streamFn: this.streamFn,
			model: this.model,
			context: { systemPrompt: this.context.systemPrompt, messages: llmMessages, tools: this.context.tools },
			options,
			signal,
			onStart: (partial, atStart) => {
				this.context.messages.push(partial);
				// Listeners may serialise the event later (after awaits); they must see the message as it
				// was at start, not the live partial the stream keeps filling in.
				const content = atStart ? [] : partial.content.map((b) => ({ ...b }));
				const snapshot: AssistantMessage = { ...partial, content };
				if (atStart) {
					// Started, so in flight: no stop reason and no error yet, even if the live partial
					// has already finished by the time this line runs.
					snapshot.stopReason = "pending";
					delete snapshot.errorMessage;
					delete snapshot.errorInfo;
				}
				return this.emitter.emit({ type: "message_start", message: snapshot });
			},
			onUpdate: (partial, event) =>
				this.emitter.emit({ type: "message_update", message: partial, assistantMessageEvent: event }),
			onEnd: (final, started) => {
				// The level this request asked for (1.x session format), unless the stream function
				// recorded the level it really used (a router that picked another model and level).
				final.thinkingLevel ??= thinkingLevel;
				const messages = this.context.messages;
				if (started) messages[messages.length - 1] = final;
				else messages.push(final);
				this.newMessages.push(final);
				return this.emitter.emit({ type: "message_end", message: final });
			},
		});
	}

	/** The response of a turn whose request was not sent because the run was aborted. */
	private async abortedResponse(): Promise<AssistantMessage> {
		const message = failedAssistantMessage(this.model, "aborted", "Request was aborted", ABORTED_INFO);
		await this.append(message);
		return message;
	}

	// -- hooks -----------------------------------------------------------------

	private async hook<T>(name: string, call: () => T | Promise<T>): Promise<T> {
		try {
			return await call();
		} catch (error) {
			throw new LoopFailure(`${name} hook failed: ${errorText(error)}`);
		}
	}

	private applyUpdate(update: AgentRequestUpdate | undefined): void {
		if (!update) return;
		if (update.context) this.context = { ...update.context, messages: update.context.messages.slice() };
		if (update.model) this.model = update.model;
		if (update.thinkingLevel) this.thinkingLevel = update.thinkingLevel;
	}

	private callFinishTurn(turn: AgentTurnContext) {
		const finishTurn = this.config.finishTurn;
		if (!finishTurn) return Promise.resolve(undefined);
		return this.hook("finishTurn", () => finishTurn(turn, this.signal));
	}

	private async prepareNextTurn(turn: AgentTurnContext, pending: AgentMessage[]): Promise<AgentMessage[]> {
		const prepare = this.config.prepareNextTurn;
		if (!prepare) return pending;
		const update: AgentLoopTurnUpdate | undefined = await this.hook("prepareNextTurn", () =>
			prepare(turn, this.signal),
		);
		this.applyUpdate(update);
		return update?.messages?.length ? [...pending, ...update.messages] : pending;
	}

	private async poll(name: "getSteeringMessages" | "getFollowUpMessages"): Promise<AgentMessage[]> {
		const source = this.config[name];
		if (!source) return [];
		return (await this.hook(name, () => source())) ?? [];
	}

	private turnContext(message: AssistantMessage, toolResults: AgentTurnContext["toolResults"]): AgentTurnContext {
		return { message, toolResults, context: this.context, newMessages: this.newMessages };
	}

	// -- events ----------------------------------------------------------------

	private emit(event: AgentEvent): Promise<void> | undefined {
		return this.emitter.emit(event);
	}

	private async startTurn(): Promise<void> {
		this.turnOpen = true;
		await this.emit({ type: "turn_start" });
	}

	private async endTurn(message: AgentMessage, toolResults: AgentTurnContext["toolResults"]): Promise<void> {
		this.turnOpen = false;
		await this.emit({ type: "turn_end", message, toolResults });
	}

	private async append(message: AgentMessage): Promise<void> {
		const pending = this.appendSync(message);
		if (pending) await pending;
	}

	/** Appends a message with its start/end events; returns a promise only when a sink is async. */
	private appendSync(message: AgentMessage): Promise<void> | undefined {
		this.context.messages.push(message);
		this.newMessages.push(message);
		const started = this.emitter.emit({ type: "message_start", message });
		const ended = this.emitter.emit({ type: "message_end", message });
		return ended ?? started;
	}

	/** Ends the run with an error assistant message as its last message, inside a turn. */
	private async fail(error: unknown): Promise<void> {
		const aborted = this.signal.aborted;
		const text = error instanceof LoopFailure ? error.message : errorText(error);
		const message = failedAssistantMessage(
			this.model,
			aborted ? "aborted" : "error",
			text,
			aborted ? ABORTED_INFO : { kind: "unknown", retryable: false },
		);
		if (!this.turnOpen) await this.startTurn();
		await this.append(message);
		await this.endTurn(message, []);
	}
}
