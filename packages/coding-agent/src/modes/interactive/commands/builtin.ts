// The built-in slash commands, in the order autocomplete lists them. Each
// lives in its own file (see registry.ts for the contract); add new ones here.
import { cloneCommand } from "./clone.js";
import { compactCommand } from "./compact.js";
import { copyCommand } from "./copy.js";
import { exportCommand, importCommand, shareCommand } from "./export.js";
import { forkCommand } from "./fork.js";
import { hotkeysCommand } from "./hotkeys.js";
import { loginCommand, logoutCommand } from "./login.js";
import { modelCommand } from "./model.js";
import { nameCommand } from "./name.js";
import { newCommand } from "./new.js";
import { quitCommand } from "./quit.js";
import type { SlashCommand, SlashCommandRegistry } from "./registry.js";
import { resumeCommand } from "./resume.js";
import { scopedModelsCommand } from "./scoped-models.js";
import { sessionCommand } from "./session.js";
import { settingsCommand } from "./settings.js";
import { thinkingCommand } from "./thinking.js";
import { treeCommand } from "./tree.js";
import { trustCommand } from "./trust.js";

export const BUILTIN_COMMANDS: SlashCommand[] = [
	settingsCommand,
	modelCommand,
	scopedModelsCommand,
	thinkingCommand,
	newCommand,
	compactCommand,
	nameCommand,
	sessionCommand,
	copyCommand,
	exportCommand,
	importCommand,
	shareCommand,
	hotkeysCommand,
	forkCommand,
	cloneCommand,
	treeCommand,
	resumeCommand,
	trustCommand,
	loginCommand,
	logoutCommand,
	quitCommand,
];

export function registerBuiltinCommands(registry: SlashCommandRegistry): void {
	for (const c of BUILTIN_COMMANDS) registry.register(c);
}
