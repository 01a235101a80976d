// The 1.x session format records, on every finished assistant message, the
// provider's own stop reason (`rawStopReason`) and how long the response took
// (`durationMs`), so files written by us and by 1.6.0 read the same in both.
// Real HTTP against the fake provider, one case per wire protocol.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stream } from "../src/stream.js";
import type { AssistantMessage, Context, Model } from "../src/types.js";
import { AnthropicStream } from "./support/fake-provider/anthropic.js";
import { GoogleStream } from "./support/fake-provider/google.js";
import { ChatStream, chatError } from "./support/fake-provider/openai-chat.js";
import { ResponsesStream } from "./support/fake-provider/openai-responses.js";
import { type FakeProvider, type Script, startFakeProvider } from "./support/fake-provider/server.js";
import { fakeModel } from "./support/stream-helpers.js";

let fake: FakeProvider;
const models: Record<string, Model> = {};
const context: Context = { messages: [{ role: "user", content: "go", timestamp: 1 }] };

beforeAll(async () => {
	fake = await startFakeProvider();
	models.chat = fakeModel({ api: "openai-completions", provider: "fakeprov", id: "m", baseUrl: `${fake.url}/v1` });
	models.anthropic = fakeModel({ api: "anthropic-messages", provider: "anthropic", id: "c", baseUrl: fake.url });
	models.responses = fakeModel({ api: "openai-responses", provider: "openai", id: "g", baseUrl: `${fake.url}/v1` });
	models.google = fakeModel({
		api: "google-generative-ai",
		provider: "google",
		id: "gemini-x",
		baseUrl: `${fake.url}/v1beta`,
	});
});
afterAll(() => fake.close());

async function run(model: Model, script: Script): Promise<AssistantMessage> {
	fake.enqueue(script);
	return stream(model, context, { apiKey: "k" }).result();
}

describe("assistant messages record rawStopReason and durationMs", () => {
	it.each<[string, string, AssistantMessage["stopReason"], () => Script]>([
		["chat", "stop", "stop", () => new ChatStream().role().text("hi").finish("stop").done().script()],
		["chat", "length", "length", () => new ChatStream().role().text("hi").finish("length").done().script()],
		["anthropic", "end_turn", "stop", () => new AnthropicStream().start().text("ok").delta("end_turn").stop().script()],
		[
			"anthropic",
			"max_tokens",
			"length",
			() => new AnthropicStream().start().text("ok").delta("max_tokens").stop().script(),
		],
		[
			"responses",
			"completed",
			"stop",
			() => new ResponsesStream().created().message("m1", ["ok"]).completed().script(),
		],
		[
			"responses",
			"incomplete.max_output_tokens",
			"length",
			() => new ResponsesStream().created().message("m1", ["ok"]).incomplete("max_output_tokens").script(),
		],
		["google", "STOP", "stop", () => new GoogleStream().text("ok").finish("STOP").script()],
		["google", "MAX_TOKENS", "length", () => new GoogleStream().text("ok").finish("MAX_TOKENS").script()],
	])("%s: the provider's %s is kept verbatim (stopReason %s)", async (api, raw, stop, script) => {
		const started = performance.now();
		const message = await run(models[api], script());
		const elapsed = performance.now() - started;
		expect(message.stopReason).toBe(stop);
		expect(message.rawStopReason).toBe(raw);
		expect(typeof message.durationMs).toBe("number");
		expect(message.durationMs).toBeGreaterThanOrEqual(0);
		expect(message.durationMs).toBeLessThanOrEqual(Math.ceil(elapsed) + 1);
	});

	it("a failed response also records how long it took", async () => {
		const message = await run(models.chat, chatError(400, "bad request"));
		expect(message.stopReason).toBe("error");
		expect(typeof message.durationMs).toBe("number");
	});

	it("a delay before the answer shows in durationMs", async () => {
		const message = await run(
			models.chat,
			new ChatStream()
				.role()
				.text("slow")
				.finish("stop")
				.done()
				.script({ splitAt: [10], delayMs: 150 }),
		);
		expect(message.durationMs).toBeGreaterThanOrEqual(140);
	});
});
