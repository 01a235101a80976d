// Worker-thread entry of the codemode sandbox. One worker runs one script at
// a time in a fresh QuickJS runtime (WebAssembly): no Node API, file system,
// network or timer exists in there; the script reaches the world only
// through the host functions below, which forward tool calls to the main
// thread and enforce the output, call and store limits. The main thread owns
// wall time and abort: it terminates this worker, which stops even a tight
// loop at once. A worker whose script ended normally can run another one.
import { parentPort } from "node:worker_threads";
import variant from "@jitl/quickjs-wasmfile-release-sync";
import {
	newQuickJSWASMModuleFromVariant,
	type QuickJSContext,
	type QuickJSDeferredPromise,
	type QuickJSHandle,
	type QuickJSWASMModule,
} from "quickjs-emscripten-core";
import { PRELUDE } from "./prelude.js";
import type { DoneMessage, FromWorker, HostOp, LimitKind, RunMessage, StoreChanges, ToWorker } from "./protocol.js";

const port = parentPort;
if (!port) throw new Error("The codemode sandbox must run in a worker thread");

const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

let modulePromise: Promise<QuickJSWASMModule> | undefined;
const getModule = () => {
	modulePromise ??= newQuickJSWASMModuleFromVariant(variant);
	return modulePromise;
};

function post(message: FromWorker): void {
	port?.postMessage(message);
}

class ScriptRun {
	private readonly pending = new Map<number, QuickJSDeferredPromise>();
	private nextId = 0;
	private outputChars = 0;
	private outputCalls = 0;
	private toolCalls = 0;
	/** Set when the script must stop: the interrupt handler then ends it (uncatchably). */
	private stop: { ok: boolean; error?: string; limit?: LimitKind } | undefined;
	private finished = false;
	private readonly store: Map<string, string>;
	private storeChars = 0;
	private readonly changes: StoreChanges = { set: {}, delete: [] };
	private vm!: QuickJSContext;
	private result: QuickJSHandle | undefined;

	constructor(
		private readonly msg: RunMessage,
		private readonly onDone: (done: DoneMessage) => void,
	) {
		this.store = new Map(Object.entries(msg.store));
		for (const v of this.store.values()) this.storeChars += v.length;
	}

	async start(): Promise<void> {
		const module = await getModule();
		const runtime = module.newRuntime();
		runtime.setMemoryLimit(this.msg.limits.memoryBytes);
		runtime.setMaxStackSize(1024 * 1024);
		runtime.setInterruptHandler(() => this.stop !== undefined);
		const vm = runtime.newContext();
		this.vm = vm;
		try {
			this.installHost();
			const run = vm.evalCode(PRELUDE, "prelude.js");
			if (run.error) {
				this.fail(run.error);
				return;
			}
			// The body goes on the wrapper's first line, so error line numbers are the script's own.
			const fn = vm.evalCode(`(async function () {${this.msg.code}\n})`, "script.js");
			if (fn.error) {
				run.value.dispose();
				this.fail(fn.error);
				return;
			}
			const started = vm.callFunction(run.value, vm.undefined, fn.value);
			run.value.dispose();
			fn.value.dispose();
			if (started.error) {
				this.fail(started.error);
				return;
			}
			this.result = started.value;
			this.pump();
		} catch (error) {
			this.finish({ type: "done", ok: false, error: describeHostError(error), limit: memoryLimit(error) });
		}
	}

	/** A reply from the main thread for one host call. */
	reply(message: Extract<ToWorker, { type: "reply" }>): void {
		const deferred = this.pending.get(message.id);
		if (!deferred || this.finished) return;
		this.pending.delete(message.id);
		const vm = this.vm;
		if (message.ok) {
			const value = vm.newString(message.json);
			deferred.resolve(value);
			value.dispose();
		} else {
			const error = vm.newError(message.error);
			deferred.reject(error);
			error.dispose();
		}
		deferred.dispose();
		this.pump();
	}

	/** Runs queued jobs, then decides whether the script is done, waiting for the host, or stuck. */
	private pump(): void {
		if (this.finished) return;
		const vm = this.vm;
		const jobs = vm.runtime.executePendingJobs();
		if (jobs.error) {
			const error = jobs.error;
			this.fail(error);
			return;
		}
		if (this.stop) {
			this.finish({ type: "done", ...this.stop });
			return;
		}
		const result = this.result;
		if (!result) return;
		const state = vm.getPromiseState(result);
		if (state.type === "fulfilled") {
			if (state.value) state.value.dispose();
			this.finish({ type: "done", ok: true });
		} else if (state.type === "rejected") {
			this.fail(state.error);
		} else if (this.pending.size === 0) {
			this.finish({
				type: "done",
				ok: false,
				error:
					"The script is waiting for a promise that can never settle (no tool call is pending, and there are no timers).",
			});
		}
	}

	/** Ends with the error a QuickJS handle holds (disposing it); a stop request wins over the error it caused. */
	private fail(error: QuickJSHandle): void {
		if (this.stop) {
			error.dispose();
			this.finish({ type: "done", ...this.stop });
			return;
		}
		const dumped = this.vm.dump(error) as unknown;
		error.dispose();
		this.finish({ type: "done", ok: false, error: describeScriptError(dumped), limit: memoryLimit(dumped) });
	}

	private finish(done: DoneMessage): void {
		if (this.finished) return;
		this.finished = true;
		if (done.ok) done.store = this.changes;
		for (const deferred of this.pending.values()) deferred.dispose();
		this.pending.clear();
		this.result?.dispose();
		this.result = undefined;
		const vm = this.vm;
		let reusable = true;
		try {
			const runtime = vm?.runtime;
			vm?.dispose();
			runtime?.dispose();
		} catch {
			// A runtime that cannot be freed cleanly is not reused: the main thread ends this worker.
			reusable = false;
		}
		this.onDone(reusable ? done : { ...done, reusable: false });
	}

	private requestStop(stop: { ok: boolean; error?: string; limit?: LimitKind }): void {
		this.stop ??= stop;
	}

	private countOutput(chars: number): boolean {
		if (this.stop) return false;
		const limits = this.msg.limits;
		this.outputCalls++;
		this.outputChars += chars;
		if (this.outputCalls > limits.maxOutputCalls) {
			this.requestStop({
				ok: false,
				limit: "output",
				error: `Output limit: more than ${limits.maxOutputCalls} text(), image() and console calls. Aggregate in the script, or write large data to a file with a tool.`,
			});
			return false;
		}
		if (this.outputChars > limits.maxOutputChars) {
			this.requestStop({
				ok: false,
				limit: "output",
				error: `Output limit: the output passed ${limits.maxOutputChars} characters. Filter or summarise in the script, or write large data to a file with a tool.`,
			});
			return false;
		}
		return true;
	}

	/** Reads a string argument after checking its length inside the VM, so a huge value is never copied out whole. */
	private readString(handle: QuickJSHandle | undefined, max: number, what: string): string {
		const vm = this.vm;
		if (!handle || vm.typeof(handle) !== "string") throw new TypeError(`${what} must be a string`);
		const lengthHandle = vm.getProp(handle, "length");
		const length = vm.getNumber(lengthHandle);
		lengthHandle.dispose();
		if (length > max) throw new RangeError(`${what} is too long (${length} characters, at most ${max})`);
		return vm.getString(handle);
	}

	/**
	 * Reads an output string (text, console line, image data) if it fits the
	 * output budget; a larger one stops the script with the output limit
	 * before it is copied out of the VM.
	 */
	private takeOutput(handle: QuickJSHandle | undefined, what: string): string | undefined {
		const vm = this.vm;
		if (!handle || vm.typeof(handle) !== "string") throw new TypeError(`${what} must be a string`);
		const lengthHandle = vm.getProp(handle, "length");
		const length = vm.getNumber(lengthHandle);
		lengthHandle.dispose();
		if (!this.countOutput(length)) throw new RangeError("Output limit reached");
		return vm.getString(handle);
	}

	private installHost(): void {
		const vm = this.vm;
		const limits = this.msg.limits;
		const host = vm.newObject();
		const fn = (name: string, impl: (...args: QuickJSHandle[]) => QuickJSHandle | undefined) => {
			const handle = vm.newFunction(name, impl);
			vm.setProp(host, name, handle);
			handle.dispose();
		};
		const json = vm.newString(
			JSON.stringify(this.msg.tools.map(({ name, ident, description }) => ({ name, ident, description }))),
		);
		vm.setProp(host, "toolsJson", json);
		json.dispose();

		fn("call", (opHandle, nameHandle, argsHandle) => {
			const op = vm.getString(opHandle) as HostOp;
			const name = this.readString(nameHandle, 1024, "a tool name");
			if (this.stop) throw new Error("The script is stopping");
			if (op === "tool") {
				this.toolCalls++;
				if (this.toolCalls > limits.maxToolCalls) {
					this.requestStop({
						ok: false,
						limit: "tool-calls",
						error: `Tool call limit: a script may make at most ${limits.maxToolCalls} tool calls. Split the work over several scripts.`,
					});
					throw new RangeError("Tool call limit reached");
				}
			}
			const args = this.readString(argsHandle, limits.maxArgsChars, `the arguments of ${name}`);
			const id = ++this.nextId;
			const deferred = vm.newPromise();
			this.pending.set(id, deferred);
			post({ type: "call", id, op, name, args });
			return deferred.handle;
		});
		fn("text", (value) => {
			const text = this.takeOutput(value, "text()");
			if (text !== undefined) post({ type: "output", item: { kind: "text", text } });
			return undefined;
		});
		fn("image", (mimeHandle, dataHandle) => {
			const mimeType = this.readString(mimeHandle, 100, "the image type").toLowerCase();
			if (!IMAGE_TYPES.has(mimeType)) {
				throw new TypeError(`image(): ${mimeType} is not supported; use PNG, JPEG, GIF or WebP`);
			}
			const data = this.takeOutput(dataHandle, "the image data");
			if (data === undefined) return undefined;
			if (!/^[A-Za-z0-9+/=\s]*$/.test(data)) throw new TypeError("image(): the data is not base64");
			post({ type: "output", item: { kind: "image", data, mimeType } });
			return undefined;
		});
		fn("console", (value) => {
			const line = this.takeOutput(value, "console output");
			if (line !== undefined) post({ type: "console", line });
			return undefined;
		});
		fn("store", (keyHandle, valueHandle) => {
			const key = this.readString(keyHandle, 1024, "a store key");
			const before = this.store.get(key);
			if (!valueHandle || vm.typeof(valueHandle) === "undefined") {
				if (before !== undefined) this.storeChars -= before.length;
				this.store.delete(key);
				delete this.changes.set[key];
				if (!this.changes.delete.includes(key)) this.changes.delete.push(key);
				return undefined;
			}
			const value = this.readString(valueHandle, limits.maxStoreValueChars, `the value stored under "${key}"`);
			const total = this.storeChars - (before?.length ?? 0) + value.length;
			if (total > limits.maxStoreTotalChars) {
				throw new RangeError(
					`store(): all stored values together may have at most ${limits.maxStoreTotalChars} characters of JSON`,
				);
			}
			this.storeChars = total;
			this.store.set(key, value);
			this.changes.set[key] = value;
			this.changes.delete = this.changes.delete.filter((k) => k !== key);
			return undefined;
		});
		fn("load", (keyHandle) => {
			const key = this.readString(keyHandle, 1024, "a store key");
			const value = this.store.get(key);
			return value === undefined ? undefined : vm.newString(value);
		});
		fn("exit", () => {
			this.requestStop({ ok: true });
			return undefined;
		});
		vm.setProp(vm.global, "__pi", host);
		host.dispose();
	}
}

function describeScriptError(dumped: unknown): string {
	if (dumped && typeof dumped === "object") {
		const e = dumped as { name?: unknown; message?: unknown; stack?: unknown };
		if (typeof e.message === "string") {
			const head = typeof e.name === "string" && e.name ? `${e.name}: ${e.message}` : e.message;
			const where = typeof e.stack === "string" ? /script\.js:(\d+)(?::(\d+))?/.exec(e.stack) : null;
			return where ? `${head} (line ${where[1]})` : head;
		}
	}
	if (typeof dumped === "string") return dumped;
	try {
		return JSON.stringify(dumped) ?? String(dumped);
	} catch {
		return String(dumped);
	}
}

function memoryLimit(error: unknown): LimitKind | undefined {
	const message = (error as { message?: unknown })?.message;
	return typeof message === "string" && /out of memory/i.test(message) ? "memory" : undefined;
}

function describeHostError(error: unknown): string {
	return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

let current: ScriptRun | undefined;

port.on("message", (message: ToWorker) => {
	if (message.type === "run") {
		const run = new ScriptRun(message, (done) => {
			current = undefined;
			post(done);
		});
		current = run;
		void run.start();
	} else if (message.type === "reply") current?.reply(message);
});
