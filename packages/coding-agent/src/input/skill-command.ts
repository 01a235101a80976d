// `/skill:name args` → the skill's instructions wrapped in a <skill> block,
// followed by the arguments as the user's request. The block names the file
// and the directory relative references resolve against (the model may read
// bundled files next). The file is read at expansion time through the given
// reader, so an edited SKILL.md applies without a reload; the frontmatter is
// dropped, the model only needs the instructions.
import { splitSlashCommand } from "./prompt-template.js";

export const SKILL_COMMAND_PREFIX = "skill:";

/** What expansion needs to know about a skill. */
export interface SkillLike {
	name: string;
	/** Absolute path of the skill file. */
	filePath: string;
	/** Directory relative references in the instructions resolve against. */
	baseDir: string;
}

export type SkillExpansion =
	| { kind: "none" }
	| { kind: "expanded"; text: string; skill: SkillLike }
	| { kind: "error"; skill: SkillLike; message: string };

/** The text after a leading YAML frontmatter block (`---` … `---`), or the whole text. */
export function stripFrontmatter(text: string): string {
	const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
	const first = /^---[ \t]*\r?\n/.exec(body);
	if (!first) return body;
	const close = /\r?\n---[ \t]*(\r?\n|$)/g;
	close.lastIndex = first[0].length - 1;
	const end = close.exec(body);
	return end ? body.slice(end.index + end[0].length) : body;
}

/** The message a skill invocation sends: the instructions block, then the arguments. */
export function formatSkillInvocation(skill: SkillLike, instructions: string, args: string): string {
	const block = [
		`<skill name="${skill.name}" location="${skill.filePath}">`,
		`Relative paths in this skill resolve against ${skill.baseDir}.`,
		"",
		instructions.trim(),
		"</skill>",
	].join("\n");
	const request = args.trim();
	return request === "" ? block : `${block}\n\n${request}`;
}

/**
 * Expands `/skill:name args`. Text that is not a skill command, or names an
 * unknown skill, is `none` (the caller sends it as typed); a file that cannot
 * be read is an `error` for the caller to report.
 */
export function expandSkillCommand(
	text: string,
	skills: readonly SkillLike[],
	readFile: (path: string) => string,
): SkillExpansion {
	const command = splitSlashCommand(text);
	if (!command?.name.startsWith(SKILL_COMMAND_PREFIX)) return { kind: "none" };
	const name = command.name.slice(SKILL_COMMAND_PREFIX.length);
	const skill = skills.find((s) => s.name === name);
	if (!skill) return { kind: "none" };
	let content: string;
	try {
		content = readFile(skill.filePath);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		return { kind: "error", skill, message: `Could not read skill ${skill.filePath}: ${code ?? String(error)}` };
	}
	return { kind: "expanded", skill, text: formatSkillInvocation(skill, stripFrontmatter(content), command.args) };
}
