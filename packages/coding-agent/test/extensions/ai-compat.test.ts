// The legacy pi-ai surface as extensions import it (`@earendil-works/pi-ai/compat`
// from host-modules.ts): what upstream's custom-provider-gitlab-duo/test.ts does
// (registerApiProvider, then streamSimple dispatching to it), the built-in
// stream objects against the fake provider over real HTTP, tool-call
// validation, the streaming-arguments parser and the transcript collapse.
import type { AssistantMessageEventStream, Context, Model, Tool } from "@pi/ai";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { AnthropicStream } from "../../../ai/test/support/fake-provider/anthropic.js";
import { type FakeProvider, startFakeProvider } from "../../../ai/test/support/fake-provider/server.js";
import type * as Compat from "../../src/extensions/ai-compat.js";
import { loadHostModules } from "../../src/extensions/host-modules.js";

type CompatView = typeof Compat & {
	streamSimple(model: Model, context: Context, options?: { apiKey?: string }): AssistantMessageEventStream;
	anthropicMessagesApi(): Compat.CompatProviderStreams;
	createAssistantMessageEventStream(): AssistantMessageEventStream;
};

let compat: CompatView;
let fake: FakeProvider | undefined;
beforeAll(async () => {
	const modules = await loadHostModules();
	compat = modules["@earendil-works/pi-ai/compat"] as CompatView;
	// Both names give the same view (upstream re-exports index from compat).
	expect(modules["@mariozechner/pi-ai"]).toBe(modules["@earendil-works/pi-ai"]);
});
afterEach(async () => {
	compat.unregisterApiProviders("test");
	await fake?.close();
	fake = undefined;
});

const model = (api: string, baseUrl = "http://127.0.0.1:9"): Model => ({
	id: "m1",
	name: "m1",
	api: api as Model["api"],
	provider: "compat-test",
	baseUrl,
	reasoning: false,
	input: ["text"],
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
	contextWindow: 1000,
	maxTokens: 100,
});
const context: Context = { messages: [{ role: "user", content: "Say hello", timestamp: 1 }] };

describe("pi-ai compat for extensions", () => {
	it("registerApiProvider + streamSimple: the request reaches the registered stream with the caller's key", async () => {
		const seen: { apiKey?: string; text?: unknown }[] = [];
		compat.registerApiProvider(
			{
				api: "compat-test-api",
				streamSimple(m, ctx, options) {
					seen.push({ apiKey: options?.apiKey, text: ctx.messages.at(-1)?.content });
					const out = compat.createAssistantMessageEventStream();
					const message = {
						role: "assistant" as const,
						content: [{ type: "text" as const, text: "custom" }],
						api: m.api,
						provider: m.provider,
						model: m.id,
						usage: {
							input: 1,
							output: 1,
							cacheRead: 0,
							cacheWrite: 0,
							totalTokens: 2,
							cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
						},
						stopReason: "stop" as const,
						timestamp: Date.now(),
					};
					queueMicrotask(() => out.push({ type: "done", reason: "stop", message }));
					return out;
				},
			},
			"test",
		);
		const reply = await compat.streamSimple(model("compat-test-api"), context, { apiKey: "k-1" }).result();
		expect(reply.stopReason).toBe("stop");
		expect(reply.content).toEqual([{ type: "text", text: "custom" }]);
		expect(seen).toEqual([{ apiKey: "k-1", text: "Say hello" }]);
		expect(compat.getApiProvider("compat-test-api")?.api).toBe("compat-test-api");

		compat.unregisterApiProviders("test");
		const gone = await compat.streamSimple(model("compat-test-api"), context, { apiKey: "k-1" }).result();
		expect(gone.stopReason).toBe("error");
		expect(gone.errorMessage).toContain('No adapter registered for api "compat-test-api"');
	});

	it("a registered stream that throws is an error reply naming the registration, not a throw", async () => {
		compat.registerApiProvider(
			{
				api: "compat-throws",
				streamSimple() {
					throw new Error("boom");
				},
			},
			"test",
		);
		const reply = await compat.streamSimple(model("compat-throws"), context, { apiKey: "k" }).result();
		expect(reply.stopReason).toBe("error");
		expect(reply.errorMessage).toBe(
			'The stream of provider "compat-test" failed: boom (registerApiProvider "compat-throws" (test))',
		);
	});

	it("replacing a built-in api and unregistering puts the built-in back", async () => {
		fake = await startFakeProvider();
		fake.enqueue(new AnthropicStream().start().text("built-in").delta("end_turn").stop().script());
		compat.registerApiProvider(
			{ api: "anthropic-messages", stream: () => compat.createAssistantMessageEventStream() },
			"test",
		);
		compat.unregisterApiProviders("test");
		const reply = await compat
			.streamSimple(model("anthropic-messages", `${fake.url}/v1`), context, { apiKey: "k" })
			.result();
		expect(reply.content).toEqual([{ type: "text", text: "built-in" }]);
	});

	it("anthropicMessagesApi().streamSimple speaks Anthropic's wire for a model of another api (a delegating provider)", async () => {
		fake = await startFakeProvider();
		fake.enqueue(new AnthropicStream().start().text("via ", "anthropic").delta("end_turn").stop().script());
		const reply = await compat
			.anthropicMessagesApi()
			.streamSimple(model("gitlab-duo-api", `${fake.url}/proxy/anthropic`), context, {
				apiKey: "gitlab-duo",
				headers: { authorization: "Bearer direct" },
			})
			.result();
		expect(reply.content).toEqual([{ type: "text", text: "via anthropic" }]);
		expect(fake.requests[0].path).toBe("/proxy/anthropic/v1/messages");
		expect(fake.requests[0].headers.authorization).toBe("Bearer direct");
	});

	it("validateToolCall: unknown tool and bad arguments throw naming them; near misses are coerced", () => {
		const tools: Tool[] = [
			{
				name: "add",
				description: "adds",
				parameters: {
					type: "object",
					properties: { a: { type: "number" }, b: { type: "number" } },
					required: ["a", "b"],
				},
			},
		];
		const call = (name: string, args: Record<string, unknown>) => ({
			type: "toolCall" as const,
			id: "c",
			name,
			arguments: args,
		});
		expect(compat.validateToolCall(tools, call("add", { a: 1, b: "2" }))).toEqual({ a: 1, b: 2 });
		expect(() => compat.validateToolCall(tools, call("mul", {}))).toThrow('Tool "mul" not found');
		expect(() => compat.validateToolCall(tools, call("add", { a: "x" }))).toThrow(/Validation failed for tool "add"/);
	});

	it("ToolCallArgumentsStream shows the arguments so far and parses the whole text once at the end", () => {
		const args = new compat.ToolCallArgumentsStream();
		expect(args.append('{"path": "no')).toEqual({ path: "no" });
		const partial = args.append('te.txt", "n');
		expect(partial).toEqual({ path: "note.txt" });
		expect(args.replace('{"path": "note.txt", "n": 3}')).toEqual({
			delta: '": 3}',
			arguments: { path: "note.txt", n: 3 },
		});
		expect(args.finish()).toEqual({ arguments: { path: "note.txt", n: 3 } });
		const broken = new compat.ToolCallArgumentsStream();
		broken.append('{"path": "x"');
		expect(broken.finish()).toMatchObject({
			arguments: { path: "x" },
			argumentsError: expect.stringMatching(/^Malformed/),
		});
	});

	it("collapseSystemMessages folds every system message into one leading message", () => {
		const tool: Tool = { name: "t", description: "d", parameters: { type: "object" } };
		const collapsed = compat.collapseSystemMessages({
			messages: [
				{ role: "system", content: "base", timestamp: 1, toolsAdded: [tool] },
				{ role: "user", content: "q", timestamp: 2 },
				{ role: "system", content: "later", timestamp: 3 },
			],
		});
		expect(collapsed.messages).toEqual([
			{ role: "system", content: "base\n\nlater", timestamp: 1, toolsAdded: [tool] },
			{ role: "user", content: "q", timestamp: 2 },
		]);
	});
});
