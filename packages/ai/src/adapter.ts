import type { NormalizedContext } from "./context.js";
import { errorFromException, ProviderFault } from "./errors.js";
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
	/**
	 * Call on every wire chunk with its size: restarts the idle timer and counts
	 * the response against `maxResponseBytes`. Throws once a cap is passed, so a
	 * read loop stops at that chunk.
	 */
	touch(bytes?: number): void;
}

/** No byte from the provider for this long ends the request (retryable); `timeoutMs: 0` turns it off. */
export const DEFAULT_IDLE_TIMEOUT_MS = 10 * 60_000;
/** One response may not exceed this many wire bytes (an endless stream otherwise fills memory). */
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;
/** One response may not take longer than this, idle or not (an endless trickle). */
export const DEFAULT_MAX_RESPONSE_MS = 60 * 60_000;

function mib(bytes: number): string {
	return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;
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
	const idleMs = options.timeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
	const maxBytes = options.maxResponseBytes || DEFAULT_MAX_RESPONSE_BYTES;
	const maxMs = options.maxResponseMs || DEFAULT_MAX_RESPONSE_MS;
	let timedOut = false;
	/** Set when a cap ended the response: it is the reported error, whatever the SDK throws after. */
	let capped: ProviderFault | undefined;
	let received = 0;
	let timer: ReturnType<typeof setTimeout> | undefined;
	const onAbort = () => controller.abort(callerSignal?.reason);
	if (callerSignal?.aborted) controller.abort(callerSignal.reason);
	else callerSignal?.addEventListener("abort", onAbort, { once: true });
	const stop = (fault: ProviderFault) => {
		capped ??= fault;
		controller.abort(fault);
	};
	const lifetime = setTimeout(() => {
		stop(
			new ProviderFault(
				`The provider's response took longer than ${Math.round(maxMs / 1000)} s (maxResponseMs); it was stopped`,
				{ kind: "provider", code: "response_too_long", retryable: false },
			),
		);
	}, maxMs);
	lifetime.unref?.();

	const touch = (bytes = 0) => {
		if (capped) throw capped;
		received += bytes;
		if (received > maxBytes) {
			stop(
				new ProviderFault(
					`The provider's response passed ${mib(maxBytes)} (maxResponseBytes); it was stopped after ${mib(received)}`,
					{ kind: "provider", code: "response_too_large", retryable: false },
				),
			);
			throw capped;
		}
		if (!idleMs) return;
		if (timer) clearTimeout(timer);
		timer = setTimeout(() => {
			timedOut = true;
			controller.abort(new Error("idle timeout"));
		}, idleMs);
		timer.unref?.();
	};

	const run = async () => {
		touch();
		try {
			await body({ writer, signal: controller.signal, touch });
			if (capped && !writer.isDone && !callerSignal?.aborted) throw capped;
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
			if (capped && !callerSignal?.aborted) {
				writer.fail(capped.message, { ...capped.info });
			} else if (timedOut && !callerSignal?.aborted) {
				writer.fail(`No data from the provider for ${idleMs} ms`, {
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
			clearTimeout(lifetime);
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
