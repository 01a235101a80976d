// Extension shortcuts (`pi.registerShortcut`). A key bound to a built-in
// action (app.* or the editor's tui.* ids, as the user's keybindings.json
// resolves them) stays with the built-in; the clash is reported once at
// start-up. Rebinding the built-in action elsewhere in keybindings.json frees
// the key for the extension.
import { type KeybindingsManager, matchesKey } from "@pi/tui";
import type { ExtensionShortcut } from "../../../extensions/types.js";

export interface HotkeyRow {
	key: string;
	description: string;
	extensionPath: string;
}

export interface ShortcutRouterOptions {
	keybindings: KeybindingsManager;
	shortcuts(): ExtensionShortcut[];
	run(shortcut: ExtensionShortcut): Promise<void>;
}

/** Key ids compare without case and with modifiers in any order ("shift+ctrl+p" = "ctrl+shift+p"). */
function normalizeKey(key: string): string {
	const parts = key.toLowerCase().split("+");
	const base = parts.pop() ?? "";
	return [...parts.sort(), base].join("+");
}

export class ShortcutRouter {
	constructor(private readonly o: ShortcutRouterOptions) {}

	/** The built-in action that owns `key`, if any. */
	private builtinOwner(key: string): string | undefined {
		const wanted = normalizeKey(key);
		const resolved = this.o.keybindings.getResolvedBindings();
		for (const [id, keys] of Object.entries(resolved)) {
			if (!id.startsWith("app.") && !id.startsWith("tui.editor.") && !id.startsWith("tui.input.")) continue;
			const list = keys === undefined ? [] : Array.isArray(keys) ? keys : [keys];
			if (list.some((k) => normalizeKey(k) === wanted)) return id;
		}
		return undefined;
	}

	/** One warning per extension shortcut that a built-in key keeps. */
	clashes(): string[] {
		const out: string[] = [];
		for (const s of this.o.shortcuts()) {
			const owner = this.builtinOwner(s.shortcut);
			if (owner)
				out.push(
					`Extension shortcut ${s.shortcut} (${s.extensionPath}) is the key of ${owner}; the built-in keeps it (rebind ${owner} in keybindings.json to free it).`,
				);
		}
		return out;
	}

	/** Runs the extension shortcut for `data`; true when one matched. */
	handle(data: string): boolean {
		for (const s of this.o.shortcuts()) {
			if (!matchesKey(data, s.shortcut)) continue;
			if (this.builtinOwner(s.shortcut)) return false;
			void this.o.run(s);
			return true;
		}
		return false;
	}

	/** For /hotkeys. */
	rows(): HotkeyRow[] {
		return this.o.shortcuts().map((s) => ({
			key: this.builtinOwner(s.shortcut) ? `${s.shortcut} (taken by a built-in)` : s.shortcut,
			description: s.description ?? "",
			extensionPath: s.extensionPath,
		}));
	}
}
