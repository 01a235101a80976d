// Candidate files for `@` mentions: the tools' ignore-aware walk (respects
// .gitignore/.ignore, skips .git), bounded in count and time, yielding to the
// event loop between slices so typing stays responsive. The walk result is
// reused for a few seconds (the fuzzy filter runs on every keystroke).
import type { FileLister } from "@pi/tui";
import { loadRootStack } from "../../tools/search/ignore-rules.js";
import { walk } from "../../tools/search/walk.js";

const MAX_ENTRIES = 20_000;
const SLICE = 500;
const CACHE_MS = 5_000;
/** Heavy folders that are rarely meant even when not ignored. */
const SKIP = new Set(["node_modules"]);

export function createFileLister(now: () => number = Date.now): FileLister {
	let cache: { basePath: string; at: number; files: string[] } | undefined;
	return async ({ basePath, signal }) => {
		if (cache && cache.basePath === basePath && now() - cache.at < CACHE_MS) return cache.files;
		const { stack } = await loadRootStack(basePath);
		const files: string[] = [];
		let n = 0;
		try {
			for (const e of walk(basePath, {
				rootStack: stack,
				signal,
				override: (rel, isDir) => (isDir && SKIP.has(rel.slice(rel.lastIndexOf("/") + 1)) ? "exclude" : undefined),
			})) {
				if (e.kind === "dir") files.push(`${e.rel}/`);
				else files.push(e.rel);
				if (files.length >= MAX_ENTRIES) break;
				if (++n % SLICE === 0) await new Promise((r) => setImmediate(r));
			}
		} catch (error) {
			if (signal.aborted) return [];
			throw error;
		}
		cache = { basePath, at: now(), files };
		return files;
	};
}
