import { type SseEvent, SseParser } from "../sse.js";
import type { AssistantStreamWriter } from "../stream-writer.js";
import type { Model, ProviderResponseInfo } from "../types.js";

/**
 * Reads a raw SSE response body and hands each non-blank event's data to
 * `onData`, stopping as soon as the writer has ended (an error or a stop
 * reason). Returns true when the body was read to its end with the writer
 * still open: the adapter then decides whether the stream was complete.
 */
export async function readSseBody(
	body: AsyncIterable<Uint8Array>,
	writer: AssistantStreamWriter,
	touch: (bytes: number) => void,
	onData: (data: string) => void,
	observe?: (data: unknown) => void | Promise<void>,
): Promise<boolean> {
	const parser = new SseParser();
	const handle = async (events: SseEvent[]) => {
		for (const event of events) {
			if (event.data.trim() === "") continue;
			if (observe) await observeEvent(observe, event.data);
			onData(event.data);
			if (writer.isDone) return;
		}
	};
	for await (const bytes of body) {
		touch(bytes.length);
		await handle(parser.pushBytes(bytes));
		if (writer.isDone) return false;
	}
	await handle(parser.end());
	return true;
}

/**
 * Hands a wire event's parsed JSON to the caller's `onStreamEvent` (parsed
 * again here so the mapping path stays synchronous when nobody listens).
 * Unparseable data is left to the mapper to report; observer errors never
 * change the response.
 */
export async function observeEvent(observe: (data: unknown) => void | Promise<void>, data: unknown): Promise<void> {
	let value = data;
	if (typeof data === "string") {
		try {
			value = JSON.parse(data);
		} catch {
			return;
		}
	}
	try {
		await observe(value);
	} catch {
		// Read-only observation: the stream goes on.
	}
}

/** The `observe` argument of `readSseBody` for these options, when the caller listens. */
export function streamObserver(
	options: { onStreamEvent?: (data: unknown, model: Model) => void | Promise<void> },
	model: Model,
): ((data: unknown) => void | Promise<void>) | undefined {
	const onStreamEvent = options.onStreamEvent;
	return onStreamEvent ? (data) => onStreamEvent(data, model) : undefined;
}

/** Ends the stream with the retryable provider error for data that is not the expected JSON. */
export function failMalformed(writer: AssistantStreamWriter, what: "event" | "chunk", data: string): void {
	writer.fail(`Malformed ${what} from the provider: ${data.slice(0, 200)}`, {
		kind: "provider",
		code: `malformed_${what}`,
		retryable: true,
	});
}

/** The data of an SSE event as a wire event (JSON with a string `type`), or undefined. */
export function parseTypedEvent<E extends { type: string }>(data: string): E | undefined {
	try {
		const value: unknown = JSON.parse(data);
		return typeof value === "object" && value !== null && typeof (value as { type?: unknown }).type === "string"
			? (value as E)
			: undefined;
	} catch {
		return undefined;
	}
}

/** What turns a provider's typed wire events into stream events. */
export interface TypedEventMapper<E> {
	handle(event: E): void;
	end(): void;
}

/**
 * Reads an SDK-sent response whose body is SSE of typed JSON events (Anthropic
 * Messages, OpenAI Responses and the APIs that share its events) into `mapper`.
 * The body is read raw: faster than the SDKs' SSE decoders (which rescan a
 * growing event line per chunk) and keeps `event: error` frames as ordinary
 * events. A `[DONE]` sentinel is skipped; anything else that is not a typed
 * event fails the stream as malformed.
 */
export async function mapTypedEventResponse<E extends { type: string }>(
	response: Response,
	mapper: TypedEventMapper<E>,
	run: { writer: AssistantStreamWriter; touch: (bytes: number) => void },
	options: {
		onResponse?: (response: ProviderResponseInfo, model: Model) => void;
		onStreamEvent?: (data: unknown, model: Model) => void | Promise<void>;
	},
	model: Model,
): Promise<void> {
	options.onResponse?.({ status: response.status, headers: Object.fromEntries(response.headers) }, model);
	if (!response.body) throw new Error("The response has no body");
	const { writer } = run;
	const ended = await readSseBody(
		response.body as unknown as AsyncIterable<Uint8Array>,
		writer,
		run.touch,
		(data) => {
			if (data.startsWith("[DONE]")) return;
			const payload = parseTypedEvent<E>(data);
			if (payload) mapper.handle(payload);
			else failMalformed(writer, "event", data);
		},
		streamObserver(options, model),
	);
	if (ended) mapper.end();
}
