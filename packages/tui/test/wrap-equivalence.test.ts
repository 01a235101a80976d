// visibleWidth counts printable ASCII and escapes in one pass (end of file).
// wrapTextWithAnsi takes runs of plain ASCII as one piece each; before, every character was a
// unit of its own (walkUnits). The per-unit algorithm is kept here as the oracle: for generated
// lines of ASCII words, spaces, SGR and OSC 8 sequences, CJK, emoji, combining marks, tabs and
// long words, at widths 1–40, both must give the same lines, byte for byte.
import { describe, expect, it } from "vitest";
import { AnsiState, escapeLength } from "../src/utils/ansi.js";
import { walkUnits } from "../src/utils/units.js";
import { graphemes, graphemeWidth, visibleWidth } from "../src/utils/width.js";
import { wrapTextWithAnsi } from "../src/utils/wrap.js";

function referenceWrap(text: string, width: number): string[] {
	const out: string[] = [];
	if (width <= 0) return [""];
	const state = new AnsiState();
	for (const line of text.split("\n")) {
		if (line.length === 0) {
			out.push("");
			continue;
		}
		const words: { spaces: number; units: [string, number][]; width: number }[] = [];
		let word = { spaces: 0, units: [] as [string, number][], width: 0 };
		let inWord = false;
		walkUnits(line, (t, w) => {
			if (t === " ") {
				if (inWord) {
					words.push(word);
					word = { spaces: 0, units: [], width: 0 };
					inWord = false;
				}
				word.spaces++;
				return true;
			}
			word.units.push([t, w]);
			if (w >= 0) {
				word.width += w;
				inWord = true;
			}
			return true;
		});
		if (word.units.length > 0 || word.spaces > 0) words.push(word);
		let cur = state.open();
		let curWidth = 0;
		let lineHasWord = false;
		let firstLine = true;
		const pushLine = () => {
			out.push(cur + state.close());
			cur = state.open();
			curWidth = 0;
			lineHasWord = false;
			firstLine = false;
		};
		const add = (t: string, w: number) => {
			if (w < 0) state.apply(t);
			cur += t;
			if (w > 0) curWidth += w;
		};
		for (const wd of words) {
			const spaces = lineHasWord || firstLine ? wd.spaces : 0;
			if (curWidth + spaces + wd.width <= width) {
				cur += " ".repeat(spaces);
				curWidth += spaces;
				for (const [t, w] of wd.units) add(t, w);
				if (wd.width > 0) lineHasWord = true;
				continue;
			}
			if (wd.width <= width) {
				if (curWidth > 0 || lineHasWord) pushLine();
				for (const [t, w] of wd.units) add(t, w);
				if (wd.width > 0) lineHasWord = true;
				continue;
			}
			if (curWidth + spaces < width && curWidth > 0) {
				cur += " ".repeat(spaces);
				curWidth += spaces;
			} else if (curWidth > 0) pushLine();
			for (const [t, w] of wd.units) {
				if (w < 0) {
					add(t, w);
					continue;
				}
				if (w > width) continue;
				if (curWidth + w > width) pushLine();
				cur += t;
				curWidth += w;
				lineHasWord = true;
			}
		}
		out.push(cur + state.close());
	}
	return out;
}

let seed = 7;
const rand = (n: number) => {
	seed = (seed * 1103515245 + 12345) & 0x7fffffff;
	return seed % n;
};
const letters = "abcdefghijklmnopqrstuvwxyzABC0123456789.,;:!?()[]{}<>/\\'\"`~-_=+*&^%$#@|";
const asciiWord = (len: number) => Array.from({ length: len }, () => letters[rand(letters.length)]).join("");
const TOKENS: (() => string)[] = [
	() => asciiWord(1 + rand(8)),
	() => asciiWord(1 + rand(8)),
	() => asciiWord(20 + rand(40)),
	() => " ",
	() => "  ",
	() => "\x1b[1m",
	() => "\x1b[22m",
	() => "\x1b[38;2;10;200;30m",
	() => "\x1b[39m",
	() => "\x1b[0m",
	() => "\x1b[2 q",
	() => "\x1b]8;;https://example.com/a b\x1b\\",
	() => "\x1b]8;;\x1b\\",
	() => "中文字",
	() => "👍",
	() => "👍🏽",
	() => "👨‍👩‍👧",
	() => "1\ufe0f\u20e3",
	() => "e\u0301",
	() => "a\u0301b",
	() => " \u0301",
	() => "\t",
	() => "\x7f",
	() => "…→·│",
	() => "\n",
	() => "ünïcödé",
];

describe("wrapTextWithAnsi", () => {
	it("gives the per-unit algorithm's lines for 4,000 generated texts at widths 1–40", () => {
		let checked = 0;
		for (let k = 0; k < 4000; k++) {
			const text = Array.from({ length: 1 + rand(30) }, () => TOKENS[rand(TOKENS.length)]()).join("");
			const width = 1 + rand(40);
			const got = wrapTextWithAnsi(text, width);
			const want = referenceWrap(text, width);
			if (JSON.stringify(got) !== JSON.stringify(want))
				expect({ text, width, got }).toEqual({ text, width, got: want });
			checked++;
		}
		expect(checked).toBe(4000);
	});

	it("keeps a run of plain ASCII whole when it fits and splits it by column when it does not", () => {
		expect(wrapTextWithAnsi("\x1b[1mabcdefghij\x1b[22m xy", 4)).toEqual([
			"\x1b[1mabcd\x1b[22m",
			"\x1b[1mefgh\x1b[22m",
			"\x1b[1mij\x1b[22m",
			"xy",
		]);
		expect(wrapTextWithAnsi("ab e\u0301f", 3)).toEqual(["ab", "e\u0301f"]);
	});
});

describe("visibleWidth", () => {
	// The measure before the one-pass count of printable ASCII and escapes: escapes skipped, each run
	// between them by grapheme cluster.
	const referenceWidth = (str: string): number => {
		let width = 0;
		let runStart = 0;
		let i = 0;
		const run = (text: string) => {
			for (const g of graphemes(text)) width += graphemeWidth(g);
		};
		while (i < str.length) {
			if (str.charCodeAt(i) === 0x1b) {
				if (i > runStart) run(str.slice(runStart, i));
				i += escapeLength(str, i);
				runStart = i;
			} else i++;
		}
		if (runStart < str.length) run(str.slice(runStart));
		return width;
	};

	it("measures 4,000 generated lines as grapheme clusters between escapes do", () => {
		for (let k = 0; k < 4000; k++) {
			const text = Array.from({ length: 1 + rand(20) }, () => TOKENS[rand(TOKENS.length)]())
				.join("")
				.replaceAll("\n", " ");
			const got = visibleWidth(text);
			const want = referenceWidth(text);
			if (got !== want) expect({ text, got }).toEqual({ text, got: want });
		}
		expect(visibleWidth("\x1b[1mab\x1b[22m c\x1b")).toBe(4);
	});
});
