import { describe, expect, it } from "vitest";
import { AnsiState, stripAnsi } from "../src/utils/ansi.js";
import { sliceByColumn, sliceColumns, truncateToWidth } from "../src/utils/slice.js";
import { visibleWidth } from "../src/utils/width.js";
import { wrapTextWithAnsi } from "../src/utils/wrap.js";

const link = (text: string, url: string) => `\x1b]8;;${url}\x1b\\${text}\x1b]8;;\x1b\\`;

describe("visibleWidth", () => {
	it.each([
		["hello", 5],
		["", 0],
		["\x1b[31mred\x1b[0m", 3],
		["\x1b[38;2;255;0;0mrgb\x1b[39m", 3],
		[link("click", "https://example.com"), 5],
		["日本語", 6],
		["ｱｲｳ", 3], // half-width katakana
		["한국어", 6],
		["😀", 2],
		["👍🏽", 2], // skin tone modifier sequence
		["👨‍👩‍👧", 2], // ZWJ family
		["🇺🇸", 2], // flag
		["❤️", 2], // VS16 emoji presentation
		["❤", 1], // text presentation
		["1️⃣", 2], // keycap
		["e\u0301", 1], // combining acute
		["a\u200bb", 2], // zero-width space
		["\x1b_pi:c\x07x", 1], // APC marker has no width
		["tab\there", 10],
	])("%j is %i columns", (s, w) => {
		expect(visibleWidth(s)).toBe(w);
	});
});

describe("truncateToWidth", () => {
	it("returns text that fits unchanged", () => {
		expect(truncateToWidth("hello", 5)).toBe("hello");
	});
	it("cuts with an ellipsis", () => {
		expect(truncateToWidth("Hello World", 8)).toBe("Hello...");
		expect(truncateToWidth("Hello World", 8, "")).toBe("Hello Wo");
	});
	it("pads to the width", () => {
		expect(truncateToWidth("hi", 5, "...", true)).toBe("hi   ");
		expect(visibleWidth(truncateToWidth("Hello World", 8, "…", true))).toBe(8);
	});
	it("never splits a wide character", () => {
		const t = truncateToWidth("日本語テキスト", 5, "");
		expect(stripAnsi(t)).toBe("日本");
		expect(visibleWidth(t)).toBe(4);
	});
	it("closes styles and links at the cut", () => {
		const t = truncateToWidth(`\x1b[31m${link("abcdefghij", "http://x")}\x1b[39m`, 6);
		expect(stripAnsi(t)).toBe("abc...");
		// The ellipsis is outside the colour and outside the link.
		expect(t.endsWith("\x1b[39m\x1b]8;;\x1b\\...")).toBe(true);
	});
	it("handles a width smaller than the ellipsis", () => {
		expect(truncateToWidth("abcdef", 2)).toBe("..");
		expect(truncateToWidth("abcdef", 0)).toBe("");
	});
});

describe("sliceColumns", () => {
	it("re-opens the active style at the slice start", () => {
		const r = sliceColumns("\x1b[1mbold\x1b[22m plain", 2, 4);
		expect(r.text).toBe("\x1b[1mld\x1b[22m p");
		expect(r.width).toBe(4);
	});
	it("pads a wide character cut by the start", () => {
		expect(sliceByColumn("日本", 1, 3)).toBe(" 本");
	});
	it("re-opens a hyperlink", () => {
		const r = sliceColumns(link("abcdef", "http://x"), 3, 2);
		expect(r.text).toBe("\x1b]8;;http://x\x1b\\de");
		expect(r.state.close()).toBe("\x1b]8;;\x1b\\");
	});
});

describe("wrapTextWithAnsi", () => {
	it("wraps at spaces", () => {
		expect(wrapTextWithAnsi("This is a long line that needs wrapping", 20)).toEqual([
			"This is a long line",
			"that needs wrapping",
		]);
	});
	it("keeps styles across line breaks and closes them at each end", () => {
		const lines = wrapTextWithAnsi("\x1b[31mred words here\x1b[39m after", 9);
		expect(lines).toEqual(["\x1b[31mred words\x1b[39m", "\x1b[31mhere\x1b[39m", "after"]);
	});
	it("splits words longer than a line", () => {
		expect(wrapTextWithAnsi("abcdefghij", 4)).toEqual(["abcd", "efgh", "ij"]);
	});
	it("keeps blank lines and leading indentation", () => {
		expect(wrapTextWithAnsi("a\n\n  b", 10)).toEqual(["a", "", "  b"]);
	});
	it("wraps wide characters by columns", () => {
		const lines = wrapTextWithAnsi("日本語のテキスト", 5);
		expect(lines.map((l) => visibleWidth(l))).toEqual([4, 4, 4, 4]);
	});
	it("never exceeds the width", () => {
		const corpus = [
			"😀😀😀😀😀 👨‍👩‍👧 family 🇺🇸 flags",
			`${link("a link with words", "https://example.com/a/b")} after the link`,
			"\x1b[1;38;5;208mbold orange\x1b[0m ｱｲｳｴｵ 한국어 text",
		];
		for (const text of corpus) {
			for (let w = 1; w <= 30; w++) {
				for (const line of wrapTextWithAnsi(text, w)) expect(visibleWidth(line)).toBeLessThanOrEqual(w);
			}
		}
	});
});

describe("AnsiState", () => {
	it("tracks SGR attributes and serialises them", () => {
		const s = new AnsiState();
		s.apply("\x1b[1;31m");
		s.apply("\x1b[48;5;17m");
		expect(s.open()).toBe("\x1b[1;31;48;5;17m");
		expect(s.close()).toBe("\x1b[22;39;49m");
		s.apply("\x1b[0m");
		expect(s.isPlain()).toBe(true);
		expect(s.open()).toBe("");
	});
});
