// The model catalog as Pi sees it: pi-ai's built-in models plus models.json,
// and which of them have credentials. models.json provider `apiKey`/`headers`
// values may be literal, an env var name or `!command`; they are resolved
// only when a request is made. Keys live in the AuthStorage; the registry
// hands it the models.json keys as the last source in the lookup order.

import { dirname, join } from "node:path";
import {
	builtinModels,
	formatModelsConfigIssue,
	isLoopbackUrl,
	loadModelsJson,
	type Model,
	type ModelsConfigProvider,
	type ModelType,
} from "@pi/ai";
import type { AuthStorage } from "./auth.js";
import { peekConfigValue, resolveConfigValue } from "./config-value.js";
import { readConfigText } from "./json-file.js";
import { resolveConfiguredLocalModel, scanLocalModels } from "./local-models.js";
import { ModelRefreshers } from "./model-refresh.js";
import { type AnyModel, modelTypeOf, OperationModels } from "./operation-models.js";
import { agentPaths, getAgentDir } from "./paths.js";
import { createVirtualModel, isVirtualModel, type VirtualModelDefinition } from "./virtual-models.js";

export interface ModelRegistryOptions {
	/** models.json path; undefined for built-in models only. */
	modelsPath?: string;
	/** The built-in models (default: pi-ai's catalog, its shared objects: the registry never changes a model, it replaces it). */
	builtins?: () => readonly Model[];
	env?: NodeJS.ProcessEnv;
	shell?: string;
	/** GGUF files here become `local/<name>` models (default: `models/` next to models.json). */
	localModelsDir?: string;
}

export class ModelRegistry {
	private models: Model[] = [];
	/**
	 * this.models by provider, built on first need after a change (changed() drops it): the
	 * per-provider questions (has a key? only virtual? embedded?) are asked for every provider
	 * of the catalog on the start-up path, and each used to scan all of its ~700 models.
	 */
	private byProvider: Map<string, Model[]> | undefined;
	private providers: Record<string, ModelsConfigProvider> = {};
	private errors: string[] = [];
	private warnings: string[] = [];
	private readonly extraModels: Model[] = [];
	/** Virtual models by `provider/id`; listed over any physical model of the same id. */
	private readonly virtual = new Map<string, { definition: VirtualModelDefinition; model: Model }>();
	/** Providers whose model list comes from a live service (extensions' refreshModels). */
	readonly refreshers: ModelRefreshers;
	/** Image and classifier models, their implementations, and providers' availability filters. */
	readonly operations: OperationModels;

	constructor(
		readonly auth: AuthStorage,
		private readonly options: ModelRegistryOptions = {},
	) {
		this.refreshers = new ModelRefreshers(
			options.modelsPath ? join(dirname(options.modelsPath), "provider-models.json") : undefined,
		);
		this.operations = new OperationModels({
			credential: (provider) => this.auth.filterCredential(provider),
			// As a chat request gets them: the key (its source's endpoint and headers), models.json
			// headers, and the provider environment a key login stored with the key.
			requestAuth: async (model) => {
				const apiKey = await this.getApiKey(model);
				const extras = this.auth.getRequestExtras(model.provider);
				const configured = await this.getRequestHeaders(model, apiKey);
				const headers = { ...model.headers, ...configured, ...extras?.headers };
				const stored = this.auth.get(model.provider);
				const env = stored?.type === "api_key" ? stored.env : undefined;
				return {
					apiKey,
					...(Object.keys(headers).length > 0 ? { headers } : {}),
					...(extras?.baseUrl ? { baseUrl: extras.baseUrl } : {}),
					...(env ? { env } : {}),
				};
			},
		});
		auth.setFallbackKeySource({
			has: (provider) =>
				typeof this.providers[provider]?.apiKey === "string" ||
				this.isKeylessLocal(provider) ||
				this.isEmbedded(provider),
			get: async (provider) => {
				const value = this.providers[provider]?.apiKey;
				return value === undefined ? undefined : this.resolve(value, `the "${provider}" apiKey in models.json`);
			},
			peek: (provider) => {
				const value = this.providers[provider]?.apiKey;
				return typeof value === "string" ? peekConfigValue(value, this.options.env) : undefined;
			},
		});
		this.reload();
	}

	/** Registry over `<agentDir>/models.json` (or the given path) and the built-in catalog. */
	static create(auth: AuthStorage, modelsPath?: string, options: Omit<ModelRegistryOptions, "modelsPath"> = {}) {
		const path = modelsPath ?? agentPaths(getAgentDir()).models;
		return new ModelRegistry(auth, { localModelsDir: join(dirname(path), "models"), ...options, modelsPath: path });
	}

	/** Built-in models only. */
	static inMemory(auth: AuthStorage, options: Omit<ModelRegistryOptions, "modelsPath"> = {}): ModelRegistry {
		return new ModelRegistry(auth, options);
	}

	/** Re-reads models.json. Problems are collected in `getErrors()`; everything else stays usable. */
	reload(): void {
		this.errors = [];
		this.warnings = [];
		this.providers = {};
		const builtins = (this.options.builtins ?? builtinModels)();
		const file = this.options.modelsPath;
		const text = file ? this.readText(file) : undefined;
		this.changed();
		if (file === undefined || text === undefined) {
			this.models = [...builtins];
		} else {
			const result = loadModelsJson(text, builtins, { source: file });
			this.models = result.models;
			this.providers = result.providers;
			this.errors.push(...result.errors.map(formatModelsConfigIssue));
			this.warnings.push(...result.warnings.map(formatModelsConfigIssue));
			this.models = this.models.map((m) => resolveConfiguredLocalModel(m, file));
		}
		if (this.options.localModelsDir) {
			const local = scanLocalModels(this.options.localModelsDir);
			for (const model of local.models) {
				if (this.find(model.provider, model.id)) continue;
				this.models.push(model);
				this.changed();
			}
			this.errors.push(...local.warnings);
		}
		for (const extra of this.extraModels) this.upsert(extra);
		for (const { model } of this.virtual.values()) this.upsert(model);
	}

	/**
	 * A server of the user's own (a models.json provider that is not a built-in
	 * one) on this machine, configured without a key: Ollama, llama.cpp, LM
	 * Studio and vLLM accept requests without one, so it is usable as is. No key
	 * is made up here; pi-ai sends its placeholder to loopback hosts.
	 */
	private isKeylessLocal(provider: string): boolean {
		const cfg = this.providers[provider];
		if (!cfg || cfg.builtin || cfg.apiKey !== undefined) return false;
		const models = this.modelsOf(provider);
		return models.length > 0 && models.every((m) => isLoopbackUrl(m.baseUrl));
	}

	/** Embedded (llama-cpp) models run in this process: nothing to authenticate. */
	private isEmbedded(provider: string): boolean {
		const models = this.modelsOf(provider);
		return models.length > 0 && models.every((m) => m.api === "llama-cpp");
	}

	/** this.models changed: the by-provider index is rebuilt when next asked. */
	private changed(): void {
		this.byProvider = undefined;
	}

	/** The models of `provider`, in list order (empty when it has none). */
	private modelsOf(provider: string): readonly Model[] {
		if (!this.byProvider) {
			const index = new Map<string, Model[]>();
			for (const m of this.models) {
				const list = index.get(m.provider);
				if (list) list.push(m);
				else index.set(m.provider, [m]);
			}
			this.byProvider = index;
		}
		return this.byProvider.get(provider) ?? [];
	}

	private readText(file: string): string | undefined {
		const read = readConfigText(file);
		if (read.kind === "unusable") this.errors.push(`${file} ${read.reason}; using the built-in models only.`);
		return read.kind === "ok" ? read.text : undefined;
	}

	private resolve(value: string, label: string): Promise<string> {
		return resolveConfigValue(value, { env: this.options.env, shell: this.options.shell, label });
	}

	private upsert(model: Model): void {
		const i = this.models.findIndex((m) => m.provider === model.provider && m.id === model.id);
		// A virtual model hides a physical one of the same id, whichever came first.
		if (i >= 0 && isVirtualModel(this.models[i]) && !isVirtualModel(model)) return;
		if (i >= 0) this.models[i] = model;
		else this.models.push(model);
		this.changed();
	}

	/** Adds or replaces a model at runtime (extensions' registerProvider); survives reload(). */
	registerModel(model: Model): void {
		const i = this.extraModels.findIndex((m) => m.provider === model.provider && m.id === model.id);
		if (i >= 0) this.extraModels[i] = model;
		else this.extraModels.push(model);
		this.upsert(model);
	}

	/** Removes the runtime models of `provider` (extensions' unregisterProvider); built-ins it replaced come back. */
	unregisterProvider(provider: string): void {
		this.operations.removeProvider(provider);
		const kept = this.extraModels.filter((m) => m.provider !== provider);
		if (kept.length === this.extraModels.length) return;
		this.extraModels.splice(0, this.extraModels.length, ...kept);
		this.reload();
	}

	/**
	 * Adds (or replaces) a virtual model: listed under its provider like any
	 * model, routed per request by ModelRuntime. It hides a physical model of the
	 * same id; unregisterProvider leaves it in place.
	 */
	registerVirtualModel(definition: VirtualModelDefinition): Model {
		const model = createVirtualModel(definition);
		const key = `${definition.provider}/${definition.id}`;
		const replaced = this.virtual.has(key);
		this.virtual.set(key, { definition, model });
		if (replaced) this.reload();
		else this.upsert(model);
		return model;
	}

	/** Removes a virtual model; a physical model it hid comes back. */
	unregisterVirtualModel(provider: string, id: string): void {
		if (this.virtual.delete(`${provider}/${id}`)) this.reload();
	}

	/** The router of a virtual catalog entry (undefined for physical or unregistered ones). */
	getVirtualDefinition(model: Pick<Model, "provider" | "id" | "api">): VirtualModelDefinition | undefined {
		return isVirtualModel(model) ? this.virtual.get(`${model.provider}/${model.id}`)?.definition : undefined;
	}

	/**
	 * Re-reads the model lists of dynamic providers (all, or `options.providers`)
	 * concurrently. Failures are returned per provider, never thrown.
	 */
	refresh(options: Parameters<ModelRefreshers["refresh"]>[0] = {}): ReturnType<ModelRefreshers["refresh"]> {
		return this.refreshers.refresh(options);
	}

	/** models.json problems that made something be skipped (each names file and position or field). */
	getErrors(): string[] {
		return [...this.errors];
	}

	/** models.json settings that were ignored. */
	getWarnings(): string[] {
		return [...this.warnings];
	}

	/** Every known model, whether or not it has credentials. */
	getAll(): Model[] {
		return [...this.models];
	}

	/**
	 * Models whose provider has some credential configured (a virtual-only
	 * provider needs none), as the provider's `filterModels` leaves them for
	 * its stored credential.
	 */
	getAvailable(): Model[] {
		// Asked once per provider: each answer scans the models (keyless local, embedded, virtual-only),
		// so asking per model was quadratic in the catalog (~190 ms of a -p start-up at load 19).
		const byProvider = new Map<string, boolean>();
		const available = this.models.filter((m) => {
			let ok = byProvider.get(m.provider);
			if (ok === undefined) {
				ok = this.hasAuth(m);
				byProvider.set(m.provider, ok);
			}
			return ok;
		});
		const filtered = new Map<string, Set<Model>>();
		for (const [provider, ok] of byProvider) {
			// Most providers have no filter: skip the per-provider pass (getAvailable is on the -p start-up path).
			if (!ok || !this.operations.hasChatFilter(provider)) continue;
			const own = available.filter((m) => m.provider === provider);
			const kept = this.operations.filterChat(provider, own);
			if (kept !== own) filtered.set(provider, new Set(kept));
		}
		return filtered.size === 0 ? available : available.filter((m) => filtered.get(m.provider)?.has(m) ?? true);
	}

	/** Every known model of a type (image and classifier models come from extension providers). */
	getModelsOfType(type: ModelType, provider?: string): AnyModel[] {
		if (type === "chat") return this.models.filter((m) => provider === undefined || m.provider === provider);
		return this.operations.list(type, provider);
	}

	/** Models of a type whose provider has credentials, after `filterAllModels` (else `filterModels` on chat). */
	getAvailableOfType(type: ModelType, provider?: string): AnyModel[] {
		const all = [
			...this.models.filter((m) => provider === undefined || m.provider === provider),
			...this.operations.list("image", provider),
			...this.operations.list("classifier", provider),
		];
		const providers = [...new Set(all.map((m) => m.provider))].filter((p) => this.hasAuth({ provider: p }));
		return providers
			.flatMap((p) =>
				this.operations.filterAll(
					p,
					all.filter((m) => m.provider === p),
				),
			)
			.filter((m) => modelTypeOf(m) === type);
	}

	find(provider: string, id: string): Model | undefined {
		return this.modelsOf(provider).find((m) => m.id === id);
	}

	hasAuth(model: Pick<Model, "provider">): boolean {
		return this.auth.hasAuth(model.provider) || this.onlyVirtual(model.provider);
	}

	/** A provider id only virtual models use: always available (its models route elsewhere). */
	private onlyVirtual(provider: string): boolean {
		const models = this.modelsOf(provider);
		return models.length > 0 && models.every((m) => isVirtualModel(m));
	}

	/** The key for a request to `model` (AuthStorage order, models.json key last). */
	getApiKey(model: Pick<Model, "provider">): Promise<string | undefined> {
		return this.auth.getApiKey(model.provider);
	}

	/**
	 * Request headers from models.json (provider, then per-model; values
	 * resolved like keys), plus `Authorization: Bearer <key>` when the provider
	 * sets `authHeader`. Undefined when there are none.
	 */
	async getRequestHeaders(
		model: Pick<Model, "provider" | "id">,
		apiKey?: string,
	): Promise<Record<string, string> | undefined> {
		const cfg = this.providers[model.provider];
		if (!cfg) return undefined;
		const raw = { ...cfg.headers, ...cfg.modelHeaders[model.id] };
		if (Object.keys(raw).length === 0 && !cfg.authHeader) return undefined;
		const out: Record<string, string> = {};
		for (const [name, value] of Object.entries(raw)) {
			out[name] = await this.resolve(value, `the "${name}" header of "${model.provider}" in models.json`);
		}
		if (cfg.authHeader && apiKey) out.Authorization = `Bearer ${apiKey}`;
		return out;
	}
}
