// The non-chat side of the model registry (1.6.0's mixed-operation
// providers): image and classifier models registered by extension
// providers, the implementations that run them (per provider, keyed by the
// model's api, or one provider-level method), and providers' credential-
// specific availability filters (`filterModels` for chat models,
// `filterAllModels` across every type). Operations never reject: a missing
// model, implementation or key, or a throw, is an error result.
import {
	type AssistantImages,
	type ClassifierContext,
	type ClassifierModel,
	type ClassifierOptions,
	type ClassifierResult,
	classifierError,
	type ImageModel,
	type ImagesContext,
	type ImagesOptions,
	imagesError,
	type Model,
	type ModelType,
	type OperationModel,
	type ProviderClassifier,
	type ProviderImages,
	type ProviderResponseInfo,
} from "@pi/ai";
import type { AuthCredential } from "./auth.js";

export type AnyModel = Model | OperationModel;

export interface ProviderOperations {
	images?: Record<string, ProviderImages>;
	classifiers?: Record<string, ProviderClassifier>;
	/** Provider-level implementations (a pi-ai Provider object); used when `images`/`classifiers` has no entry for the api. */
	generateImages?: ProviderImages["generateImages"];
	classify?: ProviderClassifier["classify"];
}

export interface ProviderModelFilters {
	chat?(models: readonly Model[], credential: AuthCredential | undefined): readonly Model[];
	all?(models: readonly AnyModel[], credential: AuthCredential | undefined): readonly AnyModel[];
}

/** What an operation request needs from the registry: key, headers, endpoint and provider env, as for chat requests. */
export interface OperationAuth {
	credential(provider: string): AuthCredential | undefined;
	requestAuth(model: OperationModel): Promise<{
		apiKey?: string;
		headers?: Record<string, string>;
		baseUrl?: string;
		env?: Record<string, string>;
	}>;
}

/**
 * The session's provider-request hooks (the extension events
 * before_provider_request / after_provider_response), given to image and
 * classifier implementations as options.onPayload / onResponse, as the chat
 * path gives them to pi-ai.
 */
export interface OperationRequestHooks {
	onPayload?(payload: unknown): unknown | Promise<unknown>;
	onResponse?(response: ProviderResponseInfo): void;
}

type Options = ImagesOptions | ClassifierOptions;

function describe(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

export function modelTypeOf(m: AnyModel): ModelType {
	const type = (m as { type?: unknown }).type;
	return type === "image" ? "image" : type === "classifier" ? "classifier" : "chat";
}

export class OperationModels {
	private models: OperationModel[] = [];
	private readonly operations = new Map<string, ProviderOperations>();
	private readonly filters = new Map<string, ProviderModelFilters>();
	private hooks: OperationRequestHooks | undefined;

	constructor(private readonly auth: OperationAuth) {}

	/** Installs the session's request hooks; returns the function that removes them. */
	setRequestHooks(hooks: OperationRequestHooks): () => void {
		this.hooks = hooks;
		return () => {
			if (this.hooks === hooks) this.hooks = undefined;
		};
	}

	/**
	 * The options an implementation gets: the caller's, the provider's auth
	 * (caller headers win), and the hooks chained before the caller's own.
	 */
	private async requestOptions<T extends Options>(
		model: OperationModel,
		options: T,
	): Promise<{ model: OperationModel; options: T }> {
		const { baseUrl, ...auth } = await this.auth.requestAuth(model);
		const hooks = this.hooks;
		const own = options as Options;
		const merged: Options = {
			...options,
			...auth,
			headers: { ...auth.headers, ...options.headers },
			...(auth.env || options.env ? { env: { ...auth.env, ...options.env } } : {}),
		};
		if (hooks?.onPayload || own.onPayload) {
			merged.onPayload = async (payload, m) => {
				let current = payload;
				if (hooks?.onPayload) current = (await hooks.onPayload(current)) ?? current;
				if (own.onPayload) current = (await own.onPayload(current, m)) ?? current;
				return current;
			};
		}
		if (hooks?.onResponse || own.onResponse) {
			merged.onResponse = async (response, m) => {
				hooks?.onResponse?.(response);
				await own.onResponse?.(response, m);
			};
		}
		return { model: baseUrl ? { ...model, baseUrl } : model, options: merged as T };
	}

	/** Adds or replaces (same provider, type and id) a model. */
	register(model: OperationModel): void {
		const i = this.models.findIndex((m) => m.provider === model.provider && m.type === model.type && m.id === model.id);
		if (i >= 0) this.models[i] = model;
		else this.models.push(model);
	}

	removeProvider(provider: string): void {
		this.models = this.models.filter((m) => m.provider !== provider);
	}

	setOperations(provider: string, ops: ProviderOperations | undefined): void {
		if (ops) this.operations.set(provider, ops);
		else this.operations.delete(provider);
	}

	setFilters(provider: string, filters: ProviderModelFilters | undefined): void {
		if (filters && (filters.chat || filters.all)) this.filters.set(provider, filters);
		else this.filters.delete(provider);
	}

	list(type: "image" | "classifier", provider?: string): OperationModel[] {
		return this.models.filter((m) => m.type === type && (provider === undefined || m.provider === provider));
	}

	hasChatFilter(provider: string): boolean {
		return this.filters.get(provider)?.chat !== undefined;
	}

	/** A provider's chat models as its `filterModels` leaves them for the stored credential (a throw keeps them all). */
	filterChat(provider: string, models: Model[]): Model[] {
		const filter = this.filters.get(provider)?.chat;
		if (!filter) return models;
		try {
			return [...filter(models, this.auth.credential(provider))];
		} catch {
			return models;
		}
	}

	/**
	 * A provider's models of every type as available: `filterAllModels` when
	 * given, else `filterModels` on the chat models (other types kept).
	 */
	filterAll(provider: string, models: AnyModel[]): AnyModel[] {
		const filters = this.filters.get(provider);
		if (!filters) return models;
		const credential = this.auth.credential(provider);
		try {
			if (filters.all) return [...filters.all(models, credential)];
			if (!filters.chat) return models;
			const chat = models.filter((m) => modelTypeOf(m) === "chat") as Model[];
			const kept = new Set(filters.chat(chat, credential).map((m) => m.id));
			return models.filter((m) => modelTypeOf(m) !== "chat" || kept.has(m.id));
		} catch {
			return models;
		}
	}

	async generateImages(
		model: ImageModel,
		context: ImagesContext,
		options: ImagesOptions = {},
	): Promise<AssistantImages> {
		return this.run("image", model, context, options, {
			fail: imagesError,
			implementation: (ops, api) => ops?.images?.[api]?.generateImages.bind(ops.images[api]) ?? ops?.generateImages,
		});
	}

	async classify(
		model: ClassifierModel,
		context: ClassifierContext,
		options: ClassifierOptions = {},
	): Promise<ClassifierResult> {
		return this.run("classifier", model, context, options, {
			fail: classifierError,
			implementation: (ops, api) => ops?.classifiers?.[api]?.classify.bind(ops.classifiers[api]) ?? ops?.classify,
			refuse: (known) =>
				(context.images?.length ?? 0) > 0 && !known.input.includes("image")
					? `${known.provider}/${known.id} does not take images`
					: undefined,
		});
	}

	/**
	 * One operation, never rejecting: the registered model of that type, the
	 * implementation for its api (else the provider-level one), called with
	 * the request options. No such model, a `refuse` reason, no
	 * implementation, or a throw is the operation's error result (aborted
	 * when the caller's signal fired).
	 */
	private async run<M extends ImageModel | ClassifierModel, C, O extends Options, R>(
		type: M["type"],
		model: M,
		context: C,
		options: O,
		how: {
			fail(model: M, message: string, signal?: AbortSignal): R;
			implementation(
				ops: ProviderOperations | undefined,
				api: string,
			): ((model: M, context: C, options: O) => Promise<R>) | undefined;
			refuse?(known: M): string | undefined;
		},
	): Promise<R> {
		const known = this.models.find((m) => m.type === type && m.provider === model?.provider && m.id === model?.id) as
			| M
			| undefined;
		if (!known) return how.fail(model, `no ${type} model ${model?.provider}/${model?.id}`, options.signal);
		const refused = how.refuse?.(known);
		if (refused) return how.fail(known, refused);
		const impl = how.implementation(this.operations.get(known.provider), known.api);
		if (!impl)
			return how.fail(known, `provider "${known.provider}" has no ${type} implementation for api "${known.api}"`);
		try {
			const request = await this.requestOptions(known, options);
			return await impl(request.model as M, context, request.options);
		} catch (error) {
			return how.fail(known, describe(error), options.signal);
		}
	}
}
