/**
 * Runs the JS grep/find engines in a worker thread so that no pattern can
 * freeze the process: the main thread only waits for a message. Abort and the
 * time limit terminate the worker (a running regex cannot be interrupted any
 * other way). Idle workers are kept (unref'ed, so they never hold the process
 * open) to save the start-up of the next search.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Worker } from "node:worker_threads";
import { nodeBuiltin } from "../../lazy-cjs.js";
import { findJs } from "./find-engines.js";
import { grepJs } from "./grep-js.js";
import type { SearchRequest, SearchResponse } from "./search-worker.js";
import type { FindQuery, GrepMatch, GrepQuery } from "./types.js";

/** Default limit for one JS search; a catastrophic pattern ends with an error instead of running on. */
export const DEFAULT_SEARCH_TIME_LIMIT_MS = 60_000;
const MAX_IDLE_WORKERS = 2;

type WorkerScript = { url: URL } | { code: string };

let script: WorkerScript | null | undefined;

/**
 * The built files have `search-worker.mjs` at the dist root (the code calling
 * this lives there: the CLI bundle or the library). Run from source (tests, tsx), the
 * `.ts` worker is bundled once with esbuild (a dev dependency; TypeScript
 * loaders do not reach into worker threads on Node 20).
 */
async function findWorkerScript(): Promise<WorkerScript | null> {
	if (script !== undefined) return script;
	const here = import.meta.url;
	for (const rel of ["./search-worker.mjs", "../search-worker.mjs"]) {
		const url = new URL(rel, here);
		if (url.protocol === "file:" && existsSync(fileURLToPath(url))) return (script = { url });
	}
	const ts = new URL("./search-worker.ts", here);
	if (ts.protocol === "file:" && existsSync(fileURLToPath(ts))) {
		try {
			const esbuild = await import("esbuild");
			const r = esbuild.buildSync({
				entryPoints: [fileURLToPath(ts)],
				bundle: true,
				platform: "node",
				format: "cjs",
				write: false,
				conditions: ["development"],
				logLevel: "silent",
			});
			return (script = { code: r.outputFiles[0].text });
		} catch {
			return (script = null);
		}
	}
	return (script = null);
}

const idle: Worker[] = [];
let nextId = 0;

function takeWorker(s: WorkerScript): Worker {
	const w = idle.pop();
	if (w) {
		w.ref();
		return w;
	}
	// (node:worker_threads is loaded by the first search, not by every run that has the tools.)
	const { Worker: WorkerThread } = nodeBuiltin<typeof import("node:worker_threads")>("node:worker_threads");
	return "url" in s ? new WorkerThread(s.url) : new WorkerThread(s.code, { eval: true });
}

function release(w: Worker): void {
	w.removeAllListeners("message");
	w.removeAllListeners("error");
	w.removeAllListeners("exit");
	if (idle.length < MAX_IDLE_WORKERS) {
		w.unref();
		idle.push(w);
	} else void w.terminate();
}

function abortError(): Error {
	return Object.assign(new Error("Operation aborted"), { name: "AbortError" });
}

function runInWorker<T>(
	s: WorkerScript,
	req: SearchRequest,
	signal: AbortSignal | undefined,
	timeLimitMs: number,
): Promise<T> {
	signal?.throwIfAborted();
	return new Promise<T>((resolve, reject) => {
		const worker = takeWorker(s);
		let settled = false;
		const finish = (fn: () => void, keep: boolean) => {
			if (settled) return;
			settled = true;
			clearTimeout(timer);
			signal?.removeEventListener("abort", onAbort);
			if (keep) release(worker);
			else {
				worker.removeAllListeners();
				void worker.terminate();
			}
			fn();
		};
		const onAbort = () => finish(() => reject(abortError()), false);
		const timer = setTimeout(
			() =>
				finish(
					() =>
						reject(
							new Error(
								`Search stopped after ${Math.round(timeLimitMs / 1000)}s without finishing (a pattern that backtracks catastrophically, or a very large tree). Simplify the pattern or narrow the path.`,
							),
						),
					false,
				),
			timeLimitMs,
		);
		signal?.addEventListener("abort", onAbort, { once: true });
		worker.on("message", (msg: SearchResponse) => {
			if (msg.id !== req.id) return;
			if (msg.ok) finish(() => resolve(msg.result as T), true);
			else finish(() => reject(new Error(msg.message)), true);
		});
		worker.on("error", (error) => finish(() => reject(error), false));
		worker.on("exit", (code) => finish(() => reject(new Error(`search worker exited (code ${code})`)), false));
		worker.postMessage(req);
	});
}

function strip<T extends { signal?: AbortSignal; timeLimitMs?: number }>(q: T): Omit<T, "signal" | "timeLimitMs"> {
	const { signal: _s, timeLimitMs: _t, ...rest } = q;
	return rest;
}

/** The JS grep engine off the main thread (in-thread where no worker script is available). */
export async function grepJsOffThread(query: GrepQuery): Promise<GrepMatch[]> {
	const s = await findWorkerScript();
	if (!s) return grepJs(query);
	const limit = query.timeLimitMs ?? DEFAULT_SEARCH_TIME_LIMIT_MS;
	return runInWorker<GrepMatch[]>(s, { id: ++nextId, kind: "grep", query: strip(query) }, query.signal, limit);
}

/** The JS find engine off the main thread (in-thread where no worker script is available). */
export async function findJsOffThread(query: FindQuery): Promise<string[]> {
	const s = await findWorkerScript();
	if (!s) return findJs(query);
	const limit = query.timeLimitMs ?? DEFAULT_SEARCH_TIME_LIMIT_MS;
	return runInWorker<string[]>(s, { id: ++nextId, kind: "find", query: strip(query) }, query.signal, limit);
}
