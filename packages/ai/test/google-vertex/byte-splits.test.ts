// Byte splits of a Vertex AI stream through the google-vertex adapter: every byte boundary of the
// stream gives the same events on the parse path, and the full adapter (express mode, the key as
// x-goog-api-key) gives the same events when every byte arrives alone. The stream is made here, not
// recorded: its payloads have the shape Vertex's streamGenerateContent?alt=sse returns (Google's
// GenerateContentResponse as Vertex documents it: createTime, responseId, modelVersion, and
// usageMetadata with trafficType and per-modality token details), thought parts with a
// thoughtSignature, a function call, and events ended by CRLF pairs as Google's front end sends them
// (so a cut can fall between \r and \n).
import { expect, it } from "vitest";
import { type GoogleChunk, GoogleEventMapper } from "../../src/adapters/google-generative-ai-events.js";
import { stream } from "../../src/stream.js";
import type { Context } from "../../src/types.js";
import { useFakeTarget } from "../support/adapter-setup.js";
import { describeByteSplits } from "../support/byte-splits.js";
import { type SseFrame, sse } from "../support/fake-provider/server.js";
import { decodePieces } from "../support/split-replay.js";

const context: Context = { messages: [{ role: "user", content: "Which files mention ünïcödé?", timestamp: 1 }] };
const key = { apiKey: "vertex-express-key" };

const env = useFakeTarget((url) => ({
	api: "google-vertex",
	provider: "google-vertex",
	id: "gemini-2.5-flash",
	baseUrl: url,
	reasoning: true,
}));

const CREATE_TIME = "2026-12-02T14:40:01.123456Z";
const RESPONSE_ID = "gVguaZ7xLpWq2fMPk5CJ8Qw";

/** One Vertex stream event, CRLF-framed. */
function vertexEvent(parts: object[], extra: { finishReason?: string; usage?: object } = {}): SseFrame {
	const candidate: Record<string, unknown> = { content: { role: "model", parts } };
	if (extra.finishReason) candidate.finishReason = extra.finishReason;
	const payload = {
		candidates: [candidate],
		usageMetadata: extra.usage ?? { trafficType: "ON_DEMAND" },
		modelVersion: "gemini-2.5-flash",
		createTime: CREATE_TIME,
		responseId: RESPONSE_ID,
	};
	return { raw: `data: ${JSON.stringify(payload)}\r\n\r\n` };
}

const finalUsage = (candidates: number, thoughts: number) => ({
	promptTokenCount: 14,
	candidatesTokenCount: candidates,
	totalTokenCount: 14 + candidates + thoughts,
	trafficType: "ON_DEMAND",
	promptTokensDetails: [{ modality: "TEXT", tokenCount: 14 }],
	candidatesTokensDetails: [{ modality: "TEXT", tokenCount: candidates }],
	thoughtsTokenCount: thoughts,
});

const toolStream = (): SseFrame[] => [
	vertexEvent([{ text: "**Searching** the tree for the word — ", thought: true }]),
	vertexEvent([{ text: "then read the hits ✓", thought: true }]),
	vertexEvent([{ text: "Let me look 🔍", thoughtSignature: "CpIBAVSoXO4vQm2s+Yt1pZ8w/AbCdEf0123456789==" }]),
	vertexEvent(
		[{ functionCall: { name: "grep", args: { pattern: "ünïcödé", path: "src/ä" } }, thoughtSignature: "Cq0BAVSo==" }],
		{ finishReason: "STOP", usage: finalUsage(21, 88) },
	),
];

const textStream = (): SseFrame[] => [
	vertexEvent([{ text: "Two files: " }]),
	vertexEvent([{ text: "`src/ä.ts` and `docs/日本.md`." }]),
	vertexEvent([{ text: "" }], { finishReason: "STOP", usage: finalUsage(12, 0) }),
];

describeByteSplits({
	api: "google-vertex",
	env,
	context,
	key,
	streams: [
		{ label: "thinking, text and a function call", frames: toolStream },
		{ label: "plain text", frames: textStream },
	],
	decode: (pieces) => decodePieces<GoogleChunk>(env.model, (writer) => new GoogleEventMapper(writer), pieces),
	period: 1000,
	terminal: /^done:/,
	timeoutMs: 30_000,
});

it("the CRLF-framed Vertex stream over real HTTP: the events the byte-split baseline checks", async () => {
	env.fake.enqueue(sse(toolStream()));
	const message = await stream(env.model, context, key).result();
	expect(message.errorMessage).toBeUndefined();
	expect(message.stopReason).toBe("toolUse");
	expect(message.content.map((block) => block.type)).toEqual(["thinking", "text", "toolCall"]);
	expect(message.content[0]).toMatchObject({
		thinking: "**Searching** the tree for the word — then read the hits ✓",
	});
	expect(message.content[2]).toMatchObject({ name: "grep", arguments: { pattern: "ünïcödé", path: "src/ä" } });
	expect(message.usage).toMatchObject({ input: 14, output: 21 + 88 });
	expect(env.fake.requests[0]?.headers["x-goog-api-key"]).toBe(key.apiKey);
	expect(env.fake.requests[0]?.path).toBe("/v1beta1/publishers/google/models/gemini-2.5-flash:streamGenerateContent");
});
