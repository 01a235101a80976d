// pi.registerProvider / pi.unregisterProvider carried out on the session's
// model registry, credential store, login list and pi-ai's adapter registry:
// models (new, or a new endpoint/headers for existing ones), the key
// (`$ENV`, `${ENV}`, `!command` or a literal), an OAuth login that /login
// lists and whose refresh and key the store uses, and a custom stream
// registered as the adapter of the provider's api. Unregistering undoes each
// part and puts back what it replaced (a built-in adapter, a built-in login).
import { apiLoader, type Model, type OperationModel, registerApi, unregisterApi } from "@pi/ai";
import { setApiKeyLogin } from "../auth/api-key.js";
import { removeLoginFlow, setLoginFlow } from "../auth/flows.js";
import { LoginError, type LoginInteraction } from "../auth/interaction.js";
import type { LoginFlow } from "../auth/types.js";
import type { OAuthCredential } from "../config/auth.js";
import { resolveConfigValue } from "../config/config-value.js";
import type { ModelRegistry } from "../config/model-registry.js";
import type { ExtensionRuntime } from "../extensions/extension.js";
import { extensionStreamAdapter } from "../extensions/stream-adapter.js";
import type {
	ExtensionError,
	OAuthCredentials,
	OAuthLoginCallbacks,
	ProviderConfig,
	ProviderDefinition,
	ProviderModelConfig,
	ProviderOAuthConfig,
} from "../extensions/types.js";
import { modelRefresher } from "./extension-model-refresh.js";
import { nativeApiKeyLogin, nativeKeySource, nativeLoginFlow } from "./extension-provider-auth.js";

export interface ProviderRegistrarDeps {
	registry: ModelRegistry;
	env?: NodeJS.ProcessEnv;
	reportError(error: ExtensionError): void;
	/** Keys being resolved; awaited before session_start. */
	pendingKeys: Promise<void>[];
	/**
	 * What registrations merge over: one load of the extensions (its runtime), shared by the
	 * registrar that applies load-time calls and the session's, so a later call from a command
	 * merges over the load-time one. A reload (a new runtime) starts afresh.
	 */
	scope?: object;
}

/** What one registration changed, so unregistering can undo exactly that. */
interface Registered {
	api?: { name: string; previous: ReturnType<typeof apiLoader> };
	login: boolean;
	/** A native auth.apiKey key source was plugged into the store. */
	keySource?: boolean;
	/** A refreshModels refresher was registered. */
	refresher?: boolean;
	/** An auth.apiKey.login key login was registered. */
	apiKeyLogin?: boolean;
	/** Image/classifier implementations or availability filters were registered. */
	operations?: boolean;
}

/**
 * `$NAME`, `${NAME}` and `$$` interpolated from the environment (a leading
 * `$!` is a literal `!`); undefined when a named variable is not set.
 */
export function interpolateEnv(value: string, env: NodeJS.ProcessEnv): string | undefined {
	if (value.startsWith("$!")) return value.slice(1);
	let missing = false;
	const out = value.replace(
		/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
		(whole, braced, bare) => {
			if (whole === "$$") return "$";
			const v = env[braced ?? bare];
			if (v === undefined || v === "") missing = true;
			return v ?? "";
		},
	);
	return missing ? undefined : out;
}

/**
 * Process-wide, like the adapter registry and the login list it changes: a
 * session rebuilt by /reload or /new registers the same provider again and
 * must undo the earlier registration, not record it as the built-in.
 */
const registered = new Map<string, Registered>();

/** Per scope, each provider's registration as merged so far (1.6.0: re-registering merges). */
const mergedConfigs = new WeakMap<object, Map<string, ProviderConfig>>();

function mergedConfigsOf(scope: object): Map<string, ProviderConfig> {
	let configs = mergedConfigs.get(scope);
	if (!configs) mergedConfigs.set(scope, (configs = new Map()));
	return configs;
}

export function createProviderRegistrar(d: ProviderRegistrarDeps) {
	const { registry } = d;
	const env = d.env ?? process.env;
	const configs = mergedConfigsOf(d.scope ?? {});

	const undo = (name: string) => {
		const previous = registered.get(name);
		if (!previous) return;
		registered.delete(name);
		if (previous.api) {
			if (previous.api.previous) registerApi(previous.api.name, previous.api.previous);
			else unregisterApi(previous.api.name);
		}
		if (previous.login) removeLoginFlow(name);
		if (previous.keySource) registry.auth.setProviderKeySource(name, undefined);
		if (previous.refresher) registry.refreshers.set(name, undefined);
		if (previous.apiKeyLogin) setApiKeyLogin(undefined, name);
		if (previous.operations) {
			registry.operations.setOperations(name, undefined);
			registry.operations.setFilters(name, undefined);
		}
	};

	const register = (name: string, given: ProviderConfig, extensionPath: string) => {
		// As 1.6.0: registering a name again merges the defined values over the earlier
		// registration, so `{ baseUrl }` alone moves a custom-stream provider and keeps its
		// stream, models, key and login. Then the whole merged registration is applied afresh.
		const config: ProviderConfig = { ...configs.get(name) };
		for (const [key, value] of Object.entries(given)) {
			if (value !== undefined) (config as Record<string, unknown>)[key] = value;
		}
		configs.set(name, config);
		undo(name);
		const entry: Registered = { login: false };
		registered.set(name, entry);
		if (config.apiKey) resolveKey(name, config.apiKey, extensionPath);
		const headers = config.headers ? interpolateHeaders(config.headers) : undefined;
		const api = config.api ?? (config.streamSimple ? `${name}-api` : undefined);
		if (config.streamSimple) {
			entry.api = { name: api as string, previous: apiLoader(api as string) };
			const adapter = extensionStreamAdapter(config.streamSimple, extensionPath);
			registerApi(api as string, async () => adapter);
		}
		if (config.oauth) {
			setLoginFlow(loginFlow(name, config.oauth, extensionPath));
			entry.login = true;
		}
		const report = (event: string) => (error: unknown) =>
			d.reportError({ extensionPath, event, error: describe(error) });
		if (config.auth?.apiKey) {
			const native = nativeKeySource(name, config.auth.apiKey, registry.auth, env, extensionPath);
			registry.auth.setProviderKeySource(name, native.source);
			entry.keySource = true;
			d.pendingKeys.push(native.check().catch(report("registerProvider")));
			if (typeof config.auth.apiKey.login === "function") {
				setApiKeyLogin(nativeApiKeyLogin(name, config.auth.apiKey, extensionPath));
				entry.apiKeyLogin = true;
			}
		}
		if (config.auth?.oauth) {
			const native = nativeLoginFlow(name, config.auth.oauth, extensionPath);
			setLoginFlow(native.flow);
			entry.login = true;
			const stored = registry.auth.get(name);
			if (stored?.type === "oauth") d.pendingKeys.push(native.prime(stored).catch(report("registerProvider")));
		}
		const toModel = (m: ProviderModelConfig): Model => ({
			id: m.id,
			name: m.name,
			api: (m.api ?? api ?? "openai-completions") as Model["api"],
			provider: name,
			baseUrl: m.baseUrl ?? config.baseUrl ?? "",
			reasoning: m.reasoning ?? false,
			input: m.input,
			cost: m.cost,
			contextWindow: m.contextWindow ?? 128_000,
			maxTokens: m.maxTokens ?? 16_384,
			...(m.headers || headers ? { headers: { ...headers, ...m.headers } } : {}),
			...(m.compat ? { compat: m.compat as Model["compat"] } : {}),
			...(m.promptCache ? { promptCache: { ...m.promptCache } } : {}),
			...(m.thinkingLevelMap ? { thinkingLevelMap: { ...m.thinkingLevelMap } } : {}),
		});
		const toOperationModel = (m: ProviderModelConfig & { type: "image" | "classifier" }): OperationModel => {
			const base = {
				id: m.id,
				name: m.name,
				api: m.api ?? api ?? "",
				provider: name,
				baseUrl: m.baseUrl ?? config.baseUrl ?? "",
				input: m.input,
				cost: m.cost,
				...(m.headers || headers ? { headers: { ...headers, ...m.headers } } : {}),
			};
			return m.type === "image"
				? { ...base, type: "image", output: m.output ?? ["image"] }
				: {
						...base,
						type: "classifier",
						contextWindow: m.contextWindow ?? 128_000,
						...(m.compat ? { compat: m.compat } : {}),
					};
		};
		/** The registration's models of every type replace the provider's extension models. */
		const apply = (list: ProviderModelConfig[]) => {
			registry.unregisterProvider(name);
			for (const m of list) {
				if (m.type === "image" || m.type === "classifier") {
					registry.operations.register(toOperationModel(m as ProviderModelConfig & { type: "image" | "classifier" }));
				} else registry.registerModel(toModel(m));
			}
		};
		const definition = config as ProviderConfig & Pick<ProviderDefinition, "generateImages" | "classify">;
		if (config.images || config.classifiers || definition.generateImages || definition.classify) {
			registry.operations.setOperations(name, {
				images: config.images,
				classifiers: config.classifiers,
				generateImages: definition.generateImages,
				classify: definition.classify,
			});
			entry.operations = true;
		}
		if (config.filterModels || config.filterAllModels) {
			registry.operations.setFilters(name, { chat: config.filterModels, all: config.filterAllModels });
			entry.operations = true;
			// The filters run synchronously: a `!command` key (auth.json, models.json) is run now, so they
			// judge the key requests will send. Failures surface on the first request, as without a filter.
			if (!registry.auth.usesOAuth(name)) d.pendingKeys.push(registry.auth.getApiKey(name).then(noop, noop));
		}
		if (config.refreshModels) {
			registry.refreshers.set(name, modelRefresher(registry, name, config, apply, extensionPath));
			entry.refresher = true;
		}
		if (config.models) {
			apply(config.models);
			return;
		}
		const existing = registry.getAll().filter((m) => m.provider === name);
		for (const m of existing) {
			registry.registerModel({
				...m,
				...(config.baseUrl ? { baseUrl: config.baseUrl } : {}),
				...(headers ? { headers: { ...m.headers, ...headers } } : {}),
				...(config.streamSimple ? { api: api as Model["api"] } : {}),
			});
		}
	};

	function interpolateHeaders(headers: Record<string, string>): Record<string, string> {
		const out: Record<string, string> = {};
		for (const [k, v] of Object.entries(headers)) {
			const value = typeof v === "string" ? interpolateEnv(v, env) : undefined;
			if (value !== undefined) out[k] = value;
		}
		return out;
	}

	function resolveKey(name: string, value: string, extensionPath: string): void {
		if (!value.startsWith("!")) {
			const key = interpolateEnv(value, env);
			// An unset variable means no key from here: a stored login or /login supplies it.
			if (key) registry.auth.setRuntimeApiKey(name, key);
			return;
		}
		const label = `the apiKey of provider "${name}" (pi.registerProvider)`;
		d.pendingKeys.push(
			resolveConfigValue(value, { label, env }).then(
				(key) => registry.auth.setRuntimeApiKey(name, key),
				(error: unknown) => d.reportError({ extensionPath, event: "registerProvider", error: String(error) }),
			),
		);
	}

	return {
		register,
		unregister(name: string) {
			configs.delete(name);
			undo(name);
			registry.unregisterProvider(name);
			registry.auth.removeRuntimeApiKey(name);
		},
	};
}

function noop(): void {}

function describe(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

function credentialsOf(credential: OAuthCredential): OAuthCredentials {
	const { type: _type, ...rest } = credential;
	return rest as OAuthCredentials;
}

function checked(result: unknown, provider: string, what: string, extensionPath: string): OAuthCredential {
	const r = result as Partial<OAuthCredentials> | null | undefined;
	if (!r || typeof r.access !== "string" || typeof r.refresh !== "string" || typeof r.expires !== "number") {
		throw new LoginError(
			`The ${what} of provider "${provider}" returned no {access, refresh, expires} credentials (${extensionPath})`,
		);
	}
	return { ...(r as OAuthCredentials), type: "oauth" };
}

/** An extension's oauth block as one of pi's login flows (the /login list, refresh, the request key). */
function loginFlow(provider: string, oauth: ProviderOAuthConfig, extensionPath: string): LoginFlow {
	return {
		id: provider,
		name: oauth.name,
		async login(interaction: LoginInteraction) {
			const callbacks: OAuthLoginCallbacks = {
				onAuth: (info) => interaction.notify({ type: "auth_url", url: info.url, instructions: info.instructions }),
				onDeviceCode: (info) =>
					interaction.notify({
						type: "device_code",
						userCode: info.userCode,
						verificationUri: info.verificationUri,
						expiresInSeconds: info.expiresInSeconds,
					}),
				onPrompt: (prompt) =>
					interaction.prompt({ type: "text", message: prompt.message, placeholder: prompt.placeholder }),
				onProgress: (message) => interaction.notify({ type: "progress", message }),
				onManualCodeInput: () =>
					interaction.prompt({
						type: "manual_code",
						message: "Paste the code or the redirect URL:",
						signal: interaction.signal,
					}),
				onSelect: (prompt) => interaction.prompt({ type: "select", message: prompt.message, options: prompt.options }),
				signal: interaction.signal,
			};
			return checked(await oauth.login(callbacks), provider, "login", extensionPath);
		},
		async refresh(credential, signal) {
			const result = await oauth.refreshToken(credentialsOf(credential), signal ?? new AbortController().signal);
			return checked(result, provider, "token refresh", extensionPath);
		},
		requestAuth: (credential) => ({ apiKey: oauth.getApiKey(credentialsOf(credential)) }),
	};
}

/**
 * Applies the providers extensions registered while loading, before any
 * session exists, so `--model`, `--list-models` and the starting model see
 * them (1.6.0: registrations are flushed once the factories have run). Keys
 * from `!command` values are resolved before this returns.
 */
export async function applyLoadedProviders(
	runtime: ExtensionRuntime,
	registry: ModelRegistry,
	reportError: (error: ExtensionError) => void,
): Promise<void> {
	if (runtime.pendingProviders.length === 0) return;
	const pendingKeys: Promise<void>[] = [];
	const registrar = createProviderRegistrar({ registry, reportError, pendingKeys, scope: runtime });
	runtime.flushProviders({
		registerProvider: registrar.register,
		unregisterProvider: (name) => registrar.unregister(name),
	});
	await Promise.all(pendingKeys);
}
