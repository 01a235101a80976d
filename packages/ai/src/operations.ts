// Non-chat model operations (1.6.0's pi-ai): image generation and structured
// classification. Their models are catalog entries of their own type
// (`type: "image" | "classifier"`) that `stream()` never takes; a provider
// supplies an implementation per API (`ProviderImages`, `ProviderClassifier`).
// Both operations never reject: failures are results with `stopReason: "error"`.
import type { ImageContent, ModelCost, ProviderResponseInfo, TextContent, Usage } from "./types.js";

export type ModelType = "chat" | "image" | "classifier";

interface OperationModelBase {
	id: string;
	name: string;
	api: string;
	provider: string;
	baseUrl: string;
	input: ("text" | "image")[];
	cost: ModelCost;
	headers?: Record<string, string>;
}

/** Image-generation model: usable with `generateImages()` only. */
export interface ImageModel extends OperationModelBase {
	type: "image";
	/** Always includes "image"; "text" means it may also return text blocks. */
	output: ("text" | "image")[];
}

/** Structured classifier model: usable with `classify()` only. */
export interface ClassifierModel extends OperationModelBase {
	type: "classifier";
	contextWindow: number;
	compat?: Record<string, unknown>;
}

export type OperationModel = ImageModel | ClassifierModel;

/** Not exported: index.ts re-exports this whole file, and the public surface names only the two option types. */
interface OperationOptions {
	apiKey?: string;
	headers?: Record<string, string>;
	signal?: AbortSignal;
	/**
	 * Provider-scoped environment values (what a key login stored with the
	 * key, e.g. a region); they take precedence over process.env for the
	 * provider's configuration.
	 */
	env?: Record<string, string>;
	/**
	 * The implementation calls this with the request body just before sending
	 * it (awaited); a returned value replaces the body, undefined keeps it.
	 */
	onPayload?: (payload: unknown, model: OperationModel) => unknown | Promise<unknown>;
	/** The implementation calls this with status and headers once the response arrives. */
	onResponse?: (response: ProviderResponseInfo, model: OperationModel) => void | Promise<void>;
}

export interface ImagesOptions extends OperationOptions {
	metadata?: Record<string, unknown>;
}

export interface ClassifierOptions extends OperationOptions {
	/** Divides the answer logits before normalizing (above 1 softens); APIs that cannot apply it ignore it. */
	temperature?: number;
}

export interface ImagesContext {
	input: (TextContent | ImageContent)[];
}

export interface AssistantImages {
	api: string;
	provider: string;
	model: string;
	output: (TextContent | ImageContent)[];
	responseId?: string;
	usage?: Usage;
	stopReason: "stop" | "error" | "aborted";
	errorMessage?: string;
	timestamp: number;
}

export type ClassifierQuestion =
	| { type: "choice"; instructions: string; criteria: Record<string, string> }
	| { type: "score"; instructions: string; criteria: string[] }
	| { type: "bool"; instructions: string; criteria: { true: string; false: string } };

export interface ClassifierContext {
	state: Record<string, unknown>;
	/** Judged with `state`; only models whose `input` includes "image" accept them. */
	images?: ImageContent[];
	questions: Record<string, ClassifierQuestion>;
}

export type ClassifierAnswer =
	| { type: "choice"; choice: string; probabilities: Record<string, number>; confidence: number }
	| { type: "score"; score: number; confidence: number }
	| { type: "bool"; probability: number };

export interface ClassifierResult {
	api: string;
	provider: string;
	model: string;
	answers: Record<string, ClassifierAnswer>;
	usage?: Usage;
	stopReason: "stop" | "error" | "aborted";
	errorMessage?: string;
	timestamp: number;
}

/** An image API implementation (`images` of a provider, keyed by `model.api`). */
export interface ProviderImages {
	generateImages(model: ImageModel, context: ImagesContext, options?: ImagesOptions): Promise<AssistantImages>;
}

/** A classifier API implementation (`classifiers` of a provider, keyed by `model.api`). */
export interface ProviderClassifier {
	classify(model: ClassifierModel, context: ClassifierContext, options?: ClassifierOptions): Promise<ClassifierResult>;
}

export function isOperationModel(model: { type?: unknown }): model is OperationModel {
	return model.type === "image" || model.type === "classifier";
}

/** The error result of `generateImages` (aborted when the signal fired). */
export function imagesError(model: ImageModel, message: string, signal?: AbortSignal): AssistantImages {
	return {
		api: model.api,
		provider: model.provider,
		model: model.id,
		output: [],
		stopReason: signal?.aborted ? "aborted" : "error",
		errorMessage: message,
		timestamp: Date.now(),
	};
}

/** The error result of `classify` (aborted when the signal fired). */
export function classifierError(model: ClassifierModel, message: string, signal?: AbortSignal): ClassifierResult {
	return {
		api: model.api,
		provider: model.provider,
		model: model.id,
		answers: {},
		stopReason: signal?.aborted ? "aborted" : "error",
		errorMessage: message,
		timestamp: Date.now(),
	};
}
