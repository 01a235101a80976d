import { type SseEvent, SseParser } from "../sse.js";
import type { AssistantStreamWriter } from "../stream-writer.js";

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
): Promise<boolean> {
	const parser = new SseParser();
	const handle = (events: SseEvent[]) => {
		for (const event of events) {
			if (event.data.trim() === "") continue;
			onData(event.data);
			if (writer.isDone) return;
		}
	};
	for await (const bytes of body) {
		touch(bytes.length);
		handle(parser.pushBytes(bytes));
		if (writer.isDone) return false;
	}
	handle(parser.end());
	return true;
}

/** Ends the stream with the retryable provider error for data that is not the expected JSON. */
export function failMalformed(writer: AssistantStreamWriter, what: "event" | "chunk", data: string): void {
	writer.fail(`Malformed ${what} from the provider: ${data.slice(0, 200)}`, {
		kind: "provider",
		code: `malformed_${what}`,
		retryable: true,
	});
}
