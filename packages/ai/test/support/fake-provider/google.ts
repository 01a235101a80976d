/**
 * Gemini API (`streamGenerateContent?alt=sse`) wire format for the fake
 * provider: `data: {candidates, usageMetadata, modelVersion, responseId}`
 * frames without event names, and Google's error bodies.
 */
import { type JsonScript, json, type SseFrame, type SseScript, sse } from "./server.js";

export interface GoogleUsage {
	promptTokenCount?: number;
	candidatesTokenCount?: number;
	thoughtsTokenCount?: number;
	cachedContentTokenCount?: number;
	totalTokenCount?: number;
}

export class GoogleStream {
	private readonly frames: SseFrame[] = [];

	constructor(private readonly options: { responseId?: string; modelVersion?: string } = {}) {}

	/** One chunk with the given parts (and optionally a finish reason and usage). */
	chunk(parts: object[], finishReason?: string, usage?: GoogleUsage): this {
		const candidate: Record<string, unknown> = { content: { role: "model", parts }, index: 0 };
		if (finishReason) candidate.finishReason = finishReason;
		const data: Record<string, unknown> = {
			candidates: [candidate],
			modelVersion: this.options.modelVersion ?? "gemini-fake",
			responseId: this.options.responseId ?? "resp-fake-1",
		};
		if (usage) data.usageMetadata = usage;
		this.frames.push({ data });
		return this;
	}

	text(...deltas: string[]): this {
		for (const text of deltas) this.chunk([{ text }]);
		return this;
	}

	thought(...deltas: string[]): this {
		for (const text of deltas) this.chunk([{ text, thought: true }]);
		return this;
	}

	signature(thoughtSignature: string): this {
		return this.chunk([{ text: "", thoughtSignature }]);
	}

	call(name: string, args: Record<string, unknown>, thoughtSignature?: string): this {
		return this.chunk([{ functionCall: { name, args }, ...(thoughtSignature ? { thoughtSignature } : {}) }]);
	}

	finish(
		reason: string,
		usage: GoogleUsage = { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
	): this {
		return this.chunk([{ text: "" }], reason, usage);
	}

	get sseFrames(): SseFrame[] {
		return [...this.frames];
	}

	script(options: Omit<SseScript, "kind" | "bytes"> = {}): SseScript {
		return sse(this.frames, options);
	}
}

/** Google's JSON error body: `{error: {code, message, status, details?}}`. */
export function googleError(code: number, status: string, message: string, details?: object[]): JsonScript {
	return json(code, { error: { code, message, status, ...(details ? { details } : {}) } });
}

export const GOOGLE_OVERFLOW_MESSAGE =
	"The input token count (1234567) exceeds the maximum number of tokens allowed (1048576).";
