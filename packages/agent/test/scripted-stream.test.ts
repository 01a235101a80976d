import type { AssistantMessageEvent } from "@pi/ai";
import { describe, expect, it } from "vitest";
import {
	cutReply,
	failedReply,
	gate,
	reply,
	ScriptedStream,
	testModel,
	text,
	thinking,
	toolCall,
	usage,
	wait,
} from "./support/index.js";

// The scripted stream is shared with the layers above; these tests pin its behaviour.

async function play(fake: ScriptedStream, signal?: AbortSignal) {
	const stream = fake.streamFn(testModel(), { messages: [{ role: "user", content: "q", timestamp: 1 }] }, { signal });
	const types: string[] = [];
	for await (const event of stream as AsyncIterable<AssistantMessageEvent>) types.push(event.type);
	return { types, message: await stream.result() };
}

describe("ScriptedStream", () => {
	it("plays a reply through the stream writer with the exact event sequence", async () => {
		const fake = new ScriptedStream().enqueue(
			reply(thinking("t"), text("a", "b"), toolCall("f", ['{"x":', "1}"], "id1"), usage({ input: 3, output: 4 })),
		);
		const { types, message } = await play(fake);
		expect(types).toEqual([
			"start",
			"thinking_start",
			"thinking_delta",
			"thinking_end",
			"text_start",
			"text_delta",
			"text_delta",
			"text_end",
			"toolcall_start",
			"toolcall_delta",
			"toolcall_delta",
			"toolcall_end",
			"done",
		]);
		expect(message).toMatchObject({
			stopReason: "toolUse",
			content: [
				{ type: "thinking", thinking: "t" },
				{ type: "text", text: "ab" },
				{ type: "toolCall", id: "id1", name: "f", arguments: { x: 1 } },
			],
			usage: { input: 3, output: 4, totalTokens: 7 },
		});
		expect(fake.calls[0].context.messages).toHaveLength(1);
	});

	it("ends cut and failed replies as scripted, and reports an empty queue as an error", async () => {
		const fake = new ScriptedStream().enqueue(
			cutReply(text("x")),
			failedReply("boom", { kind: "server", retryable: true }),
		);
		expect((await play(fake)).message.stopReason).toBe("length");
		const failed = await play(fake);
		expect(failed.types.at(-1)).toBe("error");
		expect(failed.message).toMatchObject({ stopReason: "error", errorMessage: "boom", errorInfo: { kind: "server" } });
		expect((await play(fake)).message.errorMessage).toBe("No scripted response left");
	});

	it("pauses on a gate, resolves waitForCall, and ends aborted on abort", async () => {
		const g = gate();
		const fake = new ScriptedStream().enqueue(reply(text("a"), wait(g), text("b")), reply(text("c"), wait(gate())));
		const first = play(fake);
		expect((await fake.waitForCall(1)).index).toBe(0);
		g.release();
		expect((await first).message.content).toEqual([
			{ type: "text", text: "a" },
			{ type: "text", text: "b" },
		]);
		const controller = new AbortController();
		const second = play(fake, controller.signal);
		await fake.waitForCall(2);
		await new Promise((r) => setTimeout(r, 1));
		controller.abort();
		expect((await second).message).toMatchObject({ stopReason: "aborted", content: [{ type: "text", text: "c" }] });
	});

	it("accepts a handler for full control of the writer", async () => {
		const fake = new ScriptedStream().enqueue((call, writer) => {
			const i = writer.beginText();
			writer.appendText(i, `saw ${call.context.messages.length}`);
			writer.finish("stop");
		});
		expect((await play(fake)).message.content).toEqual([{ type: "text", text: "saw 1" }]);
	});
});
