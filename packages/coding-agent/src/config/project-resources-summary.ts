// What a folder's `.pi/` would load once trusted, one line each, for the
// trust question ("extensions: 2 (lint.ts, deploy/)"). Only names and counts
// are read: nothing is parsed or run before the user answers.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

function entries(dir: string): string[] {
	try {
		return readdirSync(dir).filter((n) => !n.startsWith("."));
	} catch {
		return [];
	}
}

function exists(path: string): boolean {
	try {
		statSync(path);
		return true;
	} catch {
		return false;
	}
}

function isDirectory(path: string): boolean {
	try {
		return statSync(path).isDirectory();
	} catch {
		return false;
	}
}

function listed(kind: string, names: string[]): string | undefined {
	if (names.length === 0) return undefined;
	const shown = names.slice(0, 4).join(", ");
	return `${kind}: ${names.length} (${shown}${names.length > 4 ? ", …" : ""})`;
}

/** MCP server names in `.pi/mcp.json`, read as plain JSON (an unreadable file is just named). */
function mcpServers(file: string): string[] | undefined {
	try {
		const parsed = JSON.parse(readFileSync(file, "utf8")) as { mcpServers?: Record<string, unknown> };
		return Object.keys(parsed.mcpServers ?? {});
	} catch {
		return undefined;
	}
}

export function describeProjectResources(cwd: string): string[] {
	const dir = join(resolve(cwd), ".pi");
	const lines: string[] = [];
	const extensionNames = entries(join(dir, "extensions")).map((n) =>
		isDirectory(join(dir, "extensions", n)) ? `${n}/` : n,
	);
	const add = (line: string | undefined) => {
		if (line) lines.push(line);
	};
	add(listed("extensions (run code)", extensionNames));
	if (exists(join(dir, "mcp.json"))) {
		const servers = mcpServers(join(dir, "mcp.json"));
		lines.push(servers ? (listed("MCP servers (start processes)", servers) ?? "mcp.json (no servers)") : "mcp.json");
	}
	if (exists(join(dir, "settings.json"))) lines.push("settings.json");
	add(listed("skills", entries(join(dir, "skills"))));
	add(listed("prompt templates", entries(join(dir, "prompts"))));
	add(listed("themes", entries(join(dir, "themes"))));
	for (const f of ["SYSTEM.md", "APPEND_SYSTEM.md"]) if (exists(join(dir, f))) lines.push(`${f} (system prompt)`);
	return lines;
}
