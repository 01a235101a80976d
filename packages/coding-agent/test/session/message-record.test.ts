// The 1.x session format: every recorded assistant message carries
// `durationMs`, `rawStopReason` and the requested `thinkingLevel`, every tool
// result its `durationMs` — written to the session file by a real session over
// HTTP, and read back the same.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AssistantMessage, ToolResultMessage } from "@pi/ai";
import { afterEach, describe, expect, it } from "vitest";
import { ChatStream } from "../../../ai/test/support/fake-provider/openai-chat.js";
import { SessionManager } from "../../src/session/session-manager.js";
import { type HttpSession, makeHttpSession, text, toolCall } from "../compaction/support.js";

let s: HttpSession | undefined;
afterEach(async () => {
	await s?.close();
	s = undefined;
});

describe("recorded messages (1.x session format)", () => {
	it("assistant messages hold durationMs, rawStopReason and thinkingLevel; tool results durationMs", async () => {
		s = await makeHttpSession({ model: { reasoning: true } });
		writeFileSync(join(s.cwd, "a.txt"), "alpha\n");
		s.session.setThinkingLevel("high");
		s.fake.enqueue(toolCall("read", { path: "a.txt" }), text("read it"));
		await s.session.prompt("read a.txt");
		const messages = s
			.fileEntries()
			.flatMap((e) => (e.type === "message" ? [e.message] : []))
			.filter((m) => m.role === "assistant" || m.role === "toolResult");
		const [call, result, answer] = messages as [AssistantMessage, ToolResultMessage, AssistantMessage];
		expect(call).toMatchObject({ role: "assistant", stopReason: "toolUse", rawStopReason: "tool_calls" });
		expect(answer).toMatchObject({ role: "assistant", stopReason: "stop", rawStopReason: "stop" });
		for (const m of [call, answer]) {
			expect(m.thinkingLevel).toBe("high");
			expect(Number.isInteger(m.durationMs)).toBe(true);
			expect(m.durationMs).toBeGreaterThanOrEqual(0);
		}
		expect(result.role).toBe("toolResult");
		expect(Number.isInteger(result.durationMs)).toBe(true);
		expect(result.durationMs).toBeGreaterThanOrEqual(0);

		// Read back from the file: the fields survive a reopen.
		const file = s.sessionManager.getSessionFile();
		if (!file) throw new Error("no session file");
		const reopened = SessionManager.open(file, undefined, undefined, { readOnly: true });
		const again = reopened
			.buildSessionProjection()
			.messages.filter((m) => m.role === "assistant") as AssistantMessage[];
		expect(again.map((m) => [m.rawStopReason, m.thinkingLevel, typeof m.durationMs])).toEqual([
			["tool_calls", "high", "number"],
			["stop", "high", "number"],
		]);
	});

	it("thinkingLevel records what was asked for: off when thinking is off", async () => {
		s = await makeHttpSession();
		s.fake.enqueue(new ChatStream().role().text("plain").finish("stop").done().script());
		await s.session.prompt("hi");
		const answer = s.fileEntries().findLast((e) => e.type === "message" && e.message.role === "assistant");
		expect(answer?.type === "message" && answer.message.role === "assistant" && answer.message.thinkingLevel).toBe(
			"off",
		);
	});
});
