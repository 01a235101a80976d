// Embedded models: GGUF files in `<agentDir>/models/` (shown as `local/<name>`),
// a GGUF path given to --model, and models.json entries with api "llama-cpp".
// Only GGUF headers are read here (in JavaScript); llama.cpp itself loads on
// the first request.
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";
import { GgufFileError, llamaCppModelFromFile, type Model, withGgufMetadata } from "@pi/ai";
import { resolveUserPath } from "./paths.js";

/** Where `pi models pull` puts files and where `local/<name>` models are found. */
export function localModelsDir(agentDir: string): string {
	return join(agentDir, "models");
}

/** The `.gguf` files in `dir` as models; unreadable files become warnings naming them. */
export function scanLocalModels(dir: string): { models: Model[]; warnings: string[] } {
	let names: string[];
	try {
		names = readdirSync(dir).filter((name) => /\.gguf$/i.test(name));
	} catch {
		return { models: [], warnings: [] };
	}
	const models: Model[] = [];
	const warnings: string[] = [];
	for (const name of names.sort()) {
		try {
			models.push(llamaCppModelFromFile(join(dir, name)));
		} catch (error) {
			warnings.push(`Skipping local model ${error instanceof Error ? error.message : String(error)}`);
		}
	}
	return { models, warnings };
}

/**
 * A models.json `llama-cpp` entry with its path made absolute (relative paths
 * are relative to models.json, `~` is home) and its metadata filled from the file.
 */
export function resolveConfiguredLocalModel(model: Model, modelsFile: string | undefined): Model {
	if (model.api !== "llama-cpp" || !model.path) return model;
	const base = modelsFile ? dirname(modelsFile) : process.cwd();
	const path = isAbsolute(model.path) ? model.path : resolveUserPath(model.path, base);
	return withGgufMetadata({ ...model, path });
}

/** The GGUF file `--model` names, when it names a file rather than a catalog model. */
export function ggufPathArgument(value: string, cwd: string): string | undefined {
	const looksLikeFile =
		/\.gguf$/i.test(value) || value.startsWith(".") || value.startsWith("/") || value.startsWith("~");
	if (!looksLikeFile) return undefined;
	const path = resolveUserPath(value, cwd);
	if (/\.gguf$/i.test(value)) return path;
	return existsSync(path) && statSync(path).isFile() ? path : undefined;
}

/** The model for `--model ./file.gguf`, or an error naming the file. */
export function modelFromGgufArgument(path: string): { model?: Model; error?: string } {
	try {
		return { model: llamaCppModelFromFile(path) };
	} catch (error) {
		return { error: error instanceof GgufFileError ? error.message : `${path}: ${String(error)}` };
	}
}
