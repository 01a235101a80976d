// The session projection owns the transcript: whatever is appended to the
// session (here straight through the SessionManager, as an extension's
// custom message or an MCP writer would) reaches the next request, and the
// Agent's cached copy follows, with no caller refreshing anything.
import type { AgentTool } from "@pi/agent-core";
import { Type } from "typebox";
import { describe, expect, it } from "vitest";
import { makeSession } from "./support.js";

const texts = (messages: readonly object[]) =>
	messages.map((m) => JSON.stringify((m as { content?: unknown }).content ?? ""));

describe("TranscriptSync", () => {
	it("an entry appended between prompts is in the next request and in session.messages", async () => {
		const { session, fake, sessionManager } = await makeSession();
		fake.enqueue({ text: "one" }, { text: "two" });
		await session.prompt("first");
		sessionManager.appendCustomMessageEntry("note", "APPENDED-BETWEEN-PROMPTS", true);
		await session.prompt("second");
		const second = texts(fake.calls[1].messages);
		const noteAt = second.findIndex((t) => t.includes("APPENDED-BETWEEN-PROMPTS"));
		expect(noteAt).toBeGreaterThan(second.findIndex((t) => t.includes("one")));
		expect(noteAt).toBeLessThan(second.findIndex((t) => t.includes("second")));
		expect(texts(session.messages).some((t) => t.includes("APPENDED-BETWEEN-PROMPTS"))).toBe(true);
	});

	it("an entry appended by a tool during a run is in the same run's next request", async () => {
		let append: (() => void) | undefined;
		const noteTool: AgentTool = {
			name: "note",
			label: "Note",
			description: "Appends a note to the session.",
			parameters: Type.Object({}),
			execute: async () => {
				append?.();
				return { content: [{ type: "text", text: "noted" }] };
			},
		};
		const { session, fake, sessionManager } = await makeSession({ customTools: [noteTool], tools: ["note"] });
		append = () => sessionManager.appendCustomMessageEntry("note", "APPENDED-MID-RUN", true);
		fake.enqueue({ toolCalls: [{ name: "note", args: {} }] }, { text: "done" });
		await session.prompt("go");
		expect(texts(fake.calls[0].messages).some((t) => t.includes("APPENDED-MID-RUN"))).toBe(false);
		expect(texts(fake.calls[1].messages).some((t) => t.includes("APPENDED-MID-RUN"))).toBe(true);
	});

	it("a context edit made outside the session hides the message from the next request and the cache", async () => {
		const { session, fake, sessionManager } = await makeSession();
		fake.enqueue({ text: "SECRET-REPLY" }, { text: "ok" });
		await session.prompt("first");
		const reply = sessionManager.getLeafId() ?? "";
		sessionManager.appendContextEdit(reply, null);
		await session.prompt("second");
		expect(texts(fake.calls[1].messages).some((t) => t.includes("SECRET-REPLY"))).toBe(false);
		expect(texts(session.messages).some((t) => t.includes("SECRET-REPLY"))).toBe(false);
	});
});
