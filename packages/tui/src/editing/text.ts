/** Cursor movement helpers over a single line of text (grapheme and word aware). */
import { getSegmenter } from "../utils/width.js";

/** Index of the grapheme boundary before `pos`. */
export function prevGrapheme(text: string, pos: number): number {
	if (pos <= 0) return 0;
	const c = text.charCodeAt(pos - 1);
	// ASCII fast path: a lone ASCII char not preceded by anything joining.
	if (c < 0x7f && (pos < 2 || text.charCodeAt(pos - 2) < 0x7f)) return pos - 1;
	let last = 0;
	for (const { index } of getSegmenter().segment(text.slice(0, pos))) last = index;
	return last;
}

/** Index of the grapheme boundary after `pos`. */
export function nextGrapheme(text: string, pos: number): number {
	if (pos >= text.length) return text.length;
	const c = text.charCodeAt(pos);
	const n = text.charCodeAt(pos + 1);
	if (c < 0x7f && (Number.isNaN(n) || n < 0x7f)) return pos + 1;
	for (const { index, segment } of getSegmenter().segment(text.slice(pos))) {
		return pos + index + segment.length;
	}
	return text.length;
}

export function isWhitespaceChar(ch: string): boolean {
	return /\s/.test(ch);
}

export function isPunctuationChar(ch: string): boolean {
	return /[\p{P}\p{S}]/u.test(ch);
}

type CharClass = 0 | 1 | 2; // space, punctuation, word

function classOf(ch: string): CharClass {
	if (isWhitespaceChar(ch)) return 0;
	if (isPunctuationChar(ch)) return 1;
	return 2;
}

/** Start of the word before `pos` (skips spaces, then one run of word or punctuation chars). */
export function wordLeft(text: string, pos: number): number {
	let i = pos;
	while (i > 0 && classOf(text[i - 1]) === 0) i--;
	if (i === 0) return 0;
	const cls = classOf(text[i - 1]);
	while (i > 0 && classOf(text[i - 1]) === cls) i--;
	return i;
}

/** End of the word after `pos` (skips spaces, then one run of word or punctuation chars). */
export function wordRight(text: string, pos: number): number {
	let i = pos;
	while (i < text.length && classOf(text[i]) === 0) i++;
	if (i >= text.length) return text.length;
	const cls = classOf(text[i]);
	while (i < text.length && classOf(text[i]) === cls) i++;
	return i;
}
