// The official SDK's messages.create() console.warn()s for deprecated model ids and for
// thinking.type=enabled on models that want "adaptive" — text that would land on stderr in -p
// and over the interactive screen. The adapter sends without those checks and records the same
// facts as diagnostics on the message.
import { afterEach, describe, expect, it, vi } from "vitest";
import { stream } from "../../src/stream.js";
import type { Context } from "../../src/types.js";
import { useFakeTarget } from "../support/adapter-setup.js";
import { AnthropicStream } from "../support/fake-provider/anthropic.js";
import { fakeModel } from "../support/stream-helpers.js";

const context: Context = { messages: [{ role: "user", content: "hi", timestamp: 1 }] };
const key = { apiKey: "sk-ant-api03-test-key-1234567890" };

const env = useFakeTarget((url) => ({ api: "anthropic-messages", provider: "anthropic", baseUrl: url }));
const reply = () => new AnthropicStream().start().text("ok").delta("end_turn").stop().script();

afterEach(() => vi.restoreAllMocks());

describe("anthropic-messages: the SDK's deprecation warnings", () => {
	it("a deprecated model id: nothing on console.warn, a diagnostic naming its end of life, the request as before", async () => {
		const warn = vi.spyOn(console, "warn");
		env.fake.enqueue(reply());
		const model = fakeModel({ ...env.model, id: "claude-sonnet-4-5" });
		const message = await stream(model, context, key).result();
		expect(message.stopReason).toBe("stop");
		expect(warn).not.toHaveBeenCalled();
		expect(message.diagnostics).toEqual([
			{
				type: "anthropic_model_deprecated",
				timestamp: expect.any(Number),
				details: { model: "claude-sonnet-4-5", endOfLife: expect.stringMatching(/20\d\d/) },
			},
		]);
		const request = env.fake.requests[0];
		if (!request) throw new Error("no request");
		expect(request.path).toBe("/v1/messages");
		expect(request.body).toMatchObject({ model: "claude-sonnet-4-5", stream: true });
		expect(request.headers["x-api-key"]).toBe(key.apiKey);
	});

	it("thinking.type=enabled on a model the SDK wants adaptive for: a diagnostic, no console.warn", async () => {
		const warn = vi.spyOn(console, "warn");
		env.fake.enqueue(reply());
		const model = fakeModel({ ...env.model, id: "claude-opus-4-6" });
		const message = await stream(model, context, {
			...key,
			onPayload: (payload) => ({ ...(payload as object), thinking: { type: "enabled", budget_tokens: 1024 } }),
		}).result();
		expect(message.stopReason).toBe("stop");
		expect(warn).not.toHaveBeenCalled();
		expect(message.diagnostics?.map((d) => d.type)).toEqual(["anthropic_thinking_enabled_deprecated"]);
	});

	it("a current model id: no diagnostics at all", async () => {
		env.fake.enqueue(reply());
		const message = await stream(fakeModel({ ...env.model, id: "claude-sonnet-4-6" }), context, key).result();
		expect(message.stopReason).toBe("stop");
		expect(message.diagnostics).toBeUndefined();
	});
});
