// CustomEditor's `embedWorkingStatus`: an extension editor made with it draws
// the working status (spinner and message) in its top border and the row
// above the editor stays empty; without it the row is used as before.
import { stripAnsi, TUI } from "@pi/tui";
import { afterEach, describe, expect, it } from "vitest";
import { VirtualTerminal } from "../../../tui/test/helpers/virtual-terminal.js";
import { CustomEditor } from "../../src/extensions/ui-components.js";
import { embedsWorkingStatus, WorkingRow } from "../../src/modes/interactive/components/working-row.js";
import { loadKeybindings } from "../../src/modes/interactive/keybindings.js";
import { plainTheme } from "../../src/modes/interactive/theme-fallback.js";

let tuis: TUI[] = [];
afterEach(() => {
	for (const t of tuis) t.stop();
	tuis = [];
});

function setup(embedWorkingStatus: boolean) {
	const tui = new TUI(new VirtualTerminal(60, 20));
	tuis.push(tui);
	const keybindings = loadKeybindings("/nonexistent-agent-dir").manager;
	const editor = new CustomEditor(tui, plainTheme.getEditorTheme(), keybindings, { embedWorkingStatus });
	const row = new WorkingRow(tui, () => plainTheme);
	row.embedIn(embedsWorkingStatus(editor) ? editor : undefined);
	const lines = (c: { render(w: number): string[] }, width = 60) => c.render(width).map((l) => stripAnsi(l));
	return { editor, row, lines };
}

describe("embedWorkingStatus", () => {
	it("the status is drawn in the editor's top border; the row stays empty; hiding restores the border", () => {
		const { editor, row, lines } = setup(true);
		expect(lines(editor)[0]).toBe("─".repeat(60));
		row.show("Working... (esc to interrupt)");
		expect(lines(row)).toEqual([]);
		const top = lines(editor)[0];
		expect(top).toMatch(/^── \S Working\.\.\. \(esc to interrupt\) ─+$/);
		expect(top).toHaveLength(60);
		// Extensions' message and frames apply in the border too.
		row.setMessage("Thinking hard");
		row.setIndicator({ frames: ["*"] });
		expect(lines(editor)[0]).toMatch(/^── \* Thinking hard ─+$/);
		// A narrow editor cuts the status, never the border's width.
		expect(lines(editor, 20)[0]).toHaveLength(20);
		row.hide();
		expect(lines(editor)[0]).toBe("─".repeat(60));
	});

	it("setWorkingVisible(false) hides it in the border as in the row", () => {
		const { editor, row, lines } = setup(true);
		row.setVisible(false);
		row.show("Working...");
		expect(lines(editor)[0]).toBe("─".repeat(60));
		row.setVisible(true);
		expect(lines(editor)[0]).toContain("Working...");
		row.hide();
	});

	it("without the option the row shows the status and the border stays plain; embedIn(undefined) moves it back", () => {
		const plain = setup(false);
		expect(embedsWorkingStatus(plain.editor)).toBe(false);
		plain.row.show("Working...");
		expect(plain.lines(plain.row).join("\n")).toContain("Working...");
		expect(plain.lines(plain.editor)[0]).toBe("─".repeat(60));
		plain.row.hide();

		const { editor, row, lines } = setup(true);
		row.show("Working...");
		row.embedIn(undefined);
		expect(lines(editor)[0]).toBe("─".repeat(60));
		expect(lines(row).join("\n")).toContain("Working...");
		row.hide();
	});
});
