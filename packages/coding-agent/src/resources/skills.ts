// Skills: directories holding a SKILL.md (Agent Skills format), plus plain
// `.md` files directly in a skills root that declare a description. Found
// recursively; a directory with a SKILL.md is a skill and is not searched
// further; dot-entries and node_modules are skipped, as are paths matched by
// `.gitignore` / `.ignore` / `.fdignore` files inside the tree.
//
// Validation follows the Agent Skills specification as pi applies it: a file
// that cannot be read or parsed, or a SKILL.md without a description, is not
// loaded (warning); a name or field that breaks the spec's rules is a warning
// and the skill still loads. The first skill of a name wins; later ones are
// reported as collisions. Roots are given in precedence order by the loader.
import { basename, dirname, relative, sep } from "node:path";
import type { Ignore } from "ignore";
import { ignoreFactory } from "../lazy-cjs.js";
import type { ResourceDiagnostic, ResourceOrigin } from "./diagnostics.js";
import { enterDir, listDir, readResourceText, type WalkGuard } from "./files.js";
import { frontmatterFieldLine, type YamlParse } from "./frontmatter.js";
import { type FoundFile, type LoadResult, loadFirstOfName, readFrontmatterFile, type WalkRoot } from "./root-walk.js";

export const SKILL_FILE = "SKILL.md";
export const MAX_SKILL_NAME = 64;
export const MAX_SKILL_DESCRIPTION = 1024;
export const MAX_SKILL_COMPATIBILITY = 500;
const KNOWN_FIELDS = new Set([
	"name",
	"description",
	"license",
	"compatibility",
	"metadata",
	"allowed-tools",
	"disable-model-invocation",
]);
const IGNORE_FILES = [".gitignore", ".ignore", ".fdignore"];

export interface Skill {
	name: string;
	description: string;
	/** Absolute path of the skill file. */
	filePath: string;
	/** The skill's directory: relative references resolve against it. */
	baseDir: string;
	origin: ResourceOrigin;
	/** Only `/skill:name` invokes it; the system prompt does not list it. */
	disableModelInvocation: boolean;
	license?: string;
	compatibility?: string;
	metadata?: Record<string, unknown>;
	allowedTools?: string[];
}

/** A place to look for skills: a directory (searched) or a file. */
export type SkillRoot = WalkRoot;

export interface LoadSkillsOptions {
	parseYaml: YamlParse;
	/** Settings exclusions (`!glob`, `-path`): false drops the file silently. */
	include?: (filePath: string, origin: ResourceOrigin) => boolean;
}

/** Agent Skills name rules; each broken rule is one message. */
export function validateSkillName(name: string): string[] {
	const problems: string[] = [];
	if (name.length === 0) problems.push("name is empty");
	if (name.length > MAX_SKILL_NAME) problems.push(`name is longer than ${MAX_SKILL_NAME} characters (${name.length})`);
	if (!/^[a-z0-9-]*$/.test(name)) problems.push("name may only contain lowercase letters a-z, digits and hyphens");
	if (name.startsWith("-") || name.endsWith("-")) problems.push("name must not start or end with a hyphen");
	if (name.includes("--")) problems.push("name must not contain two hyphens in a row");
	return problems;
}

function isMapping(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Reads and validates one skill file. `declared`: a SKILL.md (a plain .md without a description is silently not a skill). */
export function loadSkillFile(
	filePath: string,
	origin: ResourceOrigin,
	parseYaml: YamlParse,
	declared = basename(filePath) === SKILL_FILE,
): { skill?: Skill; diagnostics: ResourceDiagnostic[] } {
	const diagnostics: ResourceDiagnostic[] = [];
	const warn = (message: string, field?: string, line?: number, type: ResourceDiagnostic["type"] = "warning") =>
		diagnostics.push({ type, kind: "skill", message, path: filePath, field, line });
	// A plain .md that does not parse is silently not a skill.
	const fm = readFrontmatterFile(filePath, parseYaml, warn, declared);
	if (!fm) return { diagnostics };
	const data = fm.data;
	const lineOf = (key: string) => frontmatterFieldLine(fm, key);
	const description = data.description;
	const hasDescription = typeof description === "string" && description.trim() !== "";
	if (!hasDescription) {
		if (declared) {
			const message =
				description === undefined
					? "skipped: description is required"
					: "skipped: description must be a non-empty string";
			warn(message, "description", lineOf("description") ?? (fm.present ? 1 : undefined));
		}
		return { diagnostics };
	}
	if (description.length > MAX_SKILL_DESCRIPTION) {
		warn(
			`description is longer than ${MAX_SKILL_DESCRIPTION} characters (${description.length})`,
			"description",
			lineOf("description"),
		);
	}
	const baseDir = dirname(filePath);
	const fallbackName = declared ? basename(baseDir) : basename(filePath).replace(/\.md$/i, "");
	let name = fallbackName;
	if (data.name !== undefined) {
		if (typeof data.name === "string" && data.name !== "") name = data.name;
		else warn(`name must be a non-empty string; using "${fallbackName}"`, "name", lineOf("name"));
	}
	for (const problem of validateSkillName(name)) warn(problem, "name", lineOf("name"));
	if (declared && name !== basename(baseDir)) {
		// The spec asks for a match; pi loads it anyway (1.x behaviour), so only --verbose mentions it.
		warn(`name "${name}" differs from its directory "${basename(baseDir)}"`, "name", lineOf("name"), "info");
	}
	const skill: Skill = {
		name,
		description,
		filePath,
		baseDir,
		origin,
		disableModelInvocation: data["disable-model-invocation"] === true,
	};
	const dmi = data["disable-model-invocation"];
	if (dmi !== undefined && typeof dmi !== "boolean") {
		warn(
			"disable-model-invocation must be true or false",
			"disable-model-invocation",
			lineOf("disable-model-invocation"),
		);
	}
	if (data.license !== undefined) {
		if (typeof data.license === "string") skill.license = data.license;
		else warn("license must be a string", "license", lineOf("license"));
	}
	if (data.compatibility !== undefined) {
		if (typeof data.compatibility !== "string" || data.compatibility.trim() === "") {
			warn("compatibility must be a non-empty string", "compatibility", lineOf("compatibility"));
		} else {
			if (data.compatibility.length > MAX_SKILL_COMPATIBILITY) {
				warn(
					`compatibility is longer than ${MAX_SKILL_COMPATIBILITY} characters (${data.compatibility.length})`,
					"compatibility",
					lineOf("compatibility"),
				);
			}
			skill.compatibility = data.compatibility;
		}
	}
	if (data.metadata !== undefined) {
		if (isMapping(data.metadata)) skill.metadata = data.metadata;
		else warn("metadata must be a mapping of keys to values", "metadata", lineOf("metadata"));
	}
	const tools = data["allowed-tools"];
	if (tools !== undefined) {
		if (typeof tools === "string") skill.allowedTools = tools.split(/\s+/).filter((t) => t !== "");
		else if (Array.isArray(tools) && tools.every((t) => typeof t === "string")) skill.allowedTools = tools;
		else warn("allowed-tools must be a space-separated string of tool names", "allowed-tools", lineOf("allowed-tools"));
	}
	for (const key of Object.keys(data)) {
		if (!KNOWN_FIELDS.has(key)) warn(`unknown field "${key}" ignored`, key, lineOf(key), "info");
	}
	return { skill, diagnostics };
}

function toPosix(path: string): string {
	return sep === "/" ? path : path.split(sep).join("/");
}

function addIgnoreFiles(ig: Ignore, dir: string, root: string): void {
	const prefix = toPosix(relative(root, dir));
	for (const name of IGNORE_FILES) {
		const read = readResourceText(`${dir}${sep}${name}`, 256 * 1024);
		if (!read.ok) continue;
		for (const raw of read.text.split(/\r?\n/)) {
			const line = raw.trim();
			if (line === "" || line.startsWith("#")) continue;
			const negated = line.startsWith("!");
			let pattern = negated ? line.slice(1) : line;
			if (pattern.startsWith("/")) pattern = pattern.slice(1);
			const scoped = prefix ? `${prefix}/${pattern}` : pattern;
			ig.add(negated ? `!${scoped}` : scoped);
		}
	}
}

/** Files in a skills directory that may be skills, in discovery order. */
function collectSkillFiles(
	dir: string,
	root: string,
	depth: number,
	ig: Ignore,
	guard: WalkGuard,
	out: FoundFile[],
): void {
	if (!enterDir(guard, dir, depth)) return;
	addIgnoreFiles(ig, dir, root);
	const entries = listDir(dir);
	const ignored = (path: string, isDir: boolean) => {
		const rel = toPosix(relative(root, path));
		return rel !== "" && ig.ignores(isDir ? `${rel}/` : rel);
	};
	const skillFile = entries.find((e) => e.name === SKILL_FILE && e.kind === "file");
	if (skillFile && !ignored(skillFile.path, false)) {
		out.push({ path: skillFile.path, declared: true });
		return;
	}
	for (const entry of entries) {
		if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
		if (entry.kind === "dir") {
			if (!ignored(entry.path, true)) collectSkillFiles(entry.path, root, depth + 1, ig, guard, out);
		} else if (entry.kind === "file" && depth === 0 && entry.name.toLowerCase().endsWith(".md")) {
			if (!ignored(entry.path, false)) out.push({ path: entry.path, declared: false });
		}
	}
}

/** Loads skills from roots in precedence order: the first skill of a name wins. */
export function loadSkills(roots: readonly SkillRoot[], options: LoadSkillsOptions): LoadResult<Skill> {
	return loadFirstOfName(
		roots,
		{
			kind: "skill",
			noun: "skill",
			label: (name) => `skill "${name}"`,
			collect: (root, guard, out) => collectSkillFiles(root.path, root.path, 0, ignoreFactory()(), guard, out),
			loadFile: (file, origin) => {
				const { skill, diagnostics } = loadSkillFile(file.path, origin, options.parseYaml, file.declared);
				return { item: skill, diagnostics };
			},
		},
		options.include,
	);
}

function escapeXml(text: string): string {
	return text
		.replace(/&/g, "&amp;")
		.replace(/</g, "&lt;")
		.replace(/>/g, "&gt;")
		.replace(/"/g, "&quot;")
		.replace(/'/g, "&apos;");
}

/**
 * The system prompt's skills section: name, description and location of
 * every skill the model may pick itself (progressive disclosure: the model
 * reads the file when a task matches). Empty when there are none.
 * `reader` is the tool the model loads files with; undefined names none.
 */
/** `reader`: the tool the hint names; `null` names none (the reader is callable but not declared). */
export function formatSkillsSection(skills: readonly Skill[], reader: "read" | "bash" | null = "read"): string {
	const visible = skills.filter((s) => !s.disableModelInvocation);
	if (visible.length === 0) return "";
	const how =
		reader === "read"
			? "When a task matches a skill's description, open its file with the read tool first and follow it."
			: reader === "bash"
				? "When a task matches a skill's description, print its file with bash first and follow it."
				: "When a task matches a skill's description, load its file first and follow it.";
	const lines = [
		"Skills hold specialised instructions for particular tasks; only their summaries are listed here.",
		how,
		"Paths inside a skill are relative to its directory (the folder holding SKILL.md); use absolute paths in tool calls.",
		"",
		"<available_skills>",
	];
	for (const s of visible) {
		lines.push(
			"  <skill>",
			`    <name>${escapeXml(s.name)}</name>`,
			`    <description>${escapeXml(s.description)}</description>`,
			`    <location>${escapeXml(s.filePath)}</location>`,
			"  </skill>",
		);
	}
	lines.push("</available_skills>");
	return lines.join("\n");
}
