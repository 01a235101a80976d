// Context files (AGENTS.md, else CLAUDE.md) give the model project rules. One
// file per directory: the global agent dir first, then every directory from
// the filesystem root down to cwd, so the nearest file comes last. An
// AGENTS.override.md stands in for the others in its own directory only.
// Files that are binary, huge or unreadable are skipped with a diagnostic.
import { dirname, join, resolve } from "node:path";
import type { ResourceDiagnostic } from "./diagnostics.js";
import { pathKind, readResourceText } from "./files.js";

/** Names tried in each directory, in order; the first that exists is used. */
export const CONTEXT_FILE_NAMES = ["AGENTS.override.md", "AGENTS.md", "AGENTS.MD", "CLAUDE.md", "CLAUDE.MD"] as const;
/** Largest context file read (bytes). */
export const MAX_CONTEXT_FILE_BYTES = 4 * 1024 * 1024;

export interface ContextFile {
	/** Absolute path. */
	path: string;
	content: string;
}

function readContextFile(dir: string, diagnostics?: ResourceDiagnostic[]): ContextFile | undefined {
	for (const name of CONTEXT_FILE_NAMES) {
		const path = join(dir, name);
		if (pathKind(path) !== "file") continue;
		const read = readResourceText(path, MAX_CONTEXT_FILE_BYTES);
		if (read.ok) return { path, content: read.text };
		diagnostics?.push({ type: "warning", kind: "context", path, message: `skipped: ${read.reason}` });
	}
	return undefined;
}

/** The directories from the filesystem root down to `cwd`, inclusive. */
export function ancestorsRootFirst(cwd: string): string[] {
	const dirs: string[] = [];
	let dir = resolve(cwd);
	for (;;) {
		dirs.push(dir);
		const parent = dirname(dir);
		if (parent === dir) break;
		dir = parent;
	}
	return dirs.reverse();
}

/** Context files in prompt order: global, then root → cwd. Paths are deduplicated. */
export function loadContextFiles(
	options: { cwd: string; agentDir: string },
	diagnostics?: ResourceDiagnostic[],
): ContextFile[] {
	const out: ContextFile[] = [];
	const seen = new Set<string>();
	for (const dir of [resolve(options.agentDir), ...ancestorsRootFirst(options.cwd)]) {
		const file = readContextFile(dir, diagnostics);
		if (!file || seen.has(file.path)) continue;
		seen.add(file.path);
		out.push(file);
	}
	return out;
}
