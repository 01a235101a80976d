// The `skills` / `prompts` / `themes` arrays in settings. Plain entries add a
// file or directory; `!glob` excludes matching files (also auto-discovered
// ones); `-path` excludes exactly that file or directory; `+path` adds it and
// wins over any exclusion. Paths resolve from the settings file's base
// (the agent dir for user settings, `<cwd>/.pi` for project settings); `~`
// and absolute paths work.
import { basename, dirname, relative, sep } from "node:path";
import { resolveUserPath } from "../config/paths.js";
import { picomatch } from "../lazy-cjs.js";

export interface ResourceEntries {
	/** Paths to load (plain and `+` entries), resolved. */
	add: string[];
	/** Exact includes (`+path`): never excluded. */
	forced: string[];
	/** Exact excludes (`-path`). */
	excluded: string[];
	/** Glob excludes (`!pattern`), each with the directory it is relative to. */
	globs: { base: string; match: (path: string) => boolean }[];
}

export function emptyEntries(): ResourceEntries {
	return { add: [], forced: [], excluded: [], globs: [] };
}

/** Parses one settings array (anything but strings is ignored) into `into`. */
export function parseResourceEntries(
	value: unknown,
	baseDir: string,
	into: ResourceEntries = emptyEntries(),
): ResourceEntries {
	if (!Array.isArray(value)) return into;
	for (const raw of value) {
		if (typeof raw !== "string") continue;
		const entry = raw.trim();
		if (entry === "") continue;
		if (entry.startsWith("!")) {
			const match = picomatch()(entry.slice(1), { dot: true });
			into.globs.push({ base: baseDir, match });
		} else if (entry.startsWith("-")) {
			into.excluded.push(resolveUserPath(entry.slice(1), baseDir));
		} else if (entry.startsWith("+")) {
			const path = resolveUserPath(entry.slice(1), baseDir);
			into.add.push(path);
			into.forced.push(path);
		} else {
			into.add.push(resolveUserPath(entry, baseDir));
		}
	}
	return into;
}

function within(path: string, root: string): boolean {
	return path === root || path.startsWith(root.endsWith(sep) ? root : `${root}${sep}`);
}

function toPosix(path: string): string {
	return sep === "/" ? path : path.split(sep).join("/");
}

/** A filter for loaders: false for files the entries exclude. */
export function entriesFilter(
	entries: ResourceEntries,
): ((filePath: string, origin: { source: string }) => boolean) | undefined {
	if (entries.excluded.length === 0 && entries.globs.length === 0) return undefined;
	return (filePath, origin) => {
		// What the command line names explicitly is never filtered out by settings.
		if (origin.source === "cli") return true;
		if (entries.forced.some((p) => within(filePath, p))) return true;
		if (entries.excluded.some((p) => within(filePath, p))) return false;
		// A skill is its directory: `!pdf-*` should drop `pdf-tools/SKILL.md`.
		const candidates = basename(filePath) === "SKILL.md" ? [filePath, dirname(filePath)] : [filePath];
		for (const g of entries.globs) {
			for (const c of candidates) {
				const rel = toPosix(relative(g.base, c));
				if (g.match(rel) || g.match(basename(c)) || g.match(toPosix(c))) return false;
			}
		}
		return true;
	};
}
