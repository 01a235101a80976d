// Prompt templates (`/name`) and skills (`/skill:name`) in `/` completion,
// with their descriptions and argument hints. Typed, they go down the prompt
// path like any text (the session expands them); these entries only make
// them discoverable. Skills are listed only while the `enableSkillCommands`
// setting is on (the default), the same switch the expansion honours.
// Built-in and extension commands keep their names: a template of the same
// name is not listed.
import type { CommandRegistry } from "../context.js";

export interface ResourceCommandSource {
	templates(): readonly { name: string; description: string; argumentHint?: string }[];
	skills(): readonly { name: string; description: string }[];
	skillCommandsEnabled(): boolean;
}

/** (Re)lists templates and skills; returns the names it registered, for the next sync to remove. */
export function syncResourceCommands(
	registry: CommandRegistry,
	source: ResourceCommandSource,
	previous: ReadonlySet<string>,
): Set<string> {
	for (const name of previous) registry.unregister(name);
	const registered = new Set<string>();
	const add = (name: string, description: string, argumentHint?: string) => {
		if (registry.has(name)) return;
		registry.register({
			name,
			description,
			argumentHint,
			sendAsPrompt: true,
			run: (args, ctx) => ctx.session.prompt(args ? `/${name} ${args}` : `/${name}`),
		});
		registered.add(name);
	};
	for (const t of source.templates()) add(t.name, t.description, t.argumentHint);
	if (source.skillCommandsEnabled()) for (const s of source.skills()) add(`skill:${s.name}`, s.description);
	return registered;
}
