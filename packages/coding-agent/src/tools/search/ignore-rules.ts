/**
 * .gitignore semantics for the pure-JS search engines, matching what rg/fd
 * are asked to do: `.gitignore` and `.ignore` files at and below the search
 * root (`.ignore` wins over `.gitignore` in the same directory, deeper files
 * win over shallower ones, an ignored directory is never entered), plus —
 * inside a git work tree — those of ancestor directories up to the repository
 * root and `.git/info/exclude`. Global git excludes are not read.
 */
import { promises as fs, readFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import type { Ignore } from "ignore";
import { ignoreFactory } from "../../lazy-cjs.js";
import { joinOnDisk } from "../shared/paths.js";

export interface Matcher {
	ig: Ignore;
	/** Root-relative posix dir of an ignore file found during the walk ("" for the root itself). */
	base: string;
	/** For rules from above the root: prefix (posix, ending in "/") from their dir down to the root. */
	prefix: string;
	/** Every rule ends in "/" (node_modules/, dist/): it can only match directories, so files skip it. */
	dirOnly: boolean;
}

function onlyDirectoryRules(text: string): boolean {
	const rules = text
		.split(/\r?\n/)
		.map((l) => l.trim())
		.filter((l) => l.length > 0 && !l.startsWith("#"));
	return rules.length > 0 && rules.every((r) => r.endsWith("/") && !r.endsWith("\\/"));
}

function matcher(text: string, base: string, prefix: string): Matcher {
	return { ig: ignoreFactory()().add(text), base, prefix, dirOnly: onlyDirectoryRules(text) };
}

/** Ordered from lowest to highest precedence. */
export type IgnoreStack = readonly Matcher[];

function readIgnoreFile(path: string | Buffer): string | undefined {
	try {
		return readFileSync(path, "utf8");
	} catch {
		return undefined;
	}
}

function toPosix(p: string): string {
	return sep === "/" ? p : p.split(sep).join("/");
}

/** The git work-tree root containing `dir`, if any. */
export async function findGitRoot(dir: string): Promise<string | undefined> {
	let current = dir;
	for (;;) {
		try {
			await fs.stat(join(current, ".git"));
			return current;
		} catch {
			const parent = dirname(current);
			if (parent === current) return undefined;
			current = parent;
		}
	}
}

/** Matchers from one directory's ignore files (in precedence order), or none. */
export function loadDirMatchers(absDir: string | Buffer, base: string, prefix = ""): Matcher[] {
	const out: Matcher[] = [];
	// .gitignore first, .ignore after it: later entries take precedence.
	for (const name of [".gitignore", ".ignore"]) {
		const text = readIgnoreFile(joinOnDisk(absDir, name));
		if (text !== undefined && text.trim().length > 0) out.push(matcher(text, base, prefix));
	}
	return out;
}

/** Rules that apply from outside the search root: repository excludes and ancestor ignore files. */
export async function loadRootStack(searchRoot: string): Promise<{ stack: Matcher[]; gitRoot?: string }> {
	const gitRoot = await findGitRoot(searchRoot);
	const stack: Matcher[] = [];
	if (!gitRoot) return { stack };
	const exclude = readIgnoreFile(join(gitRoot, ".git", "info", "exclude"));
	const rootPrefix = (dir: string) => {
		const rel = toPosix(relative(dir, searchRoot));
		return rel ? `${rel}/` : "";
	};
	if (exclude?.trim()) stack.push(matcher(exclude, "", rootPrefix(gitRoot)));
	const ancestors: string[] = [];
	for (let d = dirname(searchRoot); ; d = dirname(d)) {
		if (searchRoot === gitRoot) break;
		ancestors.unshift(d);
		if (d === gitRoot || dirname(d) === d) break;
	}
	for (const dir of ancestors) stack.push(...loadDirMatchers(dir, "", rootPrefix(dir)));
	return { stack, gitRoot };
}

/** Whether a root-relative posix path is ignored; `isDir` enables directory-only patterns. */
export function isIgnored(stack: IgnoreStack, rel: string, isDir: boolean): boolean {
	for (let i = stack.length - 1; i >= 0; i--) {
		const m = stack[i];
		if (m.dirOnly && !isDir) continue;
		const local = m.base === "" ? rel : rel.slice(m.base.length + 1);
		const p = m.prefix + local + (isDir ? "/" : "");
		const r = m.ig.test(p);
		if (r.ignored) return true;
		if (r.unignored) return false;
	}
	return false;
}
