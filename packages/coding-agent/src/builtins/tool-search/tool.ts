// `tool_search`: finds tools that are not declared to the model (`codemode`
// and `deferred` exposure — MCP tools, for instance) with the same ranking as
// codemode's searchTools(), and declares the matches for the next model call
// through the active tool set. Each load is recorded in the session as a
// `tool-search` custom entry, so the loaded set follows the branch (see
// branch.ts). The description does not list the searchable tools, so it
// stays the same while tools are registered (MCP servers connecting).
import { Type } from "typebox";
import type { ExtensionAPI, ToolDefinition, ToolInfo } from "../../extensions/types.js";
import { DEFAULT_SEARCH_LIMIT, rankTools } from "./ranker.js";

export const TOOL_SEARCH_TOOL_NAME = "tool_search";
/** Custom entry recording the tools one `tool_search` call loaded: `{ loaded: string[] }`. */
export const TOOL_SEARCH_ENTRY_TYPE = "tool-search";

export interface ToolSearchEntryData {
	loaded: string[];
}

export interface ToolSearchDetails {
	/** Tools this call loaded. */
	loaded: string[];
}

export const toolSearchSchema = Type.Object({
	query: Type.String({ description: "What the tool should do, in a few words." }),
	limit: Type.Optional(
		Type.Number({ description: `How many tools to load at most (default ${DEFAULT_SEARCH_LIMIT}).` }),
	),
});

const DESCRIPTION = `Find tools that are not declared to you yet and declare the best matches for your next call.

Some tools, such as those of MCP servers, are not given to you up front. When you need a capability none of your tools has, search for it here with a few words describing the task; the matching tools (at most \`limit\`, default ${DEFAULT_SEARCH_LIMIT}) become available as ordinary tools from your next call on.`;

/** Tools tool_search may load: registered with codemode or deferred exposure and not active. */
export function searchableTools(pi: Pick<ExtensionAPI, "getAllTools" | "getActiveTools">): ToolInfo[] {
	const active = new Set(pi.getActiveTools());
	return pi
		.getAllTools()
		.filter((t) => (t.exposure === "codemode" || t.exposure === "deferred") && !active.has(t.name));
}

function firstLine(text: string): string {
	const line = text.trim().split("\n")[0] ?? "";
	return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

export function createToolSearchTool(
	pi: ExtensionAPI,
	/** Told what each call loaded (the branch follower takes these out again on branches that never loaded them). */
	onLoaded?: (names: readonly string[]) => void,
): ToolDefinition<typeof toolSearchSchema, ToolSearchDetails> {
	return {
		name: TOOL_SEARCH_TOOL_NAME,
		label: "Tool search",
		description: DESCRIPTION,
		promptSnippet: "Find and load tools that are not declared yet (such as MCP tools)",
		parameters: toolSearchSchema,
		defaultActive: false,
		reachesTools: () => "all",
		async execute(_id, params) {
			const limit =
				typeof params.limit === "number" && params.limit > 0 ? Math.floor(params.limit) : DEFAULT_SEARCH_LIMIT;
			const candidates = searchableTools(pi);
			const matches = rankTools(params.query, candidates, limit);
			if (matches.length === 0) {
				const text =
					candidates.length === 0
						? "There are no undeclared tools to search: every tool is already declared to you."
						: `No undeclared tool matches "${params.query}". Try other words.`;
				return { content: [{ type: "text", text }], details: { loaded: [] } };
			}
			const loaded = matches.map((m) => m.name);
			pi.setActiveTools([...new Set([...pi.getActiveTools(), ...loaded])]);
			pi.appendEntry<ToolSearchEntryData>(TOOL_SEARCH_ENTRY_TYPE, { loaded });
			onLoaded?.(loaded);
			const byName = new Map(candidates.map((t) => [t.name, t]));
			const lines = loaded.map((name) => `- ${name}: ${firstLine(byName.get(name)?.description ?? "")}`);
			const text = `Loaded ${loaded.length} tool${loaded.length === 1 ? "" : "s"}; ${loaded.length === 1 ? "it is" : "they are"} declared to you from your next call on:\n${lines.join("\n")}`;
			return { content: [{ type: "text", text }], details: { loaded } };
		},
	};
}
