import { describe, expect, it } from "vitest";
import type { Component } from "../src/component.js";
import { Input } from "../src/components/input.js";
import { resolveOverlayLayout } from "../src/overlay.js";
import { TUI } from "../src/tui.js";
import { VirtualTerminal } from "./helpers/virtual-terminal.js";

class Lines implements Component {
	constructor(public lines: string[]) {}
	render(): string[] {
		return this.lines;
	}
}

class Box implements Component {
	inputs: string[] = [];
	constructor(private readonly label: string) {}
	render(width: number): string[] {
		return ["+".repeat(width), `|${this.label.padEnd(width - 2)}|`, "+".repeat(width)];
	}
	handleInput(data: string): void {
		this.inputs.push(data);
	}
}

function setup(cols = 20, rows = 6) {
	const term = new VirtualTerminal(cols, rows);
	const tui = new TUI(term, { minRenderIntervalMs: 0 });
	const base = new Lines(Array.from({ length: rows }, (_, i) => `${i}`.repeat(cols)));
	tui.addChild(base);
	return { term, tui, base };
}

describe("overlays", () => {
	it("draws a centered box over the content, keeping the content around it", async () => {
		const { term, tui } = setup(20, 6);
		tui.showOverlay(new Box("hi"), { width: 8 });
		tui.renderNow();
		expect(await term.screen()).toEqual([
			"00000000000000000000",
			"111111++++++++111111",
			"222222|hi    |222222",
			"333333++++++++333333",
			"44444444444444444444",
			"55555555555555555555",
		]);
	});

	it("anchors, offsets and margins", () => {
		expect(resolveOverlayLayout({ anchor: "top-left", width: 10 }, 3, 80, 24)).toMatchObject({ row: 0, col: 0 });
		expect(resolveOverlayLayout({ anchor: "bottom-right", width: 10 }, 3, 80, 24)).toMatchObject({ row: 21, col: 70 });
		expect(resolveOverlayLayout({ anchor: "bottom-right", width: 10, margin: 2 }, 3, 80, 24)).toMatchObject({
			row: 19,
			col: 68,
		});
		expect(resolveOverlayLayout({ anchor: "top-center", width: 20, offsetY: 1 }, 3, 80, 24)).toMatchObject({
			row: 1,
			col: 30,
		});
		expect(resolveOverlayLayout({ width: "50%", row: "100%", col: 5 }, 4, 80, 24)).toMatchObject({
			width: 40,
			row: 20,
			col: 5,
		});
		// Positions are clamped on screen.
		expect(resolveOverlayLayout({ row: 100, col: -5, width: 10 }, 3, 30, 10)).toMatchObject({ row: 7, col: 0 });
		expect(resolveOverlayLayout({ width: 10, minWidth: 25 }, 1, 80, 24).width).toBe(25);
	});

	it("composes over wide characters and styles without breaking them", async () => {
		const term = new VirtualTerminal(12, 3);
		const tui = new TUI(term, { minRenderIntervalMs: 0 });
		tui.addChild(new Lines(["日本語日本語", "\x1b[31mredredredred\x1b[0m", "abc"]));
		tui.showOverlay(new Lines(["XX"]), { row: 0, col: 3, width: 2 });
		tui.showOverlay(new Lines(["YY"]), { row: 1, col: 5, width: 2 });
		tui.renderNow();
		// A wide character cut by the box edge becomes a space on that side.
		expect(await term.screen()).toEqual(["日 XX 日本語", "redreYYedred", "abc"]);
		expect(await term.anyWrapped()).toBe(false);
	});

	it("takes focus, hides, shows again and gives focus back", async () => {
		const { term, tui } = setup(20, 6);
		const editor = new Input();
		tui.addChild(editor);
		tui.setFocus(editor);
		const dialog = new Box("dlg");
		const handle = tui.showOverlay(dialog, { width: 10 });
		expect(handle.isFocused()).toBe(true);
		expect(editor.focused).toBe(false);
		tui.handleInput("x");
		expect(dialog.inputs).toEqual(["x"]);
		handle.setHidden(true);
		expect(handle.isHidden()).toBe(true);
		expect(tui.getFocus()).toBe(editor);
		tui.handleInput("y");
		expect(editor.getValue()).toBe("y");
		tui.renderNow();
		expect((await term.screen()).join("\n")).not.toContain("dlg");
		handle.setHidden(false);
		expect(tui.getFocus()).toBe(dialog);
		tui.renderNow();
		expect((await term.screen()).join("\n")).toContain("|dlg");
		handle.hide();
		expect(tui.hasOverlay()).toBe(false);
		expect(tui.getFocus()).toBe(editor);
		tui.renderNow();
		expect((await term.screen()).join("\n")).not.toContain("dlg");
	});

	it("stacks overlays: the topmost has focus; closing it returns focus to the one below", () => {
		const { tui } = setup(30, 10);
		const a = new Box("a");
		const b = new Box("b");
		const ha = tui.showOverlay(a, { width: 10 });
		const hb = tui.showOverlay(b, { width: 10, anchor: "top-left" });
		expect(hb.isFocused()).toBe(true);
		ha.focus();
		expect(ha.isFocused()).toBe(true);
		ha.unfocus();
		expect(tui.getFocus()).toBe(b);
		// `a` was brought to the front by focus(), so it is the topmost one removed.
		tui.hideOverlay();
		expect(tui.getFocus()).toBe(b);
		expect(tui.hasOverlay()).toBe(true);
		hb.hide();
		expect(tui.getFocus()).toBe(null);
		expect(tui.hasOverlay()).toBe(false);
	});

	it("non-capturing overlays leave focus alone; `visible` hides on small terminals", async () => {
		const { term, tui } = setup(20, 6);
		const editor = new Input();
		tui.setFocus(editor);
		tui.showOverlay(new Box("nc"), { width: 8, nonCapturing: true });
		expect(tui.getFocus()).toBe(editor);
		tui.showOverlay(new Box("big"), { width: 8, anchor: "top-left", visible: (w) => w >= 30, nonCapturing: true });
		tui.renderNow();
		const screen = (await term.screen()).join("\n");
		expect(screen).toContain("|nc");
		expect(screen).not.toContain("big");
	});

	it("an overlay on short content extends it to the overlay's rows", async () => {
		const term = new VirtualTerminal(20, 6);
		const tui = new TUI(term, { minRenderIntervalMs: 0 });
		tui.addChild(new Lines(["only line"]));
		const h = tui.showOverlay(new Box("x"), { width: 6, anchor: "bottom-left" });
		tui.renderNow();
		expect(await term.screen()).toEqual(["only line", "", "", "++++++", "|x   |", "++++++"]);
		h.hide();
		tui.renderNow();
		expect(await term.screen()).toEqual(["only line", "", "", "", "", ""]);
	});
});
