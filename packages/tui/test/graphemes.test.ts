/**
 * The segmenter-free path of graphemes(): every string isSingleUnitGraphemes()
 * accepts must split exactly as Intl.Segmenter splits it, so widths and
 * slicing are the same with or without the segmenter. Checked for every code
 * unit of the accepted ranges, alone and next to each other and to ASCII.
 */
import { describe, expect, it } from "vitest";
import { graphemes, isSingleUnitGraphemes, textWidth } from "../src/utils/width.js";

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

	it("falls back to the segmenter for everything else", () => {
		const text = "e\u0301 👨‍👩‍👧 🇯🇵 a\r\nb";
		expect([...graphemes(text)]).toEqual(bySegmenter(text));
		// é, space, family (2), space, flag (2), space, a, CR LF (a control: 0), b
		expect(textWidth(text)).toBe(1 + 1 + 2 + 1 + 2 + 1 + 1 + 0 + 1);
	});
});
