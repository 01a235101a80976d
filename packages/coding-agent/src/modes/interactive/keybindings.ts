// The app's key bindings (`app.*` ids, the reference's names) and the user's
// overrides from `<agentDir>/keybindings.json`. Ids of other namespaces
// (tui.*) in the file apply to the editor and lists too.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
	type KeybindingDefinitions,
	type KeybindingsConfig,
	KeybindingsManager,
	type KeyId,
	setKeybindings,
	TUI_KEYBINDINGS,
} from "@pi/tui";

export const APP_KEYBINDINGS = {
	"app.interrupt": { defaultKeys: "escape", description: "Cancel / abort" },
	"app.clear": { defaultKeys: "ctrl+c", description: "Clear editor (twice: exit)" },
	"app.exit": { defaultKeys: "ctrl+d", description: "Exit (when editor empty)" },
	"app.suspend": { defaultKeys: "ctrl+z", description: "Suspend to background" },
	"app.editor.external": { defaultKeys: "ctrl+g", description: "Open in external editor" },
	"app.clipboard.pasteImage": { defaultKeys: "ctrl+v", description: "Paste image from clipboard" },
	"app.session.new": { defaultKeys: [], description: "Start a new session" },
	"app.session.tree": { defaultKeys: [], description: "Open session tree navigator" },
	"app.session.fork": { defaultKeys: [], description: "Fork current session" },
	"app.session.resume": { defaultKeys: [], description: "Open session resume picker" },
	"app.model.select": { defaultKeys: "ctrl+l", description: "Open model selector" },
	"app.model.cycleForward": { defaultKeys: "ctrl+p", description: "Cycle to next model" },
	"app.model.cycleBackward": { defaultKeys: "shift+ctrl+p", description: "Cycle to previous model" },
	"app.thinking.cycle": { defaultKeys: "shift+tab", description: "Cycle thinking level" },
	"app.thinking.toggle": { defaultKeys: "ctrl+t", description: "Collapse or expand thinking blocks" },
	"app.tools.expand": { defaultKeys: "ctrl+o", description: "Collapse or expand tool output" },
	"app.message.followUp": { defaultKeys: "alt+enter", description: "Queue follow-up message" },
	"app.message.dequeue": { defaultKeys: "alt+up", description: "Restore queued messages to editor" },
} as const satisfies KeybindingDefinitions;

export type AppKeybinding = keyof typeof APP_KEYBINDINGS;

/** Pre-namespaced ids of older configs → today's ids. */
const LEGACY_IDS: Record<string, string> = {
	interrupt: "app.interrupt",
	clear: "app.clear",
	exit: "app.exit",
	suspend: "app.suspend",
	externalEditor: "app.editor.external",
	pasteImage: "app.clipboard.pasteImage",
	selectModel: "app.model.select",
	cycleModelForward: "app.model.cycleForward",
	cycleModelBackward: "app.model.cycleBackward",
	cycleThinkingLevel: "app.thinking.cycle",
	toggleThinking: "app.thinking.toggle",
	expandTools: "app.tools.expand",
	followUp: "app.message.followUp",
	dequeue: "app.message.dequeue",
	newSession: "app.session.new",
	tree: "app.session.tree",
	fork: "app.session.fork",
	resume: "app.session.resume",
	cursorUp: "tui.editor.cursorUp",
	cursorDown: "tui.editor.cursorDown",
	cursorLeft: "tui.editor.cursorLeft",
	cursorRight: "tui.editor.cursorRight",
	cursorWordLeft: "tui.editor.cursorWordLeft",
	cursorWordRight: "tui.editor.cursorWordRight",
	cursorLineStart: "tui.editor.cursorLineStart",
	cursorLineEnd: "tui.editor.cursorLineEnd",
	deleteCharBackward: "tui.editor.deleteCharBackward",
	deleteCharForward: "tui.editor.deleteCharForward",
	deleteWordBackward: "tui.editor.deleteWordBackward",
	deleteWordForward: "tui.editor.deleteWordForward",
	deleteToLineStart: "tui.editor.deleteToLineStart",
	deleteToLineEnd: "tui.editor.deleteToLineEnd",
	newLine: "tui.input.newLine",
	submit: "tui.input.submit",
	tab: "tui.input.tab",
};

export interface LoadedKeybindings {
	manager: KeybindingsManager;
	/** Problems worth telling the user (bad file, conflicts). */
	warnings: string[];
}

/** Parses a keybindings.json text into overrides (legacy ids migrated); throws on bad JSON. */
export function parseKeybindingsConfig(text: string): { config: KeybindingsConfig; warnings: string[] } {
	const raw: unknown = JSON.parse(text);
	const warnings: string[] = [];
	const config: KeybindingsConfig = {};
	if (!raw || typeof raw !== "object" || Array.isArray(raw)) throw new Error("expected an object of id → key(s)");
	for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
		const id = LEGACY_IDS[key] ?? key;
		const valid =
			typeof value === "string" || (Array.isArray(value) && value.every((v): v is string => typeof v === "string"));
		if (!valid) {
			warnings.push(`keybindings.json: "${key}" must be a key or an array of keys`);
			continue;
		}
		config[id] = value as KeyId | KeyId[];
	}
	return { config, warnings };
}

/** Builds the app's manager (TUI + app ids, user overrides) and installs it process-wide. */
export function loadKeybindings(agentDir: string): LoadedKeybindings {
	const path = join(agentDir, "keybindings.json");
	const warnings: string[] = [];
	let config: KeybindingsConfig = {};
	let text: string | undefined;
	try {
		text = readFileSync(path, "utf8");
	} catch {
		// no file: defaults
	}
	if (text !== undefined) {
		try {
			const parsed = parseKeybindingsConfig(text);
			config = parsed.config;
			warnings.push(...parsed.warnings);
		} catch (error) {
			warnings.push(`${path}: ${error instanceof Error ? error.message : String(error)} (defaults used)`);
		}
	}
	const manager = new KeybindingsManager({ ...TUI_KEYBINDINGS, ...APP_KEYBINDINGS }, config);
	for (const c of manager.getConflicts()) warnings.push(`Key "${c.key}" is bound to ${c.keybindings.join(", ")}`);
	setKeybindings(manager);
	return { manager, warnings };
}

/** "ctrl+p" or "ctrl+p/shift+ctrl+p" for hints and /hotkeys. */
export function keyText(manager: KeybindingsManager, id: string): string {
	return manager.getKeys(id).join("/");
}
