import type { NormalizedContext } from "./context.js";
import { errorFromException } from "./errors.js";
import type { AssistantMessageEventStream } from "./event-stream.js";
import { AssistantStreamWriter } from "./stream-writer.js";
import type { Model, StreamOptions } from "./types.js";

/**
 * The contract between `stream()` and a wire adapter. Adapter modules export
 * `const adapter: ApiAdapter` and import these types from here (not from
 * registry.ts, which imports the adapters lazily: that would be a cycle).
 */
export type AdapterOptions = StreamOptions & { apiKey: string };

export interface ApiAdapter {
	/** Starts one request; returns at once. Must end with exactly one `done` or `error`, never throw. */
	stream(model: Model, context: NormalizedContext, options: AdapterOptions): AssistantMessageEventStream;
}

/** What `runAdapterStream` hands the adapter body. */
export interface AdapterRun {
	writer: AssistantStreamWriter;
	/**
	 * Aborts on the caller's signal or on the idle timeout; pass it to the SDK.
	 * SDK streams may end quietly on abort: when `signal.aborted`, just return
	 * (no finish/fail) and the run reports `aborted` or the timeout.
	 */
	signal: AbortSignal;
	/** Call on every wire chunk: restarts the idle timer of `options.timeoutMs`. */
	touch(): void;
}

/**
 * Runs an adapter body with the shared failure handling: any throw becomes an
 * `error` event (structured by `errorFromException`, key redacted), an abort
 * becomes `aborted`, and a body that returns without `finish()`/`fail()` is a
 * cut stream. Returns the writer's stream synchronously.
 */
export function runAdapterStream(
	model: Model,
	options: AdapterOptions,
	body: (run: AdapterRun) => Promise<void>,
): AssistantMessageEventStream {
	const writer = new AssistantStreamWriter(model);
	const controller = new AbortController();
	const callerSignal = options.signal;
	let timedOut = false;
	let timer: ReturnType<typeof setTimeout> | undefined;
	const onAbort = () => controller.abort(callerSignal?.reason);
	if (callerSignal?.aborted) controller.abort(callerSignal.reason);
	else callerSignal?.addEventListener("abort", onAbort, { once: true });

	const touch = () => {
		if (!options.timeoutMs) return;
		if (timer) clearTimeout(timer);
		timer = setTimeout(() => {
			timedOut = true;
			controller.abort(new Error("idle timeout"));
		}, options.timeoutMs);
		timer.unref?.();
	};

	const run = async () => {
		touch();
		try {
			await body({ writer, signal: controller.signal, touch });
			if (!writer.isDone) {
				// SDK streams end quietly on abort, so an abort or idle timeout can look like a clean end.
				if (timedOut && !callerSignal?.aborted) throw new Error("idle timeout");
				if (callerSignal?.aborted) writer.fail("Request was aborted", { kind: "aborted", retryable: false });
				else
					writer.fail("The stream ended before the provider reported a stop reason", {
						kind: "stream_cut",
						retryable: true,
					});
			}
		} catch (error) {
			if (timedOut && !callerSignal?.aborted) {
				writer.fail(`No data from the provider for ${options.timeoutMs} ms`, {
					kind: "network",
					code: "timeout",
					retryable: true,
				});
			} else {
				const mapped = errorFromException(error, callerSignal, [options.apiKey]);
				// A connection lost after the response began is a cut stream, not a failed connect.
				if (mapped.info.kind === "network" && writer.hasStarted) mapped.info.kind = "stream_cut";
				writer.fail(mapped.message, mapped.info);
			}
		} finally {
			if (timer) clearTimeout(timer);
			callerSignal?.removeEventListener("abort", onAbort);
		}
	};
	void run();
	return writer.stream;
}

/** A stream that fails at once (missing key, unknown api, adapter load failure). */
export function failedStream(model: Model, message: string, info: Parameters<AssistantStreamWriter["fail"]>[1]) {
	const writer = new AssistantStreamWriter(model);
	writer.fail(message, info);
	return writer.stream;
}
