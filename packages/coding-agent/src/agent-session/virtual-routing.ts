// Routes requests made with a virtual model to the physical model its router
// picks. Sits outermost in the session's stream function: the router sees the
// selection (virtual model, level), the provider sees only the physical pair,
// and the assistant message records the physical model and level. A router
// that throws or picks an unusable model ends the request with an error event.
import type { StreamFn } from "@pi/agent-core";
import {
	type AssistantMessage,
	AssistantMessageEventStream,
	clampThinkingLevel,
	failedStream,
	type Message,
	type Model,
	type ThinkingLevel,
} from "@pi/ai";
import type { ModelRegistry } from "../config/model-registry.js";
import {
	isVirtualModel,
	type ModelRoute,
	type ModelRouteReason,
	VIRTUAL_MODEL_STATE_ENTRY,
	type VirtualModelStateData,
} from "../config/virtual-models.js";
import { isStandInUserMessage } from "../messages.js";
import type { SessionManager } from "../session/session-manager.js";

export interface VirtualRouterDeps {
	registry: ModelRegistry;
	sessionManager: SessionManager;
	/** The stream function below routing (login credentials, configured headers). */
	inner: StreamFn;
}

/** Compacts when the routed model's window is too small; the compacted provider messages, or undefined. */
export type RouteFitter = (target: Model, signal?: AbortSignal) => Promise<Message[] | undefined>;

interface FailedRequest {
	model: Model;
	thinkingLevel?: ThinkingLevel;
	message: AssistantMessage;
	/** The last message of the failed request's context: a retry sends the same one again. */
	anchor: string;
}

function describe(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

function anchorOf(messages: readonly Message[]): string {
	const last = messages[messages.length - 1];
	return last ? `${last.role}:${last.timestamp}:${messages.length}` : "";
}

export class VirtualRouter {
	private failed: FailedRequest | undefined;
	/** Set by the session (it owns compaction); loop requests only — a summary request is never fitted. */
	fit: RouteFitter | undefined;

	constructor(private readonly d: VirtualRouterDeps) {}

	/** The stream function of the agent loop (`user`/`continuation`/`retry` requests). */
	readonly loopStreamFn: StreamFn = (model, context, options) => this.stream("loop", model, context, options);

	/** For requests outside the loop (compaction, extensions' complete()): reason `direct`, no state. */
	readonly directStreamFn: StreamFn = (model, context, options) => this.stream("direct", model, context, options);

	private async stream(
		mode: "loop" | "direct",
		model: Model,
		context: Parameters<StreamFn>[1],
		options: Parameters<StreamFn>[2],
	): Promise<AssistantMessageEventStream> {
		if (!isVirtualModel(model)) return this.d.inner(model, context, options);
		const name = `${model.provider}/${model.id}`;
		const definition = this.d.registry.getVirtualDefinition(model);
		if (!definition) {
			return failedStream(model, `Virtual model "${name}" is not registered (its extension is not loaded)`, {
				kind: "bad_request",
				code: "virtual_model_unregistered",
				retryable: false,
			});
		}
		const messages = context.messages;
		const anchor = anchorOf(messages);
		let reason: ModelRouteReason = "direct";
		let failed: FailedRequest | undefined;
		if (mode === "loop") {
			if (this.failed?.anchor === anchor) {
				reason = "retry";
				failed = this.failed;
			} else {
				// A custom message (sendMessage with triggerTurn), a `!` command's output or a summary ends
				// the context as a user-role message too, but nobody wrote it: that request is a continuation.
				const last = messages[messages.length - 1];
				reason = last?.role === "user" && !isStandInUserMessage(last) ? "user" : "continuation";
			}
			this.failed = undefined;
		}
		const state = mode === "loop" ? this.readState(model) : undefined;
		let route: ModelRoute;
		try {
			route = await definition.route({
				model,
				thinkingLevel: options?.reasoning ?? "off",
				reason,
				previous: this.previous(messages),
				...(failed
					? { failed: { model: failed.model, thinkingLevel: failed.thinkingLevel, message: failed.message } }
					: {}),
				state,
				messages,
				signal: options?.signal,
			});
		} catch (error) {
			return failedStream(model, `Virtual model "${name}" could not route the request: ${describe(error)}`, {
				kind: "unknown",
				code: "virtual_route_failed",
				retryable: false,
			});
		}
		const target = route?.model;
		const problem = !target
			? "returned no model"
			: isVirtualModel(target)
				? `returned the virtual model "${target.provider}/${target.id}" (a virtual model routes only to physical ones)`
				: !this.d.registry.hasAuth(target)
					? `returned "${target.provider}/${target.id}", which has no credentials`
					: undefined;
		if (problem || !target) {
			return failedStream(model, `Virtual model "${name}" ${problem}`, {
				kind: "bad_request",
				code: "virtual_route_invalid",
				retryable: false,
			});
		}
		if (mode === "loop" && route.state !== undefined && route.state !== state) {
			const data: VirtualModelStateData = { provider: model.provider, modelId: model.id, state: route.state };
			this.d.sessionManager.appendCustomEntry(VIRTUAL_MODEL_STATE_ENTRY, data);
		}
		const level = clampThinkingLevel(target, route.thinkingLevel ?? "off");
		const apiKey = this.d.registry.auth.usesOAuth(target.provider)
			? undefined
			: await this.d.registry.getApiKey(target);
		const routedOptions = { ...options, apiKey, reasoning: level === "off" ? undefined : level };
		// The conversation must fit the model the router chose: compact first if it does not.
		const fitted = mode === "loop" && this.fit ? await this.fit(target, options?.signal) : undefined;
		const routedContext = fitted ? { ...context, messages: fitted } : context;
		const inner = await this.d.inner(target, routedContext, routedOptions);
		return this.relay(inner, level, (final) => {
			if (mode === "loop" && final.stopReason === "error")
				this.failed = { model: target, thinkingLevel: level, message: final, anchor };
		});
	}

	/** Physical model and level of the latest successful response among `messages`. */
	private previous(messages: readonly Message[]): { model: Model; thinkingLevel?: ThinkingLevel } | undefined {
		for (let i = messages.length - 1; i >= 0; i--) {
			const m = messages[i];
			if (m.role !== "assistant" || m.stopReason === "error" || m.stopReason === "aborted") continue;
			const model = this.d.registry.find(m.provider, m.model);
			if (!model || isVirtualModel(model)) continue;
			return { model, ...(m.thinkingLevel ? { thinkingLevel: m.thinkingLevel } : {}) };
		}
		return undefined;
	}

	/** The router state last stored on the current branch for this virtual model. */
	private readState(model: Model): unknown {
		// Only the custom entries: the rest of a resumed branch stays on disk.
		const branch = this.d.sessionManager.getBranchEntries("custom");
		for (let i = branch.length - 1; i >= 0; i--) {
			const e = branch[i];
			if (e.customType !== VIRTUAL_MODEL_STATE_ENTRY) continue;
			const data = e.data as VirtualModelStateData | undefined;
			if (data?.provider === model.provider && data.modelId === model.id) return data.state;
		}
		return undefined;
	}

	/** Passes the physical stream on, recording the routed level on its final message. */
	private relay(
		inner: AssistantMessageEventStream,
		level: ThinkingLevel,
		onEnd: (final: AssistantMessage) => void,
	): AssistantMessageEventStream {
		const out = new AssistantMessageEventStream();
		void (async () => {
			for await (const event of inner) {
				if (event.type === "done") {
					event.message.thinkingLevel = level;
					onEnd(event.message);
				} else if (event.type === "error") {
					event.error.thinkingLevel = level;
					onEnd(event.error);
				}
				out.push(event);
			}
			if (!out.isFinished) out.end(await inner.result());
		})();
		return out;
	}
}
