// Prompt templates: Markdown files that become `/name` commands. The file
// name (without `.md`) is the command; frontmatter `description` and
// `argument-hint` feed command completion (description defaults to the first
// non-empty body line). Conventional directories give their direct `.md`
// children; directories named in settings, by packages or `--prompt-template`
// are searched recursively. The first template of a name wins; later ones are
// reported as collisions. Bad files are skipped with a warning.
import { basename } from "node:path";
import type { ResourceDiagnostic, ResourceOrigin } from "./diagnostics.js";
import { enterDir, listDir, type WalkGuard } from "./files.js";
import { frontmatterFieldLine, type YamlParse } from "./frontmatter.js";
import { type FoundFile, type LoadResult, loadFirstOfName, readFrontmatterFile, type WalkRoot } from "./root-walk.js";

/** Longest description derived from the body (characters). */
const DERIVED_DESCRIPTION_MAX = 60;

export interface PromptTemplate {
	name: string;
	description: string;
	argumentHint?: string;
	/** The body (frontmatter removed), with the substitution placeholders. */
	content: string;
	filePath: string;
	origin: ResourceOrigin;
}

export interface PromptRoot extends WalkRoot {
	/** Directories: search subdirectories too (settings, packages, CLI). */
	recursive?: boolean;
}

export interface LoadPromptTemplatesOptions {
	parseYaml: YamlParse;
	include?: (filePath: string, origin: ResourceOrigin) => boolean;
}

export function loadPromptTemplateFile(
	filePath: string,
	origin: ResourceOrigin,
	parseYaml: YamlParse,
): { template?: PromptTemplate; diagnostics: ResourceDiagnostic[] } {
	const diagnostics: ResourceDiagnostic[] = [];
	const warn = (message: string, field?: string, line?: number) =>
		diagnostics.push({ type: "warning", kind: "prompt", message, path: filePath, field, line });
	const fm = readFrontmatterFile(filePath, parseYaml, warn);
	if (!fm) return { diagnostics };
	const name = basename(filePath).replace(/\.md$/i, "");
	if (/\s/.test(name) || name === "") {
		warn("skipped: a template's file name must not contain spaces (it is the command name)");
		return { diagnostics };
	}
	let description = "";
	if (fm.data.description !== undefined) {
		if (typeof fm.data.description === "string") description = fm.data.description.trim();
		else warn("description must be a string", "description", frontmatterFieldLine(fm, "description"));
	}
	if (description === "") {
		const first =
			fm.body
				.split(/\r?\n/)
				.find((l) => l.trim() !== "")
				?.trim() ?? "";
		description = first.length > DERIVED_DESCRIPTION_MAX ? `${first.slice(0, DERIVED_DESCRIPTION_MAX)}...` : first;
	}
	const template: PromptTemplate = { name, description, content: fm.body, filePath, origin };
	const hint = fm.data["argument-hint"];
	if (hint !== undefined) {
		if (typeof hint === "string") template.argumentHint = hint;
		else warn("argument-hint must be a string", "argument-hint", frontmatterFieldLine(fm, "argument-hint"));
	}
	return { template, diagnostics };
}

function collectMarkdown(dir: string, recursive: boolean, depth: number, guard: WalkGuard, out: FoundFile[]): void {
	if (!enterDir(guard, dir, depth)) return;
	for (const entry of listDir(dir)) {
		if (entry.kind === "file" && entry.name.toLowerCase().endsWith(".md"))
			out.push({ path: entry.path, declared: false });
		else if (recursive && entry.kind === "dir" && !entry.name.startsWith(".") && entry.name !== "node_modules") {
			collectMarkdown(entry.path, true, depth + 1, guard, out);
		}
	}
}

/** Loads templates from roots in precedence order: the first template of a name wins. */
export function loadPromptTemplates(
	roots: readonly PromptRoot[],
	options: LoadPromptTemplatesOptions,
): LoadResult<PromptTemplate> {
	return loadFirstOfName(
		roots,
		{
			kind: "prompt",
			noun: "prompt template",
			label: (name) => `template "/${name}"`,
			collect: (root, guard, out) => collectMarkdown(root.path, root.recursive === true, 0, guard, out),
			loadFile: (file, origin) => {
				const { template, diagnostics } = loadPromptTemplateFile(file.path, origin, options.parseYaml);
				return { item: template, diagnostics };
			},
		},
		options.include,
	);
}
