import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadedModelCount, unloadLlamaCppModels } from "../../src/llama-cpp/runtime.js";
import { isContextOverflow } from "../../src/overflow.js";
import { stream } from "../../src/stream.js";
import type { AssistantMessageEvent, Context } from "../../src/types.js";
import { type TinyModelFile, writeTinyModelFile } from "../support/gguf/tiny-model.js";

// One generated model for the file: node-llama-cpp's native start-up is the slow part.
let file: TinyModelFile;
beforeAll(() => {
	file = writeTinyModelFile();
});
afterAll(async () => {
	await unloadLlamaCppModels();
	file.cleanup();
});

const ask = (text: string): Context => ({
	systemPrompt: "You are a tiny test model.",
	messages: [{ role: "user", content: text, timestamp: 1 }],
});

async function collect(s: ReturnType<typeof stream>): Promise<AssistantMessageEvent[]> {
	const events: AssistantMessageEvent[] = [];
	for await (const event of s) events.push(event);
	return events;
}

describe("llama-cpp adapter: streaming from a generated GGUF", () => {
	it("streams text with the usual events, counts usage with the tokenizer, stops at maxTokens with length", async () => {
		const s = stream(file.model, ask("hello world"), { maxTokens: 12, temperature: 0 });
		const events = await collect(s);
		const message = await s.result();
		expect(message.stopReason).toBe("length");
		expect(message.rawStopReason).toBe("maxTokens");
		expect(events.map((e) => e.type).slice(0, 3)).toEqual(["start", "text_start", "text_delta"]);
		expect(events.at(-2)?.type).toBe("text_end");
		expect(events.at(-1)?.type).toBe("done");
		const deltas = events.flatMap((e) => (e.type === "text_delta" ? [e.delta] : []));
		expect(deltas.length).toBeGreaterThan(3);
		const text = message.content[0];
		expect(text).toEqual({ type: "text", text: deltas.join("") });
		expect(message.usage.output).toBe(12);
		// The rendered ChatML prompt, character-level vocabulary: well over 40 tokens.
		expect(message.usage.input + message.usage.cacheRead).toBeGreaterThan(40);
		expect(message.usage.totalTokens).toBe(message.usage.input + message.usage.cacheRead + 12);
		expect(message.api).toBe("llama-cpp");
		expect(message.durationMs).toBeGreaterThanOrEqual(0);
	});

	it("is deterministic at temperature 0, loads the model once and reuses the evaluated prompt", async () => {
		const first = await stream(file.model, ask("same prompt"), { maxTokens: 8, temperature: 0 }).result();
		const second = await stream(file.model, ask("same prompt"), { maxTokens: 8, temperature: 0 }).result();
		expect(second.content).toEqual(first.content);
		expect(loadedModelCount()).toBe(1);
		// The second request shares the whole prompt with the first: most of it is not evaluated again.
		expect(second.usage.cacheRead).toBeGreaterThan(second.usage.input);
	});

	it("serialises concurrent requests on the one loaded model", async () => {
		const [a, b] = await Promise.all([
			stream(file.model, ask("one"), { maxTokens: 5, temperature: 0 }).result(),
			stream(file.model, ask("two"), { maxTokens: 5, temperature: 0 }).result(),
		]);
		expect([a.stopReason, b.stopReason]).toEqual(["length", "length"]);
		expect(a.usage.output + b.usage.output).toBe(10);
	});

	it("aborts within one token: the signal fired on the first delta leaves at most one more", async () => {
		const controller = new AbortController();
		const s = stream(file.model, ask("abort me"), { maxTokens: 200, temperature: 0, signal: controller.signal });
		let deltasAfterAbort = -1;
		for await (const event of s) {
			if (event.type === "text_delta") {
				if (deltasAfterAbort < 0) controller.abort();
				deltasAfterAbort++;
			}
		}
		const message = await s.result();
		expect(message.stopReason).toBe("aborted");
		expect(message.errorInfo).toEqual({ kind: "aborted", retryable: false });
		expect(deltasAfterAbort).toBeLessThanOrEqual(1);
		expect(message.usage.output).toBeLessThanOrEqual(3);
	});

	it("an abort before the request starts is aborted, with no generation", async () => {
		const controller = new AbortController();
		controller.abort();
		const message = await stream(file.model, ask("never"), { signal: controller.signal }).result();
		expect(message.stopReason).toBe("aborted");
		expect(message.usage.output).toBe(0);
	});

	it("a prompt over the context window is the overflow error (compaction's signal), not a silent shift", async () => {
		const small = { ...file.model, contextWindow: 256 };
		const message = await stream(small, ask("word ".repeat(200)), { maxTokens: 8 }).result();
		expect(message.stopReason).toBe("error");
		expect(message.errorInfo).toMatchObject({ kind: "overflow", retryable: false });
		expect(message.errorMessage).toMatch(/exceeds the context window of 256 tokens/);
		expect(message.errorMessage).toContain(file.path);
		expect(isContextOverflow(message, small.contextWindow)).toBe(true);
		// A prompt that fits leaves the rest of the window for output: generation stops at the edge.
		const edge = await stream(small, ask("short"), { maxTokens: 10_000, temperature: 0 }).result();
		expect(edge.stopReason).toBe("length");
		expect(edge.usage.input + edge.usage.cacheRead + edge.usage.output).toBeLessThanOrEqual(256);
	});
});
