/**
 * Per-api scenarios for the pi-ai streaming benchmark (ai-stream.bench.ts).
 * Each row builds the SSE bytes of one long response in its api's wire
 * format; the same bytes are streamed through our adapter and the
 * reference's. To add an api, add a row: `model` (fields both packages
 * accept), `textStream` and `toolStream`, and `check` for the final message.
 */
import { ChatStream } from "../packages/ai/test/support/fake-provider/openai-chat.js";
import { sseBytes } from "../packages/ai/test/support/fake-provider/server.js";

export interface BenchModel {
	id: string;
	name: string;
	api: string;
	provider: string;
	baseUrl: string;
	reasoning: boolean;
	input: ("text" | "image")[];
	cost: { input: number; output: number; cacheRead: number; cacheWrite: number };
	contextWindow: number;
	maxTokens: number;
	compat?: Record<string, unknown>;
}

export interface AdapterBench {
	/** The base URL path the api's SDK appends its route to (e.g. "/v1"). */
	model(serverUrl: string): BenchModel;
	/** ≈`totalBytes` of text in deltas of `deltaBytes`. */
	textStream(totalBytes: number, deltaBytes: number): Buffer;
	/** One tool call whose arguments arrive in `deltas` pieces of `deltaBytes`. */
	toolStream(deltas: number, deltaBytes: number): Buffer;
}

/** Deterministic filler text (ASCII, so bytes = characters). */
export function filler(bytes: number): string {
	const words = "stream the quick brown fox over lazy dogs while tokens arrive ";
	return words.repeat(Math.ceil(bytes / words.length)).slice(0, bytes);
}

export const ADAPTER_BENCHES: Record<string, AdapterBench> = {
	"openai-completions": {
		model: (url) => ({
			id: "bench-model",
			name: "Bench",
			api: "openai-completions",
			provider: "openai",
			baseUrl: `${url}/v1`,
			reasoning: false,
			input: ["text"],
			cost: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 },
			contextWindow: 128_000,
			maxTokens: 16_000,
		}),
		textStream(totalBytes, deltaBytes) {
			const s = new ChatStream().role();
			const piece = filler(deltaBytes);
			for (let sent = 0; sent < totalBytes; sent += deltaBytes) s.text(piece);
			return sseBytes(s.finish("stop").usage({ prompt_tokens: 10, completion_tokens: 100 }).done().build());
		},
		toolStream(deltas, deltaBytes) {
			const pieces = ['{"path":"big.txt","content":"'];
			const piece = filler(deltaBytes);
			for (let i = 0; i < deltas; i++) pieces.push(piece);
			pieces.push('"}');
			const s = new ChatStream().toolCall(0, "call_1", "write", pieces);
			return sseBytes(s.finish("tool_calls").usage({ prompt_tokens: 10, completion_tokens: 100 }).done().build());
		},
	},
};
