/**
 * Deterministic, ignore-aware directory walk for the JS search engines.
 * Entries come depth-first with each directory's names sorted by code unit —
 * the order `rg --sort path` uses — so both engines produce the same order.
 * Hidden files are included; `.git` directories and ignored paths are not;
 * symbolic links are reported but never followed. A name that is not valid
 * UTF-8 is reported decoded lossily (U+FFFD), with its raw bytes in `abs`.
 */
import type { Dirent } from "node:fs";
import { readdirSync } from "node:fs";
import { joinOnDisk } from "../shared/paths.js";
import type { Override } from "./glob-filter.js";
import { type IgnoreStack, isIgnored, loadDirMatchers } from "./ignore-rules.js";

export interface WalkEntry {
	/** Posix path relative to the walk root. */
	rel: string;
	/** Raw bytes when the name (or a directory above it) is not valid UTF-8; fs calls take either. */
	abs: string | Buffer;
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

function kindOf(d: Dirent | Dirent<Buffer>): WalkEntry["kind"] {
	if (d.isFile()) return "file";
	if (d.isDirectory()) return "dir";
	if (d.isSymbolicLink()) return "symlink";
	return "other";
}

interface Named {
	name: string;
	kind: WalkEntry["kind"];
	/** Set only when `name` is a lossy decoding of these bytes. */
	raw?: Buffer;
}

function list(absDir: string | Buffer): Named[] {
	// Sync on purpose: far faster than the thread-pool round trip per directory; callers yield between slices.
	const dirents = readdirSync(absDir, { withFileTypes: true });
	if (!dirents.some((d) => d.name.includes("\uFFFD"))) return dirents.map((d) => ({ name: d.name, kind: kindOf(d) }));
	// Some name did not decode: read the raw bytes so the file can still be opened.
	return readdirSync(absDir, { withFileTypes: true, encoding: "buffer" }).map((d) => {
		const name = d.name.toString("utf8");
		return { name, kind: kindOf(d), raw: Buffer.from(name, "utf8").equals(d.name) ? undefined : d.name };
	});
}

export function* walk(root: string | Buffer, options: WalkOptions = {}): Generator<WalkEntry> {
	const respect = options.respectIgnore ?? true;
	function* visit(absDir: string | Buffer, relDir: string, stack: IgnoreStack): Generator<WalkEntry> {
		options.signal?.throwIfAborted();
		let dirents: Named[];
		try {
			dirents = list(absDir);
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
			const kind = d.kind;
			const decision = options.override?.(rel, kind === "dir");
			if (decision === "exclude") continue;
			if (decision === undefined && respect && isIgnored(here, rel, kind === "dir")) continue;
			const abs = joinOnDisk(absDir, d.raw ?? d.name);
			yield { rel, abs, kind };
			if (kind === "dir") yield* visit(abs, rel, here);
		}
	}
	yield* visit(root, "", options.rootStack ?? []);
}
