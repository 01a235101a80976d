import type { ConverseStreamOutput } from "@aws-sdk/client-bedrock-runtime";
import { type MappedError, retryAfterFrom } from "../errors.js";
import { isOverflowErrorText } from "../overflow.js";
import type { AssistantStreamWriter } from "../stream-writer.js";
import type { ProviderErrorInfo } from "../types.js";

/**
 * Maps Converse stream events (as the SDK decodes them from the binary event
 * stream) onto the writer. Blocks are numbered by `contentBlockIndex`; a tool
 * call announces itself in `contentBlockStart` and streams its input as JSON
 * text; reasoning arrives as `reasoningContent` deltas (text, then a
 * signature, or redacted bytes). `messageStop` carries the stop reason and
 * `metadata` the usage, after it: the turn ends when the stream does.
 */
export class BedrockEventMapper {
	/** contentBlockIndex → writer block index. */
	private readonly blocks = new Map<number, { index: number; kind: "text" | "thinking" | "toolCall" }>();
	private stopReason: string | undefined;
	private toolCalls = 0;

	constructor(private readonly writer: AssistantStreamWriter) {}

	handle(event: ConverseStreamOutput): void {
		const writer = this.writer;
		if (event.messageStart) writer.start();
		else if (event.contentBlockStart) {
			const { start, contentBlockIndex = 0 } = event.contentBlockStart;
			if (start?.toolUse) {
				const index = writer.beginToolCall(
					start.toolUse.toolUseId ?? `tool_${contentBlockIndex}`,
					start.toolUse.name ?? "",
				);
				this.blocks.set(contentBlockIndex, { index, kind: "toolCall" });
				this.toolCalls++;
			}
		} else if (event.contentBlockDelta) {
			const { delta, contentBlockIndex = 0 } = event.contentBlockDelta;
			if (!delta) return;
			if (typeof delta.text === "string") {
				writer.appendText(this.open(contentBlockIndex, "text"), delta.text);
			} else if (delta.toolUse) {
				const block = this.blocks.get(contentBlockIndex);
				if (block?.kind === "toolCall" && typeof delta.toolUse.input === "string")
					writer.appendToolArguments(block.index, delta.toolUse.input);
			} else if (delta.reasoningContent) {
				const reasoning = delta.reasoningContent;
				if (typeof reasoning.text === "string") {
					writer.appendThinking(this.open(contentBlockIndex, "thinking"), reasoning.text);
				} else if (typeof reasoning.signature === "string") {
					writer.setSignature(this.open(contentBlockIndex, "thinking"), reasoning.signature, true);
				} else if (reasoning.redactedContent) {
					const data = Buffer.from(reasoning.redactedContent).toString("base64");
					const index = writer.beginThinking(data, true);
					this.blocks.set(contentBlockIndex, { index, kind: "thinking" });
				}
			}
		} else if (event.contentBlockStop) {
			const block = this.blocks.get(event.contentBlockStop.contentBlockIndex ?? 0);
			if (block) writer.endBlock(block.index);
		} else if (event.messageStop) {
			this.stopReason = event.messageStop.stopReason ?? "end_turn";
			writer.setRawStopReason(this.stopReason);
		} else if (event.metadata?.usage) {
			const usage = event.metadata.usage;
			writer.setUsage({
				input: usage.inputTokens ?? 0,
				output: usage.outputTokens ?? 0,
				cacheRead: usage.cacheReadInputTokens ?? 0,
				cacheWrite: usage.cacheWriteInputTokens ?? 0,
			});
		}
	}

	/** The writer block for a text or reasoning block, opened on its first delta. */
	private open(contentBlockIndex: number, kind: "text" | "thinking"): number {
		const known = this.blocks.get(contentBlockIndex);
		if (known?.kind === kind) return known.index;
		if (known) this.writer.endBlock(known.index);
		const index = kind === "text" ? this.writer.beginText() : this.writer.beginThinking();
		this.blocks.set(contentBlockIndex, { index, kind });
		return index;
	}

	/** The event stream ended: only a reported stop reason is a success. */
	end(): void {
		const reason = this.stopReason;
		if (reason === undefined) {
			this.writer.fail("The stream ended without a stop reason", { kind: "stream_cut", retryable: true });
			return;
		}
		switch (reason) {
			case "tool_use":
				this.writer.finish("toolUse");
				return;
			case "max_tokens":
			case "model_context_window_exceeded":
				this.writer.finish("length");
				return;
			case "guardrail_intervened":
			case "content_filtered":
				this.writer.fail(`The response was stopped by Bedrock (${reason})`, {
					kind: "provider",
					code: reason,
					retryable: false,
				});
				return;
			default:
				this.writer.finish(this.toolCalls > 0 ? "toolUse" : "stop");
		}
	}
}

/** Bedrock's modeled exceptions (HTTP errors and mid-stream exception events alike) by name. */
const EXCEPTIONS: Record<string, { status: number; kind: ProviderErrorInfo["kind"]; retryable: boolean }> = {
	throttlingexception: { status: 429, kind: "rate_limit", retryable: true },
	servicequotaexceededexception: { status: 400, kind: "rate_limit", retryable: false },
	modelnotreadyexception: { status: 429, kind: "overloaded", retryable: true },
	serviceunavailableexception: { status: 503, kind: "overloaded", retryable: true },
	internalserverexception: { status: 500, kind: "server", retryable: true },
	modelstreamerrorexception: { status: 424, kind: "server", retryable: true },
	modeltimeoutexception: { status: 408, kind: "network", retryable: true },
	modelerrorexception: { status: 424, kind: "provider", retryable: false },
	validationexception: { status: 400, kind: "bad_request", retryable: false },
	accessdeniedexception: { status: 403, kind: "auth", retryable: false },
	unrecognizedclientexception: { status: 403, kind: "auth", retryable: false },
	expiredtokenexception: { status: 403, kind: "auth", retryable: false },
	resourcenotfoundexception: { status: 404, kind: "bad_request", retryable: false },
};

/** The exception name from an `x-amzn-errortype` header ("ThrottlingException:http://…") or an error's name. */
export function exceptionName(raw: string | undefined | null): string | undefined {
	const name = raw?.split(":")[0]?.trim();
	return name ? name : undefined;
}

/**
 * Classifies a Bedrock failure from its exception name, HTTP status (absent
 * for a mid-stream exception event), message and headers.
 */
export function bedrockError(
	name: string | undefined,
	status: number | undefined,
	message: string,
	headers?: Headers,
): MappedError {
	const known = name ? EXCEPTIONS[name.toLowerCase()] : undefined;
	const httpStatus = status ?? known?.status;
	let kind: ProviderErrorInfo["kind"] = known?.kind ?? kindForStatus(httpStatus);
	let retryable = known?.retryable ?? (kind === "server" || kind === "overloaded" || kind === "rate_limit");
	if (isOverflowErrorText(message)) {
		kind = "overflow";
		retryable = false;
	}
	const info: ProviderErrorInfo = { kind, retryable };
	if (status !== undefined) info.status = status;
	if (name) info.code = name;
	if (headers) {
		const map = new Map<string, string>();
		headers.forEach((value, key) => {
			map.set(key.toLowerCase(), value);
		});
		const after = retryAfterFrom(map);
		if (after !== undefined) info.retryAfterMs = after;
	}
	const text = message.trim() || name || "no message";
	return { message: status !== undefined ? `${status} ${text}` : `${name ?? "Bedrock error"}: ${text}`, info };
}

function kindForStatus(status: number | undefined): ProviderErrorInfo["kind"] {
	if (status === undefined) return "provider";
	if (status === 401 || status === 403) return "auth";
	if (status === 429) return "rate_limit";
	if (status === 503) return "overloaded";
	if (status >= 500) return "server";
	if (status >= 400) return "bad_request";
	return "unknown";
}
