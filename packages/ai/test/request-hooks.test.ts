// onHeaders and onStreamEvent on every wire adapter, against the fake
// provider: the header edit is what the server receives (add, override,
// remove with a key of another case), stream events arrive parsed and in
// order, a slow observer is awaited, and a throwing one changes nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stream } from "../src/stream.js";
import type { Context, Model } from "../src/types.js";
import { AnthropicStream } from "./support/fake-provider/anthropic.js";
import { GoogleStream } from "./support/fake-provider/google.js";
import { ChatStream } from "./support/fake-provider/openai-chat.js";
import { ResponsesStream } from "./support/fake-provider/openai-responses.js";
import { type FakeProvider, type Script, startFakeProvider } from "./support/fake-provider/server.js";
import { fakeModel } from "./support/stream-helpers.js";

let fake: FakeProvider;
beforeAll(async () => {
	fake = await startFakeProvider();
});
afterAll(() => fake.close());

const context: Context = { messages: [{ role: "user", content: "hi", timestamp: 1 }] };

const cases: { name: string; model: () => Model; reply: () => Script; eventCount: number }[] = [
	{
		name: "openai-completions",
		model: () => fakeModel({ api: "openai-completions", baseUrl: `${fake.url}/v1`, headers: { "X-Title": "pi" } }),
		reply: () => new ChatStream().role().text("o", "k").finish("stop").done().script(),
		eventCount: 4,
	},
	{
		name: "anthropic-messages",
		model: () =>
			fakeModel({ api: "anthropic-messages", provider: "anthropic", baseUrl: fake.url, headers: { "X-Title": "pi" } }),
		reply: () => new AnthropicStream().start().text("ok").delta("end_turn").stop().script(),
		eventCount: 6,
	},
	{
		name: "openai-responses",
		model: () => fakeModel({ api: "openai-responses", baseUrl: `${fake.url}/v1`, headers: { "X-Title": "pi" } }),
		reply: () => new ResponsesStream().created().message("msg_1", ["ok"]).completed().script(),
		eventCount: -1,
	},
	{
		name: "google-generative-ai",
		model: () =>
			fakeModel({
				api: "google-generative-ai",
				provider: "google",
				baseUrl: `${fake.url}/v1beta`,
				headers: { "X-Title": "pi" },
			}),
		reply: () => new GoogleStream().text("ok").finish("STOP").script(),
		eventCount: 2,
	},
];

describe.each(cases)("request hooks: $name", ({ model, reply, eventCount }) => {
	it("onHeaders edits what is sent: add, override, remove (any case)", async () => {
		fake.enqueue(reply());
		let seen: Record<string, string> | undefined;
		const result = await stream(model(), context, {
			apiKey: "k",
			headers: { "x-override": "old" },
			onHeaders: (headers) => {
				seen = { ...headers };
				return { ...headers, "X-Added": "1", "x-override": "new", "x-title": null };
			},
		}).result();
		expect(result.stopReason).toBe("stop");
		expect(seen?.["x-title"]).toBe("pi");
		const sent = fake.requests.at(-1)?.headers ?? {};
		expect(sent["x-added"]).toBe("1");
		expect(sent["x-override"]).toBe("new");
		expect(sent["x-title"]).toBeUndefined();
	});

	it("onStreamEvent sees each parsed wire event in order and is awaited; a throw changes nothing", async () => {
		fake.enqueue(reply());
		const seen: unknown[] = [];
		let inFlight = 0;
		let overlapped = false;
		const result = await stream(model(), context, {
			apiKey: "k",
			onStreamEvent: async (data) => {
				if (inFlight > 0) overlapped = true;
				inFlight++;
				await new Promise((r) => setTimeout(r, 2));
				seen.push(data);
				inFlight--;
				if (seen.length === 1) throw new Error("observer broke");
			},
		}).result();
		expect(result.stopReason).toBe("stop");
		expect(result.content).toEqual([expect.objectContaining({ type: "text", text: "ok" })]);
		expect(overlapped).toBe(false);
		expect(seen.every((e) => typeof e === "object" && e !== null)).toBe(true);
		if (eventCount >= 0) expect(seen).toHaveLength(eventCount);
		else expect(seen.length).toBeGreaterThan(2);
	});
});
