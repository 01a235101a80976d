// The session's model and thinking level: switching (recorded in the session
// as model_change / thinking_level_change entries and saved as defaults),
// cycling through scoped models, clamping levels to what a model supports,
// and the request plumbing for keys and models.json headers.
import type { Agent, StreamFn } from "@pi/agent-core";
import { getDefaultStreamFn } from "@pi/agent-core";
import { clampThinkingLevel, getSupportedThinkingLevels, type Model, type ThinkingLevel } from "@pi/ai";
import { formatNoApiKeyMessage, formatNoModelsMessage } from "../config/auth-guidance.js";
import type { ModelRegistry } from "../config/model-registry.js";
import type { ScopedModel } from "../config/model-resolver.js";
import type { SettingsManager } from "../config/settings.js";
import { isVirtualModel, lastAnsweredBy } from "../config/virtual-models.js";
import type { SessionManager } from "../session/session-manager.js";
import { withLoginCredentials } from "./login-requests.js";
import { type RouteFitter, VirtualRouter } from "./virtual-routing.js";

export interface ModelCycleResult {
	model: Model;
	thinkingLevel: ThinkingLevel;
	/** True when cycling went through the scoped (--models) list. */
	isScoped: boolean;
}

export interface ModelRuntimeOptions {
	agent: Agent;
	registry: ModelRegistry;
	settings: SettingsManager;
	sessionManager: SessionManager;
	agentDir: string;
	scopedModels?: ScopedModel[];
	/** Underlying stream function (tests, proxies); default pi-ai's stream. */
	streamFn?: StreamFn;
	onThinkingLevelChanged?: (level: ThinkingLevel, previous: ThinkingLevel) => void;
}

export class ModelRuntime {
	private current: Model | undefined;
	private level: ThinkingLevel = "off";
	private readonly router: VirtualRouter;
	scopedModels: ScopedModel[];

	constructor(private readonly o: ModelRuntimeOptions) {
		this.scopedModels = o.scopedModels ?? [];
		// Stored account logins resolve their key per request (withLoginCredentials), so a failed
		// refresh is an error event of that request rather than a failed loop hook.
		o.agent.getApiKey = (provider) =>
			o.registry.auth.usesOAuth(provider) ? undefined : o.registry.getApiKey({ provider });
		// Virtual models are routed outermost: everything below sees the physical model.
		this.router = new VirtualRouter({
			registry: o.registry,
			sessionManager: o.sessionManager,
			inner: withLoginCredentials(() => this.streamWithConfiguredHeaders, o.registry.auth),
		});
		o.agent.streamFn = this.router.loopStreamFn;
	}

	/** How a loop request routed to a model too small for the conversation is compacted first (the session sets it). */
	setRouteFit(fit: RouteFitter): void {
		this.router.fit = fit;
	}

	/** The stream function for requests outside the loop (compaction, extensions' complete()). */
	get directStreamFn(): StreamFn {
		return this.router.directStreamFn;
	}

	get model(): Model | undefined {
		return this.current;
	}

	get thinkingLevel(): ThinkingLevel {
		return this.level;
	}

	/** Sets the starting model and level without recording anything (the caller records the session start). */
	initialize(model: Model | undefined, level: ThinkingLevel): void {
		this.current = model;
		this.level = model ? clampThinkingLevel(model, level) : level;
		if (model) this.o.agent.setModel(model);
		this.o.agent.setThinkingLevel(this.level);
	}

	/**
	 * The context window in force (docs/virtual-models.md): the model's own;
	 * for a virtual selection the window of the physical model that produced
	 * the latest response in `messages` (even one from before the switch),
	 * else the window the virtual model declares (0: unknown).
	 */
	contextWindowFor(messages: readonly { role: string }[]): number {
		const model = this.current;
		if (!model) return 0;
		if (!isVirtualModel(model)) return model.contextWindow;
		const answered = lastAnsweredBy(messages);
		const physical = answered && this.o.registry.find(answered.provider, answered.modelId);
		return physical && !isVirtualModel(physical) ? physical.contextWindow : model.contextWindow;
	}

	/** The model whose limits judge `reply`: for a virtual selection, the physical model that sent it. */
	replyModel(reply: { provider: string; model: string }): Model | undefined {
		const model = this.current;
		if (!model || !isVirtualModel(model)) return model;
		const physical = this.o.registry.find(reply.provider, reply.model);
		return physical && !isVirtualModel(physical) ? physical : model;
	}

	/** The registry models are looked up in (RPC set_model, model lists). */
	get registry(): ModelRegistry {
		return this.o.registry;
	}

	/**
	 * After switching to another session: take the model and level it recorded,
	 * without recording anything. An unknown model, or one without credentials,
	 * falls back to `answeredBy` (the physical model of the latest response),
	 * else leaves the current model in place (the level is still clamped to it).
	 */
	restore(provider: string, modelId: string, level: string, answeredBy?: { provider: string; modelId: string }): void {
		const usableModel = (p: string, id: string) => {
			const model = this.o.registry.find(p, id);
			return model && this.o.registry.hasAuth(model) ? model : undefined;
		};
		// A virtual model that is no longer registered: the physical model that answered last (1.6.0).
		const usable =
			usableModel(provider, modelId) ??
			(answeredBy ? usableModel(answeredBy.provider, answeredBy.modelId) : undefined) ??
			this.current;
		this.initialize(usable, (level as ThinkingLevel) || this.level);
	}

	/** Throws with guidance when the model cannot be used (none, or no credentials). */
	assertUsable(): Model {
		const model = this.current;
		if (!model) throw new Error(formatNoModelsMessage(this.o.agentDir));
		if (!this.o.registry.hasAuth(model)) throw new Error(formatNoApiKeyMessage(model.provider, this.o.agentDir));
		return model;
	}

	/** Switches model: recorded in the session and saved as the default; the level is re-clamped. */
	setModel(model: Model): void {
		if (!this.o.registry.hasAuth(model)) throw new Error(formatNoApiKeyMessage(model.provider, this.o.agentDir));
		this.current = model;
		this.o.agent.setModel(model);
		this.o.sessionManager.appendModelChange(model.provider, model.id);
		this.o.settings.setDefaultModelAndProvider(model.provider, model.id);
		this.setThinkingLevel(this.level, false);
	}

	/** Available levels for the current model. */
	getAvailableThinkingLevels(): ThinkingLevel[] {
		return this.current ? getSupportedThinkingLevels(this.current) : ["off"];
	}

	/**
	 * Sets the level (clamped to the model). A change is recorded in the session
	 * and, when `saveDefault`, saved as the default level. Returns the level in force.
	 */
	setThinkingLevel(level: ThinkingLevel, saveDefault = true): ThinkingLevel {
		const next = this.current ? clampThinkingLevel(this.current, level) : level;
		const previous = this.level;
		const changed = next !== previous;
		this.level = next;
		this.o.agent.setThinkingLevel(next);
		if (changed) {
			this.o.sessionManager.appendThinkingLevelChange(next);
			this.o.onThinkingLevelChanged?.(next, previous);
		}
		if (saveDefault && this.current?.reasoning) this.o.settings.setDefaultThinkingLevel(next);
		return next;
	}

	cycleThinkingLevel(): ThinkingLevel | undefined {
		const levels = this.getAvailableThinkingLevels();
		if (levels.length <= 1) return undefined;
		const i = levels.indexOf(this.level);
		return this.setThinkingLevel(levels[(i + 1) % levels.length]);
	}

	/** Next (or previous) model among the scoped models, else among models with credentials. */
	cycleModel(direction: "forward" | "backward" = "forward"): ModelCycleResult | undefined {
		const isScoped = this.scopedModels.length > 0;
		const pool: ScopedModel[] = isScoped
			? this.scopedModels.filter((s) => this.o.registry.hasAuth(s.model))
			: this.o.registry.getAvailable().map((model) => ({ model }));
		if (pool.length <= 1) return undefined;
		const cur = this.current;
		const i = cur ? pool.findIndex((s) => s.model.provider === cur.provider && s.model.id === cur.id) : -1;
		const step = direction === "forward" ? 1 : -1;
		const next = pool[(i + step + pool.length) % pool.length];
		this.setModel(next.model);
		const thinkingLevel = next.thinkingLevel ? this.setThinkingLevel(next.thinkingLevel) : this.level;
		return { model: next.model, thinkingLevel, isScoped };
	}

	/** Adds models.json headers (and the bearer header when configured) to every request. */
	private readonly streamWithConfiguredHeaders: StreamFn = async (model, context, options) => {
		const base = this.o.streamFn ?? getDefaultStreamFn();
		const auth = this.o.registry.auth;
		// An extension provider's native auth resolved headers and an endpoint with the key (OAuth
		// logins add theirs in withLoginCredentials).
		const resolved = auth.usesOAuth(model.provider) ? undefined : auth.getRequestExtras(model.provider);
		const target = resolved?.baseUrl ? { ...model, baseUrl: resolved.baseUrl } : model;
		const configured = await this.o.registry.getRequestHeaders(model, options?.apiKey);
		const headers = configured || resolved?.headers ? { ...resolved?.headers, ...configured } : undefined;
		return base(target, context, headers ? { ...options, headers: { ...headers, ...options?.headers } } : options);
	};
}
