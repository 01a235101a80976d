/**
 * A `llama-cpp` Model built from a GGUF file's own metadata: context window
 * (capped, since the KV cache for a 128K window would not fit most machines),
 * thinking support from the chat template. Reads the header in JavaScript;
 * node-llama-cpp is not loaded.
 */
import { basename } from "node:path";
import type { Model } from "../types.js";
import { type GgufInfo, readGgufInfoSync, templateSupportsThinking } from "./gguf-file.js";

/** The provider id of models found in the local models directory or given as a file. */
export const LOCAL_PROVIDER = "local";
/** The largest context window pi asks for unless models.json says otherwise. */
export const LOCAL_CONTEXT_CAP = 32_768;
/** Used when the file names no context length. */
const FALLBACK_CONTEXT = 4096;

/** `my-model.Q4_K_M.gguf` → `my-model.Q4_K_M`. */
export function localModelId(path: string): string {
	return basename(path).replace(/\.gguf$/i, "");
}

/** The Model for a GGUF whose header was read. */
export function llamaCppModelFromInfo(info: GgufInfo, id = localModelId(info.path), provider = LOCAL_PROVIDER): Model {
	const contextWindow = Math.min(info.contextLength ?? FALLBACK_CONTEXT, LOCAL_CONTEXT_CAP);
	return {
		id,
		name: info.name ? `${info.name} (${basename(info.path)})` : basename(info.path),
		api: "llama-cpp",
		provider,
		baseUrl: "",
		reasoning: templateSupportsThinking(info.chatTemplate),
		input: ["text"],
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
		contextWindow,
		maxTokens: Math.min(8192, Math.max(256, Math.floor(contextWindow / 4))),
		path: info.path,
	};
}

/** Reads `path` and builds its Model; throws `GgufFileError` (naming the file) for a bad file. */
export function llamaCppModelFromFile(path: string, id?: string, provider?: string): Model {
	return llamaCppModelFromInfo(readGgufInfoSync(path), id, provider);
}

/**
 * Fills in what a models.json entry left at its defaults from the file: the
 * context window is capped at the trained length, thinking turns on when the
 * template has it. A file that cannot be read leaves the model as it is (the
 * request reports the file's problem).
 */
export function withGgufMetadata(model: Model): Model {
	if (model.api !== "llama-cpp" || !model.path) return model;
	try {
		const info = readGgufInfoSync(model.path);
		const trained = info.contextLength ?? model.contextWindow;
		return {
			...model,
			contextWindow: Math.min(model.contextWindow, trained),
			maxTokens: Math.min(model.maxTokens, Math.min(model.contextWindow, trained)),
			reasoning: model.reasoning || templateSupportsThinking(info.chatTemplate),
		};
	} catch {
		return model;
	}
}
