// Which tools a session starts with, from --tools / --exclude-tools (1.x
// semantics): plain entries are an allowlist, `+x` / `-x` add to or remove from
// the defaults (or from the allowlist when there is one), and every entry may
// be a `*` pattern (`mcp__*`, `w*`). --exclude-tools patterns apply last.

/** Whether `name` matches `pattern`, where `*` stands for any run of characters. */
export function matchesToolPattern(pattern: string, name: string): boolean {
	if (!pattern.includes("*")) return pattern === name;
	const source = pattern
		.split("*")
		.map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
		.join(".*");
	return new RegExp(`^${source}$`).test(name);
}

export interface ToolSelection {
	/** --tools entries. */
	tools?: readonly string[];
	/** --exclude-tools entries. */
	excludeTools?: readonly string[];
	/** Every tool that exists (built-in and custom), in display order. */
	known: readonly string[];
	/** The tools a session has when nothing is said (defaults setting applied, custom tools included). */
	defaults: readonly string[];
}

export function selectToolNames(o: ToolSelection): string[] {
	const matching = (pattern: string) => o.known.filter((n) => matchesToolPattern(pattern, n));
	let names: string[];
	if (o.tools) {
		const plain = o.tools.filter((t) => !t.startsWith("+") && !t.startsWith("-"));
		names = plain.length > 0 ? plain.flatMap(matching) : [...o.defaults];
		for (const entry of o.tools) {
			if (entry.startsWith("+")) names.push(...matching(entry.slice(1)));
			else if (entry.startsWith("-")) {
				const drop = new Set(matching(entry.slice(1)));
				names = names.filter((n) => !drop.has(n));
			}
		}
	} else names = [...o.defaults];
	const excluded = o.excludeTools ?? [];
	return [...new Set(names)].filter((n) => !excluded.some((p) => matchesToolPattern(p, n)));
}

const MCP_RESOURCE_TOOLS = new Set(["list_mcp_resources", "list_mcp_resource_templates", "read_mcp_resource"]);
const isMcpTool = (name: string) => name.startsWith("mcp__") || MCP_RESOURCE_TOOLS.has(name);

/**
 * Exact tool names the user asked for (`--tools`, else the `defaultTools`
 * setting, with `+name`/`-name` from `--tools` on top). A tool registered
 * inactive (`codemode`, `tool_search`, or an extension tool with
 * `defaultActive: false`) is activated when named here. Patterns never
 * activate: they only filter.
 */
export function requestedToolNames(tools: readonly string[] | undefined, defaultTools: unknown): Set<string> {
	const out = new Set<string>();
	const exact = (t: string) => !t.includes("*");
	const cli = tools ?? [];
	const cliPlain = cli.filter((t) => !t.startsWith("+") && !t.startsWith("-"));
	if (cliPlain.length > 0) {
		for (const t of cliPlain.filter(exact)) out.add(t);
	} else if (Array.isArray(defaultTools)) {
		for (const entry of defaultTools) {
			if (typeof entry !== "string") continue;
			if (entry.startsWith("-")) out.delete(entry.slice(1));
			else {
				const name = entry.startsWith("+") ? entry.slice(1) : entry;
				if (exact(name)) out.add(name);
			}
		}
	}
	for (const entry of cli) {
		if (entry.startsWith("+") && exact(entry.slice(1))) out.add(entry.slice(1));
		else if (entry.startsWith("-")) out.delete(entry.slice(1));
	}
	return out;
}

/**
 * --tools / --exclude-tools for tools registered after start-up (MCP tools
 * arrive as their servers connect): "excluded" never reach the session,
 * "registered" stay callable from other tools (codemode) but are not declared,
 * "activate" are declared even when registered inactive (named exactly in
 * `--tools` or `defaultTools`, e.g. `+codemode`).
 * `--tools` removes MCP tools only once one of its entries starts with `mcp__`.
 */
export function lateToolFilter(
	tools: readonly string[] | undefined,
	excludeTools: readonly string[] | undefined,
	/** The `defaultTools` setting: names in it activate tools registered inactive (`+codemode`). */
	defaultTools?: unknown,
): ((name: string) => "excluded" | "registered" | "activate" | undefined) | undefined {
	const requested = requestedToolNames(tools, defaultTools);
	if (!tools && !excludeTools && requested.size === 0) return undefined;
	const plain = (tools ?? []).filter((t) => !t.startsWith("+") && !t.startsWith("-"));
	const named = [...plain, ...(tools ?? []).filter((t) => t.startsWith("+")).map((t) => t.slice(1))];
	const removed = (tools ?? []).filter((t) => t.startsWith("-")).map((t) => t.slice(1));
	const filtersMcp = named.some((t) => t.startsWith("mcp__"));
	return (name) => {
		if ((excludeTools ?? []).some((p) => matchesToolPattern(p, name))) return "excluded";
		if (removed.some((p) => matchesToolPattern(p, name))) return "registered";
		const matched = named.some((p) => matchesToolPattern(p, name));
		if (filtersMcp && isMcpTool(name) && !matched) return "excluded";
		if (plain.length > 0 && !matched) return "registered";
		return requested.has(name) ? "activate" : undefined;
	};
}
