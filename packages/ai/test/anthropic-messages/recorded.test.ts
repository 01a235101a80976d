import { describe, expect, it } from "vitest";
import { AnthropicEventMapper, type AnthropicWireEvent } from "../../src/adapters/anthropic-messages-events.js";
import { stream } from "../../src/stream.js";
import type { AssistantMessage, Context } from "../../src/types.js";
import { useFakeTarget } from "../support/adapter-setup.js";
import { describeByteSplits } from "../support/byte-splits.js";
import { recordedFrames } from "../support/fake-provider/recorded.js";
import { sse } from "../support/fake-provider/server.js";
import { decodePieces } from "../support/split-replay.js";
import { collect, compactTrace, usageTokens } from "../support/stream-helpers.js";

const API = "anthropic-messages";
const context: Context = { messages: [{ role: "user", content: "hi", timestamp: 1 }] };
const key = { apiKey: "sk-ant-api03-test" };

const env = useFakeTarget((url) => ({
	api: API,
	provider: "anthropic",
	id: "claude-fake",
	baseUrl: url,
	reasoning: true,
}));

interface Case {
	name: string;
	trace: string[];
	check: (message: AssistantMessage) => void;
}

const cases: Case[] = [
	{
		name: "anthropic-text",
		trace: ["start", "text_start:0", "text_delta:0 x6", "text_end:0", "done"],
		check: (m) => {
			expect(m.stopReason).toBe("stop");
			expect(m.content).toEqual([
				{
					type: "text",
					text: "Hello! I'm doing well, thank you for asking. How are you doing today? Is there anything I can help you with?",
				},
			]);
			expect(usageTokens(m)).toEqual({ input: 12, output: 30, cacheRead: 0, cacheWrite: 0, totalTokens: 42 });
			expect(m.responseId).toBe("msg_01QC4g3HwBThD4BaNtBckFDJ");
			expect(m.responseModel).toBe("claude-sonnet-4-5-20250929");
		},
	},
	{
		name: "anthropic-clear-thinking.1",
		trace: [
			"start",
			"thinking_start:0",
			"thinking_delta:0 x9",
			"thinking_end:0",
			"text_start:1",
			"text_delta:1 x3",
			"text_end:1",
			"done",
		],
		check: (m) => {
			expect(m.stopReason).toBe("stop");
			const [thinking, text] = m.content;
			expect(thinking).toMatchObject({
				type: "thinking",
				thinking: "The previous result was 925. Now I need to divide that by 5.\n\n925 ÷ 5 = 185",
			});
			expect(thinking?.type === "thinking" && thinking.thinkingSignature?.startsWith("EvQBCkYICxgCKkAxhD4N")).toBe(
				true,
			);
			expect(thinking?.type === "thinking" && thinking.thinkingSignature?.length).toBe(332);
			expect(text).toEqual({ type: "text", text: "925 ÷ 5 = 185" });
			expect(usageTokens(m)).toEqual({ input: 69, output: 53, cacheRead: 0, cacheWrite: 0, totalTokens: 122 });
		},
	},
	{
		name: "anthropic-clear-tool-uses.1",
		trace: ["start", "text_start:0", "text_delta:0 x30", "text_end:0", "done"],
		check: (m) => {
			expect(m.stopReason).toBe("stop");
			expect(m.content).toHaveLength(1);
			expect(m.content[0]?.type === "text" && m.content[0].text.length).toBe(440);
			expect(usageTokens(m)).toEqual({ input: 859, output: 122, cacheRead: 0, cacheWrite: 0, totalTokens: 981 });
		},
	},
	{
		name: "anthropic-json-tool.1",
		trace: ["start", "toolcall_start:0", "toolcall_delta:0 x2", "toolcall_end:0", "done"],
		check: (m) => {
			expect(m.stopReason).toBe("toolUse");
			expect(m.content).toEqual([
				{
					type: "toolCall",
					id: "toolu_01KFbKqPYSuAKujiL6mTfzYA",
					name: "json",
					arguments: { elements: [{ location: "San Francisco", temperature: 58, condition: "sunny" }] },
				},
			]);
			expect(usageTokens(m)).toEqual({ input: 849, output: 47, cacheRead: 0, cacheWrite: 0, totalTokens: 896 });
		},
	},
	{
		name: "anthropic-tool-no-args",
		trace: ["start", "text_start:0", "text_delta:0 x2", "text_end:0", "toolcall_start:1", "toolcall_end:1", "done"],
		check: (m) => {
			expect(m.stopReason).toBe("toolUse");
			expect(m.content).toEqual([
				{ type: "text", text: "I'll update the issue list for you." },
				{ type: "toolCall", id: "toolu_01QE1WLsSVp5hy5Q3GmGTmjP", name: "updateIssueList", arguments: {} },
			]);
		},
	},
	{
		name: "anthropic-message-delta-input-tokens",
		trace: ["start", "text_start:0", "text_delta:0 x2", "text_end:0", "done"],
		check: (m) => {
			expect(m.content).toEqual([{ type: "text", text: "pong" }]);
			expect(usageTokens(m)).toEqual({ input: 61, output: 2, cacheRead: 0, cacheWrite: 0, totalTokens: 63 });
		},
	},
	{
		name: "anthropic-refusal",
		trace: ["start", "error"],
		check: (m) => {
			expect(m.stopReason).toBe("error");
			expect(m.content).toEqual([]);
			expect(m.errorInfo).toEqual({ kind: "provider", code: "refusal", retryable: false });
			expect(m.errorMessage).toMatch(/^The model refused to respond: This request triggered restrictions/);
			expect(usageTokens(m).input).toBe(18);
		},
	},
];

describe("anthropic-messages: recorded streams over HTTP", () => {
	it.each(cases)("$name", async ({ name, trace, check }) => {
		env.fake.enqueue(sse(recordedFrames(API, name, { eventFromType: true })));
		const events = await collect(stream(env.model, context, key));
		expect(compactTrace(events)).toEqual(trace);
		const last = events.at(-1);
		const message = last?.type === "done" ? last.message : last?.type === "error" ? last.error : undefined;
		if (!message) throw new Error("no terminal event");
		check(message);
		expect(events.filter((e) => e.type === "done" || e.type === "error")).toHaveLength(1);
	});
});

/** The adapter's parse path without the request, piece by piece. */
function decode(pieces: Uint8Array[]): Promise<string[]> {
	return decodePieces<AnthropicWireEvent>(env.model, (writer) => new AnthropicEventMapper(writer), pieces);
}

describeByteSplits({
	api: API,
	env,
	context,
	key,
	streams: cases.map(({ name }) => ({ label: name, frames: () => recordedFrames(API, name, { eventFromType: true }) })),
	decode,
	period: 4096,
	terminal: /^(done|error):/,
	fullAdapterTitle: "the full adapter (SDK client included) agrees when every byte arrives alone",
});
