import { describe, expect, it } from "vitest";
import {
	estimateProjectedContextTokens,
	estimateTokens,
	shouldCompact,
} from "../../src/agent-session/compaction/token-estimate.js";
import { SessionManager } from "../../src/session/session-manager.js";
import { assistant, tokens, toolResult, user } from "./messages.js";

describe("estimateTokens", () => {
	it("counts 4 characters per token over text, thinking, tool names and JSON arguments, and 1200 per image", () => {
		expect(estimateTokens(user("abcde"))).toBe(2);
		const a = assistant("1234", { calls: [{ id: "c", name: "read", args: { path: "ab" } }] });
		a.content.push({ type: "thinking", thinking: "12345678" });
		// 4 text + 8 thinking + 4 name + 13 ('{"path":"ab"}') = 29 chars.
		expect(estimateTokens(a)).toBe(8);
		const withImage = { ...toolResult("c", "abcd"), content: [{ type: "text" as const, text: "abcd" }] };
		withImage.content.push({ type: "image", data: "AAAA", mimeType: "image/png" } as never);
		expect(estimateTokens(withImage)).toBe(1 + 1200);
		expect(
			estimateTokens({
				role: "bashExecution",
				command: "ls",
				output: "a b",
				exitCode: 0,
				cancelled: false,
				truncated: false,
				timestamp: 1,
			}),
		).toBe(2);
	});
});

describe("estimateProjectedContextTokens", () => {
	it("uses the last reported usage plus estimates of what follows", () => {
		const sm = SessionManager.inMemory("/w");
		sm.appendMessage(user(tokens(10)));
		sm.appendMessage(assistant("ok", { input: 500 }));
		sm.appendMessage(user(tokens(30)));
		const e = estimateProjectedContextTokens(sm.buildSessionProjection());
		expect(e).toEqual({ tokens: 510 + 30, usageTokens: 510, trailingTokens: 30, lastUsageIndex: 1 });
	});

	it("ignores error replies' usage, and a usage measured before an edit of an earlier entry", () => {
		const sm = SessionManager.inMemory("/w");
		const first = sm.appendMessage(user(tokens(10)));
		sm.appendMessage(assistant("ok", { input: 500 }));
		sm.appendMessage(user(tokens(30)));
		const failed = sm.appendMessage({ ...assistant("partial", { input: 900 }), stopReason: "error" });
		// Omitting the failed reply (after the usage) keeps the usage trustworthy.
		sm.appendContextEdit(failed, null);
		expect(estimateProjectedContextTokens(sm.buildSessionProjection()).usageTokens).toBe(510);
		// Replacing the first prompt (before the usage) invalidates it: everything is estimated.
		sm.appendContextEdit(first, { content: [{ type: "text", text: tokens(2) }] });
		const e = estimateProjectedContextTokens(sm.buildSessionProjection());
		expect(e.usageTokens).toBe(0);
		expect(e.tokens).toBe(2 + 1 + 30);
	});

	it("after a compaction, kept messages' usage no longer counts", () => {
		const sm = SessionManager.inMemory("/w");
		sm.appendMessage(user(tokens(10)));
		sm.appendMessage(assistant("a", { input: 5000 }));
		const kept = sm.appendMessage(user(tokens(20)));
		sm.appendMessage(assistant("b", { input: 6000 }));
		sm.appendCompaction(tokens(40), kept, 6010);
		let e = estimateProjectedContextTokens(sm.buildSessionProjection());
		expect(e.usageTokens).toBe(0);
		// summary 40 + user 20 + "b" 1
		expect(e.tokens).toBe(61);
		sm.appendMessage(user("next"));
		sm.appendMessage(assistant("c", { input: 70 }));
		e = estimateProjectedContextTokens(sm.buildSessionProjection());
		expect(e.usageTokens).toBe(80);
	});

	it("threshold: tokens > contextWindow − reserveTokens, only when enabled", () => {
		expect(shouldCompact(801, 1000, { enabled: true, reserveTokens: 200 })).toBe(true);
		expect(shouldCompact(800, 1000, { enabled: true, reserveTokens: 200 })).toBe(false);
		expect(shouldCompact(5000, 1000, { enabled: false, reserveTokens: 200 })).toBe(false);
		expect(shouldCompact(5000, 0, { enabled: true, reserveTokens: 200 })).toBe(false);
	});
});
