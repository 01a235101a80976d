// The provider shapes of the extension API: `pi.registerProvider()`'s two
// forms (name + config, provider object), a custom wire protocol, an OAuth
// login, and `pi.registerVirtualModel()`'s model. Re-exported by types.ts;
// provider-shape.ts checks them where the extension calls.
import type {
	AssistantMessageEventStream,
	Model,
	ModelPromptCache,
	NormalizedContext,
	OperationModel,
	ProviderClassifier,
	ProviderImages,
	StreamOptions,
} from "@pi/ai";
import type { ModelRoute, ModelRouteRequest, VirtualModelDefinition } from "../config/virtual-models.js";
import type { ExtensionContext } from "./context-types.js";
import type {
	ProviderApiKeyCredential,
	ProviderAuth,
	ProviderOAuthCredential,
	ProviderRefreshContext,
} from "./provider-auth-types.js";

export type * from "./provider-auth-types.js";

export interface ProviderModelConfig {
	/** Omitted: a chat model. Image and classifier models run through the provider's `images` / `classifiers`. */
	type?: "chat" | "image" | "classifier";
	id: string;
	name: string;
	api?: string;
	baseUrl?: string;
	reasoning?: boolean;
	/**
	 * Provider value sent for each thinking level; `null` marks a level the
	 * model does not support (the level is then clamped to a neighbour). xhigh
	 * and max are supported only when named here.
	 */
	thinkingLevelMap?: Model["thinkingLevelMap"];
	input: ("text" | "image")[];
	cost: { input: number; output: number; cacheRead: number; cacheWrite: number };
	contextWindow?: number;
	maxTokens?: number;
	headers?: Record<string, string>;
	compat?: Record<string, unknown>;
	/** Prompt cache lifetime in seconds per retention tier; unset: never kept warm (docs/cache-warming.md). */
	promptCache?: ModelPromptCache;
	/** Image models: what they return ("image", and "text" when they also write text). */
	output?: ("text" | "image")[];
}

/** A stored credential as a provider's filters and refresh see it. */
export type ProviderCredential = ProviderApiKeyCredential | ProviderOAuthCredential;

/** `pi.registerVirtualModel(model)`: a virtual model whose router also gets the extension context. */
export interface ExtensionVirtualModel<TState = unknown> extends Omit<VirtualModelDefinition<TState>, "route"> {
	route(request: ModelRouteRequest<TState>, ctx: ExtensionContext): ModelRoute<TState> | Promise<ModelRoute<TState>>;
}

/** `pi.registerProvider(name, config)`. */
export interface ProviderConfig {
	name?: string;
	baseUrl?: string;
	/** Literal, `$ENV`/`${ENV}`, or `!command`. */
	apiKey?: string;
	api?: string;
	headers?: Record<string, string>;
	authHeader?: boolean;
	/** Replaces the provider's models. Without it, `baseUrl`/`headers` override the existing ones. */
	models?: ProviderModelConfig[];
	/** A login for `/login` (and `pi auth login` with `-e`): the provider then appears in the login list. */
	oauth?: ProviderOAuthConfig;
	/**
	 * The provider's own wire protocol, registered as the adapter of `api`
	 * (default `"<provider>-api"`). Gets the normalized transcript: the prompt
	 * and tools are in its system messages (`getCurrentSystemPrompt`,
	 * `getCurrentTools`), the resolved key in `options.apiKey`. Must end with one
	 * `done` or `error` event; a throw becomes an error reply.
	 */
	streamSimple?: ProviderStreamFunction;
	/**
	 * Dynamic discovery: the models it returns replace the registration's
	 * models. Called once the extensions have loaded (before the starting model
	 * is chosen), when /model opens, after a /login of the provider, and by
	 * `ctx.modelRegistry.refresh()`.
	 */
	refreshModels?(context: ProviderRefreshContext): Promise<ProviderModelConfig[] | undefined>;
	/**
	 * Native authentication (the object form's `auth`): `apiKey.resolve()` gives
	 * each request's key, headers and endpoint; `oauth` is a /login account login.
	 */
	auth?: ProviderAuth;
	/** Image-generation implementations keyed by the image models' `api`. */
	images?: Record<string, ProviderImages>;
	/** Classifier implementations keyed by the classifier models' `api`. */
	classifiers?: Record<string, ProviderClassifier>;
	/**
	 * The object form's credential-specific chat availability: the models it
	 * returns are the provider's available ones (`getAvailable()`, /model).
	 */
	filterModels?(models: readonly Model[], credential: ProviderCredential | undefined): readonly Model[];
	/** The object form's availability across every model type (`getAvailableOfType`); chat uses `filterModels`. */
	filterAllModels?(
		models: readonly (Model | OperationModel)[],
		credential: ProviderCredential | undefined,
	): readonly (Model | OperationModel)[];
}

/** A custom wire protocol (`ProviderConfig.streamSimple`). */
export type ProviderStreamFunction = (
	model: Model,
	context: NormalizedContext,
	options: StreamOptions & { apiKey: string },
) => AssistantMessageEventStream;

/** Stored OAuth tokens as an extension sees them (auth.json's entry without its `type`). */
export interface OAuthCredentials {
	access: string;
	refresh: string;
	/** Unix ms after which `access` is refreshed. */
	expires: number;
	[extra: string]: unknown;
}

/** What an extension's OAuth `login()` can ask of whoever runs it (the app's /login, `pi auth login`). */
export interface OAuthLoginCallbacks {
	/** Open this URL in a browser. */
	onAuth(info: { url: string; instructions?: string }): void;
	onDeviceCode(info: { userCode: string; verificationUri: string; expiresInSeconds?: number }): void;
	/** Free text; rejects when the login is cancelled. */
	onPrompt(prompt: { message: string; placeholder?: string; allowEmpty?: boolean }): Promise<string>;
	onProgress?(message: string): void;
	/** A pasted code or redirect URL. */
	onManualCodeInput?(): Promise<string>;
	onSelect(prompt: { message: string; options: { id: string; label: string }[] }): Promise<string | undefined>;
	signal?: AbortSignal;
}

/** `ProviderConfig.oauth`: the provider's account login. */
export interface ProviderOAuthConfig {
	/** Shown in the login list. */
	name: string;
	isSubscription?: boolean;
	/** Ignored (kept for source compatibility with 1.6.0). */
	usesCallbackServer?: boolean;
	/** Runs the login; resolves with the tokens pi stores in auth.json. */
	login(callbacks: OAuthLoginCallbacks): Promise<OAuthCredentials>;
	/** New tokens for expired ones (called under auth.json's lock, once across processes). */
	refreshToken(credentials: OAuthCredentials, signal: AbortSignal): Promise<OAuthCredentials>;
	/** The key requests send for these tokens. */
	getApiKey(credentials: OAuthCredentials): string;
}

/**
 * `pi.registerProvider(provider)`: the object form. Its `id` is the provider
 * name; `api` may be an API name or an implementation with `streamSimple`;
 * `getModels()` may stand in for `models` and is read again after
 * `refreshModels` (which publishes through `context.publish({ update })`).
 * Native `auth`, image and classifier operations (`images` / `classifiers`
 * maps or `generateImages` / `classify`), `filterModels` and
 * `filterAllModels` are supported.
 */
export interface ProviderDefinition extends Omit<ProviderConfig, "api" | "refreshModels"> {
	id: string;
	api?: string | { streamSimple?: ProviderStreamFunction; stream?: ProviderStreamFunction };
	getModels?(): ProviderModelConfig[];
	/** Models of every type (chat, image, classifier); read instead of `getModels()` when present. */
	getAllModels?(): ProviderModelConfig[];
	/** Runs the provider's image models (when `images` has no entry for the model's api). */
	generateImages?: ProviderImages["generateImages"];
	/** Runs the provider's classifier models (when `classifiers` has no entry for the model's api). */
	classify?: ProviderClassifier["classify"];
	stream?: ProviderStreamFunction;
	refreshModels?(context: ProviderRefreshContext): Promise<void>;
}
