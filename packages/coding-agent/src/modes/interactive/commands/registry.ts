// Slash commands of the interactive mode.
//
// A command is one object in its own file under `commands/`:
//
//   export const nameCommand: SlashCommand = {
//     name: "name",                         // typed as "/name"
//     description: "Set the session name",  // shown in autocomplete and /hotkeys
//     argumentHint: "<name>",               // optional, shown after the name
//     getArgumentCompletions: (prefix) => [...],  // optional: items for "/name <prefix>"
//     async run(args, ctx) { ... },         // args: the text after the name, trimmed
//   };
//
// and is listed once in `commands/builtin.ts`. `run` gets the InteractiveContext
// (context.ts): the session, the TUI, the chat view, the editor, status
// messages, `showInEditorArea` for selectors, `reloadFromSession` after the
// session or its leaf changed. A command that throws has its message shown as
// an error; the app keeps running. Commands may be registered later too
// (extensions): `registry.register(command)` replaces one of the same name.
import type { SlashCommand as TuiSlashCommand } from "@pi/tui";
import type { CommandRegistry, SlashCommand } from "../context.js";

export type { SlashCommand } from "../context.js";

export interface ParsedCommand {
	name: string;
	args: string;
}

/** "/name rest of line" → {name, args}; undefined when the text is not a slash command. */
export function parseSlashCommand(text: string): ParsedCommand | undefined {
	const m = /^\/([^\s/]+)(?:\s+([\s\S]*))?$/.exec(text.trim());
	if (!m) return undefined;
	return { name: m[1], args: (m[2] ?? "").trim() };
}

export class SlashCommandRegistry implements CommandRegistry {
	private readonly commands = new Map<string, SlashCommand>();
	private readonly listeners = new Set<() => void>();

	/** Adds a command, replacing any with the same name. */
	register(command: SlashCommand): void {
		this.commands.set(command.name, command);
		for (const l of this.listeners) l();
	}

	unregister(name: string): void {
		if (this.commands.delete(name)) for (const l of this.listeners) l();
	}

	get(name: string): SlashCommand | undefined {
		return this.commands.get(name);
	}

	has(name: string): boolean {
		return this.commands.has(name);
	}

	/** Listed commands in registration order. */
	list(): SlashCommand[] {
		return [...this.commands.values()].filter((c) => !c.hidden);
	}

	/** Called after every change (the editor's autocomplete is rebuilt). */
	onChange(listener: () => void): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}

	/** The form pi-tui's autocomplete provider takes. */
	toAutocomplete(): TuiSlashCommand[] {
		return this.list().map((c) => ({
			name: c.name,
			description: c.argumentHint ? `${c.argumentHint}  ${c.description}` : c.description,
			getArgumentCompletions: c.getArgumentCompletions?.bind(c),
		}));
	}
}
