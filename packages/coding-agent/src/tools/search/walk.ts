/**
 * Deterministic, ignore-aware directory walk for the JS search engines.
 * Entries come depth-first with each directory's names sorted by code unit —
 * the order `rg --sort path` uses — so both engines produce the same order.
 * Hidden files are included; `.git` directories and ignored paths are not;
 * symbolic links are reported but never followed.
 */
import type { Dirent } from "node:fs";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { Override } from "./glob-filter.js";
import { type IgnoreStack, isIgnored, loadDirMatchers } from "./ignore-rules.js";

export interface WalkEntry {
	/** Posix path relative to the walk root. */
	rel: string;
	abs: string;
	kind: "file" | "dir" | "symlink" | "other";
}

export interface WalkOptions {
	/** Extra rules in effect at the root (ancestors, repository excludes). */
	rootStack?: IgnoreStack;
	respectIgnore?: boolean;
	/** Decides before the ignore files do (rg's --glob semantics). */
	override?: Override;
	signal?: AbortSignal;
}

function compareNames(a: string, b: string): number {
	return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * A string whose plain ordering is walk order: with "/" mapped below every
 * other character, comparing keys compares path segments one by one.
 */
export function pathSortKey(path: string): string {
	return path.replaceAll("/", "\0");
}

function kindOf(d: Dirent): WalkEntry["kind"] {
	if (d.isFile()) return "file";
	if (d.isDirectory()) return "dir";
	if (d.isSymbolicLink()) return "symlink";
	return "other";
}

export function* walk(root: string, options: WalkOptions = {}): Generator<WalkEntry> {
	const respect = options.respectIgnore ?? true;
	function* visit(absDir: string, relDir: string, stack: IgnoreStack): Generator<WalkEntry> {
		options.signal?.throwIfAborted();
		let dirents: Dirent[];
		try {
			// Sync on purpose: far faster than the thread-pool round trip per directory; callers yield between slices.
			dirents = readdirSync(absDir, { withFileTypes: true });
		} catch {
			return;
		}
		let here = stack;
		if (respect && dirents.some((d) => d.name === ".gitignore" || d.name === ".ignore")) {
			const local = loadDirMatchers(absDir, relDir);
			if (local.length > 0) here = [...stack, ...local];
		}
		dirents.sort((a, b) => compareNames(a.name, b.name));
		for (const d of dirents) {
			if (d.name === ".git") continue;
			const rel = relDir ? `${relDir}/${d.name}` : d.name;
			const kind = kindOf(d);
			const decision = options.override?.(rel, kind === "dir");
			if (decision === "exclude") continue;
			if (decision === undefined && respect && isIgnored(here, rel, kind === "dir")) continue;
			const abs = join(absDir, d.name);
			yield { rel, abs, kind };
			if (kind === "dir") yield* visit(abs, rel, here);
		}
	}
	yield* visit(root, "", options.rootStack ?? []);
}
