import { describe, expect, it } from "vitest";
import { stream } from "../../src/stream.js";
import type { AssistantMessage, Context, Message, Model, Tool } from "../../src/types.js";
import { requestSender, useFakeTarget } from "../support/adapter-setup.js";
import { GoogleStream } from "../support/fake-provider/google.js";
import type { RecordedRequest } from "../support/fake-provider/server.js";
import { assistantTurn } from "../support/stream-helpers.js";

const key = { apiKey: "AIza-test" };
const readTool: Tool = {
	name: "read",
	description: "Read a file",
	parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
};

function assistant(content: AssistantMessage["content"], from: Partial<AssistantMessage> = {}): AssistantMessage {
	return assistantTurn({ api: "google-generative-ai", provider: "google", model: "gemini-2.5-flash" }, content, from);
}

const env = useFakeTarget((url) => ({
	api: "google-generative-ai",
	provider: "google",
	id: "gemini-2.5-flash",
	baseUrl: `${url}/v1beta`,
	reasoning: true,
}));

const send = requestSender(env, key, () => new GoogleStream().text("ok").finish("STOP").script());

type Body = {
	contents: { role: string; parts: Record<string, unknown>[] }[];
	systemInstruction?: unknown;
	tools?: unknown;
	generationConfig?: { temperature?: number; maxOutputTokens?: number; thinkingConfig?: unknown };
};
const body = (request: RecordedRequest) => request.body as Body;
const question: Context = { messages: [{ role: "user", content: "q", timestamp: 1 }] };

describe("google-generative-ai request body", () => {
	it("sends systemInstruction, function declarations with JSON Schema, roles user/model, merged function responses", async () => {
		const request = await send(
			{
				systemPrompt: "Be brief.",
				tools: [readTool],
				messages: [
					{
						role: "user",
						content: [
							{ type: "text", text: "look" },
							{ type: "image", mimeType: "image/png", data: "AAAA" },
						],
						timestamp: 1,
					},
					assistant([
						{ type: "thinking", thinking: "hmm", thinkingSignature: "sig-t" },
						{ type: "text", text: "Reading two.", textSignature: "sig-x" },
						{ type: "toolCall", id: "c1", name: "read", arguments: { path: "a" }, thoughtSignature: "sig-c" },
						{ type: "toolCall", id: "c2", name: "read", arguments: { path: "b" } },
					]),
					{
						role: "toolResult",
						toolCallId: "c1",
						toolName: "read",
						content: [{ type: "text", text: "A" }],
						isError: false,
						timestamp: 3,
					},
					{
						role: "toolResult",
						toolCallId: "c2",
						toolName: "read",
						content: [
							{ type: "text", text: "no such file" },
							{ type: "image", mimeType: "image/jpeg", data: "/9j/" },
						],
						isError: true,
						timestamp: 4,
					},
				],
			},
			{ temperature: 0.5, maxTokens: 100 },
		);
		expect(request.path).toBe("/v1beta/models/gemini-2.5-flash:streamGenerateContent");
		expect(body(request)).toEqual({
			contents: [
				{
					role: "user",
					parts: [{ text: "look" }, { inlineData: { mimeType: "image/png", data: "AAAA" } }],
				},
				{
					role: "model",
					parts: [
						{ text: "hmm", thought: true, thoughtSignature: "sig-t" },
						{ text: "Reading two.", thoughtSignature: "sig-x" },
						{ functionCall: { name: "read", args: { path: "a" } }, thoughtSignature: "sig-c" },
						{ functionCall: { name: "read", args: { path: "b" } } },
					],
				},
				{
					role: "user",
					parts: [
						{ functionResponse: { name: "read", response: { output: "A" } } },
						{ functionResponse: { name: "read", response: { error: "no such file" } } },
						{ inlineData: { mimeType: "image/jpeg", data: "/9j/" } },
					],
				},
			],
			systemInstruction: { role: "user", parts: [{ text: "Be brief." }] },
			tools: [
				{
					functionDeclarations: [
						{ name: "read", description: "Read a file", parametersJsonSchema: readTool.parameters },
					],
				},
			],
			generationConfig: { temperature: 0.5, maxOutputTokens: 100, thinkingConfig: { thinkingBudget: 0 } },
		});
	});

	it("round trip: streamed thoughts, signed text and signed calls go back with their signatures", async () => {
		env.fake.enqueue(
			new GoogleStream()
				.thought("Think.")
				.signature("sig-thought")
				.call("read", { path: "a" }, "sig-call")
				.finish("STOP")
				.script(),
		);
		const first: Context = { tools: [readTool], messages: [{ role: "user", content: "q", timestamp: 1 }] };
		const turn = await stream(env.model, first, { ...key, reasoning: "low" }).result();
		expect(turn.stopReason).toBe("toolUse");
		const call = turn.content[1];
		if (call?.type !== "toolCall") throw new Error("expected a call");
		const sent = body(
			await send({
				...first,
				messages: [
					...first.messages,
					turn,
					{
						role: "toolResult",
						toolCallId: call.id,
						toolName: "read",
						content: [{ type: "text", text: "A" }],
						isError: false,
						timestamp: 3,
					},
				],
			}),
		);
		expect(sent.contents.slice(1)).toEqual([
			{
				role: "model",
				parts: [
					{ text: "Think.", thought: true, thoughtSignature: "sig-thought" },
					{ functionCall: { name: "read", args: { path: "a" } }, thoughtSignature: "sig-call" },
				],
			},
			{ role: "user", parts: [{ functionResponse: { name: "read", response: { output: "A" } } }] },
		]);
	});

	it("2.x models take a thinking budget (0 turns thinking off, except on Pro)", async () => {
		expect(body(await send(question, { reasoning: "medium" })).generationConfig?.thinkingConfig).toEqual({
			includeThoughts: true,
			thinkingBudget: 8192,
		});
		expect(body(await send(question, { reasoning: "low", thinkingBudgets: { low: 3000 } })).generationConfig).toEqual({
			thinkingConfig: { includeThoughts: true, thinkingBudget: 3000 },
		});
		expect(body(await send(question, {})).generationConfig).toEqual({ thinkingConfig: { thinkingBudget: 0 } });
		const pro = { ...env.model, id: "gemini-2.5-pro" };
		// (the SDK always sends a generationConfig object)
		expect(body(await send(question, { reasoning: "off" }, pro)).generationConfig).toEqual({});
		const plain = { ...env.model, reasoning: false };
		expect(body(await send(question, { reasoning: "high" }, plain)).generationConfig).toEqual({});
	});

	it("Gemini 3 models take a thinking level", async () => {
		const pro = { ...env.model, id: "gemini-3-pro-preview" };
		const flash = { ...env.model, id: "gemini-3-flash-preview" };
		const level = async (target: Model, reasoning?: "off" | "minimal" | "low" | "medium" | "high") =>
			body(await send(question, reasoning ? { reasoning } : {}, target)).generationConfig?.thinkingConfig;
		expect(await level(pro, "high")).toEqual({ includeThoughts: true, thinkingLevel: "HIGH" });
		expect(await level(pro, "minimal")).toEqual({ includeThoughts: true, thinkingLevel: "LOW" });
		expect(await level(pro, "off")).toEqual({ thinkingLevel: "LOW" });
		expect(await level(flash, "minimal")).toEqual({ includeThoughts: true, thinkingLevel: "MINIMAL" });
		expect(await level(flash, "medium")).toEqual({ includeThoughts: true, thinkingLevel: "MEDIUM" });
		expect(await level(flash)).toEqual({ thinkingLevel: "MINIMAL" });
	});

	it("hands off from another provider: thinking becomes text, Gemini 3 gets the skip-signature marker", async () => {
		const context: Context = {
			messages: [
				{ role: "user", content: "go", timestamp: 1 },
				assistant(
					[
						{ type: "thinking", thinking: "Plan.", thinkingSignature: "anthropic-sig" },
						{ type: "toolCall", id: "toolu_01", name: "read", arguments: { path: "x" } },
					],
					{ api: "anthropic-messages", provider: "anthropic", model: "claude-sonnet-4-5" },
				),
				{
					role: "toolResult",
					toolCallId: "toolu_01",
					toolName: "read",
					content: [{ type: "text", text: "X" }],
					isError: false,
					timestamp: 3,
				},
			],
		};
		const gemini3 = { ...env.model, id: "gemini-3-pro-preview" };
		const sent = body(await send(context, {}, gemini3));
		expect(sent.contents[1]).toEqual({
			role: "model",
			parts: [
				{ text: "<thinking>\nPlan.\n</thinking>" },
				{ functionCall: { name: "read", args: { path: "x" } }, thoughtSignature: "skip_thought_signature_validator" },
			],
		});
		// 2.x models need no signature.
		const older = body(await send(context));
		expect(older.contents[1]?.parts[1]).toEqual({ functionCall: { name: "read", args: { path: "x" } } });
	});

	it("folds later system messages into systemInstruction and the final tool set", async () => {
		const messages: Message[] = [
			{ role: "system", content: "Base.", toolsAdded: [readTool], timestamp: 0 },
			{ role: "user", content: "q1", timestamp: 1 },
			{ role: "system", content: "Also this.", toolsRemoved: [{ name: "read" }], timestamp: 2 },
			{ role: "user", content: "q2", timestamp: 3 },
		];
		const sent = body(await send({ messages }));
		expect(sent.systemInstruction).toEqual({ role: "user", parts: [{ text: "Base.\n\nAlso this." }] });
		expect(sent.tools).toBeUndefined();
		expect(sent.contents.map((c) => c.role)).toEqual(["user", "user"]);
	});

	it("sends model and option headers; onResponse sees the status", async () => {
		const seen: number[] = [];
		const request = await send(
			question,
			{ headers: { "x-extra": "opt" }, onResponse: (r) => seen.push(r.status) },
			{
				...env.model,
				headers: { "x-model": "m" },
			},
		);
		expect(request.headers["x-model"]).toBe("m");
		expect(request.headers["x-extra"]).toBe("opt");
		expect(request.headers["x-goog-api-key"]).toBe("AIza-test");
		expect(seen).toEqual([200]);
	});
});
