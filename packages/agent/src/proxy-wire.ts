import {
	type AssistantMessage,
	type AssistantMessageEvent,
	type AssistantMessageEventStream,
	AssistantStreamWriter,
	type Model,
	type ProviderErrorInfo,
	type StopReason,
	type ToolCall,
} from "@pi/ai";

// The compact wire form of a response relayed by an app's own server: the
// pi-ai events without the `partial` message every event repeats. The client
// rebuilds the message and the full events from it. Shapes follow the
// reference's proxy protocol; `errorInfo`, `responseId` and `responseModel`
// are optional additions.

export type ProxyAssistantMessageEvent =
	| { type: "start" }
	| { type: "text_start"; contentIndex: number }
	| { type: "text_delta"; contentIndex: number; delta: string }
	| { type: "text_end"; contentIndex: number; contentSignature?: string }
	| { type: "thinking_start"; contentIndex: number }
	| { type: "thinking_delta"; contentIndex: number; delta: string }
	| { type: "thinking_end"; contentIndex: number; contentSignature?: string }
	| { type: "toolcall_start"; contentIndex: number; id: string; toolName: string }
	| { type: "toolcall_delta"; contentIndex: number; delta: string }
	| { type: "toolcall_end"; contentIndex: number; toolCall?: ToolCall }
	| {
			type: "done";
			reason: Extract<StopReason, "stop" | "length" | "toolUse">;
			usage: AssistantMessage["usage"];
			responseId?: string;
			responseModel?: string;
	  }
	| {
			type: "error";
			reason: Extract<StopReason, "error" | "aborted">;
			errorMessage?: string;
			usage: AssistantMessage["usage"];
			errorInfo?: ProviderErrorInfo;
	  };

/** Server side: the wire form of one event. */
export function toProxyEvent(event: AssistantMessageEvent): ProxyAssistantMessageEvent {
	switch (event.type) {
		case "start":
			return { type: "start" };
		case "text_start":
		case "thinking_start":
			return { type: event.type, contentIndex: event.contentIndex };
		case "text_delta":
		case "thinking_delta":
		case "toolcall_delta":
			return { type: event.type, contentIndex: event.contentIndex, delta: event.delta };
		case "text_end": {
			const block = event.partial.content[event.contentIndex];
			const signature = block?.type === "text" ? block.textSignature : undefined;
			return signature === undefined
				? { type: "text_end", contentIndex: event.contentIndex }
				: { type: "text_end", contentIndex: event.contentIndex, contentSignature: signature };
		}
		case "thinking_end": {
			const block = event.partial.content[event.contentIndex];
			const signature = block?.type === "thinking" ? block.thinkingSignature : undefined;
			return signature === undefined
				? { type: "thinking_end", contentIndex: event.contentIndex }
				: { type: "thinking_end", contentIndex: event.contentIndex, contentSignature: signature };
		}
		case "toolcall_start": {
			const block = event.partial.content[event.contentIndex];
			const call = block?.type === "toolCall" ? block : undefined;
			return {
				type: "toolcall_start",
				contentIndex: event.contentIndex,
				id: call?.id ?? "",
				toolName: call?.name ?? "",
			};
		}
		case "toolcall_end":
			return { type: "toolcall_end", contentIndex: event.contentIndex, toolCall: event.toolCall };
		case "done": {
			const wire: ProxyAssistantMessageEvent = { type: "done", reason: event.reason, usage: event.message.usage };
			if (event.message.responseId) wire.responseId = event.message.responseId;
			if (event.message.responseModel) wire.responseModel = event.message.responseModel;
			return wire;
		}
		case "error": {
			const wire: ProxyAssistantMessageEvent = { type: "error", reason: event.reason, usage: event.error.usage };
			if (event.error.errorMessage !== undefined) wire.errorMessage = event.error.errorMessage;
			if (event.error.errorInfo) wire.errorInfo = event.error.errorInfo;
			return wire;
		}
	}
}

/** Server side: one event as a Server-Sent Events frame (`data: <json>\n\n`). */
export function proxyEventFrame(event: AssistantMessageEvent): string {
	return `data: ${JSON.stringify(toProxyEvent(event))}\n\n`;
}

/**
 * Client side: rebuilds the message and the full pi-ai events from wire
 * events. The writer enforces the event contract, so a relayed stream looks
 * exactly like a local one.
 */
export class ProxyMessageAssembler {
	private readonly writer: AssistantStreamWriter;
	/** Wire content index → local content index (they match unless the server skips indices). */
	private readonly indices = new Map<number, number>();

	constructor(model: Model) {
		this.writer = new AssistantStreamWriter(model);
	}

	get stream(): AssistantMessageEventStream {
		return this.writer.stream;
	}

	get isDone(): boolean {
		return this.writer.isDone;
	}

	apply(event: ProxyAssistantMessageEvent): void {
		const writer = this.writer;
		switch (event.type) {
			case "start":
				writer.start();
				break;
			case "text_start":
				this.indices.set(event.contentIndex, writer.beginText());
				break;
			case "thinking_start":
				this.indices.set(event.contentIndex, writer.beginThinking());
				break;
			case "toolcall_start":
				this.indices.set(event.contentIndex, writer.beginToolCall(event.id, event.toolName));
				break;
			case "text_delta":
				this.withIndex(event.contentIndex, (i) => writer.appendText(i, event.delta));
				break;
			case "thinking_delta":
				this.withIndex(event.contentIndex, (i) => writer.appendThinking(i, event.delta));
				break;
			case "toolcall_delta":
				this.withIndex(event.contentIndex, (i) => writer.appendToolArguments(i, event.delta));
				break;
			case "text_end":
			case "thinking_end":
				this.withIndex(event.contentIndex, (i) => {
					if (event.contentSignature !== undefined) writer.setSignature(i, event.contentSignature);
					writer.endBlock(i);
				});
				break;
			case "toolcall_end":
				this.withIndex(event.contentIndex, (i) => {
					writer.endBlock(i);
					const block = writer.message.content[i];
					// The server's final arguments win over the client's parse of the deltas.
					if (event.toolCall && block?.type === "toolCall") block.arguments = event.toolCall.arguments;
				});
				break;
			case "done":
				writer.message.usage = event.usage;
				writer.setResponseId(event.responseId);
				if (event.responseModel) writer.message.responseModel = event.responseModel;
				writer.finish(event.reason);
				break;
			case "error":
				writer.message.usage = event.usage;
				writer.fail(
					event.errorMessage ?? (event.reason === "aborted" ? "Request was aborted" : "Proxy stream failed"),
					event.errorInfo ?? { kind: event.reason === "aborted" ? "aborted" : "provider", retryable: false },
				);
				break;
		}
	}

	/** Ends the stream with an error unless it has already ended. */
	fail(errorMessage: string, info: ProviderErrorInfo): void {
		this.writer.fail(errorMessage, info);
	}

	private withIndex(wireIndex: number, apply: (localIndex: number) => void): void {
		const local = this.indices.get(wireIndex);
		if (local !== undefined) apply(local);
	}
}
