// Which extension files to load, in load order (which is dispatch order):
//   1. the global dir `<agentDir>/extensions/`,
//   2. the project's `.pi/extensions/` — only when the project is trusted
//      (trust is an input here, decided before anything is read),
//   3. the `extensions` setting (global entries resolve from the agent dir,
//      project entries from `.pi/`): paths to add, `!glob` to leave out what
//      discovery found, `+path` to force one in, `-path` to take one out,
//   4. `-e/--extension` paths (relative to cwd), which load even with
//      `--no-extensions`.
// Built-in extensions (`builtin:<name>`, bundled with pi) come first, in the
// order the caller lists them: each loads unless a setting says
// `-builtin:<name>` (a later `+builtin:<name>` or `builtin:<name>` turns it
// back on) or the caller disables it (`--no-mcp`); `--no-extensions` leaves
// them all out, and `-e builtin:<name>` loads one anyway.
// Inside a directory discovery goes one level deep: `*.ts`/`*.js` files;
// sub-directories with a `package.json` naming `pi.extensions`, else with an
// `index.ts`/`index.js`. Nothing here executes extension code.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join, relative, resolve } from "node:path";
import { PROJECT_CONFIG_DIR, resolveUserPath } from "../config/paths.js";
import { picomatch } from "../lazy-cjs.js";
import type { SourceInfo } from "./types.js";

export interface ExtensionSource {
	/** Absolute path of the module to load; `builtin:<name>` for a built-in. */
	path: string;
	sourceInfo: SourceInfo;
	/** Set for a built-in: its name (the caller maps it to a module). */
	builtin?: string;
}

export interface DiscoveryDiagnostic {
	path: string;
	message: string;
}

export interface DiscoverOptions {
	cwd: string;
	agentDir: string;
	/** Whether the project's `.pi/` may be read. */
	projectTrusted: boolean;
	/** `extensions` from the global settings file. */
	globalSetting?: unknown;
	/** `extensions` from the project settings file (ignored when untrusted). */
	projectSetting?: unknown;
	/** `-e` paths as given. */
	cliPaths?: string[];
	/** `-ne`: no discovery, no settings paths; `-e` still loads. */
	noExtensions?: boolean;
	/** Built-in extension names, in load order (all on unless a setting or `disabledBuiltins` turns one off). */
	builtins?: readonly string[];
	/** Built-ins turned off for this run (`--no-mcp` → "mcp"). */
	disabledBuiltins?: readonly string[];
	/** Extension files of installed pi packages, in precedence order (project ones only when trusted; `-e` ones even with -ne). */
	packageExtensions?: readonly PackageExtension[];
}

/** One extension entry file a pi package brings; `source` is the package source as written. */
export interface PackageExtension {
	path: string;
	source: string;
	scope: SourceInfo["scope"];
	/** The package root. */
	baseDir: string;
}

const isModule = (name: string) => /\.(ts|js|mts|mjs)$/.test(name) && !name.endsWith(".d.ts");

/** The entry points inside one directory an extension lives in (index or package.json manifest). */
function entriesOfPackageDir(dir: string, diagnostics: DiscoveryDiagnostic[]): string[] | undefined {
	const manifest = join(dir, "package.json");
	if (existsSync(manifest)) {
		try {
			const pkg = JSON.parse(readFileSync(manifest, "utf8")) as { pi?: { extensions?: unknown } };
			const list = pkg.pi?.extensions;
			if (Array.isArray(list)) {
				return list.filter((e): e is string => typeof e === "string").map((e) => resolve(dir, e));
			}
		} catch (error) {
			diagnostics.push({ path: manifest, message: `Could not read ${manifest}: ${(error as Error).message}` });
			return [];
		}
	}
	for (const index of ["index.ts", "index.js"]) if (existsSync(join(dir, index))) return [join(dir, index)];
	return undefined;
}

/** Extension entry points directly in `dir` (one level deep). */
export function discoverInDirectory(dir: string, diagnostics: DiscoveryDiagnostic[] = []): string[] {
	let names: string[];
	try {
		names = readdirSync(dir).sort();
	} catch {
		return [];
	}
	const out: string[] = [];
	for (const name of names) {
		if (name.startsWith(".") || name === "node_modules") continue;
		const full = join(dir, name);
		let isDir = false;
		try {
			isDir = statSync(full).isDirectory();
		} catch {
			continue;
		}
		if (isDir) out.push(...(entriesOfPackageDir(full, diagnostics) ?? []));
		else if (isModule(name)) out.push(full);
	}
	return out;
}

/** A configured path (file or directory) as entry points; a missing path is reported and still listed so loading names it. */
function expandPath(path: string, diagnostics: DiscoveryDiagnostic[]): string[] {
	let isDir = false;
	try {
		isDir = statSync(path).isDirectory();
	} catch {
		return [path];
	}
	if (!isDir) return [path];
	const own = entriesOfPackageDir(path, diagnostics);
	if (own) return own;
	const found = discoverInDirectory(path, diagnostics);
	if (found.length === 0) diagnostics.push({ path, message: `No extension found in directory ${path}` });
	return found;
}

function source(path: string, scope: SourceInfo["scope"], src: string, baseDir?: string): ExtensionSource {
	return { path, sourceInfo: { path, source: src, scope, origin: "top-level", ...(baseDir ? { baseDir } : {}) } };
}

interface SettingEntries {
	add: string[];
	include: string[];
	exclude: string[];
	globs: string[];
}

function parseSetting(
	setting: unknown,
	base: string,
	label: string,
	diagnostics: DiscoveryDiagnostic[],
): SettingEntries {
	const out: SettingEntries = { add: [], include: [], exclude: [], globs: [] };
	if (setting === undefined) return out;
	if (!Array.isArray(setting)) {
		diagnostics.push({ path: label, message: `"extensions" in ${label} must be an array of paths` });
		return out;
	}
	for (const entry of setting) {
		if (typeof entry !== "string" || entry.trim() === "") continue;
		if (/^[+-]?builtin:/.test(entry)) continue;
		if (entry.startsWith("!")) out.globs.push(entry.slice(1));
		else if (entry.startsWith("+")) out.include.push(resolveUserPath(entry.slice(1), base));
		else if (entry.startsWith("-")) out.exclude.push(resolveUserPath(entry.slice(1), base));
		else if (/^(npm|git):/.test(entry)) {
			diagnostics.push({
				path: label,
				message: `Extension source "${entry}" in ${label}: package sources belong in "packages" (pi install ${entry})`,
			});
		} else out.add.push(resolveUserPath(entry, base));
	}
	return out;
}

export function discoverExtensions(o: DiscoverOptions): {
	sources: ExtensionSource[];
	diagnostics: DiscoveryDiagnostic[];
} {
	const diagnostics: DiscoveryDiagnostic[] = [];
	const sources: ExtensionSource[] = [];
	const projectConfig = join(o.cwd, PROJECT_CONFIG_DIR);

	const builtins = o.builtins ?? [];
	const builtinSource = (name: string, scope: SourceInfo["scope"]): ExtensionSource => ({
		path: `builtin:${name}`,
		builtin: name,
		sourceInfo: { path: `builtin:${name}`, source: "builtin", scope, origin: "top-level" },
	});
	if (!o.noExtensions) {
		const on = new Map(builtins.map((n) => [n, true]));
		const settings = [o.globalSetting, o.projectTrusted ? o.projectSetting : undefined];
		for (const setting of settings) {
			if (!Array.isArray(setting)) continue;
			for (const entry of setting) {
				const m = typeof entry === "string" ? /^([+-]?)builtin:(.+)$/.exec(entry.trim()) : null;
				if (!m) continue;
				if (!on.has(m[2])) {
					diagnostics.push({ path: entry, message: `Unknown built-in extension "${entry}"` });
					continue;
				}
				on.set(m[2], m[1] !== "-");
			}
		}
		for (const name of o.disabledBuiltins ?? []) on.set(name, false);
		for (const [name, enabled] of on) if (enabled) sources.push(builtinSource(name, "user"));
	}

	if (!o.noExtensions) {
		const globalSetting = parseSetting(o.globalSetting, o.agentDir, "the global settings", diagnostics);
		const projectSetting = o.projectTrusted
			? parseSetting(o.projectSetting, projectConfig, "the project settings", diagnostics)
			: { add: [], include: [], exclude: [], globs: [] };
		const found: ExtensionSource[] = [];
		for (const p of discoverInDirectory(join(o.agentDir, "extensions"), diagnostics))
			found.push(source(p, "user", "local", o.agentDir));
		if (o.projectTrusted) {
			for (const p of discoverInDirectory(join(projectConfig, "extensions"), diagnostics)) {
				found.push(source(p, "project", "local", projectConfig));
			}
		}
		for (const p of globalSetting.add)
			for (const e of expandPath(p, diagnostics)) found.push(source(e, "user", "settings", o.agentDir));
		for (const p of projectSetting.add) {
			for (const e of expandPath(p, diagnostics)) found.push(source(e, "project", "settings", projectConfig));
		}

		const globs = [...globalSetting.globs, ...projectSetting.globs].map((g) => picomatch()(g, { dot: true }));
		const excluded = new Set([...globalSetting.exclude, ...projectSetting.exclude].map((p) => resolve(p)));
		const forced = new Set([...globalSetting.include, ...projectSetting.include].map((p) => resolve(p)));
		const matchesGlob = (s: ExtensionSource) => {
			const base = s.sourceInfo.baseDir ?? o.cwd;
			const candidates = [s.path, relative(base, s.path), basename(s.path)];
			return globs.some((m) => candidates.some((c) => m(c)));
		};
		for (const s of found) {
			const abs = resolve(s.path);
			if (excluded.has(abs)) continue;
			if (!forced.has(abs) && matchesGlob(s)) continue;
			sources.push(s);
		}
		for (const p of forced)
			if (!sources.some((s) => resolve(s.path) === p) && !excluded.has(p)) sources.push(source(p, "user", "settings"));
	}

	// Packages: after the directories and settings paths, before -e paths.
	for (const p of o.packageExtensions ?? []) {
		if (p.scope === "project" && !o.projectTrusted) continue;
		if (o.noExtensions && p.scope !== "temporary") continue;
		sources.push({
			path: p.path,
			sourceInfo: { path: p.path, source: p.source, scope: p.scope, origin: "package", baseDir: p.baseDir },
		});
	}

	for (const given of o.cliPaths ?? []) {
		if (given.startsWith("builtin:")) {
			const name = given.slice("builtin:".length);
			if (builtins.includes(name)) sources.push(builtinSource(name, "temporary"));
			else diagnostics.push({ path: given, message: `-e ${given}: no such built-in extension` });
			continue;
		}
		if (/^(npm|git):/.test(given)) {
			diagnostics.push({
				path: given,
				message: `-e ${given}: package sources are loaded by the package manager, not as a path`,
			});
			continue;
		}
		for (const p of expandPath(resolveUserPath(given, o.cwd), diagnostics)) sources.push(source(p, "temporary", "cli"));
	}

	// The same file found twice (a setting naming a discovered file) loads once, at its first place.
	const seen = new Set<string>();
	return {
		sources: sources.filter((s) => {
			const key = s.builtin ? s.path : resolve(s.path);
			if (seen.has(key)) return false;
			seen.add(key);
			return true;
		}),
		diagnostics,
	};
}
