// `pi --mode json` must stay linear in the answer's length: `message_update`
// lines are delta-only (no `message`, no `partial` snapshot), while
// `message_start` / `message_end` carry whole messages.
import { describe, expect, it } from "vitest";
import { ChatStream } from "../../../ai/test/support/fake-provider/openai-chat.js";
import { useCliSandbox } from "./support.js";

const sb = useCliSandbox();

function bigReply(totalBytes: number, pieceBytes: number): { text: string; pieces: string[] } {
	const pieces: string[] = [];
	for (let i = 0; pieces.length * pieceBytes < totalBytes; i++) {
		const head = `[${i}]`;
		pieces.push(head + "x".repeat(pieceBytes - head.length - 1) + "\n");
	}
	return { text: pieces.join(""), pieces };
}

describe("pi --mode json stays linear", () => {
	it("a 1 MB answer in 2,048 deltas writes O(answer) bytes; the deltas rebuild it exactly", async () => {
		const { text, pieces } = bigReply(1024 * 1024, 512);
		sb.fake.enqueue(
			new ChatStream({ model: "fake-model" })
				.role()
				.text(...pieces)
				.finish("stop")
				.usage({ prompt_tokens: 50, completion_tokens: 5 })
				.done()
				.script(),
		);
		const r = await sb.run(["--mode", "json", "-p", "--model", "fake/fake-model", "write a lot"]);
		expect(r.code).toBe(0);
		// The answer appears in the deltas, in text_end and in message_end (and turn_end,
		// agent_end): a bounded number of copies plus a small per-delta envelope. A
		// snapshot per update would be ~2,048 × 0.5 MB on average: gigabytes.
		expect(r.stdout.length).toBeLessThan(8 * text.length);
		const lines = r.stdout
			.trimEnd()
			.split("\n")
			.map((l) => JSON.parse(l));
		const updates = lines.filter((e) => e.type === "message_update");
		expect(updates.length).toBeGreaterThanOrEqual(pieces.length);
		for (const u of updates) {
			expect(u.message).toBeUndefined();
			expect(u.assistantMessageEvent.partial).toBeUndefined();
			expect(u.usage).toBeDefined();
		}
		const deltas = updates
			.filter((u) => u.assistantMessageEvent.type === "text_delta")
			.map((u) => u.assistantMessageEvent.delta)
			.join("");
		expect(deltas).toBe(text);
		const end = lines.find((e) => e.type === "message_end" && e.message.role === "assistant");
		expect(end.message.content).toEqual([{ type: "text", text }]);
		const textEnd = updates.find((u) => u.assistantMessageEvent.type === "text_end");
		expect(textEnd.assistantMessageEvent.content).toBe(text);
	});

	it("text_start carries no text yet: each line is the state at its own time", async () => {
		sb.fake.enqueue(
			new ChatStream({ model: "fake-model" })
				.role()
				.text("one ", "two ", "three")
				.finish("stop")
				.usage({ prompt_tokens: 5, completion_tokens: 3 })
				.done()
				.script(),
		);
		const r = await sb.run(["--mode", "json", "-p", "--model", "fake/fake-model", "count"]);
		expect(r.code).toBe(0);
		expect(r.stdout).not.toContain('"stopReason":"error"');
		const lines = r.stdout
			.trimEnd()
			.split("\n")
			.map((l) => JSON.parse(l));
		const start = lines.find((e) => e.type === "message_start" && e.message.role === "assistant");
		expect(start.message.content).toEqual([]);
		expect(start.message.stopReason).toBe("pending");
		const kinds = lines
			.filter((e) => e.type === "message_update")
			.map((e) => [e.assistantMessageEvent.type, e.assistantMessageEvent.delta ?? e.assistantMessageEvent.content]);
		expect(kinds).toEqual([
			["text_start", undefined],
			["text_delta", "one "],
			["text_delta", "two "],
			["text_delta", "three"],
			["text_end", "one two three"],
		]);
	});
});
