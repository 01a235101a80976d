// The built-in slash commands, in the order autocomplete lists them. Each
// lives in its own file (see registry.ts for the contract); add new ones here.
import { compactCommand } from "./compact.js";
import { copyCommand } from "./copy.js";
import { hotkeysCommand } from "./hotkeys.js";
import { nameCommand } from "./name.js";
import { newCommand } from "./new.js";
import { quitCommand } from "./quit.js";
import type { SlashCommand, SlashCommandRegistry } from "./registry.js";
import { thinkingCommand } from "./thinking.js";

export const BUILTIN_COMMANDS: SlashCommand[] = [
	thinkingCommand,
	newCommand,
	compactCommand,
	nameCommand,
	copyCommand,
	hotkeysCommand,
	quitCommand,
];

export function registerBuiltinCommands(registry: SlashCommandRegistry): void {
	for (const c of BUILTIN_COMMANDS) registry.register(c);
}
