// Context files (AGENTS.md, else CLAUDE.md) give the model project rules. One
// file per directory: the global agent dir first, then every directory from
// the filesystem root down to cwd, so the nearest file comes last.
import { readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/** Names tried in each directory, in order; the first that exists is used. */
export const CONTEXT_FILE_NAMES = ["AGENTS.md", "AGENTS.MD", "CLAUDE.md", "CLAUDE.MD"] as const;

export interface ContextFile {
	/** Absolute path. */
	path: string;
	content: string;
}

function readContextFile(dir: string): ContextFile | undefined {
	for (const name of CONTEXT_FILE_NAMES) {
		const path = join(dir, name);
		try {
			if (!statSync(path).isFile()) continue;
			return { path, content: readFileSync(path, "utf8") };
		} catch {
			// Missing or unreadable: try the next name.
		}
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
export function loadContextFiles(options: { cwd: string; agentDir: string }): ContextFile[] {
	const out: ContextFile[] = [];
	const seen = new Set<string>();
	for (const dir of [resolve(options.agentDir), ...ancestorsRootFirst(options.cwd)]) {
		const file = readContextFile(dir);
		if (!file || seen.has(file.path)) continue;
		seen.add(file.path);
		out.push(file);
	}
	return out;
}
