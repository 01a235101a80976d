// Runs one script in a sandbox worker and collects what it produced. The
// main thread owns the two limits a script cannot be trusted to notice: wall
// time and abort. Either terminates the worker at once (a tight loop
// included), then every tool call still running is aborted and awaited, so
// each one ends with a result before the outcome is returned. Output items
// are streamed from the worker as they are made, so a stopped script keeps
// its partial output.
import type { Worker } from "node:worker_threads";
import type {
	FromWorker,
	HostOp,
	LimitKind,
	OutputItem,
	ScriptLimits,
	ScriptTool,
	StoreChanges,
	ToWorker,
} from "./protocol.js";
import { acquireWorker, releaseWorker } from "./worker-pool.js";

export const DEFAULT_LIMITS: ScriptLimits = {
	memoryBytes: 256 * 1024 * 1024,
	maxOutputChars: 16_777_216,
	maxOutputCalls: 100_000,
	maxToolCalls: 1_000,
	maxStoreValueChars: 262_144,
	maxStoreTotalChars: 1_048_576,
	maxArgsChars: 16_777_216,
};

/** How long a script may wait for a free worker before it fails without running. */
export const WORKER_WAIT_MS = 60_000;

/** What a script asks of the world. A rejection becomes a rejected promise in the script. */
export interface ScriptHost {
	call(op: HostOp, name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<unknown>;
}

export interface RunScriptOptions {
	code: string;
	tools: ScriptTool[];
	/** The store as the branch has it: key → JSON text. */
	store?: Record<string, string>;
	limits?: Partial<ScriptLimits>;
	/** Hard deadline for the whole script, including the wait for a worker. */
	timeoutMs: number;
	signal?: AbortSignal;
	host: ScriptHost;
	/** Called for every output item and console line as it arrives (live progress). */
	onProgress?: () => void;
}

export interface ScriptOutcome {
	ok: boolean;
	/** The script's error, or what limit stopped it. */
	error?: string;
	limit?: LimitKind;
	items: OutputItem[];
	console: string[];
	/** Store writes; only for a successful script. */
	store?: StoreChanges;
	durationMs: number;
	/** Tool calls the script made. */
	toolCalls: number;
}

class StopError extends Error {
	constructor(
		readonly limit: LimitKind,
		message: string,
	) {
		super(message);
	}
}

function describe(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

export async function runScript(o: RunScriptOptions): Promise<ScriptOutcome> {
	const started = performance.now();
	const limits = { ...DEFAULT_LIMITS, ...o.limits };
	const items: OutputItem[] = [];
	const consoleLines: string[] = [];
	let toolCalls = 0;
	const elapsed = () => Math.round(performance.now() - started);
	const outcome = (rest: Omit<ScriptOutcome, "items" | "console" | "durationMs" | "toolCalls">): ScriptOutcome => ({
		...rest,
		items,
		console: consoleLines,
		durationMs: elapsed(),
		toolCalls,
	});

	// One signal for "stop now": the caller's abort or the deadline.
	const stop = new AbortController();
	const onAbort = () =>
		stop.abort(new StopError("aborted", "The script was stopped by the user (aborted) before it finished."));
	if (o.signal?.aborted) onAbort();
	o.signal?.addEventListener("abort", onAbort, { once: true });
	const deadline = setTimeout(
		() => stop.abort(new StopError("time", `The script did not finish within its time limit of ${o.timeoutMs} ms.`)),
		o.timeoutMs,
	);
	const cleanup = () => {
		clearTimeout(deadline);
		o.signal?.removeEventListener("abort", onAbort);
	};

	let worker: Worker;
	const wait = AbortSignal.any([stop.signal, AbortSignal.timeout(WORKER_WAIT_MS)]);
	try {
		worker = await acquireWorker(wait);
	} catch (error) {
		cleanup();
		if (error instanceof StopError) return outcome({ ok: false, error: error.message, limit: error.limit });
		const timedOut = (error as { name?: string })?.name === "TimeoutError";
		return outcome({
			ok: false,
			limit: "no-worker",
			error: timedOut
				? `No sandbox worker became free within ${WORKER_WAIT_MS / 1000} s; the script did not run.`
				: `The sandbox could not start: ${describe(error)}`,
		});
	}

	const inner = new AbortController();
	const inFlight = new Set<Promise<void>>();

	return new Promise<ScriptOutcome>((resolve) => {
		let done = false;
		const finish = (result: ScriptOutcome, reusable: boolean) => {
			if (done) return;
			done = true;
			cleanup();
			stop.signal.removeEventListener("abort", onStop);
			worker.off("exit", onExit);
			releaseWorker(worker, reusable);
			// Calls still running are cancelled; each gets its result before the script's outcome is known.
			inner.abort(new Error("The codemode script ended"));
			void Promise.allSettled([...inFlight]).then(() => resolve({ ...result, durationMs: elapsed() }));
		};
		const onStop = () => {
			const reason = stop.signal.reason as StopError;
			finish(outcome({ ok: false, error: reason.message, limit: reason.limit }), false);
		};
		const onExit = (code: number) =>
			finish(outcome({ ok: false, error: `The sandbox worker stopped unexpectedly (exit code ${code}).` }), false);
		const send = (message: ToWorker) => {
			if (!done) worker.postMessage(message);
		};

		stop.signal.addEventListener("abort", onStop, { once: true });
		worker.on("exit", onExit);
		worker.on("error", (error) =>
			finish(outcome({ ok: false, error: `The sandbox worker failed: ${describe(error)}` }), false),
		);
		worker.on("message", (message: FromWorker) => {
			if (done) return;
			switch (message.type) {
				case "output":
					items.push(message.item);
					o.onProgress?.();
					return;
				case "console":
					consoleLines.push(message.line);
					o.onProgress?.();
					return;
				case "call": {
					if (message.op === "tool") toolCalls++;
					const call = (async () => {
						try {
							const args = JSON.parse(message.args) as Record<string, unknown>;
							const value = await o.host.call(message.op, message.name, args ?? {}, inner.signal);
							send({ type: "reply", id: message.id, ok: true, json: JSON.stringify(value) ?? "" });
						} catch (error) {
							send({ type: "reply", id: message.id, ok: false, error: describe(error) });
						}
					})();
					inFlight.add(call);
					void call.finally(() => inFlight.delete(call));
					return;
				}
				case "done":
					finish(
						outcome({
							ok: message.ok,
							...(message.error !== undefined ? { error: message.error } : {}),
							...(message.limit ? { limit: message.limit } : {}),
							...(message.ok && message.store ? { store: message.store } : {}),
						}),
						message.reusable !== false,
					);
					return;
			}
		});
		if (stop.signal.aborted) {
			onStop();
			return;
		}
		send({ type: "run", code: o.code, tools: o.tools, store: o.store ?? {}, limits });
	});
}
