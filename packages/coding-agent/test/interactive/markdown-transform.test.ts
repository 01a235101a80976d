// pi.registerMarkdownTransformer in the transcript: items drawn from the
// session (history after a resume, /tree) tell the transformer which entry
// they come from (messageId, ISO timestamp); live messages tell it nothing.
import { stripAnsi } from "@pi/tui";
import { describe, expect, it } from "vitest";
import type { MarkdownTransformContext } from "../../src/extensions/types.js";
import { ChatView } from "../../src/modes/interactive/components/chat-view.js";
import { ExtensionRenderers } from "../../src/modes/interactive/extensions/renderers.js";
import { plainTheme } from "../../src/modes/interactive/theme-fallback.js";
import { SessionManager } from "../../src/session/session-manager.js";
import { inMemoryExtensions } from "../extensions/helpers.js";
import { assistantMessage } from "../support/messages.js";

const reply = (text: string) => assistantMessage([{ type: "text", text }]);

function chatWithTransformer(): { chat: ChatView; seen: MarkdownTransformContext[] } {
	const seen: MarkdownTransformContext[] = [];
	const { runner } = inMemoryExtensions({
		"ids.ts": (pi) =>
			pi.registerMarkdownTransformer((markdown, context) => {
				seen.push(context);
				return context.messageId ? `${markdown} [${context.messageId}]` : markdown;
			}),
	});
	const theme = () => plainTheme;
	const chat = new ChatView(theme, { showThinking: true }, () => {});
	chat.renderers = new ExtensionRenderers(runner, { theme, keyText: (id) => id, requestRender: () => {}, cwd: "/" });
	return { chat, seen };
}

const screen = (chat: ChatView) => chat.render(80).map((l) => stripAnsi(l).trimEnd());

describe("markdown transformers: entry id and time", () => {
	it("history drawn from the session passes each entry's id and ISO timestamp", () => {
		const sm = SessionManager.inMemory("/tmp");
		const userId = sm.appendMessage({ role: "user", content: "question", timestamp: Date.now() });
		const replyId = sm.appendMessage(reply("answer"));
		const { chat, seen } = chatWithTransformer();
		chat.renderHistory(sm.buildSessionProjection().entries);
		const lines = screen(chat);
		expect(lines.some((l) => l.includes(`question [${userId}]`))).toBe(true);
		expect(lines.some((l) => l.includes(`answer [${replyId}]`))).toBe(true);
		const byId = new Map(sm.getBranch().map((e) => [e.id, e.timestamp]));
		const user = seen.find((c) => c.messageType === "user");
		const assistant = seen.find((c) => c.messageType === "assistant");
		expect(user).toMatchObject({ messageId: userId, timestamp: byId.get(userId), isStreaming: false });
		expect(assistant).toMatchObject({ messageId: replyId, timestamp: byId.get(replyId) });
		expect(Number.isNaN(Date.parse(user?.timestamp ?? ""))).toBe(false);
	});

	it("live messages get neither", () => {
		const { chat, seen } = chatWithTransformer();
		chat.addUserMessage("typed now");
		chat.handleEvent({ type: "message_start", message: reply("streaming") });
		chat.handleEvent({ type: "message_end", message: reply("streamed") });
		expect(screen(chat).some((l) => l.includes("typed now"))).toBe(true);
		expect(seen.length).toBeGreaterThan(0);
		for (const c of seen) {
			expect(c.messageId).toBeUndefined();
			expect(c.timestamp).toBeUndefined();
		}
	});
});
