import { describe, expect, it } from "vitest";
import { type GoogleChunk, GoogleEventMapper } from "../../src/adapters/google-generative-ai-events.js";
import { stream } from "../../src/stream.js";
import type { AssistantMessage, Context, ToolCall } from "../../src/types.js";
import { useFakeTarget } from "../support/adapter-setup.js";
import { describeByteSplits } from "../support/byte-splits.js";
import { recordedFrames } from "../support/fake-provider/recorded.js";
import { sse } from "../support/fake-provider/server.js";
import { decodePieces } from "../support/split-replay.js";
import { collect, compactTrace, usageTokens } from "../support/stream-helpers.js";

const API = "google-generative-ai";
const context: Context = { messages: [{ role: "user", content: "hi", timestamp: 1 }] };
const key = { apiKey: "AIza-test" };

const env = useFakeTarget((url) => ({
	api: API,
	provider: "google",
	id: "gemini-fake",
	baseUrl: `${url}/v1beta`,
	reasoning: true,
}));

function calls(message: AssistantMessage): Omit<ToolCall, "thoughtSignature">[] {
	return message.content
		.filter((block): block is ToolCall => block.type === "toolCall")
		.map(({ thoughtSignature: _s, ...call }) => call);
}

interface Case {
	name: string;
	trace: string[];
	check: (message: AssistantMessage) => void;
}

const cases: Case[] = [
	{
		name: "google-text",
		trace: ["start", "text_start:0", "text_delta:0 x2", "text_end:0", "done"],
		check: (m) => {
			expect(m.stopReason).toBe("stop");
			expect(m.content).toHaveLength(1);
			expect(m.content[0]).toMatchObject({
				type: "text",
				text: 'There are **3** "r"s in strawberry.\n\nst**r**awbe**rr**y',
			});
			// The signature-only final part signs the text block.
			expect(m.content[0]?.type === "text" && m.content[0].textSignature?.startsWith("EqsFCqgFAb4")).toBe(true);
			// thoughtsTokenCount (185) counts as output.
			expect(usageTokens(m)).toEqual({ input: 9, output: 208, cacheRead: 0, cacheWrite: 0, totalTokens: 217 });
			expect(m.responseId).toBe("bH6LaZW8Fp_3nsEPqtaSwQ4");
			expect(m.responseModel).toBe("gemini-3-pro-preview");
		},
	},
	{
		name: "google-reasoning",
		trace: ["start", "text_start:0", "text_delta:0 x2", "text_end:0", "done"],
		check: (m) => {
			expect(m.content[0]).toMatchObject({
				type: "text",
				text: 'There are **3** "r"s in strawberry.\n\nHere is the breakdown: st**r**awbe**rr**y.',
			});
			expect(usageTokens(m)).toEqual({ input: 9, output: 285, cacheRead: 0, cacheWrite: 0, totalTokens: 294 });
		},
	},
	{
		name: "google-reasoning-gemini3",
		trace: ["start", "text_start:0", "text_delta:0 x2", "text_end:0", "done"],
		check: (m) => {
			expect(m.content[0]).toMatchObject({
				type: "text",
				text: 'There are **3** "r"s in strawberry.\n\nSt**r**awbe**rr**y',
			});
			expect(usageTokens(m)).toEqual({ input: 9, output: 325, cacheRead: 0, cacheWrite: 0, totalTokens: 334 });
		},
	},
	{
		name: "google-tool-call",
		trace: ["start", "toolcall_start:0", "toolcall_delta:0", "toolcall_end:0", "done"],
		check: (m) => {
			expect(m.stopReason).toBe("toolUse");
			expect(calls(m)).toEqual([
				{
					type: "toolCall",
					id: "weather_b36LacjwM668nsEP2tbsgQQ_1",
					name: "weather",
					arguments: { location: "San Francisco" },
				},
			]);
			const call = m.content[0];
			expect(call?.type === "toolCall" && call.thoughtSignature?.startsWith("EqUCCqICAb4")).toBe(true);
			expect(usageTokens(m)).toEqual({ input: 29, output: 60, cacheRead: 0, cacheWrite: 0, totalTokens: 89 });
		},
	},
	{
		name: "google-tool-call-gemini3",
		trace: ["start", "toolcall_start:0", "toolcall_delta:0", "toolcall_end:0", "done"],
		check: (m) => {
			expect(m.stopReason).toBe("toolUse");
			expect(calls(m)).toEqual([
				{
					type: "toolCall",
					id: "weather_QHiLaa6LBrb8vdIPoNztsAg_1",
					name: "weather",
					arguments: { location: "San Francisco" },
				},
			]);
			expect(m.content[0]?.type === "toolCall" && m.content[0].thoughtSignature?.length).toBe(5488);
		},
	},
	{
		name: "google-stream-tool-call-arguments",
		trace: [
			"start",
			"toolcall_start:0",
			"toolcall_delta:0",
			"toolcall_end:0",
			"toolcall_start:1",
			"toolcall_delta:1",
			"toolcall_end:1",
			"done",
		],
		check: (m) => {
			expect(m.stopReason).toBe("toolUse");
			expect(calls(m)).toEqual([
				{
					type: "toolCall",
					id: "getWeather_dqHOab6xGLzWodAPkPuViA4_1",
					name: "getWeather",
					arguments: { location: "Boston" },
				},
				{
					type: "toolCall",
					id: "getWeather_dqHOab6xGLzWodAPkPuViA4_2",
					name: "getWeather",
					arguments: { location: "San Francisco" },
				},
			]);
			expect(usageTokens(m)).toEqual({ input: 26, output: 155, cacheRead: 0, cacheWrite: 0, totalTokens: 181 });
		},
	},
	{
		name: "google-stream-no-args-tool-call",
		trace: [
			"start",
			"thinking_start:0",
			"thinking_delta:0",
			"thinking_end:0",
			"toolcall_start:1",
			"toolcall_delta:1",
			"toolcall_end:1",
			"toolcall_start:2",
			"toolcall_delta:2",
			"toolcall_end:2",
			"toolcall_start:3",
			"toolcall_delta:3",
			"toolcall_end:3",
			"toolcall_start:4",
			"toolcall_delta:4",
			"toolcall_end:4",
			"done",
		],
		check: (m) => {
			expect(m.content[0]).toMatchObject({ type: "thinking" });
			expect(
				m.content[0]?.type === "thinking" && m.content[0].thinking.startsWith("**Processing User Requests**"),
			).toBe(true);
			expect(calls(m).map((c) => [c.name, c.arguments])).toEqual([
				["read_theme", {}],
				["read_screen", { id: "A" }],
				["read_screen", { id: "B" }],
				["read_screen", { id: "C" }],
			]);
			expect(new Set(calls(m).map((c) => c.id)).size).toBe(4);
			expect(usageTokens(m)).toEqual({ input: 249, output: 241, cacheRead: 0, cacheWrite: 0, totalTokens: 490 });
		},
	},
	{
		// The last call ends with a piece lacking willContinue instead of an empty functionCall part.
		name: "google-stream-tool-call-array-arguments-missing-terminal-function-call",
		trace: ["start", "toolcall_start:0", "toolcall_delta:0", "toolcall_end:0", "done"],
		check: (m) => {
			expect(m.stopReason).toBe("toolUse");
			expect(calls(m)).toEqual([
				{
					type: "toolCall",
					id: "writeItems_3noMaojQL_2s6tkPiO26qQ4_1",
					name: "writeItems",
					arguments: {
						operations: [
							{ action: "add", description: "Fresh red apple", itemid: "apple_001", price: 0.5 },
							{ action: "add", description: "Ripe yellow banana", itemid: "banana_001", price: 0.3 },
						],
					},
				},
			]);
		},
	},
];

describe("google-generative-ai: recorded streams over HTTP", () => {
	it.each(cases)("$name", async ({ name, trace, check }) => {
		env.fake.enqueue(sse(recordedFrames(API, name)));
		const events = await collect(stream(env.model, context, key));
		expect(compactTrace(events)).toEqual(trace);
		const last = events.at(-1);
		const message = last?.type === "done" ? last.message : last?.type === "error" ? last.error : undefined;
		if (!message) throw new Error("no terminal event");
		check(message);
	});

	it("the same stream without its finishReason chunk is cut, not done", async () => {
		const frames = recordedFrames(API, "google-stream-tool-call-array-arguments-missing-terminal-function-call");
		env.fake.enqueue(sse(frames.slice(0, -1)));
		const message = await stream(env.model, context, key).result();
		expect(message.stopReason).toBe("error");
		expect(message.errorInfo).toEqual({ kind: "stream_cut", retryable: true });
		// The call was still open when the stream ended: its pieces are kept as the partial.
		expect(message.content).toHaveLength(1);
	});
});

/** The adapter's parse path without the request, piece by piece. */
function decode(pieces: Uint8Array[]): Promise<string[]> {
	return decodePieces<GoogleChunk>(env.model, (writer) => new GoogleEventMapper(writer), pieces);
}

// Frames carry signatures of up to ~6 KB: cutting each frame every 1000 bytes keeps runs bounded.
// Ids are derived from the responseId, so they match across runs.
describeByteSplits({
	api: API,
	env,
	context,
	key,
	streams: cases.map(({ name }) => ({ label: name, frames: () => recordedFrames(API, name) })),
	decode,
	period: 1000,
	terminal: /^done:/,
	timeoutMs: 30_000,
});
