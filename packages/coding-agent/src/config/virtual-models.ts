// Virtual models: selectable catalog entries that pick a physical model (and
// thinking level) for each request. The selection (`model_change`,
// `session.model`, `ctx.model`) may name one; everything below the routing
// step — providers, assistant messages — sees only physical models. The
// registry lists them; ModelRuntime routes them (agent-session/virtual-routing.ts).
import { type AssistantMessage, type Message, type Model, THINKING_LEVELS, type ThinkingLevel } from "@pi/ai";

/** API id of virtual catalog entries. A request for it never reaches a provider unrouted. */
export const VIRTUAL_MODEL_API = "pi-virtual";

/** Custom entry type that keeps a router's state on the session branch. */
export const VIRTUAL_MODEL_STATE_ENTRY = "pi.virtual-model-state";

/** Data of a `pi.virtual-model-state` custom entry. */
export interface VirtualModelStateData<TState = unknown> {
	provider: string;
	modelId: string;
	state: TState;
}

/**
 * Why a request is routed: `user` (first request after a user message),
 * `continuation` (any other request of the loop, e.g. after tool results),
 * `retry` (after a failed request), `direct` (outside the loop: compaction
 * summaries, an extension's `ctx.modelRegistry.complete()`).
 */
export type ModelRouteReason = "user" | "continuation" | "retry" | "direct";

export interface ModelRouteRequest<TState = unknown> {
	/** The selected virtual model. */
	model: Model;
	/** The selected level; its meaning is up to the router. */
	thinkingLevel: ThinkingLevel;
	reason: ModelRouteReason;
	/** Physical model and level of the latest successful response in `messages`. */
	previous?: { model: Model; thinkingLevel?: ThinkingLevel };
	/** For `retry`: the failed request (no longer in `messages`). */
	failed?: { model: Model; thinkingLevel?: ThinkingLevel; message: AssistantMessage };
	/** State the router last returned on this branch; undefined before any and for `direct` requests. */
	state?: TState;
	/** The conversation of this request. */
	messages: readonly Message[];
	signal?: AbortSignal;
}

export interface ModelRoute<TState = unknown> {
	model: Model;
	thinkingLevel: ThinkingLevel;
	/** New state (JSON), stored on the branch unless it is `request.state` itself or undefined. */
	state?: TState;
}

export interface VirtualModelDefinition<TState = unknown> {
	/** Provider the model is listed under; it may also list physical models. */
	provider: string;
	/** Must not be the id of a physical model of `provider` (the virtual one hides it). */
	id: string;
	name: string;
	/** Levels offered for selection; default `["off"]`. */
	thinkingLevels?: readonly ThinkingLevel[];
	/** Limits shown before the first response; unset is unknown (0). */
	contextWindow?: number;
	maxTokens?: number;
	/** Input types offered; default text and images. */
	input?: ("text" | "image")[];
	route(request: ModelRouteRequest<TState>): ModelRoute<TState> | Promise<ModelRoute<TState>>;
}

export function isVirtualModel(model: { api: string } | undefined): boolean {
	return model?.api === VIRTUAL_MODEL_API;
}

/** The catalog entry of a virtual model: its levels become the supported levels of the entry. */
export function createVirtualModel(definition: Omit<VirtualModelDefinition, "route">): Model {
	const levels = new Set<ThinkingLevel>(definition.thinkingLevels?.length ? definition.thinkingLevels : ["off"]);
	const thinkingLevelMap: Partial<Record<ThinkingLevel, string | null>> = {};
	for (const level of THINKING_LEVELS) thinkingLevelMap[level] = levels.has(level) ? level : null;
	return {
		id: definition.id,
		name: definition.name,
		api: VIRTUAL_MODEL_API,
		provider: definition.provider,
		baseUrl: "",
		reasoning: [...levels].some((l) => l !== "off"),
		thinkingLevelMap,
		input: definition.input ?? ["text", "image"],
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
		contextWindow: definition.contextWindow ?? 0,
		maxTokens: definition.maxTokens ?? 0,
	};
}

/** Checks a definition before it is registered; the message names what is wrong. */
export function validateVirtualModel(definition: unknown, where: string): VirtualModelDefinition {
	const d = definition as Partial<VirtualModelDefinition> | undefined;
	const problem =
		!d || typeof d !== "object"
			? "needs a definition object"
			: typeof d.provider !== "string" || !d.provider
				? "needs a provider"
				: typeof d.id !== "string" || !d.id
					? "needs an id"
					: typeof d.route !== "function"
						? `"${d.provider}/${d.id}" needs a route(request, ctx) function`
						: undefined;
	if (problem) throw new Error(`registerVirtualModel ${problem} (${where})`);
	const v = d as VirtualModelDefinition;
	return { ...v, name: typeof v.name === "string" && v.name ? v.name : v.id };
}

/**
 * The physical model of the latest successful response among `messages`: a
 * resumed session whose virtual model is no longer registered falls back to it.
 */
export function lastAnsweredBy(
	messages: readonly { role: string }[],
): { provider: string; modelId: string } | undefined {
	for (let i = messages.length - 1; i >= 0; i--) {
		const m = messages[i] as { role: string; stopReason?: string; provider?: string; model?: string; api?: string };
		if (m.role !== "assistant" || m.stopReason === "error" || m.stopReason === "aborted") continue;
		if (!m.provider || !m.model || m.api === VIRTUAL_MODEL_API) continue;
		return { provider: m.provider, modelId: m.model };
	}
	return undefined;
}

/**
 * The model a resumed session selects. The projection names the latest of
 * `model_change` and assistant message; but assistant messages name the
 * physical model a router picked, so when the latest `model_change` names a
 * virtual model that is registered, that selection is restored instead
 * (1.6.0). When it is not registered the projection's model — the physical
 * model that answered last — stays.
 */
export function restoredSelection(
	branch: readonly { type: string; provider?: string; modelId?: string }[],
	projected: { provider: string; modelId: string } | null | undefined,
	find: (provider: string, id: string) => { api: string } | undefined,
): { provider: string; modelId: string } | undefined {
	for (let i = branch.length - 1; i >= 0; i--) {
		const e = branch[i];
		if (e.type !== "model_change" || !e.provider || !e.modelId) continue;
		if (isVirtualModel(find(e.provider, e.modelId))) return { provider: e.provider, modelId: e.modelId };
		break;
	}
	return projected ?? undefined;
}
