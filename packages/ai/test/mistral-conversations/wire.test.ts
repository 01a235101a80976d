// The Mistral request body pi-ai writes without loading the SDK's zod schemas
// (src/adapters/mistral-conversations-wire.ts) against what the official SDK's own outbound schema
// (@mistralai/mistralai ChatCompletionStreamRequest$outboundSchema) writes for the same request:
// every shape buildMistralRequest makes, and the shapes it hands back to the SDK.

import type { ChatCompletionStreamRequest } from "@mistralai/mistralai/models/components";
import { ChatCompletionStreamRequest$outboundSchema } from "@mistralai/mistralai/models/components/chatcompletionstreamrequest.js";
import { describe, expect, it } from "vitest";
import type { AdapterOptions } from "../../src/adapter.js";
import { buildMistralRequest } from "../../src/adapters/mistral-conversations-request.js";
import { mistralWireBody } from "../../src/adapters/mistral-conversations-wire.js";
import { normalizeContext } from "../../src/context.js";
import { getModel } from "../../src/models/catalog.js";
import type { AssistantMessage, Context, Model } from "../../src/types.js";
import { assistantTurn } from "../support/stream-helpers.js";

const model: Model = {
	id: "mistral-fake",
	name: "fake",
	api: "mistral-conversations",
	provider: "mistral",
	baseUrl: "http://127.0.0.1:1/v1",
	reasoning: false,
	input: ["text", "image"],
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
	contextWindow: 1000,
	maxTokens: 100,
};
const key = { apiKey: "k" } as AdapterOptions;

/** What the SDK itself would put on the wire for `request`. */
const sdkWire = (request: ChatCompletionStreamRequest) =>
	JSON.parse(JSON.stringify(ChatCompletionStreamRequest$outboundSchema.parse(request)));

const tools = [
	{
		name: "read",
		description: "Read a file",
		parameters: { type: "object", properties: { path: { type: "string" } } },
	},
	{ name: "bare", description: "", parameters: { type: "object", properties: {}, additionalProperties: false } },
];

const other = { api: "anthropic-messages", provider: "anthropic", model: "claude" } as const;
const same = { api: "mistral-conversations", provider: "mistral", model: "mistral-fake" } as const;

const toolTurn: AssistantMessage = assistantTurn(other, [
	{ type: "thinking", thinking: "plan" },
	{ type: "thinking", thinking: "secret", redacted: true },
	{ type: "text", text: "Reading." },
	{ type: "toolCall", id: "toolu_01_from_another_provider", name: "read", arguments: { path: "x" } },
	{ type: "toolCall", id: "call_2", name: "bare", arguments: {} },
]);

const contexts: Record<string, Context> = {
	"a system prompt and one user turn": {
		systemPrompt: "Be brief.",
		messages: [{ role: "user", content: "hi", timestamp: 1 }],
	},
	"images, thinking, tool calls, tool results with images, an empty assistant turn": {
		systemPrompt: "sys",
		tools,
		messages: [
			{
				role: "user",
				content: [
					{ type: "text", text: "look" },
					{ type: "image", data: "aGVsbG8=", mimeType: "image/png" },
				],
				timestamp: 1,
			},
			toolTurn,
			{
				role: "toolResult",
				toolCallId: "toolu_01_from_another_provider",
				toolName: "read",
				content: [
					{ type: "text", text: "file body" },
					{ type: "image", data: "aGk=", mimeType: "image/jpeg" },
				],
				isError: false,
				timestamp: 3,
			},
			{ role: "toolResult", toolCallId: "call_2", toolName: "bare", content: [], isError: true, timestamp: 4 },
			assistantTurn(same, [{ type: "text", text: "" }], { stopReason: "stop" }),
			{
				role: "system",
				content: "Now also:",
				sections: { rules: "no tabs" },
				toolsAdded: [{ name: "grep", description: "Search", parameters: { type: "object", properties: {} } }],
				toolsRemoved: [{ name: "bare" }],
				timestamp: 5,
			},
			{ role: "user", content: "again", timestamp: 6 },
			assistantTurn(same, [{ type: "text", text: "done" }], { stopReason: "stop" }),
		],
	},
};

const optionSets: Record<string, Partial<AdapterOptions>> = {
	none: {},
	"max tokens, temperature, session cache key": { maxTokens: 300, temperature: 0.2, sessionId: "s-1" },
	"no cache": { sessionId: "s-1", cacheRetention: "none", temperature: 0 },
};

const models: Record<string, Model> = {
	plain: model,
	"effort map": {
		...model,
		reasoning: true,
		thinkingLevelMap: getModel("mistral", "mistral-small-latest").thinkingLevelMap,
	},
	"prompt mode": { ...model, reasoning: true },
};

describe("mistral wire body", () => {
	for (const [contextName, context] of Object.entries(contexts))
		for (const [optionsName, extra] of Object.entries(optionSets))
			for (const [modelName, m] of Object.entries(models))
				for (const reasoning of [undefined, "off", "high"] as const)
					it(`${contextName} / ${optionsName} / ${modelName} / reasoning ${reasoning}: as the SDK writes it`, () => {
						const request = buildMistralRequest(m, normalizeContext(context), { ...key, ...extra, reasoning });
						const ours = mistralWireBody(request);
						expect(ours).toBeDefined();
						expect(JSON.parse(JSON.stringify(ours))).toEqual(sdkWire(request));
					});

	it("a key or shape it does not know is left to the SDK's schema", () => {
		const request = buildMistralRequest(
			model,
			normalizeContext(contexts["a system prompt and one user turn"] as Context),
			key,
		);
		expect(mistralWireBody({ ...request, topP: 0.5 })).toBeUndefined();
		expect(
			mistralWireBody({ ...request, messages: [{ role: "system", content: [{ type: "text", text: "s" }] }] }),
		).toBeUndefined();
		expect(
			mistralWireBody({
				...request,
				messages: [{ role: "user", content: [{ type: "document_url", documentUrl: "u" }] }],
			}),
		).toBeUndefined();
		expect(mistralWireBody({ ...request, maxTokens: 1.5 })).toBeUndefined();
		expect(mistralWireBody({ ...request, reasoningEffort: "extreme" as "high" })).toBeUndefined();
	});
});
