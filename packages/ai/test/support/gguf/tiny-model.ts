/** A generated tiny GGUF on disk plus a `llama-cpp` Model pointing at it, for tests and benches. */
// One compute thread: llama.cpp threads spin-wait, which on a busy 2-core machine costs seconds per token.
process.env.PI_LLAMA_THREADS ??= "1";
process.env.PI_LLAMA_GPU ??= "off";

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Model } from "../../../src/types.js";
import { type TinyLlamaOptions, writeTinyLlama } from "./tiny-llama.js";

export interface TinyModelFile {
	dir: string;
	path: string;
	model: Model;
	cleanup(): void;
}

export function tinyLlamaModel(path: string, patch: Partial<Model> = {}): Model {
	return {
		id: "tiny",
		name: "tiny",
		api: "llama-cpp",
		provider: "local",
		baseUrl: "",
		reasoning: true,
		input: ["text"],
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
		contextWindow: 4096,
		maxTokens: 64,
		path,
		gpuLayers: 0,
		...patch,
	};
}

/** Writes the tiny model into a fresh temp dir. */
export function writeTinyModelFile(options?: TinyLlamaOptions, name = "tiny.gguf"): TinyModelFile {
	const dir = mkdtempSync(join(tmpdir(), "pi-gguf-"));
	const path = writeTinyLlama(join(dir, name), options);
	return { dir, path, model: tinyLlamaModel(path), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
