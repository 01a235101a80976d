// The skill-command and prompt-template stages side by side, in pipeline
// order (skill command first, then template), for callers without the full
// input pipeline. A skill file that cannot be read leaves the text as typed
// and is reported through `onError`.
import { expandPromptTemplate, type PromptTemplateLike } from "./prompt-template.js";
import { expandSkillCommand, type SkillLike } from "./skill-command.js";

export interface ResourceCommandSource {
	skills(): readonly SkillLike[];
	templates(): readonly PromptTemplateLike[];
	readFile(path: string): string;
	onError?(message: string): void;
}

export function expandResourceCommands(text: string, source: ResourceCommandSource): string {
	const skill = expandSkillCommand(text, source.skills(), (p) => source.readFile(p));
	if (skill.kind === "expanded") return skill.text;
	if (skill.kind === "error") {
		source.onError?.(skill.message);
		return text;
	}
	return expandPromptTemplate(text, source.templates());
}
