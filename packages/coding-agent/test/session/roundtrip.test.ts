import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { BashExecutionMessage } from "../../src/messages.js";
import { SessionManager } from "../../src/session/session-manager.js";
import { assistant, jsonLines, lines, tempDir, user } from "./helpers.js";

function fillAllTypes(sm: SessionManager): string[] {
	const ids: string[] = [];
	ids.push(sm.appendModelChange("p1", "m1"));
	ids.push(sm.appendThinkingLevelChange("high"));
	ids.push(
		sm.appendMessage({
			role: "system",
			content: "",
			sections: { preamble: "You are pi.", cwd: "/x" },
			toolsAdded: [{ name: "read", description: "Read a file", parameters: { type: "object" } }],
			timestamp: 1,
		}),
	);
	ids.push(sm.appendMessage(user("hello")));
	ids.push(sm.appendMessage(assistant("hi")));
	ids.push(
		sm.appendMessage({
			role: "toolResult",
			toolCallId: "c1",
			toolName: "read",
			content: [{ type: "text", text: "file body" }],
			isError: false,
			timestamp: 2,
		}),
	);
	const bash: BashExecutionMessage = {
		role: "bashExecution",
		command: "ls",
		output: "a\n",
		exitCode: 0,
		cancelled: false,
		truncated: false,
		timestamp: 3,
	};
	ids.push(sm.appendMessage(bash));
	ids.push(sm.appendCustomEntry("ext", { n: 1 }));
	ids.push(sm.appendCustomMessageEntry("ext", "injected", true, { d: 1 }));
	ids.push(sm.appendLabelChange(ids[3], "start"));
	ids.push(sm.appendSessionInfo("  My  session \n"));
	ids.push(sm.appendContextEdit(ids[5], { content: "short" }));
	ids.push(sm.appendUsage("cache_warm", "p1", "m1", assistant("").usage, "warm").id);
	ids.push(sm.appendCompaction("summary text", ids[4], 1234, { readFiles: ["a"], modifiedFiles: [] }, false));
	ids.push(sm.branchWithSummary(ids[4], "branch findings"));
	return ids;
}

describe("session round trip", () => {
	it("writes every entry type in the 1.x format and reads it back identically", () => {
		const dir = tempDir();
		const sm = SessionManager.create("/proj", dir, {}, { durability: "write" });
		const ids = fillAllTypes(sm);
		const file = sm.getSessionFile() as string;
		const written = sm.getEntries();
		sm.close();

		const objs = jsonLines(file);
		expect(objs[0]).toEqual({
			type: "session",
			version: 3,
			id: sm.getSessionId(),
			timestamp: expect.any(String),
			cwd: "/proj",
		});
		expect(objs.slice(1).map((o) => o.type)).toEqual([
			"model_change",
			"thinking_level_change",
			"message",
			"message",
			"message",
			"message",
			"message",
			"custom",
			"custom_message",
			"label",
			"session_info",
			"context_edit",
			"usage",
			"compaction",
			"branch_summary",
		]);
		// Envelope first, in this order, on every line (what other pi builds write).
		for (const line of lines(file).slice(1, -1)) {
			expect(line).toMatch(/^\{"type":"[a-z_]+","id":"[0-9a-f]{8}","parentId":(null|"[0-9a-f]{8}"),"timestamp":"/);
		}
		expect(objs.at(-1)).toMatchObject({ type: "branch_summary", parentId: ids[4], fromId: ids[13] });
		expect(objs[11]).toMatchObject({ type: "session_info", name: "My  session" });
		expect(objs[12]).toMatchObject({
			type: "context_edit",
			targetId: ids[5],
			replacement: { content: [{ type: "text", text: "short" }] },
		});
		expect(objs[14]).toMatchObject({
			type: "compaction",
			firstKeptEntryId: ids[4],
			tokensBefore: 1234,
			fromHook: false,
			systemMessage: { role: "system", sections: { preamble: "You are pi.", cwd: "/x" } },
		});

		const again = SessionManager.open(file);
		expect(again.getEntries()).toEqual(written);
		expect(again.getLeafId()).toBe(ids.at(-1));
		expect(again.getSessionName()).toBe("My  session");
		expect(again.getLabel(ids[3])).toBe("start");
		expect(again.getLoadWarnings()).toEqual([]);
		again.close();
	});

	it("creates no file before the first user or assistant message, then writes header and buffer at once", () => {
		const dir = tempDir();
		const sm = SessionManager.create("/proj", dir, {}, { durability: "write" });
		sm.appendModelChange("p", "m");
		sm.appendThinkingLevelChange("off");
		const file = sm.getSessionFile() as string;
		expect(existsSync(file)).toBe(false);
		expect(file).toMatch(/\/\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z_[0-9a-f-]{36}\.jsonl$/);
		sm.appendMessage(user("go"));
		expect(jsonLines(file).map((o) => o.type)).toEqual(["session", "model_change", "thinking_level_change", "message"]);
		sm.appendMessage(assistant("ok"));
		expect(jsonLines(file)).toHaveLength(5);
		sm.close();
	});

	it("uses a UUIDv7 session id and 8-hex entry ids", () => {
		const sm = SessionManager.inMemory("/p");
		expect(sm.getSessionId()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
		const ids = new Set<string>();
		for (let i = 0; i < 500; i++) ids.add(sm.appendMessage(user(`m${i}`)));
		expect(ids.size).toBe(500);
		for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}$/);
	});

	it("writes a header into an empty file before any entry", () => {
		const dir = tempDir();
		const file = join(dir, "given.jsonl");
		writeFileSync(file, "");
		const sm = SessionManager.open(file, undefined, undefined, { durability: "write" });
		expect(jsonLines(file)).toEqual([expect.objectContaining({ type: "session", version: 3, id: sm.getSessionId() })]);
		sm.appendModelChange("p", "m");
		expect(jsonLines(file).map((o) => o.type)).toEqual(["session", "model_change"]);
		sm.close();
	});

	it("keeps an explicit --session path that does not exist yet", () => {
		const dir = tempDir();
		const file = join(dir, "named.jsonl");
		const sm = SessionManager.open(file, undefined, undefined, { durability: "write" });
		expect(sm.getSessionFile()).toBe(file);
		expect(existsSync(file)).toBe(false);
		sm.appendMessage(user("x"));
		expect(jsonLines(file)[0]).toMatchObject({ type: "session" });
		sm.close();
	});

	it("refuses summary roles as plain messages and labels on unknown entries", () => {
		const sm = SessionManager.inMemory();
		expect(() =>
			sm.appendMessage({ role: "compactionSummary", summary: "s", tokensBefore: 1, timestamp: 1 } as never),
		).toThrow(/compaction/);
		expect(() => sm.appendLabelChange("nope", "x")).toThrow("Entry nope not found");
	});

	it("clears labels with an empty label (no label key in the file)", () => {
		const dir = tempDir();
		const sm = SessionManager.create("/p", dir, {}, { durability: "write" });
		const id = sm.appendMessage(user("a"));
		sm.appendLabelChange(id, "x");
		sm.appendLabelChange(id, undefined);
		expect(sm.getLabel(id)).toBeUndefined();
		const last = jsonLines(sm.getSessionFile() as string).at(-1);
		expect(last).toEqual({
			type: "label",
			id: expect.any(String),
			parentId: expect.any(String),
			timestamp: expect.any(String),
			targetId: id,
		});
		sm.close();
	});

	it("leaves no file at all for an in-memory session", () => {
		const dir = tempDir();
		const sm = SessionManager.inMemory(dir);
		sm.appendMessage(user("a"));
		sm.appendMessage(assistant("b"));
		expect(sm.getSessionFile()).toBeUndefined();
		expect(sm.isPersisted()).toBe(false);
		expect(readdirSync(dir)).toEqual([]);
		expect(sm.buildSessionContext().messages).toHaveLength(2);
	});

	it("reads large entries back lazily with the same content", () => {
		const dir = tempDir();
		const sm = SessionManager.create("/p", dir, {}, { durability: "write" });
		const big = "x".repeat(50_000);
		sm.appendMessage(user("q"));
		const id = sm.appendMessage(assistant(big));
		const file = sm.getSessionFile() as string;
		sm.close();
		const again = SessionManager.open(file);
		// Model and role come from the indexed line without parsing it.
		expect(again.buildSessionContext().model).toEqual({ provider: "p1", modelId: "m1" });
		const e = again.getEntry(id);
		expect(e?.type === "message" && e.message.role === "assistant" && e.message.content[0]).toEqual({
			type: "text",
			text: big,
		});
		expect(readFileSync(file, "utf8").length).toBeGreaterThan(50_000);
		again.close();
	});
});
