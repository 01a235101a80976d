// The model catalog as Pi sees it: built-in models plus models.json, with
// which ones have credentials. models.json provider `apiKey`/`headers` values
// may be literal, an env var name or `!command` (resolved when a request is
// made). Keys themselves live in the AuthStorage; the registry only tells it
// about the models.json keys (the last source in the lookup order).

import { readFileSync } from "node:fs";
import type { Model } from "@pi/ai";
import type { AuthStorage } from "./auth.js";
import { resolveConfigValue } from "./config-value.js";
import { isPlainObject, JsonFileError, parseJsonWithPosition } from "./json-file.js";
import { stripJsonc } from "./jsonc.js";
import type { ModelCatalog } from "./model-catalog.js";
import { agentPaths, getAgentDir } from "./paths.js";

interface ProviderAuthConfig {
	apiKey?: string;
	headers?: Record<string, string>;
	authHeader?: boolean;
}

export interface ModelRegistryOptions {
	/** models.json path; undefined for built-in models only. */
	modelsPath?: string;
	catalog: ModelCatalog;
	env?: NodeJS.ProcessEnv;
	shell?: string;
}

export class ModelRegistry {
	private models: Model[] = [];
	private providerAuth = new Map<string, ProviderAuthConfig>();
	private errors: string[] = [];
	private readonly extraModels: Model[] = [];

	constructor(
		readonly auth: AuthStorage,
		private readonly options: ModelRegistryOptions,
	) {
		auth.setFallbackKeySource({
			has: (provider) => typeof this.providerAuth.get(provider)?.apiKey === "string",
			get: async (provider) => {
				const value = this.providerAuth.get(provider)?.apiKey;
				return value === undefined ? undefined : this.resolve(value, `the "${provider}" apiKey in models.json`);
			},
		});
		this.reload();
	}

	/** Registry over `<agentDir>/models.json` (or the given path). */
	static create(auth: AuthStorage, catalog: ModelCatalog, modelsPath?: string): ModelRegistry {
		return new ModelRegistry(auth, { catalog, modelsPath: modelsPath ?? agentPaths(getAgentDir()).models });
	}

	/** Built-in models only. */
	static inMemory(auth: AuthStorage, catalog: ModelCatalog): ModelRegistry {
		return new ModelRegistry(auth, { catalog });
	}

	/** Re-reads models.json. Problems are collected in `getErrors()`; built-in models stay usable. */
	reload(): void {
		this.errors = [];
		this.providerAuth = new Map();
		const builtins = this.options.catalog.builtins();
		const config = this.readConfig();
		if (config === undefined) {
			this.models = builtins;
		} else {
			const applied = this.options.catalog.applyModelsConfig(builtins, config, {
				source: this.options.modelsPath ?? "models.json",
			});
			this.models = applied.models;
			this.errors.push(...applied.errors);
			this.collectProviderAuth(config);
		}
		for (const extra of this.extraModels) this.upsert(extra);
	}

	private readConfig(): unknown {
		const file = this.options.modelsPath;
		if (!file) return undefined;
		let text: string;
		try {
			text = readFileSync(file, "utf8");
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== "ENOENT") {
				this.errors.push(`Could not read ${file}: ${(error as Error).message}`);
			}
			return undefined;
		}
		const parsed = parseJsonWithPosition(stripJsonc(text), file);
		if (parsed instanceof JsonFileError) {
			this.errors.push(`Could not parse ${file} at line ${parsed.line}, column ${parsed.column}: ${parsed.reason}`);
			return undefined;
		}
		return parsed;
	}

	private collectProviderAuth(config: unknown): void {
		if (!isPlainObject(config) || !isPlainObject(config.providers)) return;
		for (const [name, raw] of Object.entries(config.providers)) {
			if (!isPlainObject(raw)) continue;
			const entry: ProviderAuthConfig = {};
			if (typeof raw.apiKey === "string" && raw.apiKey.trim() !== "") entry.apiKey = raw.apiKey;
			if (isPlainObject(raw.headers)) {
				entry.headers = Object.fromEntries(
					Object.entries(raw.headers).filter((e): e is [string, string] => typeof e[1] === "string"),
				);
			}
			if (raw.authHeader === true) entry.authHeader = true;
			this.providerAuth.set(name, entry);
		}
	}

	private resolve(value: string, label: string): Promise<string> {
		return resolveConfigValue(value, { env: this.options.env, shell: this.options.shell, label });
	}

	private upsert(model: Model): void {
		const i = this.models.findIndex((m) => m.provider === model.provider && m.id === model.id);
		if (i >= 0) this.models[i] = model;
		else this.models.push(model);
	}

	/** Adds or replaces a model at runtime (extensions' registerProvider); survives reload(). */
	registerModel(model: Model): void {
		const i = this.extraModels.findIndex((m) => m.provider === model.provider && m.id === model.id);
		if (i >= 0) this.extraModels[i] = model;
		else this.extraModels.push(model);
		this.upsert(model);
	}

	/** models.json problems found by the last reload. */
	getErrors(): string[] {
		return [...this.errors];
	}

	/** Every known model, whether or not it has credentials. */
	getAll(): Model[] {
		return [...this.models];
	}

	/** Models whose provider has some credential configured. */
	getAvailable(): Model[] {
		return this.models.filter((m) => this.auth.hasAuth(m.provider));
	}

	find(provider: string, id: string): Model | undefined {
		return this.models.find((m) => m.provider === provider && m.id === id);
	}

	hasAuth(model: Pick<Model, "provider">): boolean {
		return this.auth.hasAuth(model.provider);
	}

	/** The key for a request to `model` (AuthStorage order, models.json key last). */
	getApiKey(model: Pick<Model, "provider">): Promise<string | undefined> {
		return this.auth.getApiKey(model.provider);
	}

	/**
	 * Extra request headers from models.json (values resolved like keys), plus
	 * `Authorization: Bearer <key>` when the provider sets `authHeader`.
	 */
	async getRequestHeaders(
		model: Pick<Model, "provider">,
		apiKey?: string,
	): Promise<Record<string, string> | undefined> {
		const cfg = this.providerAuth.get(model.provider);
		if (!cfg?.headers && !cfg?.authHeader) return undefined;
		const out: Record<string, string> = {};
		for (const [name, value] of Object.entries(cfg.headers ?? {})) {
			out[name] = await this.resolve(value, `the "${name}" header of "${model.provider}" in models.json`);
		}
		if (cfg.authHeader && apiKey) out.Authorization = `Bearer ${apiKey}`;
		return out;
	}
}
