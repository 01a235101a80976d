import { describe, expect, it } from "vitest";
import type { Component } from "../src/component.js";
import { TUI } from "../src/tui.js";
import { VirtualTerminal } from "./helpers/virtual-terminal.js";

class Lines implements Component {
	constructor(public lines: string[]) {}
	render(): string[] {
		return this.lines.slice();
	}
}

function setup(cols = 20, rows = 5) {
	const term = new VirtualTerminal(cols, rows);
	const tui = new TUI(term, { minRenderIntervalMs: 0 });
	return { term, tui };
}

describe("TUI differential rendering", () => {
	it("first frame writes all lines without clearing", async () => {
		const { term, tui } = setup();
		tui.addChild(new Lines(["hello", "world"]));
		tui.renderNow();
		expect(await term.screen()).toEqual(["hello", "world", "", "", ""]);
		const out = term.takeWrites();
		expect(out.startsWith("\x1b[?2026h")).toBe(true);
		expect(out.endsWith("\x1b[?2026l")).toBe(true);
		expect(out).not.toContain("\x1b[2J");
	});

	it("rewrites only from the first changed line", async () => {
		const { term, tui } = setup();
		const c = new Lines(["aaa", "bbb", "ccc"]);
		tui.addChild(c);
		tui.renderNow();
		term.takeWrites();
		c.lines = ["aaa", "bbb", "CCC", "ddd"];
		tui.renderNow();
		const out = term.takeWrites();
		expect(out).not.toContain("aaa");
		expect(out).not.toContain("bbb");
		expect(out).toContain("CCC");
		expect(await term.screen()).toEqual(["aaa", "bbb", "CCC", "ddd", ""]);
	});

	it("appending to a long line writes only the new tail", async () => {
		const { term, tui } = setup(40, 5);
		const c = new Lines(["first", "the quick brown fox"]);
		tui.addChild(c);
		tui.renderNow();
		term.takeWrites();
		c.lines = ["first", "the quick brown fox jumps"];
		tui.renderNow();
		const out = term.takeWrites();
		expect(out).toContain(" jumps");
		expect(out).not.toContain("quick");
		expect(await term.screen()).toEqual(["first", "the quick brown fox jumps", "", "", ""]);
	});

	it("grows into scrollback and keeps updating the bottom", async () => {
		const { term, tui } = setup(20, 4);
		const c = new Lines([]);
		tui.addChild(c);
		for (let i = 0; i < 10; i++) {
			c.lines = [...c.lines, `line ${i}`];
			tui.renderNow();
		}
		expect(await term.screen()).toEqual(["line 6", "line 7", "line 8", "line 9"]);
		expect((await term.allLines()).slice(0, 3)).toEqual(["line 0", "line 1", "line 2"]);
		expect(tui.fullRedraws).toBe(0);
		c.lines = [...c.lines.slice(0, 9), "line 9 changed"];
		tui.renderNow();
		expect(await term.screen()).toEqual(["line 6", "line 7", "line 8", "line 9 changed"]);
		expect(tui.fullRedraws).toBe(0);
		// A change above the visible rows forces a full redraw.
		c.lines = ["LINE 0", ...c.lines.slice(1)];
		tui.renderNow();
		expect(tui.fullRedraws).toBe(1);
		expect(await term.screen()).toEqual(["line 6", "line 7", "line 8", "line 9 changed"]);
		expect((await term.allLines())[0]).toBe("LINE 0");
	});

	it("clears rows when content shrinks", async () => {
		const { term, tui } = setup(20, 5);
		const c = new Lines(["a", "b", "c", "d"]);
		tui.addChild(c);
		tui.renderNow();
		c.lines = ["a", "B"];
		tui.renderNow();
		expect(await term.screen()).toEqual(["a", "B", "", "", ""]);
		c.lines = ["a", "B", "x"];
		tui.renderNow();
		expect(await term.screen()).toEqual(["a", "B", "x", "", ""]);
		c.lines = ["a"];
		tui.renderNow();
		expect(await term.screen()).toEqual(["a", "", "", "", ""]);
	});
});
