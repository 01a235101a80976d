import type { AgentMessage } from "@pi/agent-core";
import { describe, expect, it } from "vitest";
import { messageText } from "../src/messages.js";

// The text /fork lists and RPC's get_last_assistant_text answer with.
describe("messageText", () => {
	it("a string content as is; text blocks joined without a separator; other blocks and no content give nothing", () => {
		expect(messageText({ role: "user", content: "hi", timestamp: 0 } as AgentMessage)).toBe("hi");
		expect(
			messageText({
				role: "assistant",
				content: [
					{ type: "thinking", thinking: "hmm" },
					{ type: "text", text: "a" },
					{ type: "toolCall", id: "c", name: "read", arguments: {} },
					{ type: "text", text: "b" },
				],
			} as unknown as AgentMessage),
		).toBe("ab");
		expect(
			messageText({ role: "user", content: [{ type: "image", data: "", mimeType: "image/png" }] } as AgentMessage),
		).toBe("");
		expect(messageText({ role: "custom" } as unknown as AgentMessage)).toBe("");
	});
});
