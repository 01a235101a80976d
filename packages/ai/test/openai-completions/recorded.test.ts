import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stream } from "../../src/stream.js";
import type { AssistantMessageEvent, Context, Model } from "../../src/types.js";
import { ChatStream } from "../support/fake-provider/openai-chat.js";
import { recordedFrames, recordedPayloads } from "../support/fake-provider/recorded.js";
import { type FakeProvider, sse, sseBytes, startFakeProvider } from "../support/fake-provider/server.js";
import { collect, eventTrace, fakeModel } from "../support/stream-helpers.js";

let fake: FakeProvider;
let model: Model;
const context: Context = { messages: [{ role: "user", content: "hi", timestamp: 1 }] };
const key = { apiKey: "sk-test" };

beforeAll(async () => {
	fake = await startFakeProvider();
	model = fakeModel({ api: "openai-completions", baseUrl: `${fake.url}/v1` });
});
afterAll(() => fake.close());

/** The content deltas of a recorded Chat Completions stream, joined per field. */
function recordedText(name: string, field: "content" | "reasoning_content"): string {
	return recordedPayloads("openai-completions", name)
		.map((p) => (p as { choices: { delta?: Record<string, unknown> }[] }).choices[0]?.delta?.[field])
		.filter((v): v is string => typeof v === "string")
		.join("");
}

describe("openai-completions recorded streams", () => {
	it("replays OpenAI gpt-4.1-nano text", async () => {
		fake.enqueue(sse(recordedFrames("openai-completions", "openai-text", { done: true })));
		const message = await stream(model, context, key).result();
		expect(message.stopReason).toBe("stop");
		expect(message.content).toHaveLength(1);
		expect(message.content[0]).toEqual({ type: "text", text: recordedText("openai-text", "content") });
		expect(message.responseModel).toBe("gpt-4.1-nano-2025-04-14");
		expect(message.usage).toMatchObject({ input: 16, output: 300, cacheRead: 0, totalTokens: 316 });
	});

	it("replays xAI grok-3-mini reasoning then text, counting hidden reasoning tokens as output", async () => {
		fake.enqueue(sse(recordedFrames("openai-completions", "xai-text", { done: true })));
		const message = await stream(model, context, key).result();
		expect(message.stopReason).toBe("stop");
		expect(message.content.map((b) => b.type)).toEqual(["thinking", "text"]);
		expect(message.content[0]).toMatchObject({ thinking: recordedText("xai-text", "reasoning_content") });
		expect(message.content[1]).toEqual({ type: "text", text: recordedText("xai-text", "content") });
		// prompt 12 of which 11 cached; total 354 = 12 + 2 completion + 340 reasoning.
		expect(message.usage).toMatchObject({ input: 1, cacheRead: 11, output: 342, totalTokens: 354 });
	});

	it("replays an xAI tool call delivered in one chunk", async () => {
		fake.enqueue(sse(recordedFrames("openai-completions", "xai-tool-call", { done: true })));
		const events = await collect(stream(model, context, key));
		const trace = eventTrace(events);
		expect(trace.slice(-4)).toEqual(["toolcall_start:1", "toolcall_delta:1", "toolcall_end:1", "done"]);
		const message = await lastMessage(events);
		expect(message.stopReason).toBe("toolUse");
		expect(message.content[1]).toEqual({
			type: "toolCall",
			id: "call_79382389",
			name: "weather",
			arguments: { location: "San Francisco" },
		});
	});
});

describe("openai-completions SSE split anywhere", () => {
	const signature = (events: AssistantMessageEvent[]) =>
		JSON.stringify(
			events.map((e) => {
				const { partial: _p, ...rest } = e as AssistantMessageEvent & { partial?: unknown };
				if (rest.type === "done") return { type: rest.type, content: rest.message.content, usage: rest.message.usage };
				return rest;
			}),
		);

	async function run(bytes: Buffer, splitAt?: number[]) {
		fake.enqueue({ kind: "sse", bytes, splitAt });
		return collect(stream(model, context, key));
	}

	it("gives identical events for every two-piece split of a stream with text, reasoning and tool calls", async () => {
		const bytes = sseBytes(
			new ChatStream()
				.reasoning("reasoning_content", "hm")
				.text("Hé✓")
				.toolCall(0, "c1", "read", ['{"p":', '"ü"}'])
				.finish("tool_calls")
				.usage({ prompt_tokens: 3, completion_tokens: 4 })
				.done()
				.build(),
		);
		const expected = signature(await run(bytes));
		expect(expected).toContain('"ü"');
		const mismatches: number[] = [];
		for (let at = 1; at < bytes.length; at++) {
			if (signature(await run(bytes, [at])) !== expected) mismatches.push(at);
		}
		expect(mismatches).toEqual([]);
	}, 120_000);

	it("gives identical events for many-piece random splits of a recorded stream (with pings and CRLF)", async () => {
		const frames = recordedFrames("openai-completions", "xai-tool-call", { done: true });
		frames.splice(3, 0, { comment: "ping" });
		const plain = sseBytes(frames);
		const crlf = Buffer.from(plain.toString("utf8").replace(/\n/g, "\r\n"), "utf8");
		const expected = signature(await run(plain));
		let seed = 7;
		const random = () => {
			seed = (seed * 1103515245 + 12345) & 0x7fffffff;
			return seed / 0x7fffffff;
		};
		for (const bytes of [plain, crlf]) {
			for (let round = 0; round < 10; round++) {
				const cuts = new Set<number>();
				const count = 20 + Math.floor(random() * 200);
				while (cuts.size < count) cuts.add(1 + Math.floor(random() * (bytes.length - 1)));
				expect(
					signature(
						await run(
							bytes,
							[...cuts].sort((a, b) => a - b),
						),
					),
				).toBe(expected);
			}
		}
	}, 120_000);
});

async function lastMessage(events: AssistantMessageEvent[]) {
	const last = events.at(-1);
	if (last?.type === "done") return last.message;
	if (last?.type === "error") return last.error;
	throw new Error("no terminal event");
}
