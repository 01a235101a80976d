// The session's resources: context files, SYSTEM.md / APPEND_SYSTEM.md,
// skills, prompt templates and theme files, from four sources — CLI flags,
// the project (`.pi/`, `.agents/skills` up to the repository root, project
// settings), the user (agent dir, `~/.agents/skills`, user settings) and
// installed pi packages — plus paths extensions add (`resources_discover`).
//
// Trust is an input (`loadProjectResources`): the caller decides it before
// constructing the loader; nothing from the project is read when it is false.
//
// Precedence when two items share a name (first wins, the other is reported
// as a collision): --skill/--prompt-template/--theme, project settings
// entries, project directories, user settings entries, user directories,
// packages (in the order given), extension-provided paths.
import { existsSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { agentPaths, PROJECT_CONFIG_DIR, projectPaths, resolveUserPath } from "../config/paths.js";
import type { SettingsManager } from "../config/settings.js";
import { type ContextFile, loadContextFiles } from "./context-files.js";
import { describeOrigin, formatDiagnosticLine, type ResourceDiagnostic, type ResourceOrigin } from "./diagnostics.js";
import { pathKind, readResourceText } from "./files.js";
import type { YamlParse } from "./frontmatter.js";
import { loadPromptTemplates, type PromptRoot, type PromptTemplate } from "./prompt-templates.js";
import { emptyEntries, entriesFilter, parseResourceEntries, type ResourceEntries } from "./resource-paths.js";
import { loadSkills, type Skill, type SkillRoot } from "./skills.js";
import { collectThemeFiles, type ThemeFile, type ThemeRoot } from "./theme-files.js";

const requireHere = createRequire(import.meta.url);

export type { PromptTemplate } from "./prompt-templates.js";
export type { Skill } from "./skills.js";
export type { ThemeFile } from "./theme-files.js";

/** A skill as listed in the system prompt. */
export interface SkillInfo {
	name: string;
	description: string;
	/** Absolute path of the skill file. */
	filePath: string;
}

/** Paths an extension (or the SDK) adds to discovery. */
export interface ExtraResourcePaths {
	skillPaths?: string[];
	promptPaths?: string[];
	themePaths?: string[];
}

/** An installed pi package's directory; its `package.json` `pi` manifest (or conventional dirs) says what it holds. */
export interface PackageResourceRoot {
	root: string;
	/** Project packages load only when the project is trusted. */
	scope: "user" | "project";
	/** Display name (default: the root); for installed packages, the source as written. */
	name?: string;
	/**
	 * The package's resources as the package manager resolved them (manifest,
	 * conventions and the settings filter applied): exactly these load. When
	 * absent, the root's manifest or conventional directories are read here.
	 */
	resources?: { skills?: string[]; prompts?: string[]; themes?: string[] };
}

export interface ResourceLoader {
	/** (Re)discovers everything; call before the getters. */
	reload(): Promise<void>;
	getContextFiles(): ContextFile[];
	/** A replacement for the default base instructions, or undefined for the default. */
	getSystemPrompt(): string | undefined;
	/** Texts appended to the system prompt, in order. */
	getAppendSystemPrompt(): string[];
	getSkills(): SkillInfo[];
	/** Problems found while loading (unreadable files …), for the caller to show. */
	getDiagnostics(): string[];
	/** Prompt templates (optional for custom loaders). */
	getPromptTemplates?(): PromptTemplate[];
	/** Skill details for `/skill:name` (optional for custom loaders; default: getSkills with baseDir = the file's dir). */
	getSkillDetails?(): Skill[];
}

export interface DefaultResourceLoaderOptions {
	cwd: string;
	agentDir: string;
	/** Where `~/.agents/skills` lives. Default: the OS home directory. */
	homeDir?: string;
	/** --system-prompt: text, or a path to a file with the text. Beats SYSTEM.md. */
	systemPrompt?: string;
	/** --append-system-prompt values (text or file path). Replace APPEND_SYSTEM.md discovery when given. */
	appendSystemPrompt?: string[];
	/** -nc: no AGENTS.md / CLAUDE.md. */
	noContextFiles?: boolean;
	/** The trust decision: whether anything from the project may be read. Default true. */
	loadProjectResources?: boolean;
	/** Source of the `skills` / `prompts` / `themes` arrays per scope. */
	settings?: Pick<SettingsManager, "getScopeSettings">;
	/** --skill paths (files or directories, relative to cwd). */
	skillPaths?: string[];
	/** -ns: no discovered skills (--skill still loads). */
	noSkills?: boolean;
	/** --prompt-template paths. */
	promptTemplatePaths?: string[];
	/** -np: no discovered templates (--prompt-template still loads). */
	noPromptTemplates?: boolean;
	/** --theme paths. */
	themePaths?: string[];
	/** --no-themes: no discovered themes (--theme still loads). */
	noThemes?: boolean;
	/** Installed packages, in precedence order. */
	packageRoots?: PackageResourceRoot[];
	contextFilesOverride?: (found: ContextFile[]) => ContextFile[];
	systemPromptOverride?: (found: string | undefined) => string | undefined;
}

/** A value that names an existing file is replaced by the file's text. */
export function readTextOrFile(value: string, cwd: string): string {
	const path = resolve(cwd, value);
	try {
		if (value.length < 4096 && existsSync(path) && statSync(path).isFile()) return readFileSync(path, "utf8");
	} catch {
		// Not a readable file: the value is the text.
	}
	return value;
}

/** The nearest directory at or above `dir` holding `.git`; undefined when there is none. */
export function findRepositoryRoot(dir: string): string | undefined {
	for (let d = resolve(dir); ; d = dirname(d)) {
		if (existsSync(join(d, ".git"))) return d;
		if (dirname(d) === d) return undefined;
	}
}

/** `.agents/skills` in cwd and each parent, up to the repository root (or the filesystem root). */
export function ancestorAgentsSkillDirs(cwd: string): string[] {
	const stop = findRepositoryRoot(cwd);
	const dirs: string[] = [];
	for (let d = resolve(cwd); ; d = dirname(d)) {
		dirs.push(join(d, ".agents", "skills"));
		if (d === stop || dirname(d) === d) return dirs;
	}
}

interface PackageManifest {
	skills?: string[];
	prompts?: string[];
	themes?: string[];
}

function readPackageManifest(root: string, diagnostics: ResourceDiagnostic[]): PackageManifest | undefined {
	const file = join(root, "package.json");
	const read = readResourceText(file);
	if (!read.ok) return undefined;
	try {
		const json = JSON.parse(read.text) as { pi?: unknown };
		const pi = json.pi;
		if (!pi || typeof pi !== "object" || Array.isArray(pi)) return undefined;
		const strings = (v: unknown) =>
			Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : undefined;
		const m = pi as Record<string, unknown>;
		const manifest = { skills: strings(m.skills), prompts: strings(m.prompts), themes: strings(m.themes) };
		return manifest.skills || manifest.prompts || manifest.themes ? manifest : undefined;
	} catch (error) {
		diagnostics.push({
			type: "warning",
			kind: "skill",
			path: file,
			message: `package manifest ignored: ${(error as Error).message}`,
		});
		return undefined;
	}
}

type Kind = "skills" | "prompts" | "themes";

interface KindPlan<Root> {
	roots: Root[];
	entries: ResourceEntries;
	/** Problems found while planning (package manifests). */
	diagnostics: ResourceDiagnostic[];
}

export class DefaultResourceLoader implements ResourceLoader {
	private contextFiles: ContextFile[] = [];
	private systemPrompt: string | undefined;
	private appendSystemPrompt: string[] = [];
	private skills: Skill[] = [];
	private templates: PromptTemplate[] = [];
	private themeFiles: ThemeFile[] = [];
	private diagnostics: ResourceDiagnostic[] = [];
	private kindDiagnostics: Record<Kind, ResourceDiagnostic[]> = { skills: [], prompts: [], themes: [] };
	private readonly extra: { paths: ExtraResourcePaths; owner: string }[] = [];
	private parseYaml: YamlParse | undefined;

	constructor(private options: DefaultResourceLoaderOptions) {}

	/**
	 * Another folder (a session switch entered it) and its trust decision;
	 * paths extensions added are dropped (the new folder's extensions add
	 * theirs). Takes effect with the next `reload()`.
	 */
	retarget(o: { cwd: string; loadProjectResources: boolean; packageRoots?: PackageResourceRoot[] }): void {
		this.options = {
			...this.options,
			cwd: o.cwd,
			loadProjectResources: o.loadProjectResources,
			packageRoots: o.packageRoots,
		};
		this.clearExtraPaths();
	}

	/** Forgets the paths `resources_discover` added (a reload asks the extensions again). */
	clearExtraPaths(): void {
		this.extra.length = 0;
	}

	private get trusted(): boolean {
		return this.options.loadProjectResources !== false;
	}

	async reload(): Promise<void> {
		const { cwd, agentDir } = this.options;
		const project = this.trusted;
		this.diagnostics = [];

		let files: ContextFile[] = [];
		if (!this.options.noContextFiles) {
			files = loadContextFiles({ cwd, agentDir }, this.diagnostics);
			if (!project) files = files.filter((f) => f.path.startsWith(resolve(agentDir)));
		}
		this.contextFiles = this.options.contextFilesOverride ? this.options.contextFilesOverride(files) : files;

		const global = agentPaths(agentDir);
		const local = projectPaths(cwd);
		const pick = (projectFile: string, globalFile: string): string | undefined => {
			for (const file of project ? [projectFile, globalFile] : [globalFile]) {
				const text = this.readOptional(file);
				if (text !== undefined) return text;
			}
			return undefined;
		};

		const base =
			this.options.systemPrompt !== undefined
				? readTextOrFile(this.options.systemPrompt, cwd)
				: pick(local.systemPrompt, global.systemPrompt);
		this.systemPrompt = this.options.systemPromptOverride ? this.options.systemPromptOverride(base) : base;

		if (this.options.appendSystemPrompt && this.options.appendSystemPrompt.length > 0) {
			this.appendSystemPrompt = this.options.appendSystemPrompt.map((v) => readTextOrFile(v, cwd));
		} else {
			const text = pick(local.appendSystemPrompt, global.appendSystemPrompt);
			this.appendSystemPrompt = text === undefined ? [] : [text];
		}

		await this.discover();
	}

	/**
	 * Adds paths from an extension's `resources_discover` (or the SDK) and
	 * re-runs skill, template and theme discovery. Extension paths rank after
	 * every other source. Call after the first `reload()`.
	 */
	async addExtraPaths(paths: ExtraResourcePaths, owner = "extension"): Promise<void> {
		this.extra.push({ paths, owner });
		await this.discover();
	}

	private async discover(): Promise<void> {
		const skills = this.plan("skills");
		const prompts = this.plan("prompts");
		// The YAML parser is loaded on the first frontmatter the flat fast path cannot read
		// (frontmatter.ts): most skill and template files never need it, and loading it is
		// a large part of a cold start.
		if (!this.parseYaml) {
			let yaml: typeof import("yaml") | undefined;
			this.parseYaml = (text) => {
				yaml ??= requireHere("yaml") as typeof import("yaml");
				return yaml.parse(text);
			};
		}
		const parseYaml: YamlParse = this.parseYaml;
		const skillResult = loadSkills(skills.roots as SkillRoot[], { parseYaml, include: entriesFilter(skills.entries) });
		this.skills = skillResult.items;
		this.kindDiagnostics.skills = [...skills.diagnostics, ...skillResult.diagnostics];

		const promptResult = loadPromptTemplates(prompts.roots as PromptRoot[], {
			parseYaml,
			include: entriesFilter(prompts.entries),
		});
		this.templates = promptResult.items;
		this.kindDiagnostics.prompts = [...prompts.diagnostics, ...promptResult.diagnostics];

		const themes = this.plan("themes");
		const themeResult = collectThemeFiles(themes.roots as ThemeRoot[], entriesFilter(themes.entries));
		this.themeFiles = themeResult.items;
		this.kindDiagnostics.themes = [...themes.diagnostics, ...themeResult.diagnostics];
	}

	/** The roots of one kind in precedence order, and the settings exclusions. */
	private plan(kind: Kind): KindPlan<SkillRoot & PromptRoot & ThemeRoot> {
		const o = this.options;
		const roots: (SkillRoot & PromptRoot & ThemeRoot)[] = [];
		const entries = emptyEntries();
		const diagnostics: ResourceDiagnostic[] = [];
		const cliPaths = kind === "skills" ? o.skillPaths : kind === "prompts" ? o.promptTemplatePaths : o.themePaths;
		const noDiscovery = kind === "skills" ? o.noSkills : kind === "prompts" ? o.noPromptTemplates : o.noThemes;
		const cli: ResourceOrigin = { source: "cli" };
		for (const p of cliPaths ?? []) roots.push({ path: resolveUserPath(p, o.cwd), origin: cli, recursive: true });
		if (!noDiscovery) this.planDiscovered(kind, roots, entries, diagnostics);
		// Extension paths are explicit, like --skill: -ns does not drop them.
		for (const { paths, owner } of this.extra) {
			const list = kind === "skills" ? paths.skillPaths : kind === "prompts" ? paths.promptPaths : paths.themePaths;
			const origin: ResourceOrigin = { source: "extension", owner };
			for (const p of list ?? []) roots.push({ path: resolveUserPath(p, o.cwd), origin, recursive: true });
		}
		return { roots, entries, diagnostics };
	}

	/** Settings entries, conventional directories and packages (what -ns / -np / --no-themes turn off). */
	private planDiscovered(
		kind: Kind,
		roots: (SkillRoot & PromptRoot & ThemeRoot)[],
		entries: ResourceEntries,
		diagnostics: ResourceDiagnostic[],
	): void {
		const o = this.options;
		const { cwd, agentDir } = o;
		const dirName = kind; // skills/, prompts/, themes/
		const proj: ResourceOrigin = { source: "project" };
		const user: ResourceOrigin = { source: "user" };
		const projectBase = join(cwd, PROJECT_CONFIG_DIR);
		const scopeEntries = (scope: "global" | "project", baseDir: string): ResourceEntries =>
			parseResourceEntries(o.settings?.getScopeSettings(scope)[kind], baseDir);
		if (this.trusted) {
			const pe = scopeEntries("project", projectBase);
			for (const p of pe.add) roots.push({ path: p, origin: proj, recursive: true });
			merge(entries, pe);
			roots.push({ path: join(projectBase, dirName), origin: proj, optional: true });
			if (kind === "skills") {
				const userAgents = join(o.homeDir ?? homedir(), ".agents", "skills");
				for (const dir of ancestorAgentsSkillDirs(cwd)) {
					if (resolve(dir) !== resolve(userAgents)) roots.push({ path: dir, origin: proj, optional: true });
				}
			}
		}
		const ue = scopeEntries("global", agentDir);
		for (const p of ue.add) roots.push({ path: p, origin: user, recursive: true });
		merge(entries, ue);
		roots.push({ path: join(agentDir, dirName), origin: user, optional: true });
		if (kind === "skills") {
			roots.push({ path: join(o.homeDir ?? homedir(), ".agents", "skills"), origin: user, optional: true });
		}

		for (const pkg of o.packageRoots ?? []) {
			if (pkg.scope === "project" && !this.trusted) continue;
			const origin: ResourceOrigin = { source: "package", owner: pkg.name ?? pkg.root };
			if (pkg.resources) {
				for (const p of pkg.resources[kind] ?? []) roots.push({ path: p, origin, recursive: true });
				continue;
			}
			const manifest = readPackageManifest(pkg.root, diagnostics);
			const listed = manifest?.[kind];
			if (manifest) {
				for (const p of listed ?? []) roots.push({ path: resolve(pkg.root, p), origin, recursive: true });
			} else {
				roots.push({ path: join(pkg.root, dirName), origin, optional: true, recursive: true });
			}
		}
	}

	private readOptional(file: string): string | undefined {
		if (pathKind(file) === "missing") return undefined;
		const read = readResourceText(file);
		if (read.ok) return read.text;
		if (!read.missing) {
			this.diagnostics.push({ type: "warning", kind: "system-prompt", path: file, message: `skipped: ${read.reason}` });
		}
		return undefined;
	}

	getContextFiles(): ContextFile[] {
		return this.contextFiles;
	}
	getSystemPrompt(): string | undefined {
		return this.systemPrompt;
	}
	getAppendSystemPrompt(): string[] {
		return this.appendSystemPrompt;
	}
	getSkills(): Skill[] {
		return this.skills;
	}
	getSkillDetails(): Skill[] {
		return this.skills;
	}
	getPromptTemplates(): PromptTemplate[] {
		return this.templates;
	}
	/** Theme files in precedence order (validated by the interactive mode). */
	getThemeFiles(): ThemeFile[] {
		return this.themeFiles;
	}
	/** Every diagnostic, structured (info notes included). */
	getResourceDiagnostics(): ResourceDiagnostic[] {
		return [
			...this.diagnostics,
			...this.kindDiagnostics.skills,
			...this.kindDiagnostics.prompts,
			...this.kindDiagnostics.themes,
		];
	}
	/** Warnings, errors and collisions as start-up lines (info notes are for --verbose). */
	getDiagnostics(): string[] {
		return this.getResourceDiagnostics()
			.filter((d) => d.type !== "info")
			.map(formatDiagnosticLine);
	}

	/** What --verbose prints: every loaded item with its origin and path, then every diagnostic. */
	describe(): string[] {
		const lines: string[] = [];
		const section = (title: string, rows: string[]) => {
			lines.push(`${title} (${rows.length})${rows.length > 0 ? ":" : ""}`);
			for (const r of rows) lines.push(`  ${r}`);
		};
		section(
			"Context files",
			this.contextFiles.map((f) => f.path),
		);
		section(
			"Skills",
			this.skills.map(
				(s) =>
					`${s.name} [${describeOrigin(s.origin)}] ${s.filePath}${s.disableModelInvocation ? " (command only)" : ""}`,
			),
		);
		section(
			"Prompt templates",
			this.templates.map((t) => `/${t.name} [${describeOrigin(t.origin)}] ${t.filePath}`),
		);
		section(
			"Theme files",
			this.themeFiles.map((t) => `[${describeOrigin(t.origin)}] ${t.path}`),
		);
		if (!this.trusted) lines.push("Project resources not loaded (untrusted project).");
		for (const d of this.getResourceDiagnostics()) lines.push(formatDiagnosticLine(d));
		return lines;
	}
}

function merge(into: ResourceEntries, from: ResourceEntries): void {
	into.forced.push(...from.forced);
	into.excluded.push(...from.excluded);
	into.globs.push(...from.globs);
}
