// The `models` global of codemode scripts, answered by the host from the
// session's model registry (`ctx.modelRegistry`, the public extension API).
// As in 1.6.0, chat models are listed but cannot be run from scripts;
// scripts run classifier and image models. pi's catalog holds chat models
// only, so `getModelsOfType("classifier" | "image")` lists none, and
// `classify()` / `generateImages()` answer with `stopReason: "error"` and
// the reason (they never throw on a model that cannot run, as documented).
import type { ExtensionModelRegistry } from "../../extensions/types.js";

type ModelType = "chat" | "image" | "classifier";
const TYPES: readonly ModelType[] = ["chat", "image", "classifier"];

interface ModelInfo {
	type: ModelType;
	provider: string;
	id: string;
	name: string;
	api: string;
	input: string[];
	contextWindow?: number;
}

type CatalogModel = ReturnType<ExtensionModelRegistry["getAll"]>[number];

const info = (m: CatalogModel): ModelInfo => ({
	type: "chat",
	provider: m.provider,
	id: m.id,
	name: m.name,
	api: m.api,
	input: [...m.input],
	contextWindow: m.contextWindow,
});

function typeOf(value: unknown): ModelType {
	if (typeof value === "string" && (TYPES as readonly string[]).includes(value)) return value as ModelType;
	throw new TypeError(`model type must be one of ${TYPES.join(", ")} (got ${JSON.stringify(value)})`);
}

/** pi's catalog entries of a type (only chat models exist in it). */
function ofType(all: readonly CatalogModel[], type: ModelType, provider: unknown): ModelInfo[] {
	if (type !== "chat") return [];
	return all.filter((m) => provider === undefined || m.provider === provider).map(info);
}

/** Answers one `models.<method>(…)` call of a script. */
export function callModels(registry: ExtensionModelRegistry, method: string, args: Record<string, unknown>): unknown {
	switch (method) {
		case "getModelsOfType":
			return ofType(registry.getAll(), typeOf(args.type), args.provider);
		case "getAvailableOfType":
			return ofType(registry.getAvailable(), typeOf(args.type), args.provider);
		case "getModelOfType": {
			const type = typeOf(args.type);
			return ofType(registry.getAll(), type, args.provider).find((m) => m.id === args.id);
		}
		case "classify":
		case "generateImages": {
			const model = (args.model ?? {}) as { provider?: unknown; id?: unknown };
			const provider = String(model.provider ?? "");
			const id = String(model.id ?? "");
			const kind = method === "classify" ? "classifier" : "image";
			const known = registry.find(provider, id);
			const errorMessage = known
				? `${provider}/${id} is a chat model; chat models cannot be run from scripts (only ${kind} models can)`
				: `no ${kind} model ${provider}/${id}: pi's model catalog has no ${kind} models`;
			return {
				provider,
				model: id,
				...(method === "classify" ? { answers: {} } : { output: [] }),
				stopReason: "error",
				errorMessage,
			};
		}
		default:
			throw new TypeError(`models.${method} is not a function`);
	}
}
