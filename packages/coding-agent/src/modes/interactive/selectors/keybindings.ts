// Key ids used inside the selectors (the reference's names), added to the
// app's KeybindingsManager when a selector first opens, so keybindings.json
// can rebind them. Their keys only act while that selector has focus, so
// they may reuse keys of the main app (ctrl+p, ctrl+o, …).
import type { KeybindingDefinitions, KeybindingsManager } from "@pi/tui";

export const SELECTOR_KEYBINDINGS = {
	"app.session.togglePath": { defaultKeys: "ctrl+p", description: "Session picker: show paths" },
	"app.session.toggleSort": { defaultKeys: "ctrl+s", description: "Session picker: newest first / best match" },
	"app.session.toggleNamedFilter": { defaultKeys: "ctrl+n", description: "Session picker: named sessions only" },
	"app.session.rename": { defaultKeys: "ctrl+r", description: "Session picker: rename" },
	"app.session.delete": { defaultKeys: "ctrl+d", description: "Session picker: delete" },
	"app.session.deleteNoninvasive": {
		defaultKeys: "ctrl+backspace",
		description: "Session picker: delete when the search is empty",
	},
	"app.tree.foldOrUp": { defaultKeys: ["ctrl+left", "alt+left"], description: "Tree: fold, or previous segment" },
	"app.tree.unfoldOrDown": { defaultKeys: ["ctrl+right", "alt+right"], description: "Tree: unfold, or next segment" },
	"app.tree.editLabel": { defaultKeys: "shift+l", description: "Tree: edit label" },
	"app.tree.toggleLabelTimestamp": { defaultKeys: "shift+t", description: "Tree: label timestamps" },
	"app.tree.filter.default": { defaultKeys: "ctrl+d", description: "Tree: default filter" },
	"app.tree.filter.noTools": { defaultKeys: "ctrl+t", description: "Tree: hide tool results" },
	"app.tree.filter.userOnly": { defaultKeys: "ctrl+u", description: "Tree: user messages only" },
	"app.tree.filter.labeledOnly": { defaultKeys: "ctrl+l", description: "Tree: labeled entries only" },
	"app.tree.filter.all": { defaultKeys: "ctrl+a", description: "Tree: all entries" },
	"app.tree.filter.cycleForward": { defaultKeys: "ctrl+o", description: "Tree: next filter" },
	"app.tree.filter.cycleBackward": { defaultKeys: "shift+ctrl+o", description: "Tree: previous filter" },
	"app.models.save": { defaultKeys: "ctrl+s", description: "Scoped models: save to settings" },
	"app.models.enableAll": { defaultKeys: "ctrl+a", description: "Scoped models: enable all listed" },
	"app.models.clearAll": { defaultKeys: "ctrl+x", description: "Scoped models: clear all listed" },
	"app.models.toggleProvider": { defaultKeys: "ctrl+p", description: "Scoped models: toggle the provider" },
	"app.models.reorderUp": { defaultKeys: "alt+up", description: "Scoped models: move up in the cycle" },
	"app.models.reorderDown": { defaultKeys: "alt+down", description: "Scoped models: move down in the cycle" },
} as const satisfies KeybindingDefinitions;

/** Adds the selector ids once (user overrides already loaded apply to them). */
export function ensureSelectorKeybindings(manager: KeybindingsManager): void {
	if (manager.getDefinition("app.tree.editLabel")) return;
	manager.addDefinitions(SELECTOR_KEYBINDINGS);
}
