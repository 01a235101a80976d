import { describe, expect, it } from "vitest";
import { ResponsesEventMapper, type ResponsesWireEvent } from "../../src/adapters/openai-responses-events.js";
import { stream } from "../../src/stream.js";
import type { AssistantMessage, Context } from "../../src/types.js";
import { useFakeTarget } from "../support/adapter-setup.js";
import { describeByteSplits } from "../support/byte-splits.js";
import { recordedFrames } from "../support/fake-provider/recorded.js";
import { type SseFrame, sse } from "../support/fake-provider/server.js";
import { decodePieces } from "../support/split-replay.js";
import { collect, compactTrace, usageTokens } from "../support/stream-helpers.js";

const API = "openai-responses";
const context: Context = { messages: [{ role: "user", content: "hi", timestamp: 1 }] };
const key = { apiKey: "sk-test" };

const env = useFakeTarget((url) => ({ api: API, id: "gpt-fake", baseUrl: `${url}/v1`, reasoning: true }));

/** A recording may hold several responses of one agent loop; each starts with response.created. */
function responses(name: string): SseFrame[][] {
	const groups: SseFrame[][] = [];
	for (const frame of recordedFrames(API, name, { eventFromType: true })) {
		if (groups.length === 0 || ("event" in frame && frame.event === "response.created")) groups.push([]);
		groups.at(-1)?.push(frame);
	}
	return groups;
}

interface Case {
	name: string;
	/** Which response of the recording. */
	part: number;
	trace: string[];
	check: (message: AssistantMessage) => void;
}

const REASONING = "openai-reasoning-encrypted-content.1";

const cases: Case[] = [
	{
		name: REASONING,
		part: 0,
		trace: [
			"start",
			"thinking_start:0",
			"thinking_delta:0 x32",
			"thinking_end:0",
			"toolcall_start:1",
			"toolcall_delta:1 x13",
			"toolcall_end:1",
			"done",
		],
		check: (m) => {
			expect(m.stopReason).toBe("toolUse");
			const [thinking, call] = m.content;
			if (thinking?.type !== "thinking") throw new Error("expected thinking");
			expect(thinking.thinking).toMatch(/^\*\*Calculating step-by-step using calculator\*\*\n\nI'll compute 12 plus 7/);
			const item = JSON.parse(thinking.thinkingSignature ?? "{}") as Record<string, unknown>;
			expect(item.id).toBe("rs_01830d662ab3856501693c321405c88190be3ab04d5782d5f9");
			expect(item.type).toBe("reasoning");
			expect(String(item.encrypted_content)).toMatch(/^gAAAAABpPDIV/);
			expect(call).toEqual({
				type: "toolCall",
				id: "call_AB6AaRZ1FYZB2RwS6A5vbdqn|fc_01830d662ab3856501693c32151234819091cfca267e98cc5f",
				name: "calculator",
				arguments: { a: 12, b: 7, op: "add" },
			});
			expect(usageTokens(m)).toEqual({ input: 134, output: 28, cacheRead: 0, cacheWrite: 0, totalTokens: 162 });
			expect(m.responseModel).toBe("gpt-5.1-codex-max");
		},
	},
	{
		name: REASONING,
		part: 1,
		trace: ["start", "toolcall_start:0", "toolcall_delta:0 x13", "toolcall_end:0", "done"],
		check: (m) => {
			expect(m.content).toEqual([
				{
					type: "toolCall",
					id: "call_Q6pW65MUgW9vF59BmItYGos3|fc_01830d662ab3856501693c32165be4819098c08f205f8932ef",
					name: "calculator",
					arguments: { a: 19, b: 3, op: "multiply" },
				},
			]);
		},
	},
	{
		name: REASONING,
		part: 3,
		trace: ["start", "text_start:0", "text_delta:0 x8", "text_end:0", "done"],
		check: (m) => {
			expect(m.stopReason).toBe("stop");
			expect(m.content).toEqual([
				{
					type: "text",
					text: "The final result is **570**.",
					textSignature: '{"v":1,"id":"msg_01830d662ab3856501693c32183a488190a612c410a0a39823"}',
				},
			]);
			expect(usageTokens(m)).toEqual({ input: 299, output: 12, cacheRead: 0, cacheWrite: 0, totalTokens: 311 });
		},
	},
	{
		name: "openai-custom-tool.1",
		part: 0,
		trace: ["start", "toolcall_start:0", "toolcall_delta:0", "toolcall_end:0", "done"],
		check: (m) => {
			expect(m.stopReason).toBe("toolUse");
			expect(m.content).toEqual([
				{
					type: "toolCall",
					id: "call_custom_sql_001|ct_abc123def456",
					name: "write_sql",
					arguments: { input: "SELECT * FROM users WHERE age > 25" },
				},
			]);
		},
	},
	{
		name: "openai-phase.1",
		part: 0,
		// The recording trims the deltas; the `.done` events complete each text.
		trace: [
			"start",
			"text_start:0",
			"text_delta:0 x3",
			"text_end:0",
			"text_start:1",
			"text_delta:1 x3",
			"text_end:1",
			"done",
		],
		check: (m) => {
			const [commentary, answer] = m.content;
			if (commentary?.type !== "text" || answer?.type !== "text") throw new Error("expected two texts");
			expect(commentary.text).toMatch(/^Got it — I’ll quickly check reliable/);
			expect(commentary.text).toHaveLength(153);
			expect(JSON.parse(commentary.textSignature ?? "")).toEqual({
				v: 1,
				id: "msg_0a63f40a2632b74300699f8819a5e08196ac270722d369af5a",
				phase: "commentary",
			});
			expect(answer.text).toHaveLength(1485);
			expect(JSON.parse(answer.textSignature ?? "")).toMatchObject({ phase: "final_answer" });
			expect(usageTokens(m)).toEqual({ input: 4040, output: 463, cacheRead: 3072, cacheWrite: 0, totalTokens: 7575 });
		},
	},
	{
		name: "openai-error.1",
		part: 0,
		trace: ["start", "error"],
		check: (m) => {
			expect(m.stopReason).toBe("error");
			expect(m.errorInfo).toEqual({ kind: "rate_limit", code: "insufficient_quota", retryable: false });
			expect(m.errorMessage).toMatch(/^insufficient_quota: You exceeded your current quota/);
		},
	},
];

describe("openai-responses: recorded streams over HTTP", () => {
	it.each(cases)("$name (response $part)", async ({ name, part, trace, check }) => {
		const frames = responses(name)[part];
		if (!frames) throw new Error("no such response");
		env.fake.enqueue(sse(frames));
		const events = await collect(stream(env.model, context, key));
		expect(compactTrace(events)).toEqual(trace);
		const last = events.at(-1);
		const message = last?.type === "done" ? last.message : last?.type === "error" ? last.error : undefined;
		if (!message) throw new Error("no terminal event");
		check(message);
	});
});

/** The adapter's parse path without the request, piece by piece. */
function decode(pieces: Uint8Array[]): Promise<string[]> {
	return decodePieces<ResponsesWireEvent>(env.model, (writer) => new ResponsesEventMapper(writer), pieces);
}

const splitCases = [
	...responses(REASONING).map((_, part) => ({ name: REASONING, part })),
	{ name: "openai-custom-tool.1", part: 0 },
	{ name: "openai-phase.1", part: 0 },
	{ name: "openai-error.1", part: 0 },
];

describeByteSplits({
	api: API,
	env,
	context,
	key,
	streams: splitCases.map(({ name, part }) => ({
		label: `${name} (response ${part})`,
		frames: () => responses(name)[part] ?? [],
	})),
	decode,
	period: 1000,
	terminal: /^(done|error):/,
	timeoutMs: 30_000,
});
