import { describe, expect, it, vi } from "vitest";
import { normalizeResponsesToolCallId } from "../../src/adapters/openai-responses-request.js";
import { stream } from "../../src/stream.js";
import type { AssistantMessage, Context, Message, Tool } from "../../src/types.js";
import { requestSender, useFakeTarget } from "../support/adapter-setup.js";
import { ResponsesStream } from "../support/fake-provider/openai-responses.js";
import type { RecordedRequest } from "../support/fake-provider/server.js";
import { assistantTurn } from "../support/stream-helpers.js";

const key = { apiKey: "sk-test" };
const readTool: Tool = {
	name: "read",
	description: "Read a file",
	parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
};
const reasoningItem = {
	id: "rs_1",
	type: "reasoning",
	encrypted_content: "gAAAA-enc",
	summary: [{ type: "summary_text", text: "Plan" }],
};

function assistant(content: AssistantMessage["content"], from: Partial<AssistantMessage> = {}): AssistantMessage {
	return assistantTurn({ api: "openai-responses", provider: "openai", model: "gpt-fake" }, content, from);
}

const env = useFakeTarget((url) => ({
	api: "openai-responses",
	provider: "openai",
	id: "gpt-fake",
	baseUrl: `${url}/v1`,
	reasoning: true,
}));

const send = requestSender(env, key, () =>
	new ResponsesStream().created().message("msg_ok", ["ok"]).completed().script(),
);

type Body = Record<string, unknown> & { input: Record<string, unknown>[] };
const body = (request: RecordedRequest) => request.body as Body;
const question: Context = { messages: [{ role: "user", content: "q", timestamp: 1 }] };

describe("openai-responses request body", () => {
	it("stateless request: developer prompt, input items, function tools, encrypted reasoning, cache key", async () => {
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
				],
			},
			{ reasoning: "high", sessionId: "session-42", maxTokens: 500 },
		);
		expect(request.path).toBe("/v1/responses");
		expect(body(request)).toEqual({
			model: "gpt-fake",
			stream: true,
			store: false,
			input: [
				{ role: "developer", content: "Be brief." },
				{
					role: "user",
					content: [
						{ type: "input_text", text: "look" },
						{ type: "input_image", detail: "auto", image_url: "data:image/png;base64,AAAA" },
					],
				},
			],
			tools: [
				{ type: "function", name: "read", description: "Read a file", parameters: readTool.parameters, strict: false },
			],
			max_output_tokens: 500,
			include: ["reasoning.encrypted_content"],
			reasoning: { effort: "high", summary: "auto" },
			prompt_cache_key: "session-42",
		});
	});

	it("maps thinking levels to effort; non-reasoning models get a system prompt and no reasoning fields", async () => {
		expect(body(await send(question, { reasoning: "minimal" })).reasoning).toEqual({
			effort: "minimal",
			summary: "auto",
		});
		expect(body(await send(question, { reasoning: "xhigh" })).reasoning).toEqual({ effort: "high", summary: "auto" });
		const mapped = { ...env.model, thinkingLevelMap: { xhigh: "xhigh" } };
		expect(body(await send(question, { reasoning: "xhigh" }, mapped)).reasoning).toEqual({
			effort: "xhigh",
			summary: "auto",
		});
		// max where the model names it; where it does not, the highest level the model has.
		const top = { ...env.model, thinkingLevelMap: { xhigh: "xhigh", max: "max" } };
		expect(body(await send(question, { reasoning: "max" }, top)).reasoning).toEqual({ effort: "max", summary: "auto" });
		expect(body(await send(question, { reasoning: "max" }, mapped)).reasoning).toEqual({
			effort: "xhigh",
			summary: "auto",
		});
		expect(body(await send(question, { reasoning: "max" })).reasoning).toEqual({ effort: "high", summary: "auto" });
		const off = body(await send(question, { reasoning: "off" }));
		expect(off.reasoning).toBeUndefined();
		expect(off.include).toEqual(["reasoning.encrypted_content"]);
		// A model that names its "off" effort gets it; one that cannot switch off gets its lowest level.
		const gpt51 = { ...env.model, thinkingLevelMap: { off: "none", minimal: null } };
		expect(body(await send(question, { reasoning: "off" }, gpt51)).reasoning).toEqual({ effort: "none" });
		const gpt5 = { ...env.model, thinkingLevelMap: { off: null } };
		expect(body(await send(question, { reasoning: "off" }, gpt5)).reasoning).toEqual({
			effort: "minimal",
			summary: "auto",
		});
		const plain = body(
			await send(
				{ ...question, systemPrompt: "S" },
				{ reasoning: "high", temperature: 0.2 },
				{ ...env.model, reasoning: false },
			),
		);
		expect(plain.reasoning).toBeUndefined();
		expect(plain.include).toBeUndefined();
		expect(plain.temperature).toBe(0.2);
		expect(plain.input[0]).toEqual({ role: "system", content: "S" });
	});

	it("prompt cache: long retention asks for 24h; none sends no key; the session header when the model wants it", async () => {
		vi.stubEnv("PI_CACHE_RETENTION", "long");
		try {
			expect(body(await send(question, { sessionId: "s1" })).prompt_cache_retention).toBe("24h");
			expect(body(await send(question, { sessionId: "s1", cacheRetention: "short" })).prompt_cache_retention).toBe(
				undefined,
			);
		} finally {
			vi.unstubAllEnvs();
		}
		expect(body(await send(question, { sessionId: "s1" })).prompt_cache_retention).toBeUndefined();
		expect(body(await send(question, { sessionId: "s1", cacheRetention: "long" })).prompt_cache_retention).toBe("24h");
		const none = body(await send(question, { sessionId: "s1", cacheRetention: "none" }));
		expect(none.prompt_cache_key).toBeUndefined();
		const withHeader = await send(
			question,
			{ sessionId: "s1" },
			{ ...env.model, compat: { sendSessionIdHeader: true } },
		);
		expect(withHeader.headers.session_id).toBe("s1");
	});

	it("replays the same model's turn: reasoning item, message id and phase, function calls and outputs", async () => {
		const context: Context = {
			messages: [
				{ role: "user", content: "go", timestamp: 1 },
				assistant([
					{ type: "thinking", thinking: "Plan", thinkingSignature: JSON.stringify(reasoningItem) },
					{ type: "text", text: "Checking.", textSignature: '{"v":1,"id":"msg_1","phase":"commentary"}' },
					{ type: "toolCall", id: "call_1|fc_1", name: "read", arguments: { path: "a" } },
					{ type: "toolCall", id: "call_2|ct_2", name: "write_sql", arguments: { input: "SELECT 1" } },
				]),
				{
					role: "toolResult",
					toolCallId: "call_1|fc_1",
					toolName: "read",
					content: [{ type: "text", text: "A" }],
					isError: false,
					timestamp: 3,
				},
				{
					role: "toolResult",
					toolCallId: "call_2|ct_2",
					toolName: "write_sql",
					content: [{ type: "text", text: "1 row" }],
					isError: false,
					timestamp: 4,
				},
				assistant([{ type: "text", text: "Legacy id.", textSignature: "msg_legacy" }], { stopReason: "stop" }),
				{ role: "user", content: "thanks", timestamp: 6 },
			],
		};
		const sent = body(await send(context));
		expect(sent.input).toEqual([
			{ role: "user", content: [{ type: "input_text", text: "go" }] },
			reasoningItem,
			{
				type: "message",
				role: "assistant",
				id: "msg_1",
				status: "completed",
				content: [{ type: "output_text", text: "Checking.", annotations: [] }],
				phase: "commentary",
			},
			{ type: "function_call", call_id: "call_1", name: "read", arguments: '{"path":"a"}', id: "fc_1" },
			{ type: "custom_tool_call", call_id: "call_2", name: "write_sql", input: "SELECT 1", id: "ct_2" },
			{ type: "function_call_output", call_id: "call_1", output: "A" },
			{ type: "custom_tool_call_output", call_id: "call_2", output: "1 row" },
			{
				type: "message",
				role: "assistant",
				id: "msg_legacy",
				status: "completed",
				content: [{ type: "output_text", text: "Legacy id.", annotations: [] }],
			},
			{ role: "user", content: [{ type: "input_text", text: "thanks" }] },
		]);
	});

	it("round trip: a streamed turn's reasoning item, message and call are replayed as items", async () => {
		env.fake.enqueue(
			new ResponsesStream()
				.created()
				.reasoning("rs_77", [["Plan."]], "gAAAA-77")
				.message("msg_77", ["Calling."], "commentary")
				.functionCall("fc_77", "call_77", "read", ['{"path":', '"a"}'])
				.completed()
				.script(),
		);
		const first: Context = { tools: [readTool], messages: [{ role: "user", content: "q", timestamp: 1 }] };
		const turn = await stream(env.model, first, { ...key, reasoning: "low" }).result();
		expect(turn.stopReason).toBe("toolUse");
		const sent = body(
			await send({
				...first,
				messages: [
					...first.messages,
					turn,
					{
						role: "toolResult",
						toolCallId: "call_77|fc_77",
						toolName: "read",
						content: [{ type: "text", text: "A" }],
						isError: false,
						timestamp: 3,
					},
				],
			}),
		);
		expect(sent.input.slice(1)).toEqual([
			{
				id: "rs_77",
				type: "reasoning",
				encrypted_content: "gAAAA-77",
				summary: [{ type: "summary_text", text: "Plan." }],
			},
			{
				type: "message",
				role: "assistant",
				id: "msg_77",
				status: "completed",
				content: [{ type: "output_text", text: "Calling.", annotations: [] }],
				phase: "commentary",
			},
			{ type: "function_call", call_id: "call_77", name: "read", arguments: '{"path":"a"}', id: "fc_77" },
			{ type: "function_call_output", call_id: "call_77", output: "A" },
		]);
	});

	it("hands off from another provider or model: thinking becomes text, foreign ids are accepted, item ids dropped", async () => {
		const context: Context = {
			messages: [
				{ role: "user", content: "go", timestamp: 1 },
				assistant(
					[
						{ type: "thinking", thinking: "Claude thinks.", thinkingSignature: "anthropic-sig" },
						{ type: "toolCall", id: "toolu_01ABC", name: "read", arguments: { path: "x" } },
						{ type: "toolCall", id: "weird id/with:chars", name: "read", arguments: { path: "y" } },
					],
					{ api: "anthropic-messages", provider: "anthropic", model: "claude-sonnet-4-5" },
				),
				{
					role: "toolResult",
					toolCallId: "toolu_01ABC",
					toolName: "read",
					content: [{ type: "text", text: "X" }],
					isError: false,
					timestamp: 3,
				},
				{
					role: "toolResult",
					toolCallId: "weird id/with:chars",
					toolName: "read",
					content: [{ type: "text", text: "Y" }],
					isError: false,
					timestamp: 4,
				},
				assistant(
					[
						{ type: "thinking", thinking: "Other GPT.", thinkingSignature: JSON.stringify(reasoningItem) },
						{ type: "text", text: "Done.", textSignature: '{"v":1,"id":"msg_9"}' },
						{ type: "toolCall", id: "call_9|fc_9", name: "read", arguments: { path: "z" } },
					],
					{ model: "gpt-other" },
				),
				{
					role: "toolResult",
					toolCallId: "call_9|fc_9",
					toolName: "read",
					content: [{ type: "text", text: "Z" }],
					isError: false,
					timestamp: 6,
				},
			],
		};
		const sent = body(await send(context));
		const weird = sent.input[3]?.call_id;
		expect(weird).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
		expect(sent.input).toEqual([
			{ role: "user", content: [{ type: "input_text", text: "go" }] },
			{ role: "assistant", content: "<thinking>\nClaude thinks.\n</thinking>" },
			{ type: "function_call", call_id: "toolu_01ABC", name: "read", arguments: '{"path":"x"}' },
			{ type: "function_call", call_id: weird, name: "read", arguments: '{"path":"y"}' },
			{ type: "function_call_output", call_id: "toolu_01ABC", output: "X" },
			{ type: "function_call_output", call_id: weird, output: "Y" },
			{ role: "assistant", content: "<thinking>\nOther GPT.\n</thinking>" },
			{ role: "assistant", content: "Done." },
			{ type: "function_call", call_id: "call_9", name: "read", arguments: '{"path":"z"}' },
			{ type: "function_call_output", call_id: "call_9", output: "Z" },
		]);
	});

	it("sends later system messages in place as developer messages", async () => {
		const messages: Message[] = [
			{ role: "system", content: "Base.", sections: { mode: "Mode A." }, toolsAdded: [readTool], timestamp: 0 },
			{ role: "user", content: "q1", timestamp: 1 },
			{ role: "system", content: "", sections: { mode: "Mode B." }, toolsRemoved: [{ name: "read" }], timestamp: 2 },
			{ role: "user", content: "q2", timestamp: 3 },
		];
		const sent = body(await send({ messages }));
		expect(sent.input).toEqual([
			{ role: "developer", content: "Base.\n\nMode A." },
			{ role: "user", content: [{ type: "input_text", text: "q1" }] },
			{ role: "developer", content: "Mode B.\n\n(Tools no longer available: read.)" },
			{ role: "user", content: [{ type: "input_text", text: "q2" }] },
		]);
		expect(sent.tools).toBeUndefined();
	});

	it("drops a reasoning item that a cut turn left without any following output", async () => {
		const context: Context = {
			messages: [
				{ role: "user", content: "go", timestamp: 1 },
				assistant([{ type: "thinking", thinking: "Plan", thinkingSignature: JSON.stringify(reasoningItem) }], {
					stopReason: "aborted",
				}),
				{ role: "user", content: "again", timestamp: 3 },
			],
		};
		const sent = body(await send(context));
		expect(sent.input).toEqual([
			{ role: "user", content: [{ type: "input_text", text: "go" }] },
			{ role: "user", content: [{ type: "input_text", text: "again" }] },
		]);
	});

	it("tool results with images use the list output form", async () => {
		const context: Context = {
			messages: [
				{ role: "user", content: "shot", timestamp: 1 },
				assistant([{ type: "toolCall", id: "call_1|fc_1", name: "screenshot", arguments: {} }]),
				{
					role: "toolResult",
					toolCallId: "call_1|fc_1",
					toolName: "screenshot",
					content: [
						{ type: "text", text: "here" },
						{ type: "image", mimeType: "image/png", data: "AAAA" },
					],
					isError: false,
					timestamp: 3,
				},
			],
		};
		const sent = body(await send(context));
		expect(sent.input[2]).toEqual({
			type: "function_call_output",
			call_id: "call_1",
			output: [
				{ type: "input_text", text: "here" },
				{ type: "input_image", detail: "auto", image_url: "data:image/png;base64,AAAA" },
			],
		});
	});

	it("normalizes tool-call ids to what the Responses API accepts", () => {
		expect(normalizeResponsesToolCallId("call_1|fc_1")).toBe("call_1|fc_1");
		expect(normalizeResponsesToolCallId("call_1|ct_1")).toBe("call_1|ct_1");
		expect(normalizeResponsesToolCallId("call_1|not-an-item")).toBe("call_1");
		expect(normalizeResponsesToolCallId("toolu_01")).toBe("toolu_01");
		expect(normalizeResponsesToolCallId("a".repeat(80))).toMatch(/^[a-zA-Z0-9_-]{64}$/);
	});

	it("sends model and option headers; onPayload can replace the body; onResponse sees the status", async () => {
		const seen: number[] = [];
		const request = await send(
			question,
			{
				headers: { "x-extra": "opt" },
				onPayload: (payload) => ({ ...(payload as object), service_tier: "flex" }),
				onResponse: (response) => seen.push(response.status),
			},
			{ ...env.model, headers: { "x-model": "m" } },
		);
		expect(request.headers["x-model"]).toBe("m");
		expect(request.headers["x-extra"]).toBe("opt");
		expect(body(request).service_tier).toBe("flex");
		expect(seen).toEqual([200]);
	});
});
