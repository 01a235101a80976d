// tool_search in a real session: it declares matching undeclared tools for
// the next model call, records the load in the session, and the loaded set
// follows the branch when /tree moves the leaf.
import { Type } from "typebox";
import { describe, expect, it } from "vitest";
import { createToolSearchExtension } from "../../../src/builtins/tool-search/index.js";
import { rankTools } from "../../../src/builtins/tool-search/ranker.js";
import type { ExtensionAPI } from "../../../src/extensions/types.js";
import { declaredTools, sessionWithExtensions } from "../support.js";

function deferredTools(pi: ExtensionAPI): void {
	for (const [name, description] of [
		["weather_lookup", "Look up the weather forecast for a city"],
		["stock_quote", "Get the latest stock price for a ticker symbol"],
		["hidden_thing", "Weather secrets nobody may see"],
	] as const) {
		pi.registerTool({
			name,
			label: name,
			description,
			parameters: Type.Object({ q: Type.String({ description: "city or symbol" }) }),
			exposure: name === "hidden_thing" ? "hidden" : "deferred",
			async execute(_id, params) {
				return { content: [{ type: "text", text: `${name}(${params.q})` }] };
			},
		});
	}
}

describe("tool_search", () => {
	it("ranks by the words of name, description and parameters", () => {
		const tools = [
			{ name: "mcp__radius__search_issues", description: "Search issues in the tracker" },
			{ name: "weather", description: "Forecast for a city" },
			{ name: "read_file", description: "Read a file", parameters: { type: "object", properties: { path: {} } } },
		];
		expect(rankTools("weather", tools)[0]?.name).toBe("weather");
		expect(rankTools("find issues", tools)[0]?.name).toBe("mcp__radius__search_issues");
		expect(rankTools("path", tools)[0]?.name).toBe("read_file");
		expect(rankTools("nothing matches this", tools)).toEqual([]);
		expect(rankTools("mcp__radius__search_issues", tools)[0]?.name).toBe("mcp__radius__search_issues");
	});

	it("declares the matches for the next call and follows /tree branches", async () => {
		const s = await sessionWithExtensions({ "tool-search": createToolSearchExtension(), deferred: deferredTools });
		s.session.setActiveToolsByName([...s.session.getActiveToolNames(), "tool_search"]);

		s.fake.enqueue(
			{ toolCalls: [{ name: "tool_search", args: { query: "weather forecast", limit: 3 } }] },
			{ toolCalls: [{ name: "weather_lookup", args: { q: "Oslo" } }] },
			{ text: "It is cold." },
		);
		await s.session.prompt("What is the weather in Oslo?");
		expect(declaredTools(s.fake.calls[0])).not.toContain("weather_lookup");
		expect(declaredTools(s.fake.calls[1])).toContain("weather_lookup");
		expect(declaredTools(s.fake.calls[1])).not.toContain("stock_quote");
		expect(declaredTools(s.fake.calls[1])).not.toContain("hidden_thing");
		const results = s.session.messages.filter((m) => m.role === "toolResult");
		expect(JSON.stringify(results[0]?.content)).toMatch(/Loaded 1 tool/);
		expect(results[1]).toMatchObject({ toolName: "weather_lookup", isError: false });
		const loadedLeaf = s.sessionManager.getLeafId();
		const entries = s.sessionManager.getBranch();
		expect(entries.some((e) => e.type === "custom" && e.customType === "tool-search")).toBe(true);

		// Back to before the search: the tool is no longer declared there.
		const firstUser = entries.findIndex((e) => e.type === "message" && e.message.role === "user");
		const before = entries[firstUser - 1]?.id ?? null;
		expect(before).not.toBeNull();
		await s.session.navigateTree(before as string);
		s.fake.enqueue({ text: "fresh branch" });
		await s.session.prompt("Something else");
		expect(declaredTools(s.fake.calls[3])).not.toContain("weather_lookup");
		expect(declaredTools(s.fake.calls[3])).toContain("tool_search");

		// And on the branch that loaded it, it is declared again.
		await s.session.navigateTree(loadedLeaf as string);
		s.fake.enqueue({ text: "old branch" });
		await s.session.prompt("And now?");
		expect(declaredTools(s.fake.calls[4])).toContain("weather_lookup");
		expect(s.errors).toEqual([]);
	});

	it("says so when nothing matches and loads nothing", async () => {
		const s = await sessionWithExtensions({ "tool-search": createToolSearchExtension(), deferred: deferredTools });
		s.session.setActiveToolsByName([...s.session.getActiveToolNames(), "tool_search"]);
		s.fake.enqueue({ toolCalls: [{ name: "tool_search", args: { query: "zebra xylophone" } }] }, { text: "ok" });
		await s.session.prompt("go");
		const result = s.session.messages.find((m) => m.role === "toolResult");
		expect(JSON.stringify(result?.content)).toMatch(/No undeclared tool matches/);
		expect(declaredTools(s.fake.calls[1])).not.toContain("weather_lookup");
	});
});
