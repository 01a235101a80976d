import { describe, expect, it } from "vitest";
import { serializeConversation, TOOL_RESULT_MAX_CHARS } from "../../src/agent-session/compaction/serialize.js";
import { assistant, toolResult, user } from "./messages.js";

describe("serializeConversation", () => {
	it("labels each message; thinking is left out; tool calls show their arguments", () => {
		const a = assistant("let me look", { calls: [{ id: "c1", name: "read", args: { path: "src/a.ts", offset: 3 } }] });
		a.content.unshift({ type: "thinking", thinking: "SECRET REASONING" });
		const text = serializeConversation([user("fix the bug"), a, toolResult("c1", "line 3: bug"), assistant("fixed")]);
		expect(text).toBe(
			[
				"[User]: fix the bug",
				'[Assistant]: let me look\n\n[Assistant tool calls]: read(path="src/a.ts", offset=3)',
				"[Tool result]: line 3: bug",
				"[Assistant]: fixed",
			].join("\n\n"),
		);
	});

	it("cuts long tool results and keeps error texts of failed replies", () => {
		const long = "z".repeat(TOOL_RESULT_MAX_CHARS + 500);
		const failed = { ...assistant(""), stopReason: "error" as const, errorMessage: "ENOENT: no such file 'x.ts'" };
		const text = serializeConversation([toolResult("c", long), failed]);
		expect(text).toContain(`${"z".repeat(TOOL_RESULT_MAX_CHARS)}\n[... 500 more characters cut for the summary]`);
		expect(text).toContain("[Error]: ENOENT: no such file 'x.ts'");
	});

	it("with a character budget, drops the oldest messages first and says so", () => {
		const messages = [user("a".repeat(100)), user("b".repeat(100)), user("c".repeat(100))];
		const text = serializeConversation(messages, 230);
		expect(text).toBe(
			`[1 earlier messages left out to fit the summarizer's context]\n\n[User]: ${"b".repeat(100)}\n\n[User]: ${"c".repeat(100)}`,
		);
	});
});
