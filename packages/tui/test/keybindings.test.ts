import { describe, expect, it } from "vitest";
import { fuzzyFilter, fuzzyMatch } from "../src/fuzzy.js";
import { getKeybindings, KeybindingsManager, setKeybindings, TUI_KEYBINDINGS } from "../src/keybindings.js";

describe("KeybindingsManager", () => {
	it("uses the emacs-like defaults", () => {
		const kb = new KeybindingsManager(TUI_KEYBINDINGS);
		expect(kb.matches("\x01", "tui.editor.cursorLineStart")).toBe(true);
		expect(kb.matches("\x05", "tui.editor.cursorLineEnd")).toBe(true);
		expect(kb.matches("\x02", "tui.editor.cursorLeft")).toBe(true);
		expect(kb.matches("\x06", "tui.editor.cursorRight")).toBe(true);
		expect(kb.matches("\x1bb", "tui.editor.cursorWordLeft")).toBe(true);
		expect(kb.matches("\x1bf", "tui.editor.cursorWordRight")).toBe(true);
		expect(kb.matches("\x17", "tui.editor.deleteWordBackward")).toBe(true);
		expect(kb.matches("\x1b\x7f", "tui.editor.deleteWordBackward")).toBe(true);
		expect(kb.matches("\x1bd", "tui.editor.deleteWordForward")).toBe(true);
		expect(kb.matches("\x15", "tui.editor.deleteToLineStart")).toBe(true);
		expect(kb.matches("\x0b", "tui.editor.deleteToLineEnd")).toBe(true);
		expect(kb.matches("\x19", "tui.editor.yank")).toBe(true);
		expect(kb.matches("\x1by", "tui.editor.yankPop")).toBe(true);
		expect(kb.matches("\x1f", "tui.editor.undo")).toBe(true);
		expect(kb.matches("\x1d", "tui.editor.jumpForward")).toBe(true);
		expect(kb.matches("\x1b\x1d", "tui.editor.jumpBackward")).toBe(true);
		expect(kb.matches("\r", "tui.input.submit")).toBe(true);
		expect(kb.matches("\x1b[13;2u", "tui.input.newLine")).toBe(true);
		expect(kb.matches("\t", "tui.input.tab")).toBe(true);
		expect(kb.getKeys("tui.select.cancel")).toEqual(["escape", "ctrl+c"]);
	});

	it("applies user overrides and unbinding", () => {
		const kb = new KeybindingsManager(TUI_KEYBINDINGS, {
			"tui.editor.cursorLineStart": "ctrl+x",
			"tui.editor.yank": [],
		});
		expect(kb.matches("\x18", "tui.editor.cursorLineStart")).toBe(true);
		expect(kb.matches("\x01", "tui.editor.cursorLineStart")).toBe(false);
		expect(kb.matches("\x19", "tui.editor.yank")).toBe(false);
		expect(kb.getResolvedBindings()["tui.editor.cursorLineEnd"]).toEqual(["end", "ctrl+e"]);
		kb.setUserBindings({});
		expect(kb.matches("\x01", "tui.editor.cursorLineStart")).toBe(true);
	});

	it("reports conflicts between user bindings in one namespace", () => {
		const kb = new KeybindingsManager(TUI_KEYBINDINGS, { "tui.editor.yank": "ctrl+a" });
		expect(kb.getConflicts()).toEqual([
			{ key: "ctrl+a", keybindings: ["tui.editor.yank", "tui.editor.cursorLineStart"] },
		]);
	});

	it("takes app definitions next to the TUI ones", () => {
		const kb = new KeybindingsManager(TUI_KEYBINDINGS);
		kb.addDefinitions({ "app.model.select": { defaultKeys: "ctrl+l" } });
		expect(kb.matches("\x0c", "app.model.select")).toBe(true);
		expect(kb.getDefinition("app.model.select")?.defaultKeys).toBe("ctrl+l");
	});

	it("has a replaceable process-wide instance", () => {
		const original = getKeybindings();
		const custom = new KeybindingsManager(TUI_KEYBINDINGS, { "tui.input.submit": "ctrl+s" });
		setKeybindings(custom);
		expect(getKeybindings().matches("\x13", "tui.input.submit")).toBe(true);
		setKeybindings(original);
	});
});

describe("fuzzy matching", () => {
	it("requires the query characters in order", () => {
		expect(fuzzyMatch("mdl", "model").matches).toBe(true);
		expect(fuzzyMatch("ldm", "model").matches).toBe(false);
		expect(fuzzyMatch("", "x").matches).toBe(true);
		expect(fuzzyMatch("MOD", "model").matches).toBe(true);
	});
	it("ranks contiguous and word-start matches first", () => {
		const items = ["src/components/editor.ts", "docs/edit-notes.md", "test/redirector.ts", "editor.ts"];
		expect(fuzzyFilter(items, "editor", (s) => s)).toEqual([
			"editor.ts",
			"src/components/editor.ts",
			"test/redirector.ts",
		]);
	});
	it("needs every space-separated token", () => {
		const items = ["claude sonnet", "claude opus", "gpt five"];
		expect(fuzzyFilter(items, "cl op", (s) => s)).toEqual(["claude opus"]);
	});
});
