// The resource stages of the input pipeline: `/skill:name args` in the
// `skillCommand` slot and `/template args` in the `promptTemplate` slot. The
// skills and templates are read from the source at each prompt, so a reload
// applies at once. A skill file that cannot be read leaves the text as typed
// and is reported through `onError`.
import type { InputPipeline } from "./pipeline.js";
import { expandPromptTemplate, type PromptTemplateLike } from "./prompt-template.js";
import { expandSkillCommand, type SkillLike } from "./skill-command.js";
import type { InputStage } from "./types.js";

export interface ResourceCommandSource {
	skills(): readonly SkillLike[];
	templates(): readonly PromptTemplateLike[];
	readFile(path: string): string;
	onError?(message: string): void;
}

/** `/skill:name args` → the skill's instructions followed by the arguments. */
export function skillCommandStage(source: ResourceCommandSource): InputStage {
	return (input) => {
		if (!input.text.startsWith("/")) return undefined;
		const skill = expandSkillCommand(input.text, source.skills(), (p) => source.readFile(p));
		if (skill.kind === "expanded") return { action: "transform", input: { ...input, text: skill.text } };
		if (skill.kind === "error") source.onError?.(skill.message);
		return undefined;
	};
}

/** `/name args` of a prompt template → the template with the arguments substituted. */
export function promptTemplateStage(source: Pick<ResourceCommandSource, "templates">): InputStage {
	return (input) => {
		if (!input.text.startsWith("/")) return undefined;
		const text = expandPromptTemplate(input.text, source.templates());
		return text === input.text ? undefined : { action: "transform", input: { ...input, text } };
	};
}

/** Puts both stages into their slots; returns the function that removes them again. */
export function useResourceCommands(pipeline: InputPipeline, source: ResourceCommandSource): () => void {
	const offs = [
		pipeline.use("skillCommand", skillCommandStage(source)),
		pipeline.use("promptTemplate", promptTemplateStage(source)),
	];
	return () => {
		for (const off of offs) off();
	};
}
