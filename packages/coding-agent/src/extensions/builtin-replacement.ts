// Built-ins another extension replaces, by what it registers: one that
// registers `/mcp` (such as pi-mcp-adapter) takes over MCP, so `builtin:mcp`
// neither reads mcp.json nor connects anything; one that registers a tool
// named `codemode` or `tool_search` replaces that built-in tool, as a tool
// named `read` replaces the built-in `read`. Unlike `read` (a core tool),
// these built-ins are whole extensions: the replaced one is left out
// entirely (no handlers, no conflict), and a warning says so (as 1.6.0).
// The loader applies it to what the factories registered; the runner again
// whenever a tool is registered later (a session_start handler, a command),
// so a late registration replaces the built-in the same way instead of
// losing to it (first registration wins otherwise).
import type { LoadedExtension } from "./extension.js";

const REPLACED_BY: { builtin: string; kind: "command" | "tool"; name: string }[] = [
	{ builtin: "mcp", kind: "command", name: "mcp" },
	{ builtin: "codemode", kind: "tool", name: "codemode" },
	{ builtin: "tool-search", kind: "tool", name: "tool_search" },
];

export interface ReplacedBuiltin {
	/** `builtin:<name>`. */
	path: string;
	/** "Warning: Extension <file> registers … so the built-in extension … was not loaded. …" */
	warning: string;
}

/**
 * The built-ins among `extensions` that another extension's registrations
 * replace (one entry each); `kinds`: which registrations count.
 */
export function findReplacedBuiltins(
	extensions: readonly LoadedExtension[],
	kinds: readonly ("command" | "tool")[] = ["command", "tool"],
): ReplacedBuiltin[] {
	const replaced = new Map<string, string>();
	for (const ext of extensions) {
		if (ext.path.startsWith("builtin:")) continue;
		for (const r of REPLACED_BY) {
			if (!kinds.includes(r.kind)) continue;
			const path = `builtin:${r.builtin}`;
			const registers = r.kind === "command" ? ext.commands.has(r.name) : ext.tools.has(r.name);
			if (!registers || replaced.has(path) || !extensions.some((e) => e.path === path)) continue;
			const what = r.kind === "command" ? `command \`/${r.name}\`` : `tool \`${r.name}\``;
			replaced.set(
				path,
				`Warning: Extension ${ext.path} registers ${what}, so the built-in extension ${path} was not loaded. To use the built-in instead, disable or remove that extension (\`pi config\` switches built-in extensions on and off).`,
			);
		}
	}
	return [...replaced].map(([path, warning]) => ({ path, warning }));
}

/**
 * After loading: removes from `extensions` (the runner's dispatch list, in
 * place) the built-ins a later tool registration replaces, so they have no
 * handlers and their registrations no longer resolve. Returns them (the host
 * drops their tools from the session) and their warnings. Only tools: the
 * tool built-ins hold nothing to close, while `builtin:mcp` holds server
 * connections, so a late `/mcp` command does not retire it.
 */
export function retireReplacedBuiltins(extensions: LoadedExtension[]): {
	retired: LoadedExtension[];
	warnings: string[];
} {
	const retired: LoadedExtension[] = [];
	const warnings: string[] = [];
	for (const { path, warning } of findReplacedBuiltins(extensions, ["tool"])) {
		const index = extensions.findIndex((e) => e.path === path);
		retired.push(...extensions.splice(index, 1));
		warnings.push(warning);
	}
	return { retired, warnings };
}
