/**
 * Amazon Bedrock ConverseStream wire format for the fake provider: the binary
 * AWS event stream (`application/vnd.amazon.eventstream`), each message a
 * prelude (total length, headers length, prelude CRC32), typed headers
 * (`:message-type`, `:event-type` or `:exception-type`, `:content-type`), a
 * JSON payload and a message CRC32, encoded with the AWS SDK's own codec
 * (@smithy/core's EventStreamCodec). Event shapes as Bedrock's Converse API
 * reference documents them (messageStart, contentBlockStart/Delta/Stop,
 * messageStop, metadata; exception events such as throttlingException);
 * HTTP errors are JSON `{message}` bodies with the exception name in
 * `x-amzn-errortype`.
 */
import { EventStreamCodec, type MessageHeaders } from "@smithy/core/event-streams";
import { type JsonScript, json, type SseScript } from "./server.js";

const codec = new EventStreamCodec(
	(bytes) => Buffer.from(bytes).toString("utf8"),
	(text) => new Uint8Array(Buffer.from(text, "utf8")),
);

export const EVENT_STREAM_TYPE = "application/vnd.amazon.eventstream";

export function eventFrame(eventType: string, payload: object): Uint8Array {
	const headers: MessageHeaders = {
		":event-type": { type: "string", value: eventType },
		":content-type": { type: "string", value: "application/json" },
		":message-type": { type: "string", value: "event" },
	};
	// Bedrock pads each event with a `p` field of random length (hides the size of the content).
	return codec.encode({ headers, body: Buffer.from(JSON.stringify({ ...payload, p: "abcdefgh" })) });
}

export function exceptionFrame(exceptionType: string, message: string): Uint8Array {
	const headers: MessageHeaders = {
		":exception-type": { type: "string", value: exceptionType },
		":content-type": { type: "string", value: "application/json" },
		":message-type": { type: "string", value: "exception" },
	};
	return codec.encode({ headers, body: Buffer.from(JSON.stringify({ message })) });
}

export interface BedrockUsage {
	inputTokens: number;
	outputTokens: number;
	totalTokens: number;
	cacheReadInputTokens?: number;
	cacheWriteInputTokens?: number;
}

export class BedrockStream {
	private readonly frames: Uint8Array[] = [];
	private block = 0;

	start(): this {
		this.frames.push(eventFrame("messageStart", { role: "assistant" }));
		return this;
	}

	text(...deltas: string[]): this {
		const index = this.block++;
		for (const text of deltas)
			this.frames.push(eventFrame("contentBlockDelta", { contentBlockIndex: index, delta: { text } }));
		this.frames.push(eventFrame("contentBlockStop", { contentBlockIndex: index }));
		return this;
	}

	/** Text deltas of a block left open (no contentBlockStop), for cut and hanging streams. */
	openText(text: string): this {
		this.frames.push(eventFrame("contentBlockDelta", { contentBlockIndex: this.block, delta: { text } }));
		return this;
	}

	reasoning(deltas: string[], signature?: string): this {
		const index = this.block++;
		for (const text of deltas)
			this.frames.push(
				eventFrame("contentBlockDelta", { contentBlockIndex: index, delta: { reasoningContent: { text } } }),
			);
		if (signature !== undefined)
			this.frames.push(
				eventFrame("contentBlockDelta", { contentBlockIndex: index, delta: { reasoningContent: { signature } } }),
			);
		this.frames.push(eventFrame("contentBlockStop", { contentBlockIndex: index }));
		return this;
	}

	redactedReasoning(data: Buffer): this {
		const index = this.block++;
		this.frames.push(
			eventFrame("contentBlockDelta", {
				contentBlockIndex: index,
				delta: { reasoningContent: { redactedContent: data.toString("base64") } },
			}),
		);
		this.frames.push(eventFrame("contentBlockStop", { contentBlockIndex: index }));
		return this;
	}

	/** A tool call whose input JSON arrives in these pieces. */
	toolUse(toolUseId: string, name: string, inputPieces: string[]): this {
		const index = this.block++;
		this.frames.push(
			eventFrame("contentBlockStart", { contentBlockIndex: index, start: { toolUse: { toolUseId, name } } }),
		);
		for (const input of inputPieces)
			this.frames.push(eventFrame("contentBlockDelta", { contentBlockIndex: index, delta: { toolUse: { input } } }));
		this.frames.push(eventFrame("contentBlockStop", { contentBlockIndex: index }));
		return this;
	}

	stop(stopReason: string): this {
		this.frames.push(eventFrame("messageStop", { stopReason }));
		return this;
	}

	metadata(usage: BedrockUsage = { inputTokens: 12, outputTokens: 5, totalTokens: 17 }): this {
		this.frames.push(eventFrame("metadata", { usage, metrics: { latencyMs: 321 } }));
		return this;
	}

	exception(type: string, message: string): this {
		this.frames.push(exceptionFrame(type, message));
		return this;
	}

	getFrames(): Uint8Array[] {
		return [...this.frames];
	}

	bytes(): Buffer {
		return Buffer.concat(this.frames);
	}

	script(options: Omit<SseScript, "kind" | "bytes"> = {}): SseScript {
		return {
			kind: "sse",
			bytes: this.bytes(),
			...options,
			headers: { "content-type": EVENT_STREAM_TYPE, "x-amzn-requestid": "req-fake-1", ...options.headers },
		};
	}
}

/** An HTTP error as Bedrock sends it: JSON `{message}`, the exception name in `x-amzn-errortype`. */
export function bedrockError(
	status: number,
	exception: string,
	message: string,
	headers: Record<string, string> = {},
): JsonScript {
	return json(
		status,
		{ message },
		{ "x-amzn-errortype": `${exception}:http://internal.amazon.com/coral/com.amazon.bedrock/`, ...headers },
	);
}
