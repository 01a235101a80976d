// The mcp_servers section's life over a session: set into the system prompt
// at the first prompt and kept there byte for byte (cached requests), a
// change appended once as a hidden message.
import { describe, expect, it } from "vitest";
import { ServerEntry } from "../../../src/builtins/mcp/manager.js";
import { McpServersPrompt, mcpServersSection } from "../../../src/builtins/mcp/prompt-section.js";
import { configured, stdioEntry } from "./harness.js";

const entry = (name: string, extra: Record<string, unknown> = {}) =>
	new ServerEntry(configured(name, stdioEntry(name, {}, extra)));

describe("mcp_servers section", () => {
	it("lists enabled codemode/deferred servers with one line each; direct, hidden and disabled ones are left out", () => {
		const section = mcpServersSection(
			[
				entry("docs", { description: "Docs" }),
				entry("mixed", { exposure: "direct", toolExposure: { "get_*": "deferred" } }),
				entry("d", { exposure: "direct" }),
				entry("h", { exposure: "hidden" }),
				entry("off", { enabled: false }),
			],
			(e) => e.configured.config.description,
		);
		expect(section.split("\n").filter((l) => l.startsWith("- "))).toEqual([
			"- mcp__docs (codemode): Docs",
			"- mcp__mixed (tool_search)",
		]);
		expect(mcpServersSection([entry("d", { exposure: "direct" })], () => undefined)).toBe("");
	});

	it("keeps the first section in the system prompt and sends a change once as a message", () => {
		const p = new McpServersPrompt();
		const first = p.next("BASE", "<mcp_servers>\n- mcp__a (codemode)\n</mcp_servers>");
		expect(first?.systemPrompt).toBe("BASE\n\n<mcp_servers>\n- mcp__a (codemode)\n</mcp_servers>");
		expect(first?.message).toBeUndefined();
		const changed = "<mcp_servers>\n- mcp__a (codemode): Weather lookups\n</mcp_servers>";
		const second = p.next("BASE", changed);
		expect(second?.systemPrompt).toBe(first?.systemPrompt);
		expect(second?.message).toMatchObject({ customType: "mcp_servers", content: changed, display: false });
		const third = p.next("BASE", changed);
		expect(third?.systemPrompt).toBe(first?.systemPrompt);
		expect(third?.message).toBeUndefined();
	});
});
