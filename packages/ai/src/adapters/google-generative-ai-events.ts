import type { GenerateContentResponse, Part } from "@google/genai";
import type { AssistantStreamWriter } from "../stream-writer.js";

/** One streamed chunk as the SDK yields it (or as recorded on the wire). */
export type GoogleChunk = Pick<
	GenerateContentResponse,
	"candidates" | "usageMetadata" | "modelVersion" | "responseId" | "promptFeedback"
>;

interface PartialArg {
	jsonPath?: string;
	stringValue?: string;
	numberValue?: number;
	boolValue?: boolean;
	nullValue?: unknown;
	willContinue?: boolean;
}

interface StreamingCall {
	index: number;
	args: Record<string, unknown>;
	/** Paths whose string value continues in the next chunk. */
	continuing: Set<string>;
}

/**
 * Maps `streamGenerateContent` chunks onto the writer. Text and thought parts
 * become text/thinking blocks (a thought signature attaches to the block it
 * arrives in); function calls become tool calls with generated ids. Google
 * sends arguments whole (or, with argument streaming, as typed path/value
 * pieces), so each call gets one `toolcall_delta` with its complete JSON.
 * A stream is complete only once a chunk carried a `finishReason`.
 */
export class GoogleEventMapper {
	private current: { kind: "text" | "thinking"; index: number } | undefined;
	private call: StreamingCall | undefined;
	private finishReason: string | undefined;
	private responseId: string | undefined;
	private callCount = 0;

	constructor(
		private readonly writer: AssistantStreamWriter,
		/** Fallback for ids when the response carries no responseId. */
		private readonly idSeed: string = Date.now().toString(36),
	) {}

	handle(chunk: GoogleChunk): void {
		const writer = this.writer;
		if (writer.isDone) return;
		writer.start();
		if (chunk.responseId) {
			this.responseId ??= chunk.responseId;
			writer.setResponseId(chunk.responseId);
		}
		writer.setResponseModel(chunk.modelVersion);
		this.applyUsage(chunk.usageMetadata);

		const candidate = chunk.candidates?.[0];
		const blockReason = chunk.promptFeedback?.blockReason;
		if (!candidate && blockReason) {
			writer.fail(`The prompt was blocked (${blockReason})`, {
				kind: "provider",
				code: String(blockReason),
				retryable: false,
			});
			return;
		}
		for (const part of candidate?.content?.parts ?? []) this.handlePart(part);
		if (candidate?.finishReason) {
			this.finishReason = String(candidate.finishReason);
			this.writer.setRawStopReason(this.finishReason);
		}
	}

	/** The wire stream ended: complete only if a finish reason was seen. */
	end(): void {
		const writer = this.writer;
		if (writer.isDone) return;
		const reason = this.finishReason;
		if (reason === undefined) {
			writer.fail("The stream ended without a finish reason", { kind: "stream_cut", retryable: true });
			return;
		}
		this.closeCall();
		this.closeCurrent();
		if (reason === "STOP") {
			writer.finish(writer.message.content.some((block) => block.type === "toolCall") ? "toolUse" : "stop");
		} else if (reason === "MAX_TOKENS") {
			writer.finish("length");
		} else {
			// SAFETY, RECITATION, MALFORMED_FUNCTION_CALL, … : no usable answer.
			writer.fail(`Google stopped the response: ${reason}`, { kind: "provider", code: reason, retryable: false });
		}
	}

	private handlePart(part: Part): void {
		const writer = this.writer;
		const call = part.functionCall as
			| (Part["functionCall"] & { partialArgs?: PartialArg[]; willContinue?: boolean })
			| undefined;
		if (call) {
			if (call.name) {
				this.closeCall();
				this.closeCurrent();
				const index = writer.beginToolCall(call.id || this.nextId(call.name), call.name, part.thoughtSignature);
				if (call.willContinue) {
					this.call = { index, args: { ...(call.args ?? {}) }, continuing: new Set() };
					this.applyPartialArgs(call.partialArgs);
				} else {
					writer.appendToolArguments(index, JSON.stringify(call.args ?? {}));
					writer.endBlock(index);
				}
			} else if (this.call) {
				if (part.thoughtSignature) writer.updateToolCall(this.call.index, { thoughtSignature: part.thoughtSignature });
				this.applyPartialArgs(call.partialArgs);
				// An empty `functionCall: {}` or a last piece without willContinue closes the call.
				if (!call.willContinue) this.closeCall();
			}
			return;
		}
		if (typeof part.text !== "string") return;
		const kind = part.thought === true ? "thinking" : "text";
		if (part.text === "") {
			// Signature-only parts sign the block they follow.
			if (part.thoughtSignature && this.current) writer.setSignature(this.current.index, part.thoughtSignature);
			return;
		}
		this.closeCall();
		if (this.current?.kind !== kind) {
			this.closeCurrent();
			const index = kind === "thinking" ? writer.beginThinking() : writer.beginText();
			this.current = { kind, index };
		}
		if (kind === "thinking") writer.appendThinking(this.current.index, part.text);
		else writer.appendText(this.current.index, part.text);
		if (part.thoughtSignature) writer.setSignature(this.current.index, part.thoughtSignature);
	}

	private applyPartialArgs(pieces: PartialArg[] | undefined): void {
		const call = this.call;
		if (!call || !pieces) return;
		for (const piece of pieces) {
			if (!piece.jsonPath) continue;
			const path = parseJsonPath(piece.jsonPath);
			if (!path) continue;
			if (typeof piece.stringValue === "string") {
				const previous = getAtPath(call.args, path);
				const text =
					call.continuing.has(piece.jsonPath) && typeof previous === "string"
						? previous + piece.stringValue
						: piece.stringValue;
				setAtPath(call.args, path, text);
			} else if (typeof piece.numberValue === "number") setAtPath(call.args, path, piece.numberValue);
			else if (typeof piece.boolValue === "boolean") setAtPath(call.args, path, piece.boolValue);
			else if ("nullValue" in piece) setAtPath(call.args, path, null);
			if (piece.willContinue) call.continuing.add(piece.jsonPath);
			else call.continuing.delete(piece.jsonPath);
		}
	}

	private closeCall(): void {
		const call = this.call;
		if (!call) return;
		this.call = undefined;
		this.writer.appendToolArguments(call.index, JSON.stringify(call.args));
		this.writer.endBlock(call.index);
	}

	private closeCurrent(): void {
		if (!this.current) return;
		this.writer.endBlock(this.current.index);
		this.current = undefined;
	}

	private nextId(name: string): string {
		this.callCount++;
		const seed = (this.responseId ?? this.idSeed).replace(/[^a-zA-Z0-9_-]/g, "");
		return `${name.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 32)}_${seed.slice(0, 24)}_${this.callCount}`;
	}

	private applyUsage(usage: GoogleChunk["usageMetadata"]): void {
		if (!usage || (usage.promptTokenCount === undefined && usage.candidatesTokenCount === undefined)) return;
		const cached = usage.cachedContentTokenCount ?? 0;
		const patch: Parameters<AssistantStreamWriter["setUsage"]>[0] = {
			input: Math.max(0, (usage.promptTokenCount ?? 0) - cached),
			// Thinking tokens are billed as output.
			output: (usage.candidatesTokenCount ?? 0) + (usage.thoughtsTokenCount ?? 0),
			cacheRead: cached,
			cacheWrite: 0,
		};
		if (usage.totalTokenCount !== undefined) patch.totalTokens = usage.totalTokenCount;
		this.writer.setUsage(patch);
	}
}

type PathKey = string | number;

/** `$.a.b[0]['c d']` → ["a", "b", 0, "c d"]; undefined for anything else. */
export function parseJsonPath(path: string): PathKey[] | undefined {
	if (!path.startsWith("$")) return undefined;
	const keys: PathKey[] = [];
	const pattern = /\.([A-Za-z_$][\w$-]*)|\[(\d+)\]|\['((?:[^'\\]|\\.)*)'\]|\["((?:[^"\\]|\\.)*)"\]/y;
	let at = 1;
	while (at < path.length) {
		pattern.lastIndex = at;
		const match = pattern.exec(path);
		if (!match) return undefined;
		if (match[1] !== undefined) keys.push(match[1]);
		else if (match[2] !== undefined) keys.push(Number(match[2]));
		else keys.push((match[3] ?? match[4] ?? "").replace(/\\(.)/g, "$1"));
		at = pattern.lastIndex;
	}
	return keys.length > 0 ? keys : undefined;
}

function getAtPath(root: Record<string, unknown>, path: PathKey[]): unknown {
	let node: unknown = root;
	for (const key of path) {
		if (typeof node !== "object" || node === null) return undefined;
		node = (node as Record<PathKey, unknown>)[key];
	}
	return node;
}

function setAtPath(root: Record<string, unknown>, path: PathKey[], value: unknown): void {
	let node: Record<PathKey, unknown> = root;
	for (let i = 0; i < path.length - 1; i++) {
		const key = path[i] as PathKey;
		const nextIsIndex = typeof path[i + 1] === "number";
		let child = node[key];
		if (typeof child !== "object" || child === null) {
			child = nextIsIndex ? [] : {};
			node[key] = child;
		}
		node = child as Record<PathKey, unknown>;
	}
	node[path[path.length - 1] as PathKey] = value;
}
