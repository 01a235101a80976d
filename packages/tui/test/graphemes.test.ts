/**
 * The segmenter-free path of graphemes(): every string isSingleUnitGraphemes()
 * accepts must split exactly as Intl.Segmenter splits it, so widths and
 * slicing are the same with or without the segmenter. Checked for every code
 * unit of the accepted ranges, alone and next to each other and to ASCII.
 */

import { eastAsianWidth } from "get-east-asian-width";
import { describe, expect, it } from "vitest";
import { graphemes, graphemeWidth, isSingleUnitGraphemes, startsZeroWidth, textWidth } from "../src/utils/width.js";

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });
const bySegmenter = (text: string) => [...segmenter.segment(text)].map((s) => s.segment);

const accepted: string[] = [];
for (let c = 0; c < 0x2c00; c++) {
	const ch = String.fromCharCode(c);
	if (isSingleUnitGraphemes(ch)) accepted.push(ch);
}

describe("graphemes without the segmenter", () => {
	it("accepts Latin below U+0300 (not CR) and U+2000–U+2BFF but the joiners and symbol combining marks", () => {
		expect(accepted.length).toBe(0x300 - 1 + 0xc00 - 2 - 0x30);
		expect(isSingleUnitGraphemes("─── pi · model → fake …")).toBe(true);
		for (const text of ["e\u0301", "a\r\nb", "x\u200dy", "☀\ufe0f", "👍", "日本", "1\u20e3", "\u1100\u1161"])
			expect(isSingleUnitGraphemes(text)).toBe(false);
	});

	it("splits every accepted unit as Intl.Segmenter does, alone, in pairs and beside ASCII", () => {
		for (let i = 0; i < accepted.length; i++) {
			const a = accepted[i];
			const b = accepted[(i * 7919 + 13) % accepted.length];
			for (const text of [a, `x${a}y`, `${a}${b}`, `${a}${a}${b}z`]) {
				expect([...graphemes(text)], JSON.stringify(text)).toEqual(bySegmenter(text));
			}
		}
	});

	it("measures every code point of U+2000–U+2BFF alone as the Unicode property class does (0 for Mn, Me, Cf)", () => {
		// graphemeWidth answers this block without its regular expressions (their first use builds ICU's sets).
		const zero: number[] = [];
		for (let cp = 0x2000; cp <= 0x2bff; cp++) {
			const ch = String.fromCodePoint(cp);
			const expected = startsZeroWidth(ch) ? 0 : eastAsianWidth(cp);
			expect(graphemeWidth(ch), cp.toString(16)).toBe(expected);
			if (expected === 0) zero.push(cp);
		}
		expect(zero.length).toBe(5 + 5 + 5 + 10 + 33);
	});

	it("falls back to the segmenter for everything else", () => {
		const text = "e\u0301 👨‍👩‍👧 🇯🇵 a\r\nb";
		expect([...graphemes(text)]).toEqual(bySegmenter(text));
		// é, space, family (2), space, flag (2), space, a, CR LF (a control: 0), b
		expect(textWidth(text)).toBe(1 + 1 + 2 + 1 + 2 + 1 + 1 + 0 + 1);
	});
});
