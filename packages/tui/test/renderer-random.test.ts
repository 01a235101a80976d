/**
 * Randomised frames: a tree of containers whose children change, grow,
 * shrink, move and are removed, with a focused input and an overlay toggling.
 * After every frame the emulator's screen must equal the last rows of a plain
 * render of the same tree, and no row may wrap.
 */
import { describe, expect, it } from "vitest";
import { type Component, Container } from "../src/component.js";
import { Input } from "../src/components/input.js";
import { TUI } from "../src/tui.js";
import { stripAnsi } from "../src/utils/ansi.js";
import { truncateToWidth } from "../src/utils/slice.js";
import { VirtualTerminal } from "./helpers/virtual-terminal.js";

class Block implements Component {
	private cache: string[] = [];
	constructor(public lines: string[]) {
		this.cache = lines.slice();
	}
	set(lines: string[]): void {
		this.lines = lines;
		this.cache = lines.slice();
	}
	render(): string[] {
		return this.cache;
	}
}

function rng(seed: number) {
	let s = seed;
	return () => {
		s = (s * 1103515245 + 12345) & 0x7fffffff;
		return s / 0x7fffffff;
	};
}

const WORDS = [
	"alpha",
	"beta",
	"日本",
	"😀x",
	"\x1b[31mred\x1b[0m",
	"\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\",
	"gamma",
];

describe("randomised differential rendering", () => {
	for (const seed of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]) {
		it(`screen matches a plain render after every frame (seed ${seed})`, async () => {
			const rand = rng(seed);
			const cols = 24;
			const rows = 8;
			const term = new VirtualTerminal(cols, rows);
			const tui = new TUI(term, { minRenderIntervalMs: 0 });
			const groups = [new Container(), new Container()];
			for (const g of groups) tui.addChild(g);
			const input = new Input();
			tui.addChild(input);
			tui.setFocus(input);
			const line = () =>
				Array.from({ length: 1 + Math.floor(rand() * 4) }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(" ");
			const block = () => new Block(Array.from({ length: 1 + Math.floor(rand() * 3) }, line));
			for (const g of groups) for (let i = 0; i < 3; i++) g.addChild(block());
			let overlay: ReturnType<TUI["showOverlay"]> | undefined;
			for (let frame = 0; frame < 60; frame++) {
				const g = groups[Math.floor(rand() * groups.length)];
				const r = rand();
				const kids = g.children as Block[];
				if (r < 0.3 && kids.length > 0) {
					const b = kids[Math.floor(rand() * kids.length)];
					b.set([...b.lines.slice(0, -1), `${b.lines.at(-1) ?? ""} ${line()}`]);
				} else if (r < 0.5) g.addChild(block());
				else if (r < 0.6 && kids.length > 1) g.removeChild(kids[Math.floor(rand() * kids.length)]);
				else if (r < 0.7 && kids.length > 0) kids[Math.floor(rand() * kids.length)].set([line()]);
				else if (r < 0.8) input.handleInput(String.fromCharCode(97 + Math.floor(rand() * 26)));
				else if (r < 0.9) {
					if (overlay) {
						overlay.hide();
						overlay = undefined;
					} else overlay = tui.showOverlay(new Block(["+------+", "| menu |", "+------+"]), { width: 8 });
				}
				tui.renderNow();
				expect(await term.anyWrapped()).toBe(false);
				// With an overlay up, only check that nothing wraps.
				if (overlay) continue;
				// Expected: the last `rows` rows of a plain render, the input's cursor marker removed.
				// Lines wider than the terminal are cut by the TUI.
				const plain = tui.render(cols).map((l) => stripAnsi(truncateToWidth(l, cols, "")).replace(/\s+$/, ""));
				// The terminal cannot scroll back: after content shrinks, the viewport stays where
				// the tallest frame since the last full redraw (overlay rows included) left it.
				const tallest = (tui as unknown as { writer: { screenLines: number } }).writer.screenLines;
				expect(tallest).toBeGreaterThanOrEqual(plain.length);
				const top = Math.max(0, tallest - rows);
				const expected = plain.slice(top, top + rows);
				while (expected.length < rows) expected.push("");
				const screen = (await term.screen()).map((l) => l.replace(/\s+$/, ""));
				expect(screen).toEqual(expected);
			}
		});
	}
});
