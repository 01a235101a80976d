// The request-shaping half of the extension bridge: what extensions change
// about a run's model requests without touching the session file.
//   context → (prompt and tools put back) → context_with_system → a system
//   prompt forced by before_agent_start; and the messages injected at the
//   start of a run (before_agent_start results, `deliverAs: "nextTurn"`).
import type { AgentMessage, AgentStreamOptions } from "@pi/agent-core";
import { type ImageContent, type Message, type Model, replaySystemState } from "@pi/ai";
import type { ExtensionRunner } from "../extensions/runner.js";
import type { CustomMessageInput } from "../extensions/types.js";
import type { CustomMessage } from "../messages.js";
import type { AgentSession } from "./agent-session.js";

export function customMessage(input: CustomMessageInput): CustomMessage {
	return {
		role: "custom",
		customType: input.customType,
		content: input.content,
		display: input.display,
		...(input.details !== undefined ? { details: input.details } : {}),
		timestamp: Date.now(),
	};
}

export class ExtensionRequestShaper {
	/** `deliverAs: "nextTurn"` messages, sent with the next prompt. */
	private nextTurn: CustomMessage[] = [];
	/** The system prompt a before_agent_start handler forced on the current run. */
	private forcedSystemPrompt: string | undefined;

	constructor(
		private readonly session: AgentSession,
		private readonly runner: ExtensionRunner,
	) {}

	queueNextTurn(message: CustomMessage): void {
		this.nextTurn.push(message);
	}

	/** The run is over: a forced prompt applies to one run only. */
	endRun(): void {
		this.forcedSystemPrompt = undefined;
	}

	/** The prompt the next request carries (`ctx.getSystemPrompt()`). */
	systemPrompt(): string {
		return this.forcedSystemPrompt ?? this.currentSystemPrompt();
	}

	/** context → prompt/tools put back → context_with_system → a forced system prompt. Never touches the session. */
	async transformRequest(messages: AgentMessage[]): Promise<AgentMessage[]> {
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

	/** before_agent_start: the messages to inject ahead of the prompt; may force the run's system prompt. */
	async beforeAgentStart(text: string, images: ImageContent[] | undefined): Promise<AgentMessage[]> {
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
				systemPromptOptions: this.session.getSystemPromptOptions(),
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
}

/**
 * before_provider_headers and provider_stream_event through pi-ai's stream
 * options. The stream observer is looked up when a run starts (the agent
 * copies its stream options then): without a provider_stream_event handler
 * pi-ai does not parse each wire event a second time for nobody.
 */
export function installProviderHooks(streamOptions: AgentStreamOptions, runner: ExtensionRunner): void {
	streamOptions.onHeaders = (headers) => runner.emitBeforeProviderHeaders(headers);
	const observe = async (data: unknown, model: Model) => {
		await runner.emit({
			type: "provider_stream_event",
			provider: model.provider,
			api: model.api,
			model: model.id,
			data,
		});
	};
	Object.defineProperty(streamOptions, "onStreamEvent", {
		configurable: true,
		enumerable: true,
		get: () => (runner.hasHandlers("provider_stream_event") ? observe : undefined),
	});
}
