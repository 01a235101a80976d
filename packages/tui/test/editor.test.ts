import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CombinedAutocompleteProvider } from "../src/autocomplete.js";
import { Editor } from "../src/components/editor.js";
import { wordWrapLine } from "../src/editing/layout.js";
import { MemoryTerminal } from "../src/terminal.js";
import { TUI } from "../src/tui.js";
import { stripAnsi } from "../src/utils/ansi.js";
import { editorTheme } from "./helpers/themes.js";

const KEYS = {
	left: "\x1b[D",
	right: "\x1b[C",
	up: "\x1b[A",
	down: "\x1b[B",
	enter: "\r",
	shiftEnter: "\x1b[13;2u",
	backspace: "\x7f",
	delete: "\x1b[3~",
	ctrlA: "\x01",
	ctrlE: "\x05",
	ctrlK: "\x0b",
	ctrlU: "\x15",
	ctrlW: "\x17",
	ctrlY: "\x19",
	altY: "\x1by",
	altB: "\x1bb",
	altF: "\x1bf",
	altD: "\x1bd",
	altBackspace: "\x1b\x7f",
	undo: "\x1f",
	redo: "\x1b[45;6u",
	tab: "\t",
	escape: "\x1b",
	jump: "\x1d",
	jumpBack: "\x1b\x1d",
};

function make(rows = 24) {
	const term = new MemoryTerminal(40, rows);
	const tui = new TUI(term, { minRenderIntervalMs: 0 });
	const editor = new Editor(tui, editorTheme);
	const submitted: string[] = [];
	editor.onSubmit = (t) => submitted.push(t);
	const type = (...chunks: string[]) => {
		for (const c of chunks) {
			// Plain text arrives one key at a time, like StdinBuffer delivers it.
			if (!c.startsWith("\x1b") && c.length > 1 && !c.startsWith("\x1b[200~"))
				for (const ch of c) editor.handleInput(ch);
			else editor.handleInput(c);
		}
	};
	return { editor, tui, submitted, type };
}

const paste = (text: string) => `\x1b[200~${text}\x1b[201~`;

describe("Editor: typing, lines and submit", () => {
	it("types, inserts new lines with Shift+Enter and submits with Enter", () => {
		const { editor, submitted, type } = make();
		type("hello", KEYS.shiftEnter, "world");
		expect(editor.getText()).toBe("hello\nworld");
		expect(editor.getCursor()).toEqual({ line: 1, col: 5 });
		type(KEYS.enter);
		expect(submitted).toEqual(["hello\nworld"]);
		expect(editor.getText()).toBe("");
	});

	it("backslash + Enter inserts a new line instead of submitting", () => {
		const { editor, submitted, type } = make();
		type("a\\", KEYS.enter, "b");
		expect(editor.getText()).toBe("a\nb");
		expect(submitted).toEqual([]);
	});

	it("does not submit while disabled", () => {
		const { editor, submitted, type } = make();
		editor.disableSubmit = true;
		type("x", KEYS.enter);
		expect(submitted).toEqual([]);
		expect(editor.getText()).toBe("x");
	});

	it("backspace and delete join lines and remove whole graphemes", () => {
		const { editor, type } = make();
		type("ab", KEYS.shiftEnter, "c👍🏽");
		type(KEYS.backspace);
		expect(editor.getText()).toBe("ab\nc");
		type(KEYS.backspace, KEYS.backspace);
		expect(editor.getText()).toBe("ab");
		type(KEYS.ctrlA, KEYS.delete);
		expect(editor.getText()).toBe("b");
	});

	it("normalizes pasted line endings and tabs", () => {
		const { editor, type } = make();
		type(paste("a\r\nb\rc\td"));
		expect(editor.getText()).toBe("a\nb\nc    d");
	});

	it("reports changes", () => {
		const { editor, type } = make();
		const seen: string[] = [];
		editor.onChange = (t) => seen.push(t);
		type("ab", KEYS.backspace);
		expect(seen).toEqual(["a", "ab", "a"]);
	});
});

describe("Editor: cursor movement", () => {
	it("moves by character, across line ends", () => {
		const { editor, type } = make();
		type("ab", KEYS.shiftEnter, "cd");
		type(KEYS.left, KEYS.left, KEYS.left);
		expect(editor.getCursor()).toEqual({ line: 0, col: 2 });
		type(KEYS.right);
		expect(editor.getCursor()).toEqual({ line: 1, col: 0 });
		type("\x02", "\x06", "\x06"); // ctrl+b, ctrl+f
		expect(editor.getCursor()).toEqual({ line: 1, col: 1 });
	});

	it("moves by word with Alt+B / Alt+F and Ctrl+arrows", () => {
		const { editor, type } = make();
		type("foo bar-baz qux");
		type(KEYS.altB);
		expect(editor.getCursor().col).toBe(12);
		type(KEYS.altB);
		expect(editor.getCursor().col).toBe(8);
		type(KEYS.altB);
		expect(editor.getCursor().col).toBe(7);
		type("\x1b[1;5D"); // ctrl+left
		expect(editor.getCursor().col).toBe(4);
		type(KEYS.altF);
		expect(editor.getCursor().col).toBe(7);
		type(KEYS.ctrlA);
		expect(editor.getCursor().col).toBe(0);
		type(KEYS.ctrlE);
		expect(editor.getCursor().col).toBe(15);
	});

	it("moves up and down by visual (wrapped) lines, keeping the column", () => {
		const { editor, tui, type } = make();
		tui.addChild(editor);
		// Width 40 leaves 39 columns for text.
		type("aaaa bbbb cccc dddd eeee ffff gggg hhhh iiii jjjj", KEYS.shiftEnter, "short");
		tui.render(40);
		type(KEYS.up);
		const c1 = editor.getCursor();
		expect(c1.line).toBe(0);
		type(KEYS.up);
		expect(editor.getCursor().line).toBe(0);
		expect(editor.getCursor().col).toBeLessThan(c1.col);
		type(KEYS.down, KEYS.down);
		expect(editor.getCursor()).toEqual({ line: 1, col: 5 });
	});

	it("pages up and down by the editor's visible height", () => {
		const { editor, type } = make(10); // 40% of 10 rows = 4 lines per page
		for (let i = 0; i < 9; i++) type(`l${i}`, KEYS.shiftEnter);
		type("end");
		editor.render(30);
		type("\x1b[5~"); // Page Up
		expect(editor.getCursor().line).toBe(5);
		type("\x1b[5~", "\x1b[5~");
		expect(editor.getCursor().line).toBe(0);
		type("\x1b[6~"); // Page Down
		expect(editor.getCursor().line).toBe(4);
	});

	it("jumps to a character forward and backward", () => {
		const { editor, type } = make();
		type("one two", KEYS.shiftEnter, "three");
		type(KEYS.ctrlA, KEYS.up, KEYS.ctrlA);
		type(KEYS.jump, "t");
		expect(editor.getCursor()).toEqual({ line: 0, col: 4 });
		type(KEYS.jump, "t");
		expect(editor.getCursor()).toEqual({ line: 1, col: 0 });
		type(KEYS.jumpBack, "o");
		expect(editor.getCursor()).toEqual({ line: 0, col: 6 });
	});
});

describe("Editor: soft wrap rendering", () => {
	it("wraps at word boundaries and never exceeds the width", () => {
		const chunks = wordWrapLine("hello world foo", 8);
		expect(chunks.map((c) => c.text)).toEqual(["hello ", "world ", "foo"]);
		expect(chunks.map((c) => [c.startIndex, c.endIndex])).toEqual([
			[0, 6],
			[6, 12],
			[12, 15],
		]);
		expect(wordWrapLine("abcdefghij", 4).map((c) => c.text)).toEqual(["abcd", "efgh", "ij"]);
		expect(wordWrapLine("日本語テキスト", 5).map((c) => c.text)).toEqual(["日本", "語テ", "キス", "ト"]);
	});

	it("renders borders, wrapped text and the cursor", () => {
		const { editor, tui, type } = make();
		editor.focused = true;
		type("the quick brown fox jumps over the lazy dog");
		const lines = editor.render(20);
		expect(lines.map(stripAnsi)).toEqual([
			"─".repeat(20),
			"the quick brown ",
			"fox jumps over the ",
			"lazy dog ",
			"─".repeat(20),
		]);
		expect(lines[3]).toContain("\x1b_pi:c\x07\x1b[7m \x1b[27m");
		tui.stop();
	});

	it("scrolls when the text is taller than the editor's share of the screen", () => {
		const { editor, type } = make(10); // 40% of 10 rows = 4 visible lines
		for (let i = 0; i < 8; i++) type(`line ${i}`, KEYS.shiftEnter);
		type("last");
		const lines = editor.render(30).map(stripAnsi);
		expect(lines[0]).toContain("↑ 5 more");
		expect(lines.slice(1, 5)).toEqual(["line 5", "line 6", "line 7", "last "]);
	});
});

describe("Editor: kill ring, undo and redo", () => {
	it("kills to line end/start and yanks back", () => {
		const { editor, type } = make();
		type("hello world");
		type(KEYS.altB, KEYS.ctrlK);
		expect(editor.getText()).toBe("hello ");
		type(KEYS.ctrlA, KEYS.ctrlY);
		expect(editor.getText()).toBe("worldhello ");
		type(KEYS.ctrlE, KEYS.ctrlU);
		expect(editor.getText()).toBe("");
		type(KEYS.ctrlY);
		expect(editor.getText()).toBe("worldhello ");
	});

	it("accumulates consecutive kills into one entry", () => {
		const { editor, type } = make();
		type("one two three");
		type(KEYS.ctrlW, KEYS.ctrlW);
		expect(editor.getText()).toBe("one ");
		type(KEYS.ctrlY);
		expect(editor.getText()).toBe("one two three");
	});

	it("yank-pop cycles through older kills", () => {
		const { editor, type } = make();
		type("alpha beta gamma");
		type(KEYS.ctrlW); // kills "gamma"
		type(KEYS.left, KEYS.ctrlW); // kills "beta" (not consecutive: a move came between)
		expect(editor.getText()).toBe("alpha  ");
		type(KEYS.ctrlE, KEYS.ctrlY);
		expect(editor.getText()).toBe("alpha  beta");
		type(KEYS.altY);
		expect(editor.getText()).toBe("alpha  gamma");
		type(KEYS.altY);
		expect(editor.getText()).toBe("alpha  beta");
	});

	it("deletes words forward and backward with Alt keys", () => {
		const { editor, type } = make();
		type("foo bar baz");
		type(KEYS.altBackspace);
		expect(editor.getText()).toBe("foo bar ");
		type(KEYS.ctrlA, KEYS.altD);
		expect(editor.getText()).toBe(" bar ");
	});

	it("undoes word by word and redoes", () => {
		const { editor, type } = make();
		type("hello world");
		type(KEYS.undo);
		expect(editor.getText()).toBe("hello ");
		type(KEYS.undo);
		expect(editor.getText()).toBe("hello");
		type(KEYS.undo);
		expect(editor.getText()).toBe("");
		type(KEYS.redo);
		expect(editor.getText()).toBe("hello");
		type(KEYS.redo, KEYS.redo);
		expect(editor.getText()).toBe("hello world");
	});

	it("undoes a kill and a paste in one step each", () => {
		const { editor, type } = make();
		type("abc def");
		type(KEYS.ctrlW);
		type(paste("XYZ"));
		expect(editor.getText()).toBe("abc XYZ");
		type(KEYS.undo);
		expect(editor.getText()).toBe("abc ");
		type(KEYS.undo);
		expect(editor.getText()).toBe("abc def");
	});
});

describe("Editor: history", () => {
	it("recalls earlier prompts with Up and restores the draft with Down", () => {
		const { editor, type } = make();
		editor.addToHistory("first");
		editor.addToHistory("second");
		type(KEYS.up);
		expect(editor.getText()).toBe("second");
		type(KEYS.up);
		expect(editor.getText()).toBe("first");
		type(KEYS.up);
		expect(editor.getText()).toBe("first");
		type(KEYS.down);
		expect(editor.getText()).toBe("second");
		type(KEYS.down);
		expect(editor.getText()).toBe("");
	});

	it("does not leave a non-empty draft on Up", () => {
		const { editor, type } = make();
		editor.addToHistory("old");
		type("draft");
		type(KEYS.up);
		expect(editor.getText()).toBe("draft");
	});
});

describe("Editor: large pastes", () => {
	it("collapses a paste of more than 10 lines into a marker and expands it on submit", () => {
		const { editor, submitted, type } = make();
		const big = Array.from({ length: 12 }, (_, i) => `row ${i}`).join("\n");
		type("see ", paste(big), " end");
		expect(editor.getText()).toBe("see [paste #1 +12 lines] end");
		expect(editor.getExpandedText()).toBe(`see ${big} end`);
		type(KEYS.enter);
		expect(submitted).toEqual([`see ${big} end`]);
	});

	it("collapses a very long single line and treats the marker as one unit", () => {
		const { editor, type } = make();
		type(paste("x".repeat(1500)));
		expect(editor.getText()).toBe("[paste #1 1500 chars]");
		type(KEYS.left);
		expect(editor.getCursor().col).toBe(0);
		type(KEYS.right, KEYS.backspace);
		expect(editor.getText()).toBe("");
	});

	it("keeps small pastes inline", () => {
		const { editor, type } = make();
		type(paste("one\ntwo"));
		expect(editor.getText()).toBe("one\ntwo");
	});
});

describe("Editor: autocomplete", () => {
	const commands = [
		{ name: "model", description: "Select model" },
		{ name: "compact", description: "Compact context" },
		{ name: "copy", description: "Copy last message" },
		{
			name: "theme",
			description: "Theme",
			getArgumentCompletions: (p: string) =>
				["dark", "light"].filter((t) => t.startsWith(p)).map((t) => ({ value: t, label: t })),
		},
	];

	it("opens for slash commands, filters fuzzily and completes with Tab", async () => {
		const { editor, type } = make();
		editor.setAutocompleteProvider(new CombinedAutocompleteProvider(commands, tmpdir()));
		type("/");
		await editor.settleAutocomplete();
		expect(editor.isShowingAutocomplete()).toBe(true);
		type("c", "p");
		await editor.settleAutocomplete();
		const popup = editor.render(40).slice(3).map(stripAnsi);
		// "cp" is closer in "copy" than in "compact"; "model" does not match.
		expect(popup[0]).toContain("→ copy");
		expect(popup[1]).toContain("compact");
		expect(popup.join("\n")).not.toContain("model");
		type(KEYS.down, KEYS.tab);
		expect(editor.getText()).toBe("/compact ");
		expect(editor.isShowingAutocomplete()).toBe(false);
	});

	it("Enter on a slash command completes and submits it", async () => {
		const { editor, submitted, type } = make();
		editor.setAutocompleteProvider(new CombinedAutocompleteProvider(commands, tmpdir()));
		type("/mod");
		await editor.settleAutocomplete();
		type(KEYS.enter);
		expect(submitted).toEqual(["/model "]);
	});

	it("completes command arguments", async () => {
		const { editor, type } = make();
		editor.setAutocompleteProvider(new CombinedAutocompleteProvider(commands, tmpdir()));
		type("/theme l");
		await editor.settleAutocomplete();
		type(KEYS.tab);
		expect(editor.getText()).toBe("/theme light ");
	});

	it("Escape closes the popup without touching the text", async () => {
		const { editor, type } = make();
		editor.setAutocompleteProvider(new CombinedAutocompleteProvider(commands, tmpdir()));
		type("/co");
		await editor.settleAutocomplete();
		type(KEYS.escape);
		expect(editor.isShowingAutocomplete()).toBe(false);
		expect(editor.getText()).toBe("/co");
	});

	it("@ mentions search files through the app's lister with fuzzy match", async () => {
		const { editor, type } = make();
		const queries: string[] = [];
		const provider = new CombinedAutocompleteProvider([], "/repo", {
			listFiles: async ({ query }) => {
				queries.push(query);
				return ["src/", "src/editor.ts", "src/tui.ts", "docs/editing.md", "README.md"];
			},
		});
		editor.setAutocompleteProvider(provider);
		type("look at @edts");
		await editor.settleAutocomplete();
		expect(queries.at(-1)).toBe("edts");
		const popup = editor.render(40).slice(3).map(stripAnsi);
		expect(popup[0]).toContain("src/editor.ts");
		type(KEYS.tab);
		expect(editor.getText()).toBe("look at @src/editor.ts ");
	});

	it("Tab completes paths from the file system", async () => {
		const dir = mkdtempSync(join(tmpdir(), "pi-tui-ac-"));
		mkdirSync(join(dir, "packages"));
		writeFileSync(join(dir, "package.json"), "{}");
		writeFileSync(join(dir, "packages", "index.ts"), "");
		const { editor, type } = make();
		editor.setAutocompleteProvider(new CombinedAutocompleteProvider([], dir));
		type("open pack");
		type(KEYS.tab);
		await editor.settleAutocomplete();
		const popup = editor.render(40).slice(3).map(stripAnsi);
		expect(popup[0]).toContain("packages/");
		expect(popup[1]).toContain("package.json");
		type(KEYS.tab);
		expect(editor.getText()).toBe("open packages/");
		type(KEYS.tab);
		await editor.settleAutocomplete();
		type(KEYS.tab);
		expect(editor.getText()).toBe("open packages/index.ts ");
	});
});
