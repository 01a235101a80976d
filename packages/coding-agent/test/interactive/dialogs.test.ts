// ctx.ui's dialogs in the app (extensions/dialogs.ts): each takes the
// editor's place and ends exactly once — answered, Esc, its timeout or its
// signal — with the documented result (select/input/editor: undefined,
// confirm: false), and then gives the editor back.
import { type Component, stripAnsi, TUI } from "@pi/tui";
import { afterEach, describe, expect, it } from "vitest";
import { VirtualTerminal } from "../../../tui/test/helpers/virtual-terminal.js";
import {
	confirmDialog,
	type DialogHost,
	editorDialog,
	inputDialog,
	selectDialog,
} from "../../src/modes/interactive/extensions/dialogs.js";
import { loadKeybindings } from "../../src/modes/interactive/keybindings.js";
import { plainTheme } from "../../src/modes/interactive/theme-fallback.js";

const ESC = "\x1b";
const ENTER = "\r";
const DOWN = "\x1b[B";

interface Harness {
	host: DialogHost;
	/** The dialog in the editor's place, if one is shown. */
	shown(): Component | undefined;
	text(): string;
	restored: number;
}

let tuis: TUI[] = [];
afterEach(() => {
	for (const t of tuis) t.stop();
	tuis = [];
});

function harness(): Harness {
	const tui = new TUI(new VirtualTerminal(60, 20));
	tuis.push(tui);
	let current: Component | undefined;
	const h: Harness = {
		restored: 0,
		shown: () => current,
		text: () =>
			current
				? current
						.render(60)
						.map((l) => stripAnsi(l).trimEnd())
						.join("\n")
				: "",
		host: {
			tui,
			theme: () => plainTheme,
			keybindings: loadKeybindings("/nonexistent-agent-dir").manager,
			showInEditorArea(component) {
				current = component;
				return () => {
					current = undefined;
					h.restored++;
				};
			},
		},
	};
	return h;
}

function press(h: Harness, ...keys: string[]): void {
	const dialog = h.shown();
	if (!dialog) throw new Error("no dialog shown");
	for (const k of keys) dialog.handleInput?.(k);
}

describe("ctx.ui dialogs in the app", () => {
	it("select: Enter picks the highlighted option; Esc cancels with undefined", async () => {
		const h = harness();
		const picked = selectDialog(h.host, "Pick one", ["A", "B", "C"]);
		expect(h.text()).toContain("Pick one");
		press(h, DOWN, ENTER);
		expect(await picked).toBe("B");
		expect(h.shown()).toBeUndefined();
		const cancelled = selectDialog(h.host, "Pick one", ["A", "B"]);
		press(h, ESC);
		expect(await cancelled).toBeUndefined();
		expect(h.restored).toBe(2);
	});

	it("confirm: y/n and Enter answer; Esc is false; the message is shown", async () => {
		const h = harness();
		const yes = confirmDialog(h.host, "Delete?", "This cannot be undone");
		expect(h.text()).toContain("This cannot be undone");
		press(h, "y");
		expect(await yes).toBe(true);
		const no = confirmDialog(h.host, "Delete?", "again");
		press(h, DOWN, ENTER);
		expect(await no).toBe(false);
		const esc = confirmDialog(h.host, "Delete?", "again");
		press(h, ESC);
		expect(await esc).toBe(false);
		expect(h.shown()).toBeUndefined();
	});

	it("input: typed text is returned on Enter; Esc is undefined", async () => {
		const h = harness();
		const name = inputDialog(h.host, "Name:", "your name");
		expect(h.text()).toContain("your name");
		press(h, "p", "i", ENTER);
		expect(await name).toBe("pi");
		const esc = inputDialog(h.host, "Name:", undefined);
		press(h, "x", ESC);
		expect(await esc).toBeUndefined();
	});

	it("editor: prefilled, multi-line; Enter submits, Esc is undefined", async () => {
		const h = harness();
		const edited = editorDialog(h.host, "Edit:", "line one\nline two");
		expect(h.text()).toContain("line two");
		press(h, "!", ENTER);
		expect(await edited).toBe("line one\nline two!");
		const esc = editorDialog(h.host, "Edit:", "keep");
		press(h, ESC);
		expect(await esc).toBeUndefined();
		expect(h.shown()).toBeUndefined();
	});

	it("timeout: a countdown in the title, then the dismissed result (undefined / false)", async () => {
		const h = harness();
		const confirm = confirmDialog(h.host, "Timed", "auto-cancels", { timeout: 1000 });
		expect(h.text()).toMatch(/Timed \(1s\)/);
		expect(await confirm).toBe(false);
		expect(h.shown()).toBeUndefined();
		const select = selectDialog(h.host, "Timed pick", ["A"], { timeout: 300 });
		expect(await select).toBeUndefined();
		const input = inputDialog(h.host, "Timed input", undefined, { timeout: 300 });
		expect(await input).toBeUndefined();
		expect(h.restored).toBe(3);
	});

	it("signal: aborting dismisses the open dialog; an aborted signal shows nothing", async () => {
		const h = harness();
		const controller = new AbortController();
		const confirm = confirmDialog(h.host, "Wait", "abort me", { signal: controller.signal });
		expect(h.shown()).toBeDefined();
		controller.abort();
		expect(await confirm).toBe(false);
		expect(h.shown()).toBeUndefined();
		const select = selectDialog(h.host, "Never shown", ["A"], { signal: controller.signal });
		expect(await select).toBeUndefined();
		expect(h.restored).toBe(1);
		// Answered before the abort: the answer stands, a later abort changes nothing.
		const late = new AbortController();
		const answered = inputDialog(h.host, "Name:", undefined, { signal: late.signal });
		press(h, "o", "k", ENTER);
		late.abort();
		expect(await answered).toBe("ok");
	});
});
