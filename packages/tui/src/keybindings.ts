/**
 * Named, user-configurable key bindings (`tui.editor.cursorLeft` → keys).
 * Apps register their own definitions (e.g. `app.*`) next to `TUI_KEYBINDINGS`
 * and feed the user's overrides (keybindings.json) to the manager.
 */
import type { KeyId } from "./key-ids.js";
import { matchesKey } from "./keys.js";

/**
 * Registry of binding ids. Packages add ids by declaration merging:
 * `declare module "@pi/tui" { interface Keybindings { "app.foo": true } }`.
 */
export interface Keybindings {
	"tui.editor.cursorUp": true;
	"tui.editor.cursorDown": true;
	"tui.editor.cursorLeft": true;
	"tui.editor.cursorRight": true;
	"tui.editor.cursorWordLeft": true;
	"tui.editor.cursorWordRight": true;
	"tui.editor.cursorLineStart": true;
	"tui.editor.cursorLineEnd": true;
	"tui.editor.jumpForward": true;
	"tui.editor.jumpBackward": true;
	"tui.editor.pageUp": true;
	"tui.editor.pageDown": true;
	"tui.editor.deleteCharBackward": true;
	"tui.editor.deleteCharForward": true;
	"tui.editor.deleteWordBackward": true;
	"tui.editor.deleteWordForward": true;
	"tui.editor.deleteToLineStart": true;
	"tui.editor.deleteToLineEnd": true;
	"tui.editor.yank": true;
	"tui.editor.yankPop": true;
	"tui.editor.undo": true;
	"tui.editor.redo": true;
	"tui.input.newLine": true;
	"tui.input.submit": true;
	"tui.input.tab": true;
	"tui.input.copy": true;
	"tui.select.up": true;
	"tui.select.down": true;
	"tui.select.pageUp": true;
	"tui.select.pageDown": true;
	"tui.select.confirm": true;
	"tui.select.cancel": true;
}

export type Keybinding = keyof Keybindings;

export interface KeybindingDefinition {
	defaultKeys: KeyId | KeyId[];
	description?: string;
}

export type KeybindingDefinitions = Record<string, KeybindingDefinition>;
/** User overrides: an id maps to one key, several, or `[]` to unbind. */
export type KeybindingsConfig = Record<string, KeyId | KeyId[] | undefined>;

/** Default editor, input and list bindings (emacs-like). */
export const TUI_KEYBINDINGS = {
	"tui.editor.cursorUp": { defaultKeys: "up", description: "Move cursor up" },
	"tui.editor.cursorDown": { defaultKeys: "down", description: "Move cursor down" },
	"tui.editor.cursorLeft": { defaultKeys: ["left", "ctrl+b"], description: "Move cursor left" },
	"tui.editor.cursorRight": { defaultKeys: ["right", "ctrl+f"], description: "Move cursor right" },
	"tui.editor.cursorWordLeft": {
		defaultKeys: ["alt+left", "ctrl+left", "alt+b"],
		description: "Move cursor word left",
	},
	"tui.editor.cursorWordRight": {
		defaultKeys: ["alt+right", "ctrl+right", "alt+f"],
		description: "Move cursor word right",
	},
	"tui.editor.cursorLineStart": { defaultKeys: ["home", "ctrl+a"], description: "Move to line start" },
	"tui.editor.cursorLineEnd": { defaultKeys: ["end", "ctrl+e"], description: "Move to line end" },
	"tui.editor.jumpForward": { defaultKeys: "ctrl+]", description: "Jump forward to character" },
	"tui.editor.jumpBackward": { defaultKeys: "ctrl+alt+]", description: "Jump backward to character" },
	"tui.editor.pageUp": { defaultKeys: "pageUp", description: "Page up" },
	"tui.editor.pageDown": { defaultKeys: "pageDown", description: "Page down" },
	"tui.editor.deleteCharBackward": { defaultKeys: "backspace", description: "Delete character backward" },
	"tui.editor.deleteCharForward": { defaultKeys: ["delete", "ctrl+d"], description: "Delete character forward" },
	"tui.editor.deleteWordBackward": { defaultKeys: ["ctrl+w", "alt+backspace"], description: "Delete word backward" },
	"tui.editor.deleteWordForward": { defaultKeys: ["alt+d", "alt+delete"], description: "Delete word forward" },
	"tui.editor.deleteToLineStart": { defaultKeys: "ctrl+u", description: "Delete to line start" },
	"tui.editor.deleteToLineEnd": { defaultKeys: "ctrl+k", description: "Delete to line end" },
	"tui.editor.yank": { defaultKeys: "ctrl+y", description: "Yank" },
	"tui.editor.yankPop": { defaultKeys: "alt+y", description: "Yank pop" },
	"tui.editor.undo": { defaultKeys: "ctrl+-", description: "Undo" },
	"tui.editor.redo": { defaultKeys: "ctrl+shift+-", description: "Redo" },
	"tui.input.newLine": { defaultKeys: ["shift+enter", "ctrl+j"], description: "Insert newline" },
	"tui.input.submit": { defaultKeys: "enter", description: "Submit input" },
	"tui.input.tab": { defaultKeys: "tab", description: "Tab / autocomplete" },
	"tui.input.copy": { defaultKeys: "ctrl+c", description: "Copy selection" },
	"tui.select.up": { defaultKeys: "up", description: "Move selection up" },
	"tui.select.down": { defaultKeys: "down", description: "Move selection down" },
	"tui.select.pageUp": { defaultKeys: "pageUp", description: "Selection page up" },
	"tui.select.pageDown": { defaultKeys: "pageDown", description: "Selection page down" },
	"tui.select.confirm": { defaultKeys: "enter", description: "Confirm selection" },
	"tui.select.cancel": { defaultKeys: ["escape", "ctrl+c"], description: "Cancel selection" },
} as const satisfies KeybindingDefinitions;

export interface KeybindingConflict {
	key: KeyId;
	keybindings: string[];
}

function toArray(keys: KeyId | KeyId[] | undefined): KeyId[] {
	if (keys === undefined) return [];
	return Array.isArray(keys) ? keys.slice() : [keys];
}

export class KeybindingsManager {
	private definitions: KeybindingDefinitions;
	private userBindings: KeybindingsConfig;
	private keysById = new Map<string, KeyId[]>();
	private conflicts: KeybindingConflict[] = [];

	constructor(definitions: KeybindingDefinitions = TUI_KEYBINDINGS, userBindings: KeybindingsConfig = {}) {
		this.definitions = definitions;
		this.userBindings = { ...userBindings };
		this.rebuild();
	}

	private rebuild(): void {
		this.keysById.clear();
		for (const [id, def] of Object.entries(this.definitions)) {
			const user = Object.hasOwn(this.userBindings, id) ? this.userBindings[id] : undefined;
			this.keysById.set(id, user !== undefined ? toArray(user) : toArray(def.defaultKeys));
		}
		// Only user-chosen keys that collide inside one namespace count as conflicts.
		const byKey = new Map<string, string[]>();
		for (const [id, keys] of this.keysById) {
			if (!Object.hasOwn(this.userBindings, id)) continue;
			for (const key of keys) {
				const ns = id.split(".").slice(0, 2).join(".");
				const slot = `${ns}\u0000${key}`;
				const list = byKey.get(slot) ?? [];
				list.push(id);
				byKey.set(slot, list);
			}
		}
		this.conflicts = [];
		for (const [slot, ids] of byKey) {
			const key = slot.split("\u0000")[1] as KeyId;
			const others = [...this.keysById]
				.filter(([id, keys]) => !ids.includes(id) && keys.includes(key))
				.map(([id]) => id)
				.filter((id) => id.split(".").slice(0, 2).join(".") === slot.split("\u0000")[0]);
			if (ids.length + others.length > 1) this.conflicts.push({ key, keybindings: [...ids, ...others] });
		}
	}

	/** Whether the input chunk triggers the binding. */
	matches(data: string, keybinding: Keybinding | string): boolean {
		const keys = this.keysById.get(keybinding);
		if (!keys) return false;
		for (const k of keys) if (matchesKey(data, k)) return true;
		return false;
	}

	/** The keys currently bound to an id. */
	getKeys(keybinding: Keybinding | string): KeyId[] {
		return this.keysById.get(keybinding)?.slice() ?? [];
	}

	getDefinition(keybinding: Keybinding | string): KeybindingDefinition | undefined {
		return this.definitions[keybinding];
	}

	/** Add more definitions (e.g. an app's own `app.*` ids). */
	addDefinitions(definitions: KeybindingDefinitions): void {
		this.definitions = { ...this.definitions, ...definitions };
		this.rebuild();
	}

	getConflicts(): KeybindingConflict[] {
		return this.conflicts.map((c) => ({ key: c.key, keybindings: c.keybindings.slice() }));
	}

	setUserBindings(userBindings: KeybindingsConfig): void {
		this.userBindings = { ...userBindings };
		this.rebuild();
	}

	getUserBindings(): KeybindingsConfig {
		return { ...this.userBindings };
	}

	/** Every id with the keys it resolves to (defaults merged with user overrides). */
	getResolvedBindings(): KeybindingsConfig {
		const out: KeybindingsConfig = {};
		for (const [id, keys] of this.keysById) out[id] = keys.slice();
		return out;
	}
}

let current: KeybindingsManager | undefined;

/** Install the process-wide manager that built-in components consult. */
export function setKeybindings(keybindings: KeybindingsManager): void {
	current = keybindings;
}

/** The process-wide manager (TUI defaults until `setKeybindings` is called). */
export function getKeybindings(): KeybindingsManager {
	if (!current) current = new KeybindingsManager(TUI_KEYBINDINGS);
	return current;
}
