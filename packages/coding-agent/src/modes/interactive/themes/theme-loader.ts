// Finding theme files: the built-ins, `<agentDir>/themes/*.json`,
// `<cwd>/.pi/themes/*.json`, the `themes` setting (files or directories) and
// `--theme <path>` (files or directories). A bad file is skipped with a
// warning naming it; the first theme of a name wins (built-ins cannot be
// shadowed), later ones are reported.
import { readdirSync, statSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { JsonFileError, lineColumn, parseJsonWithPosition } from "../../../config/json-file.js";
import { expandHome, PROJECT_CONFIG_DIR } from "../../../config/paths.js";
import { readResourceText } from "../../../resources/files.js";
import { BUILTIN_THEMES } from "./builtin-themes.js";
import { resolveThemeJson, type ThemeDefinition, ThemeError } from "./theme-schema.js";

export interface ThemeSource {
	name: string;
	/** Absolute file path; undefined for built-ins. */
	path: string | undefined;
	definition: ThemeDefinition;
}

export interface ThemeDiscoveryOptions {
	cwd: string;
	agentDir: string;
	/** `themes` from the global settings (relative to agentDir). */
	globalSettingPaths?: readonly string[];
	/** `themes` from the project settings (relative to `<cwd>/.pi`). */
	projectSettingPaths?: readonly string[];
	/** `--theme` paths (relative to cwd). */
	cliPaths?: readonly string[];
	/** `--no-themes`: skip the discovered directories (explicit paths still load). */
	noDiscovery?: boolean;
	/** Files found by the resource loader (trust and precedence applied): used instead of the search above. */
	files?: readonly string[];
}

export interface ThemeDiscovery {
	themes: ThemeSource[];
	warnings: string[];
}

/** Reads and validates one theme file; throws ThemeError naming the file. */
export function loadThemeFile(path: string): ThemeSource {
	const read = readResourceText(path);
	if (!read.ok) throw new ThemeError(`${path}: cannot read theme (${read.reason})`);
	const text = read.text;
	let raw: unknown;
	try {
		raw = JSON.parse(text);
	} catch {
		const parsed = parseJsonWithPosition(text, path);
		throw new ThemeError(
			parsed instanceof JsonFileError
				? `${path}:${parsed.line}:${parsed.column}: invalid JSON (${parsed.reason})`
				: `${path}: invalid JSON`,
		);
	}
	try {
		const definition = resolveThemeJson(raw);
		return { name: definition.name, path, definition };
	} catch (error) {
		if (!(error instanceof ThemeError)) throw error;
		const at = error.field ? locateJsonField(text, error.field) : undefined;
		const where = at ? `${path}:${at.line}:${at.column}` : path;
		throw new ThemeError(`${where}: ${error.message}`, error.field);
	}
}

/**
 * Line and column of a dotted field (`colors.accent`) in a JSON text: each
 * key is looked for after the previous one, which is enough for theme files
 * (objects two levels deep, keys unique within them).
 */
export function locateJsonField(text: string, field: string): { line: number; column: number } | undefined {
	let from = 0;
	let found = -1;
	for (const key of field.split(".")) {
		const re = new RegExp(`"${key.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}"\\s*:`, "g");
		re.lastIndex = from;
		const m = re.exec(text);
		if (!m) return undefined;
		found = m.index;
		from = m.index + m[0].length;
	}
	return found < 0 ? undefined : lineColumn(text, found);
}

function jsonFilesIn(dir: string): string[] {
	try {
		return readdirSync(dir)
			.filter((f) => f.endsWith(".json"))
			.sort()
			.map((f) => join(dir, f));
	} catch {
		return [];
	}
}

/** A path that is a directory gives its *.json files; a file gives itself; a missing path a warning. */
function expandPath(path: string, warnings: string[]): string[] {
	try {
		return statSync(path).isDirectory() ? jsonFilesIn(path) : [path];
	} catch {
		warnings.push(`Theme path not found: ${path}`);
		return [];
	}
}

function resolveFrom(base: string, p: string): string {
	const expanded = expandHome(p);
	return isAbsolute(expanded) ? expanded : resolve(base, expanded);
}

export function discoverThemes(options: ThemeDiscoveryOptions): ThemeDiscovery {
	const warnings: string[] = [];
	const files: string[] = [...(options.files ?? [])];
	for (const p of options.cliPaths ?? []) files.push(...expandPath(resolveFrom(options.cwd, p), warnings));
	if (!options.noDiscovery && !options.files) {
		files.push(...jsonFilesIn(join(options.cwd, PROJECT_CONFIG_DIR, "themes")));
		for (const p of options.projectSettingPaths ?? []) {
			files.push(...expandPath(resolveFrom(join(options.cwd, PROJECT_CONFIG_DIR), p), warnings));
		}
		files.push(...jsonFilesIn(join(options.agentDir, "themes")));
		for (const p of options.globalSettingPaths ?? []) {
			files.push(...expandPath(resolveFrom(options.agentDir, p), warnings));
		}
	}
	const themes: ThemeSource[] = BUILTIN_THEMES.map((json) => ({
		name: json.name,
		path: undefined,
		definition: resolveThemeJson(json),
	}));
	const seenPaths = new Set<string>();
	for (const file of files) {
		if (seenPaths.has(file)) continue;
		seenPaths.add(file);
		let source: ThemeSource;
		try {
			source = loadThemeFile(file);
		} catch (error) {
			warnings.push(`Invalid theme ${error instanceof Error ? error.message : String(error)}`);
			continue;
		}
		const existing = themes.find((t) => t.name === source.name);
		if (existing) {
			warnings.push(
				`Theme "${source.name}" in ${file} ignored: the name is taken by ${existing.path ?? "the built-in theme"}`,
			);
			continue;
		}
		themes.push(source);
	}
	return { themes, warnings };
}
