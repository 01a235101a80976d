import type {
	AssistantMessage,
	AssistantMessageEvent,
	AssistantMessageEventStream,
	Context,
	Model,
	StreamOptions,
} from "@pi/ai";
import { ABORTED_INFO, errorText, failedAssistantMessage } from "./messages.js";
import type { StreamFn } from "./types.js";

export interface ResponseRequest {
	streamFn: StreamFn;
	model: Model;
	context: Context;
	options: StreamOptions;
	signal: AbortSignal;
	/**
	 * The first event arrived; `partial` is the message being built. `atStart` is true when that event
	 * was `start`, which precedes every block: the message had no content then, whatever the partial
	 * holds by now (events of one network chunk are all written before the first is read).
	 */
	onStart(partial: AssistantMessage, atStart?: boolean): Promise<void> | undefined;
	onUpdate(partial: AssistantMessage, event: AssistantMessageEvent): Promise<void> | undefined;
	/** The final message; it replaces the partial `onStart` was given. */
	onEnd(final: AssistantMessage, started: boolean): Promise<void> | undefined;
}

/**
 * Streams one response and returns the final assistant message. Never throws:
 * a stream function that throws gives an error message, and an abort ends the
 * response at once with the partial content kept (stopReason "aborted"), even
 * when the stream function does not honour its signal.
 */
export async function requestResponse(request: ResponseRequest): Promise<AssistantMessage> {
	const { model, signal } = request;
	let stream: AssistantMessageEventStream;
	try {
		stream = await request.streamFn(model, request.context, request.options);
	} catch (error) {
		const failed = signal.aborted
			? failedAssistantMessage(model, "aborted", "Request was aborted", ABORTED_INFO)
			: failedAssistantMessage(model, "error", errorText(error), { kind: "unknown", retryable: false });
		await settle(request.onStart(failed));
		await settle(request.onEnd(failed, true));
		return failed;
	}

	let partial: AssistantMessage | undefined;
	let started = false;
	const onAbort = () => {
		if (stream.isFinished) return;
		const aborted: AssistantMessage = partial
			? { ...partial, content: partial.content.slice() }
			: failedAssistantMessage(model, "aborted", "Request was aborted", ABORTED_INFO);
		aborted.stopReason = "aborted";
		aborted.errorMessage = "Request was aborted";
		aborted.errorInfo = ABORTED_INFO;
		stream.push({ type: "error", reason: "aborted", error: aborted });
	};
	if (signal.aborted) onAbort();
	else signal.addEventListener("abort", onAbort, { once: true });
	let final: AssistantMessage | undefined;
	try {
		for await (const event of stream) {
			if (event.type === "done") {
				final = event.message;
				break;
			}
			if (event.type === "error") {
				final = event.error;
				break;
			}
			partial = event.partial;
			if (!started) {
				started = true;
				await settle(request.onStart(partial, event.type === "start"));
				if (event.type === "start") continue;
			}
			await settle(request.onUpdate(partial, event));
		}
	} catch (error) {
		// A broken iterator is a failed response, not a crashed run.
		final = failedFrom(partial, model, errorText(error));
	} finally {
		signal.removeEventListener("abort", onAbort);
	}
	// A stream that ends without `done`/`error` was cut: never a success.
	final ??= failedFrom(partial, model, "Stream ended without a terminal event", "stream_cut");
	// Every message gets a message_start, even when the stream ended before its first event.
	if (!started) await settle(request.onStart(final));
	await settle(request.onEnd(final, true));
	return final;
}

function failedFrom(
	partial: AssistantMessage | undefined,
	model: Model,
	errorMessage: string,
	kind: "unknown" | "stream_cut" = "unknown",
): AssistantMessage {
	const failed: AssistantMessage = partial
		? { ...partial, content: partial.content.slice() }
		: failedAssistantMessage(model, "error", errorMessage, { kind, retryable: false });
	failed.stopReason = "error";
	failed.errorMessage = errorMessage;
	failed.errorInfo = { kind, retryable: false };
	return failed;
}

async function settle(pending: Promise<void> | undefined): Promise<void> {
	if (pending) await pending;
}
