import { describe, expect, it } from "vitest";
import { AssistantStreamWriter } from "../src/stream-writer.js";
import type { Model } from "../src/types.js";
import { collect, eventTrace, fakeModel } from "./support/stream-helpers.js";

const model: Model = fakeModel({ api: "openai-completions", baseUrl: "http://127.0.0.1:1" });

describe("AssistantStreamWriter event contract", () => {
	it("finish closes open blocks in content order, then emits exactly one done", async () => {
		const writer = new AssistantStreamWriter(model);
		const text = writer.beginText();
		const call = writer.beginToolCall("c1", "read");
		writer.appendText(text, "Hi");
		writer.appendToolArguments(call, '{"path":"a"}');
		writer.finish("toolUse");
		writer.finish("stop");
		writer.fail("late", { kind: "network", retryable: true });
		// Calls after the end change neither the events nor the final message.
		writer.appendText(writer.beginText(), "late");
		writer.appendThinking(writer.beginThinking(), "late");
		writer.appendToolArguments(writer.beginToolCall("c2", "bash"), "{}");
		const events = await collect(writer.stream);
		expect(eventTrace(events)).toEqual([
			"start",
			"text_start:0",
			"toolcall_start:1",
			"text_delta:0",
			"toolcall_delta:1",
			"text_end:0",
			"toolcall_end:1",
			"done",
		]);
		const message = await writer.stream.result();
		expect(message.stopReason).toBe("toolUse");
		expect(message.errorMessage).toBeUndefined();
		expect(message.content).toEqual([
			{ type: "text", text: "Hi" },
			{ type: "toolCall", id: "c1", name: "read", arguments: { path: "a" } },
		]);
	});

	it("a message in flight has stopReason pending (neither success nor error) until the terminal event", async () => {
		const writer = new AssistantStreamWriter(model);
		expect(writer.message.stopReason).toBe("pending");
		const text = writer.beginText();
		writer.appendText(text, "Hi");
		expect(writer.message.stopReason).toBe("pending");
		expect(writer.message.errorMessage).toBeUndefined();
		writer.finish("stop");
		expect((await writer.stream.result()).stopReason).toBe("stop");
	});

	it("fail keeps the partial content and usage, leaves open blocks unended, and is the only terminal event", async () => {
		const writer = new AssistantStreamWriter(model);
		const text = writer.beginText();
		writer.appendText(text, "Part");
		writer.setUsage({ input: 1000, output: 3 });
		writer.fail("connection reset", { kind: "network", retryable: true });
		writer.finish("stop");
		const events = await collect(writer.stream);
		expect(eventTrace(events)).toEqual(["start", "text_start:0", "text_delta:0", "error"]);
		const message = await writer.stream.result();
		expect(message).toMatchObject({
			stopReason: "error",
			errorMessage: "connection reset",
			errorInfo: { kind: "network", retryable: true },
			content: [{ type: "text", text: "Part" }],
		});
		expect(message.usage).toMatchObject({ input: 1000, output: 3, totalTokens: 1003 });
		expect(message.usage.cost.input).toBeCloseTo(0.002, 10); // fakeModel: $2 per million input tokens
	});

	it("an abort is an error event with reason aborted", async () => {
		const writer = new AssistantStreamWriter(model);
		writer.fail("Request was aborted", { kind: "aborted", retryable: false });
		const events = await collect(writer.stream);
		expect(events.map((e) => e.type)).toEqual(["start", "error"]);
		const last = events.at(-1);
		expect(last?.type === "error" && last.reason).toBe("aborted");
		expect((await writer.stream.result()).stopReason).toBe("aborted");
	});
});
