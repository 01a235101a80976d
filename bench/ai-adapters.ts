/**
 * Per-api scenarios for the pi-ai streaming benchmark (ai-stream.bench.ts).
 * Each row builds the SSE bytes of one long response in its api's wire
 * format; the same bytes are streamed through our adapter and the
 * reference's. To add an api, add a row: `model` (fields both packages
 * accept), `textStream` and `toolStream`, and `check` for the final message.
 */
import { AnthropicStream } from "../packages/ai/test/support/fake-provider/anthropic.js";
import { GoogleStream } from "../packages/ai/test/support/fake-provider/google.js";
import { ChatStream } from "../packages/ai/test/support/fake-provider/openai-chat.js";
import { ResponsesStream } from "../packages/ai/test/support/fake-provider/openai-responses.js";
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

/** `filler(deltaBytes)` repeated until ≈`totalBytes`: the text deltas of one long answer. */
function textPieces(totalBytes: number, deltaBytes: number): string[] {
	const piece = filler(deltaBytes);
	const pieces: string[] = [];
	for (let sent = 0; sent < totalBytes; sent += deltaBytes) pieces.push(piece);
	return pieces;
}

/** The argument JSON of one `write` call, in `deltas` pieces of `deltaBytes` (plus opening and close). */
function writeArgumentPieces(deltas: number, deltaBytes: number): string[] {
	const pieces = ['{"path":"big.txt","content":"'];
	const piece = filler(deltaBytes);
	for (let i = 0; i < deltas; i++) pieces.push(piece);
	pieces.push('"}');
	return pieces;
}

/** A model row both packages accept; only what differs per api is given. */
function benchModel(api: string, provider: string, baseUrl: string, contextWindow: number): BenchModel {
	return {
		id: "bench-model",
		name: "Bench",
		api,
		provider,
		baseUrl,
		reasoning: false,
		input: ["text"],
		cost: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 },
		contextWindow,
		maxTokens: 16_000,
	};
}

export const ADAPTER_BENCHES: Record<string, AdapterBench> = {
	"openai-completions": {
		model: (url) => benchModel("openai-completions", "openai", `${url}/v1`, 128_000),
		textStream(totalBytes, deltaBytes) {
			const s = new ChatStream().role();
			for (const piece of textPieces(totalBytes, deltaBytes)) s.text(piece);
			return sseBytes(s.finish("stop").usage({ prompt_tokens: 10, completion_tokens: 100 }).done().build());
		},
		toolStream(deltas, deltaBytes) {
			const pieces = writeArgumentPieces(deltas, deltaBytes);
			const s = new ChatStream().toolCall(0, "call_1", "write", pieces);
			return sseBytes(s.finish("tool_calls").usage({ prompt_tokens: 10, completion_tokens: 100 }).done().build());
		},
	},
	"openai-responses": {
		model: (url) => benchModel("openai-responses", "openai", `${url}/v1`, 128_000),
		textStream(totalBytes, deltaBytes) {
			const pieces = textPieces(totalBytes, deltaBytes);
			return sseBytes(new ResponsesStream().created().message("msg_bench", pieces).completed().sseFrames);
		},
		toolStream(deltas, deltaBytes) {
			const pieces = writeArgumentPieces(deltas, deltaBytes);
			return sseBytes(
				new ResponsesStream().created().functionCall("fc_bench", "call_bench", "write", pieces).completed().sseFrames,
			);
		},
	},
	"anthropic-messages": {
		model: (url) => benchModel("anthropic-messages", "anthropic", url, 200_000),
		textStream(totalBytes, deltaBytes) {
			const pieces = textPieces(totalBytes, deltaBytes);
			return sseBytes(
				new AnthropicStream()
					.start()
					.text(...pieces)
					.delta("end_turn")
					.stop().sseFrames,
			);
		},
		toolStream(deltas, deltaBytes) {
			const pieces = writeArgumentPieces(deltas, deltaBytes);
			return sseBytes(
				new AnthropicStream().start().toolUse("toolu_bench", "write", pieces).delta("tool_use").stop().sseFrames,
			);
		},
	},
	"google-generative-ai": {
		model: (url) => benchModel("google-generative-ai", "google", `${url}/v1beta`, 1_000_000),
		textStream(totalBytes, deltaBytes) {
			const pieces = textPieces(totalBytes, deltaBytes);
			return sseBytes(new GoogleStream().text(...pieces).finish("STOP").sseFrames);
		},
		// Gemini sends function-call arguments whole (no argument deltas on the Gemini API):
		// the same arguments arrive in one part.
		toolStream(deltas, deltaBytes) {
			const content = filler(deltaBytes).repeat(deltas);
			return sseBytes(new GoogleStream().call("write", { path: "big.txt", content }).finish("STOP").sseFrames);
		},
	},
};
