// The `mcp_servers` section: servers whose tools are not declared to the
// model (`codemode` / `deferred` exposure), each with how its tools are
// reached and one line from its `description` or, once connected, its
// instructions. It goes into the system prompt at a session's first prompt
// and stays there unchanged, so earlier requests stay cached; when it changes
// later (a server connected and its summary became known) the new section is
// appended to the conversation as a message instead.
import type { BeforeAgentStartEventResult } from "../../extensions/types.js";
import type { ServerEntry } from "./manager.js";
import { namespaceOf } from "./names.js";

export const MCP_SERVERS_MESSAGE_TYPE = "mcp_servers";

/** The section for these servers; "" when none is reached indirectly. */
export function mcpServersSection(entries: readonly ServerEntry[], summary: (e: ServerEntry) => string | undefined) {
	const lines: string[] = [];
	for (const e of entries) {
		const c = e.configured.config;
		if (!c.enabled) continue;
		const exposures = new Set([c.exposure, ...Object.values(c.toolExposure)]);
		const ways: string[] = [];
		if (exposures.has("codemode")) ways.push("codemode");
		if (exposures.has("deferred")) ways.push("tool_search");
		if (ways.length === 0) continue;
		const line = summary(e);
		lines.push(`- ${namespaceOf(e.name)} (${ways.join(", ")})${line ? `: ${line}` : ""}`);
	}
	if (lines.length === 0) return "";
	return [
		"<mcp_servers>",
		"MCP servers whose tools are not declared to you. Servers marked codemode are called from a codemode script: find their tools with searchTools(query, { namespace }) or describeNamespace(name), call them as tools.mcp__<server>__<tool>(args). Servers marked tool_search: load their tools with tool_search for your next call.",
		...lines,
		"</mcp_servers>",
	].join("\n");
}

/** Keeps the section of the first prompt in the system prompt and reports later changes as messages. */
export class McpServersPrompt {
	private inSystemPrompt: string | undefined;
	private lastSent: string | undefined;

	next(systemPrompt: string, current: string): BeforeAgentStartEventResult | undefined {
		if (this.inSystemPrompt === undefined) {
			this.inSystemPrompt = current;
			this.lastSent = current;
		}
		const result: BeforeAgentStartEventResult = {};
		if (this.inSystemPrompt !== "") result.systemPrompt = `${systemPrompt}\n\n${this.inSystemPrompt}`;
		if (current !== this.lastSent) {
			this.lastSent = current;
			result.message = {
				customType: MCP_SERVERS_MESSAGE_TYPE,
				content:
					current || "<mcp_servers>\nNo MCP servers are reachable through codemode or tool_search now.\n</mcp_servers>",
				display: false,
			};
		}
		return result.systemPrompt || result.message ? result : undefined;
	}
}
