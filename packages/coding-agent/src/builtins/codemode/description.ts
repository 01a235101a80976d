// The `codemode` tool's description: how to write a script, the globals, what
// calls resolve to, the limits, then the tools scripts can call that are not
// declared to the model, grouped by namespace, within a budget of estimated
// tokens (characters / 4). Tools that do not fit, deferred tools and MCP
// tools (which connect after start-up) are not listed, so the text does not
// change while servers connect; scripts find them with searchTools().
import { type DeclarableTool, toolDeclaration } from "./declarations.js";

export const DEFAULT_INLINE_BUDGET = 3000;

export interface ListedTool extends DeclarableTool {
	namespace?: { name: string; description?: string };
}

const GUIDE = `Run a JavaScript script that calls other tools; only what the script outputs reaches you. Use it to run independent tool calls in parallel (Promise.allSettled), to chain calls, or to filter and summarise large results before you read them.

The input is raw JavaScript (not JSON, not a markdown fence), run as the body of an async function in a QuickJS sandbox: top-level await and return work. There are no Node APIs, no file system, network or timers; the script reaches the world only through tools.

An optional first line sets options: // @options: {"max_output_tokens": 10000, "timeout_ms": 600000}
(max_output_tokens default 10000: longer output keeps its start and end, the full text goes to a temp file named in the result; timeout_ms default 600000, a hard deadline for the whole script.)

Globals:
- tools.<name>(args): call a tool with one argument object. Names that are not JavaScript identifiers use _ (mcp__dev-radius__search is tools.mcp__dev_radius__search). Every tool declared to you can be called this way with the same arguments, plus the tools listed below and those searchTools() finds.
- text(value): add output (strings as they are, other values as JSON). A top-level return value is added the same way.
- image(value): add an image: a base64 data: URL, { image_url }, or an image block { type: "image", data, mimeType } (PNG, JPEG, GIF, WebP).
- console.log/info/warn/error/debug(...): lines collected in one <console_output> block after the output.
- store(key, value) / load(key): keep small JSON values across codemode calls on this branch (store(key, undefined) deletes; kept only when the script succeeds).
- exit(): end the script successfully.
- ALL_TOOLS: every callable tool as { name, description }.
- searchTools(query, { limit?, namespace? }): ranked { name, description }[] of callable tools (default limit 8).
- describeTool(name): a tool's description and TypeScript declaration, or undefined.
- describeNamespace(name): { name, description?, instructions?, tools } of a tool group such as an MCP server, or undefined.

Calls resolve to: the structured result for tools with an output schema; the complete CallToolResult (content, structuredContent, isError) for MCP tools; an image block for read of an image; else the tool's text output. A failed, blocked or invalid call rejects with an Error carrying the tool's error text. Calls are real: they are not undone when the script later fails.

Limits: 256 MB of memory; output past 16777216 characters or 100000 text/image/console calls fails the script; at most 1000 tool calls per script; the deadline above. A script waiting on a promise that can never settle fails at once. Scripts cannot start other codemode scripts.`;

function budgeted(tools: readonly ListedTool[], budgetTokens: number, mode: "on" | "only"): string {
	if (tools.length === 0) return "";
	const groups = new Map<string, { description?: string; tools: ListedTool[] }>();
	for (const tool of tools) {
		const key = tool.namespace?.name ?? "";
		const group = groups.get(key) ?? { description: tool.namespace?.description, tools: [] };
		group.tools.push(tool);
		groups.set(key, group);
	}
	const budget = budgetTokens * 4;
	let used = 0;
	let left = 0;
	const sections: string[] = [];
	for (const [name, group] of groups) {
		const heading = name ? `### ${name}${group.description ? ` — ${group.description}` : ""}` : "";
		const decls: string[] = [];
		for (const tool of group.tools) {
			const decl = toolDeclaration(tool);
			if (used + decl.length > budget) {
				left++;
				continue;
			}
			used += decl.length;
			decls.push(decl);
		}
		if (decls.length > 0 || heading) sections.push([heading, ...decls].filter(Boolean).join("\n\n"));
	}
	const more =
		left > 0 ? `\n\n(${left} more tool${left === 1 ? "" : "s"} not listed: find them with searchTools().)` : "";
	const intro =
		mode === "only"
			? "Other tools are not declared to you: call them from scripts. These are callable"
			: "These are callable from scripts but not declared to you";
	return `\n\n## Tools for scripts\n\n${intro}:\n\n${sections.join("\n\n")}${more}`;
}

/**
 * `mode` "only": the other tools are hidden from the model (codemode.mode), so
 * the list is every tool scripts can call rather than only the undeclared ones.
 */
export function createCodemodeDescription(
	listed: readonly ListedTool[],
	inlineBudget = DEFAULT_INLINE_BUDGET,
	mode: "on" | "only" = "on",
): string {
	return `${GUIDE}${budgeted(listed, inlineBudget, mode)}`;
}
