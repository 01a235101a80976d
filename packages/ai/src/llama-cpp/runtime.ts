/**
 * The embedded llama.cpp runtime: node-llama-cpp (an optional peer dependency)
 * imported on first use, the native binding created once, and each GGUF model
 * loaded once per process with one context whose single sequence serves the
 * requests for that model in turn. Everything is released on exit.
 */
import { totalmem } from "node:os";
import { resolve } from "node:path";
import type { Llama, LlamaChat, LlamaContext, LlamaModel } from "node-llama-cpp";
import { ProviderFault } from "../errors.js";
import type { Model } from "../types.js";
import { checkGgufFitsMemory, GgufFileError, type GgufInfo, readGgufInfo } from "./gguf-file.js";

export type NodeLlamaCpp = typeof import("node-llama-cpp");

/** The pinned version: newer releases break `npm ci` on some machines. */
export const NODE_LLAMA_CPP_VERSION = "3.21.1";

/** What a request needs from a loaded model. */
export interface LoadedLlamaModel {
	path: string;
	info: GgufInfo;
	model: LlamaModel;
	context: LlamaContext;
	chat: LlamaChat;
	/** Tokens the context holds (prompt + output must fit). */
	contextSize: number;
	/** Milliseconds the native load took (model + context). */
	loadMs: number;
	/** Runs `task` after every earlier request on this model finished (one sequence, one request at a time). */
	exclusive<T>(task: () => Promise<T>): Promise<T>;
}

let modulePromise: Promise<NodeLlamaCpp> | undefined;
let llamaPromise: Promise<Llama> | undefined;
const models = new Map<string, Promise<LoadedLlamaModel>>();
let exitHookInstalled = false;

/** Imports node-llama-cpp, or explains how to install it. */
export function importNodeLlamaCpp(): Promise<NodeLlamaCpp> {
	modulePromise ??= import("node-llama-cpp").catch((error: unknown) => {
		modulePromise = undefined;
		const code = (error as { code?: string }).code;
		const missing = code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND";
		throw new ProviderFault(
			missing
				? `Local GGUF models need the optional package node-llama-cpp, which is not installed. Install it next to pi: npm install -g node-llama-cpp@${NODE_LLAMA_CPP_VERSION} (or, in a project install, npm install node-llama-cpp@${NODE_LLAMA_CPP_VERSION})`
				: `node-llama-cpp could not be loaded: ${error instanceof Error ? error.message : String(error)}`,
			{ kind: "bad_request", code: "llama_cpp_unavailable", retryable: false },
		);
	});
	return modulePromise;
}

/** How the native backend was chosen; `--verbose` prints it. */
export interface LlamaBackendInfo {
	gpu: string | false;
	devices: string[];
}

/**
 * The native binding, created once. Only the prebuilt binaries that npm
 * installed are used (`build: "never"`): pi never compiles or downloads
 * llama.cpp at run time. A GPU is used when a prebuilt binary finds one.
 */
export function getLlamaRuntime(): Promise<Llama> {
	llamaPromise ??= (async () => {
		const lib = await importNodeLlamaCpp();
		const gpuEnv = process.env.PI_LLAMA_GPU;
		try {
			return await lib.getLlama({
				build: "never",
				gpu: gpuEnv === "off" || gpuEnv === "false" ? false : "auto",
				progressLogs: false,
				logLevel: lib.LlamaLogLevel.error,
				// llama.cpp's own messages would tear the TUI; failures surface as errors instead.
				logger: () => {},
			});
		} catch (error) {
			llamaPromise = undefined;
			throw new ProviderFault(
				`node-llama-cpp found no prebuilt llama.cpp binary that works on this machine (${error instanceof Error ? error.message : String(error)}); pi does not build it from source`,
				{ kind: "bad_request", code: "llama_cpp_unavailable", retryable: false },
			);
		}
	})();
	return llamaPromise;
}

export async function llamaBackendInfo(): Promise<LlamaBackendInfo> {
	const llama = await getLlamaRuntime();
	return { gpu: llama.gpu, devices: llama.gpu ? await llama.getGpuDeviceNames() : [] };
}

/** The GGUF file a llama-cpp model runs from. */
export function modelFilePath(model: Model): string | undefined {
	return model.path ? resolve(model.path) : undefined;
}

/**
 * The loaded model for `model.path`, loading it on first use. The file is
 * checked in JavaScript first (GGUF header, length, architecture, memory), so
 * a bad file is a `ProviderFault` naming it, never a native crash.
 */
export function acquireModel(model: Model): Promise<LoadedLlamaModel> {
	const path = modelFilePath(model);
	if (!path) {
		return Promise.reject(
			new ProviderFault(`Model "${model.id}" has api "llama-cpp" but no "path" to a GGUF file`, {
				kind: "bad_request",
				code: "bad_model_file",
				retryable: false,
			}),
		);
	}
	const key = `${path}\0${model.contextWindow}\0${model.gpuLayers ?? "auto"}`;
	let loading = models.get(key);
	if (!loading) {
		loading = loadModel(path, model);
		models.set(key, loading);
		// A failed load may succeed later (file replaced, dependency installed).
		loading.catch(() => models.delete(key));
	}
	return loading;
}

async function loadModel(path: string, model: Model): Promise<LoadedLlamaModel> {
	const started = performance.now();
	const info = await checkModelFile(path);
	const lib = await importNodeLlamaCpp();
	// Declared as a const enum in the typings, but a real object at run time.
	const architectures = (lib as unknown as { GgufArchitectureType?: Record<string, string> }).GgufArchitectureType;
	const supported = new Set<string>(Object.values(architectures ?? {}));
	if (architectures && !supported.has(info.architecture)) {
		throw badFile(
			new GgufFileError(
				path,
				"architecture",
				`architecture "${info.architecture}" is not supported by this llama.cpp build`,
			),
		);
	}
	const llama = await getLlamaRuntime();
	installExitHook();
	let llamaModel: LlamaModel;
	try {
		llamaModel = await llama.loadModel({ modelPath: path, gpuLayers: model.gpuLayers ?? "auto" });
	} catch (error) {
		throw badFile(new GgufFileError(path, "corrupt", `llama.cpp could not load the model: ${describe(error)}`));
	}
	const trained = llamaModel.trainContextSize || model.contextWindow;
	const contextSize = Math.max(64, Math.min(model.contextWindow || trained, trained));
	let context: LlamaContext;
	try {
		context = await llamaModel.createContext({ contextSize, sequences: 1, ...threadOption() });
	} catch (error) {
		await llamaModel.dispose();
		throw new ProviderFault(`${path}: could not create a ${contextSize}-token context: ${describe(error)}`, {
			kind: "bad_request",
			code: "bad_model_file",
			retryable: false,
		});
	}
	// The GGUF's own Jinja template is the chat format (node-llama-cpp reads the function-call and
	// thought syntax out of it). Matching it against every specialised wrapper first costs seconds.
	const chatWrapper =
		info.chatTemplate !== undefined
			? (lib.resolveChatWrapper(llamaModel, { type: "jinjaTemplate" }) ?? "auto")
			: "auto";
	const chat = new lib.LlamaChat({ contextSequence: context.getSequence(), autoDisposeSequence: true, chatWrapper });
	let queue: Promise<unknown> = Promise.resolve();
	return {
		path,
		info,
		model: llamaModel,
		context,
		chat,
		contextSize: context.contextSize,
		loadMs: performance.now() - started,
		exclusive<T>(task: () => Promise<T>): Promise<T> {
			const run = queue.then(task, task);
			queue = run.catch(() => {});
			return run;
		},
	};
}

/** Reads and checks the file; every failure is a `ProviderFault` naming it. */
export async function checkModelFile(path: string, memoryBytes = totalmem()): Promise<GgufInfo> {
	try {
		const info = await readGgufInfo(path);
		checkGgufFitsMemory(info, memoryBytes);
		return info;
	} catch (error) {
		if (error instanceof GgufFileError) throw badFile(error);
		throw new ProviderFault(`${path}: could not read the model file: ${describe(error)}`, {
			kind: "bad_request",
			code: "bad_model_file",
			retryable: false,
		});
	}
}

function badFile(error: GgufFileError): ProviderFault {
	return new ProviderFault(error.message, { kind: "bad_request", code: "bad_model_file", retryable: false });
}

/** Releases every loaded model and the native binding (tests; process exit). */
export async function unloadLlamaCppModels(): Promise<void> {
	const loaded = [...models.values()];
	models.clear();
	for (const loading of loaded) {
		try {
			const entry = await loading;
			entry.chat.dispose();
			await entry.context.dispose();
			await entry.model.dispose();
		} catch {
			// A model that failed to load has nothing to release.
		}
	}
}

/** How many models are loaded or loading (tests check load-once). */
export function loadedModelCount(): number {
	return models.size;
}

function installExitHook(): void {
	if (exitHookInstalled) return;
	exitHookInstalled = true;
	// `beforeExit` runs when the event loop drains (print mode, tests); the native memory is
	// returned to the OS either way, this only lets llama.cpp free its buffers in order.
	process.once("beforeExit", () => void unloadLlamaCppModels());
}

/**
 * `PI_LLAMA_THREADS` caps the threads llama.cpp computes with. Its worker threads spin while
 * waiting for each other, so on a machine whose cores are busy with other work fewer threads
 * are faster; by default node-llama-cpp's own choice stands.
 */
function threadOption(): { threads?: number } {
	const value = Number.parseInt(process.env.PI_LLAMA_THREADS ?? "", 10);
	return Number.isInteger(value) && value > 0 ? { threads: value } : {};
}

function describe(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}
