// The sandbox workers of this process. At most `PI_CODEMODE_MAX_WORKERS`
// (default 2) are alive at once, across all sessions; a script that finds
// them all busy waits in arrival order. A worker whose script ended normally
// is kept idle (unref'ed, so it never holds the process open) for the next
// script; a stopped one (abort, time limit) is terminated and keeps its slot
// until it has exited.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";

const DEFAULT_MAX_WORKERS = 2;
const MAX_IDLE_WORKERS = 1;

type WorkerScript = { url: URL } | { code: string };
let script: Promise<WorkerScript> | undefined;

/**
 * The built CLI has `codemode-worker.mjs` at the dist root (the code calling
 * this lives there: the CLI bundle or the library). Run from source (tests), the `.ts`
 * worker is bundled once with esbuild (a dev dependency), its npm imports
 * kept external but resolved to absolute paths so the QuickJS package finds
 * its `.wasm` file next to itself.
 */
function workerScript(): Promise<WorkerScript> {
	script ??= (async () => {
		const here = import.meta.url;
		for (const rel of ["./codemode-worker.mjs", "../codemode-worker.mjs"]) {
			const url = new URL(rel, here);
			if (url.protocol === "file:" && existsSync(fileURLToPath(url))) return { url };
		}
		const ts = new URL("./worker.ts", here);
		if (ts.protocol !== "file:" || !existsSync(fileURLToPath(ts))) {
			throw new Error("The codemode sandbox worker is missing from this build");
		}
		const entry = fileURLToPath(ts);
		const require = createRequire(entry);
		const esbuild = await import("esbuild");
		const out = await esbuild.build({
			entryPoints: [entry],
			bundle: true,
			platform: "node",
			format: "cjs",
			write: false,
			conditions: ["development"],
			logLevel: "silent",
			plugins: [
				{
					name: "absolute-externals",
					setup(b) {
						b.onResolve({ filter: /^[^./]/ }, (args) =>
							args.path.startsWith("node:") ? { external: true } : { path: require.resolve(args.path), external: true },
						);
					},
				},
			],
		});
		return { code: out.outputFiles[0].text };
	})();
	return script;
}

function maxWorkers(): number {
	const n = Number(process.env.PI_CODEMODE_MAX_WORKERS);
	return Number.isInteger(n) && n > 0 ? n : DEFAULT_MAX_WORKERS;
}

let live = 0;
const idle: Worker[] = [];
const waiting: { grant: (w: Worker) => void; fail: (e: Error) => void }[] = [];

async function spawn(): Promise<Worker> {
	live++;
	try {
		const s = await workerScript();
		const worker = "url" in s ? new Worker(s.url) : new Worker(s.code, { eval: true });
		worker.once("exit", () => {
			live--;
			const i = idle.indexOf(worker);
			if (i >= 0) idle.splice(i, 1);
			void serveWaiting();
		});
		return worker;
	} catch (error) {
		live--;
		throw error;
	}
}

async function serveWaiting(): Promise<void> {
	while (waiting.length > 0 && (idle.length > 0 || live < maxWorkers())) {
		const next = waiting.shift();
		if (!next) return;
		const w = idle.pop();
		if (w) {
			w.ref();
			next.grant(w);
		} else {
			await spawn().then(next.grant, next.fail);
		}
	}
}

/**
 * A worker for one script: an idle one, a new one, or the next one freed.
 * Rejects with the signal's reason when `signal` fires first (time limit, abort).
 */
export async function acquireWorker(signal: AbortSignal): Promise<Worker> {
	signal.throwIfAborted();
	const w = idle.pop();
	if (w) {
		w.ref();
		return w;
	}
	if (live < maxWorkers() && waiting.length === 0) return spawn();
	return new Promise<Worker>((resolve, reject) => {
		const entry = {
			grant: (worker: Worker) => {
				signal.removeEventListener("abort", onAbort);
				if (signal.aborted) releaseWorker(worker, true);
				else resolve(worker);
			},
			fail: (error: Error) => {
				signal.removeEventListener("abort", onAbort);
				reject(error);
			},
		};
		const onAbort = () => {
			const i = waiting.indexOf(entry);
			if (i >= 0) waiting.splice(i, 1);
			reject(signal.reason);
		};
		signal.addEventListener("abort", onAbort, { once: true });
		waiting.push(entry);
	});
}

/** Returns a worker after its script: kept for the next script when `reusable`, else terminated. */
export function releaseWorker(worker: Worker, reusable: boolean): void {
	worker.removeAllListeners("message");
	worker.removeAllListeners("error");
	if (!reusable) {
		void worker.terminate();
		return;
	}
	const next = waiting.shift();
	if (next) {
		next.grant(worker);
		return;
	}
	if (idle.length < MAX_IDLE_WORKERS) {
		worker.unref();
		idle.push(worker);
	} else void worker.terminate();
}
