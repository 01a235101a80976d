// What a package brings: its resources of each kind, as paths relative to the
// package root. The `pi` key of package.json lists them (paths, globs, `!`
// exclusions); without it the conventional directories `extensions/`,
// `skills/`, `prompts/`, `themes/` are used. Each item is one unit that can be
// filtered and switched on or off: an extension entry file, a skill (its
// directory, or a lone .md file), a prompt file, a theme file.
//
// A bad manifest (not JSON, `pi` not an object, a kind that is not an array
// of strings) is an error: `pi install` refuses the package, start-up skips it.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { discoverInDirectory } from "../extensions/discovery.js";
import { picomatch } from "../lazy-cjs.js";

export const RESOURCE_KINDS = ["extensions", "skills", "prompts", "themes"] as const;
export type ResourceKind = (typeof RESOURCE_KINDS)[number];

export type PackageItems = Record<ResourceKind, string[]>;

export interface PackageInfo {
	name?: string;
	version?: string;
	items: PackageItems;
	/** Manifest entries that matched nothing (worth a warning). */
	notes: string[];
}

export class ManifestError extends Error {}

const MAX_WALK = 4000;

function toPosix(path: string): string {
	return sep === "/" ? path : path.split(sep).join("/");
}

function kindOf(path: string): "file" | "dir" | "missing" {
	try {
		const st = statSync(path);
		return st.isDirectory() ? "dir" : st.isFile() ? "file" : "missing";
	} catch {
		return "missing";
	}
}

function sortedEntries(dir: string): string[] {
	try {
		return readdirSync(dir).sort();
	} catch {
		return [];
	}
}

/** Items of one kind found inside a directory, by that kind's convention. */
function expandDir(kind: ResourceKind, dir: string): string[] {
	switch (kind) {
		case "extensions":
			return discoverInDirectory(dir);
		case "skills":
			return skillItems(dir, true, 0);
		case "prompts":
			return markdownFiles(dir, 0);
		case "themes":
			return sortedEntries(dir)
				.filter((n) => n.endsWith(".json"))
				.map((n) => join(dir, n))
				.filter((p) => kindOf(p) === "file");
	}
}

/** A directory with SKILL.md is one skill; below it nothing else; top-level .md files are skills too. */
function skillItems(dir: string, top: boolean, depth: number): string[] {
	if (depth > 8) return [];
	if (kindOf(join(dir, "SKILL.md")) === "file") return [dir];
	const out: string[] = [];
	for (const name of sortedEntries(dir)) {
		if (name.startsWith(".") || name === "node_modules") continue;
		const full = join(dir, name);
		const k = kindOf(full);
		if (k === "dir") out.push(...skillItems(full, false, depth + 1));
		else if (top && k === "file" && name.endsWith(".md")) out.push(full);
	}
	return out;
}

function markdownFiles(dir: string, depth: number): string[] {
	if (depth > 8) return [];
	const out: string[] = [];
	for (const name of sortedEntries(dir)) {
		if (name.startsWith(".") || name === "node_modules") continue;
		const full = join(dir, name);
		const k = kindOf(full);
		if (k === "dir") out.push(...markdownFiles(full, depth + 1));
		else if (k === "file" && name.endsWith(".md")) out.push(full);
	}
	return out;
}

/** Every file and directory below root (no dot entries, no node_modules), relative, posix. */
function walk(root: string): { path: string; dir: boolean }[] {
	const out: { path: string; dir: boolean }[] = [];
	const visit = (dir: string, depth: number) => {
		if (depth > 10 || out.length > MAX_WALK) return;
		for (const name of sortedEntries(dir)) {
			if (name.startsWith(".") || name === "node_modules") continue;
			const full = join(dir, name);
			const k = kindOf(full);
			if (k === "missing") continue;
			out.push({ path: toPosix(relative(root, full)), dir: k === "dir" });
			if (k === "dir") visit(full, depth + 1);
		}
	};
	visit(root, 0);
	return out;
}

const normalize = (p: string) => toPosix(p).replace(/^\.\//, "").replace(/\/+$/, "");

/** Expands a manifest list: paths and globs add (directories by convention), `!pattern` removes. */
function expandList(kind: ResourceKind, root: string, list: string[], notes: string[]): string[] {
	const found: string[] = [];
	let tree: { path: string; dir: boolean }[] | undefined;
	const excludes: ((p: string) => boolean)[] = [];
	for (const raw of list) {
		const entry = raw.trim();
		if (entry === "") continue;
		if (entry.startsWith("!")) {
			excludes.push(picomatch()(normalize(entry.slice(1)), { dot: true }));
			continue;
		}
		const rel = normalize(entry);
		if (picomatch().scan(rel).isGlob) {
			tree ??= walk(root);
			const match = picomatch()(rel, { dot: true });
			const hits = tree.filter((t) => match(t.path));
			if (hits.length === 0) notes.push(`pi.${kind}: "${entry}" matches nothing`);
			for (const h of hits) {
				const full = join(root, h.path);
				found.push(...(h.dir ? expandDir(kind, full) : [full]));
			}
			continue;
		}
		const full = resolve(root, rel);
		if (full !== root && !full.startsWith(root + sep)) {
			notes.push(`pi.${kind}: "${entry}" is outside the package; ignored`);
			continue;
		}
		const k = kindOf(full);
		if (k === "missing") notes.push(`pi.${kind}: "${entry}" does not exist`);
		else found.push(...(k === "dir" ? expandDir(kind, full) : [full]));
	}
	const seen = new Set<string>();
	const out: string[] = [];
	for (const p of found) {
		const rel = toPosix(relative(root, p));
		if (seen.has(rel)) continue;
		seen.add(rel);
		if (excludes.some((m) => m(rel))) continue;
		out.push(rel);
	}
	return out;
}

/** Reads the package at `root` and lists its resources. Throws ManifestError for a bad manifest. */
export function readPackage(root: string): PackageInfo {
	const file = join(root, "package.json");
	let pkg: Record<string, unknown> = {};
	if (kindOf(file) === "file") {
		try {
			const parsed = JSON.parse(readFileSync(file, "utf8")) as unknown;
			if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("not a JSON object");
			pkg = parsed as Record<string, unknown>;
		} catch (error) {
			throw new ManifestError(`bad package.json (${file}): ${(error as Error).message}`);
		}
	}
	const pi = pkg.pi;
	if (pi !== undefined && (pi === null || typeof pi !== "object" || Array.isArray(pi))) {
		throw new ManifestError(`bad manifest in ${file}: "pi" must be an object`);
	}
	const manifest = (pi ?? {}) as Record<string, unknown>;
	const notes: string[] = [];
	const items = {} as PackageItems;
	for (const kind of RESOURCE_KINDS) {
		const list = manifest[kind];
		if (list !== undefined && !(Array.isArray(list) && list.every((x) => typeof x === "string"))) {
			throw new ManifestError(`bad manifest in ${file}: "pi.${kind}" must be an array of paths`);
		}
		if (list !== undefined) items[kind] = expandList(kind, root, list, notes);
		else if (pi === undefined || !RESOURCE_KINDS.some((k) => manifest[k] !== undefined)) {
			const dir = join(root, kind);
			items[kind] = kindOf(dir) === "dir" ? expandDir(kind, dir).map((p) => toPosix(relative(root, p))) : [];
		} else items[kind] = [];
	}
	return {
		name: typeof pkg.name === "string" ? pkg.name : undefined,
		version: typeof pkg.version === "string" ? pkg.version : undefined,
		items,
		notes,
	};
}

/**
 * Narrows one kind by a settings filter (the object form of a `packages`
 * entry). Undefined keeps everything; `[]` keeps nothing. Plain patterns keep
 * what they match and `+path` keeps that one item (with either present, the
 * rest is dropped; with neither, everything starts in); `!pattern` and `-path`
 * then remove. Never adds what the package does not list.
 */
export function applyFilter(items: readonly string[], filter: readonly string[] | undefined): string[] {
	if (filter === undefined) return [...items];
	if (filter.length === 0) return [];
	const includes: ((p: string) => boolean)[] = [];
	const excludes: ((p: string) => boolean)[] = [];
	const forced = new Set<string>();
	const removed = new Set<string>();
	for (const raw of filter) {
		const entry = raw.trim();
		if (entry === "") continue;
		if (entry.startsWith("+")) forced.add(normalize(entry.slice(1)));
		else if (entry.startsWith("-")) removed.add(normalize(entry.slice(1)));
		else if (entry.startsWith("!")) excludes.push(picomatch()(normalize(entry.slice(1)), { dot: true }));
		else includes.push(picomatch()(normalize(entry), { dot: true }));
	}
	const hit = (matchers: ((p: string) => boolean)[], item: string) =>
		matchers.some((m) => m(item) || m(`${item}/SKILL.md`));
	const startAll = includes.length === 0 && forced.size === 0;
	return items.filter((item) => {
		if (removed.has(item)) return false;
		if (forced.has(item)) return true;
		if (!startAll && !hit(includes, item)) return false;
		return !hit(excludes, item);
	});
}

/**
 * `autoload: false` (1.6.0's name): the entry's patterns, in order, switch
 * items on or off from `start` (nothing, or the user's selection when a
 * project entry narrows the user's package). `+path` and plain patterns
 * switch on, `-path` and `!pattern` off; what no pattern names keeps its
 * start state.
 */
export function applyDelta(
	items: readonly string[],
	start: ReadonlySet<string>,
	patterns: readonly string[] | undefined,
): string[] {
	const on = new Set(start);
	for (const raw of patterns ?? []) {
		const entry = raw.trim();
		if (entry === "") continue;
		const sign = entry[0];
		const exact = sign === "+" || sign === "-";
		const body = normalize(sign === "+" || sign === "-" || sign === "!" ? entry.slice(1) : entry);
		const enable = sign !== "-" && sign !== "!";
		const match = exact ? (i: string) => i === body : picomatch()(body, { dot: true });
		for (const item of items) {
			if (match(item) || (!exact && match(`${item}/SKILL.md`))) {
				if (enable) on.add(item);
				else on.delete(item);
			}
		}
	}
	return items.filter((i) => on.has(i));
}
