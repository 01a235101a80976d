// Prompt templates: Markdown files that become `/name` commands. The file
// name (without `.md`) is the command; frontmatter `description` and
// `argument-hint` feed command completion (description defaults to the first
// non-empty body line). Conventional directories give their direct `.md`
// children; directories named in settings, by packages or `--prompt-template`
// are searched recursively. The first template of a name wins; later ones are
// reported as collisions. Bad files are skipped with a warning.
import { basename } from "node:path";
import { describeOrigin, type ResourceDiagnostic, type ResourceOrigin } from "./diagnostics.js";
import { canonicalPath, enterDir, listDir, newWalkGuard, pathKind, readResourceText, type WalkGuard } from "./files.js";
import { type FrontmatterError, frontmatterFieldLine, parseFrontmatter, type YamlParse } from "./frontmatter.js";
import type { LoadResult } from "./skills.js";

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

export interface PromptRoot {
	path: string;
	origin: ResourceOrigin;
	/** Directories: search subdirectories too (settings, packages, CLI). */
	recursive?: boolean;
	/** A conventional location: absence is normal and not reported. */
	optional?: boolean;
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
	const read = readResourceText(filePath);
	if (!read.ok) {
		warn(`skipped: ${read.reason}`);
		return { diagnostics };
	}
	let fm: ReturnType<typeof parseFrontmatter>;
	try {
		fm = parseFrontmatter(read.text, parseYaml);
	} catch (error) {
		warn(`skipped: ${(error as Error).message}`, undefined, (error as FrontmatterError).line);
		return { diagnostics };
	}
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

function collectMarkdown(dir: string, recursive: boolean, depth: number, guard: WalkGuard, out: string[]): void {
	if (!enterDir(guard, dir, depth)) return;
	for (const entry of listDir(dir)) {
		if (entry.kind === "file" && entry.name.toLowerCase().endsWith(".md")) out.push(entry.path);
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
	const items: PromptTemplate[] = [];
	const diagnostics: ResourceDiagnostic[] = [];
	const byName = new Map<string, PromptTemplate>();
	const seenFiles = new Set<string>();
	const loadOne = (path: string, origin: ResourceOrigin) => {
		if (options.include && !options.include(path, origin)) return;
		const key = canonicalPath(path);
		if (seenFiles.has(key)) return;
		seenFiles.add(key);
		const result = loadPromptTemplateFile(path, origin, options.parseYaml);
		diagnostics.push(...result.diagnostics);
		const template = result.template;
		if (!template) return;
		const winner = byName.get(template.name);
		if (winner) {
			diagnostics.push({
				type: "collision",
				kind: "prompt",
				path,
				message: `template "/${template.name}" skipped: the name is taken by ${winner.filePath} (${describeOrigin(winner.origin)})`,
				collision: { name: template.name, winnerPath: winner.filePath, loserPath: path },
			});
			return;
		}
		byName.set(template.name, template);
		items.push(template);
	};
	for (const root of roots) {
		const kind = pathKind(root.path);
		if (kind === "missing") {
			if (!root.optional) {
				diagnostics.push({
					type: "warning",
					kind: "prompt",
					path: root.path,
					message: "prompt template path does not exist",
				});
			}
		} else if (kind === "file") {
			if (root.path.toLowerCase().endsWith(".md")) loadOne(root.path, root.origin);
			else diagnostics.push({ type: "warning", kind: "prompt", path: root.path, message: "not a Markdown file" });
		} else if (kind === "dir") {
			const guard = newWalkGuard();
			const files: string[] = [];
			collectMarkdown(root.path, root.recursive === true, 0, guard, files);
			if (guard.truncated) {
				diagnostics.push({
					type: "warning",
					kind: "prompt",
					path: root.path,
					message: `search incomplete: ${guard.truncated}`,
				});
			}
			for (const file of files) loadOne(file, root.origin);
		} else {
			diagnostics.push({ type: "warning", kind: "prompt", path: root.path, message: "not a file or directory" });
		}
	}
	return { items, diagnostics };
}
