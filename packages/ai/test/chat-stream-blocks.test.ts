import { describe, expect, it } from "vitest";
import { ChatStreamBlocks } from "../src/adapters/chat-stream-blocks.js";
import { AssistantStreamWriter } from "../src/stream-writer.js";
import type { Model } from "../src/types.js";
import { collect, eventTrace, fakeModel } from "./support/stream-helpers.js";

const model: Model = fakeModel({ api: "openai-completions", baseUrl: "http://127.0.0.1:1" });

// The block handling the OpenAI and Mistral chat-completions readers share.
describe("ChatStreamBlocks", () => {
	it("keeps one text or thinking block open at a time; a tool call closes both; empty deltas open nothing", async () => {
		const writer = new AssistantStreamWriter(model);
		const blocks = new ChatStreamBlocks(writer);
		blocks.startWith({ id: "resp-1", model: "m-2" });
		blocks.startWith({ id: "resp-2", model: "m-3" }); // only the first chunk names the response
		blocks.appendText("");
		blocks.appendThinking("hmm", "reasoning_content");
		blocks.appendThinking(" more");
		blocks.appendText("Hi");
		blocks.appendThinking("again");
		const first = blocks.toolCall({ index: 0, id: "c1", name: "read" }, '{"pa');
		expect(blocks.toolCall({ index: 0, id: null, name: null }, 'th":"a"}')).toBe(first);
		const second = blocks.toolCall({ name: "bash" }, "");
		blocks.toolCall({ index: 1, id: "c2", name: "" }, undefined);
		expect(blocks.toolCallCount).toBe(2);
		expect(second).not.toBe(first);
		blocks.setFinishReason(null);
		blocks.setFinishReason("tool_calls");
		expect(blocks.finishReasonOrFail()).toBe("tool_calls");
		writer.finish("toolUse");
		expect(eventTrace(await collect(writer.stream))).toEqual([
			"start",
			"thinking_start:0",
			"thinking_delta:0",
			"thinking_delta:0",
			"thinking_end:0",
			"text_start:1",
			"text_delta:1",
			"text_end:1",
			"thinking_start:2",
			"thinking_delta:2",
			"thinking_end:2",
			"toolcall_start:3",
			"toolcall_delta:3",
			"toolcall_delta:3",
			"toolcall_start:4",
			"toolcall_end:3",
			"toolcall_end:4",
			"done",
		]);
		const message = await writer.stream.result();
		expect(message.responseId).toBe("resp-1");
		expect(message.stopReason).toBe("toolUse");
		expect(message.content).toEqual([
			{ type: "thinking", thinking: "hmm more", thinkingSignature: "reasoning_content" },
			{ type: "text", text: "Hi" },
			{ type: "thinking", thinking: "again" },
			{ type: "toolCall", id: "c1", name: "read", arguments: { path: "a" } },
			{ type: "toolCall", id: "c2", name: "bash", arguments: {} },
		]);
	});

	it("a stream without a finish reason fails as a cut stream (retryable)", async () => {
		const writer = new AssistantStreamWriter(model);
		const blocks = new ChatStreamBlocks(writer);
		blocks.startWith({});
		blocks.appendText("partial");
		expect(blocks.finishReasonOrFail()).toBeUndefined();
		const message = await writer.stream.result();
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe("The stream ended without a finish reason");
		expect(message.errorInfo).toMatchObject({ kind: "stream_cut", retryable: true });
	});
});
