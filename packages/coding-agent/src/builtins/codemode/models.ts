// The `models` global of codemode scripts, answered by the host from the
// session's model registry (`ctx.modelRegistry`, the public extension API).
// As in 1.6.0, chat models are listed but cannot be run from scripts;
// scripts run classifier and image models (registered by extension
// providers with `images` / `classifiers`) with the session's credentials.
// `classify()` / `generateImages()` never throw on a model that cannot run:
// they answer with `stopReason: "error"` and the reason, as documented.
import type { ClassifierContext, ClassifierModel, ImageModel, ImagesContext, ModelType } from "@pi/ai";
import type { ExtensionModelRegistry } from "../../extensions/types.js";

const TYPES: readonly ModelType[] = ["chat", "image", "classifier"];

interface ModelInfo {
	type: ModelType;
	provider: string;
	id: string;
	name: string;
	api: string;
	input: string[];
	contextWindow?: number;
	output?: string[];
}

type AnyListed = { provider: string; id: string; name: string; api: string; input: readonly string[] } & {
	contextWindow?: number;
	output?: readonly string[];
};

const info = (type: ModelType, m: AnyListed): ModelInfo => ({
	type,
	provider: m.provider,
	id: m.id,
	name: m.name,
	api: m.api,
	input: [...m.input],
	...(m.contextWindow !== undefined ? { contextWindow: m.contextWindow } : {}),
	...(m.output ? { output: [...m.output] } : {}),
});

function typeOf(value: unknown): ModelType {
	if (typeof value === "string" && (TYPES as readonly string[]).includes(value)) return value as ModelType;
	throw new TypeError(`model type must be one of ${TYPES.join(", ")} (got ${JSON.stringify(value)})`);
}

const providerArg = (value: unknown) => (value === undefined || value === null ? undefined : String(value));

/** Answers one `models.<method>(…)` call of a script. */
export async function callModels(
	registry: ExtensionModelRegistry,
	method: string,
	args: Record<string, unknown>,
): Promise<unknown> {
	switch (method) {
		case "getModelsOfType": {
			const type = typeOf(args.type);
			return registry.getModelsOfType(type, providerArg(args.provider)).map((m) => info(type, m));
		}
		case "getAvailableOfType": {
			const type = typeOf(args.type);
			return (await registry.getAvailableOfType(type, providerArg(args.provider))).map((m) => info(type, m));
		}
		case "getModelOfType": {
			const type = typeOf(args.type);
			const found = registry.getModelOfType(type, String(args.provider ?? ""), String(args.id ?? ""));
			return found ? info(type, found) : undefined;
		}
		case "classify":
		case "generateImages": {
			const ref = (args.model ?? {}) as { provider?: unknown; id?: unknown };
			const provider = String(ref.provider ?? "");
			const id = String(ref.id ?? "");
			const kind = method === "classify" ? "classifier" : "image";
			const model = registry.getModelOfType(kind, provider, id);
			if (!model) {
				const chat = registry.find(provider, id);
				return {
					provider,
					model: id,
					...(method === "classify" ? { answers: {} } : { output: [] }),
					stopReason: "error",
					errorMessage: chat
						? `${provider}/${id} is a chat model; chat models cannot be run from scripts (only ${kind} models can)`
						: `no ${kind} model ${provider}/${id}`,
				};
			}
			return method === "classify"
				? registry.classify(model as ClassifierModel, args.context as ClassifierContext)
				: registry.generateImages(model as ImageModel, args.context as ImagesContext);
		}
		default:
			throw new TypeError(`models.${method} is not a function`);
	}
}
