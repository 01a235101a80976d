/**
 * Terminal column widths of strings: grapheme clusters (Intl.Segmenter),
 * East Asian width (get-east-asian-width) and emoji presentation rules as
 * modern terminals apply them. Escape sequences have no width.
 */
import { eastAsianWidth } from "get-east-asian-width";
import { escapeLength } from "./ansi.js";

// Made on first use: the first Intl object builds ICU's locale tables (~90M instructions, about
// a tenth of a whole `pi -p` run), and ASCII text — most of what is measured — never needs it.
let segmenter: Intl.Segmenter | undefined;

/** The shared grapheme segmenter. */
export function getSegmenter(): Intl.Segmenter {
	segmenter ??= new Intl.Segmenter(undefined, { granularity: "grapheme" });
	return segmenter;
}

// Unicode property classes, made on first use: each costs V8 ~2M instructions to build (ICU's
// property sets) when it is created, and a screen of Latin text, borders and arrows needs none.
let zeroWidthStart: RegExp | undefined;
let pictographic: RegExp | undefined;
const EMOJI_MODIFIER = /[\u{1F3FB}-\u{1F3FF}]/u;

/** Starts with a zero-width code point: Mn, Me, Cf, or a Hangul medial/final jamo. */
export function startsZeroWidth(g: string): boolean {
	zeroWidthStart ??= /^[\p{Mn}\p{Me}\p{Cf}\u1160-\u11ff]/u;
	return zeroWidthStart.test(g);
}

function isPictographic(g: string): boolean {
	pictographic ??= /\p{Extended_Pictographic}/u;
	return pictographic.test(g);
}

/**
 * The zero-width (Mn, Me, Cf) code points of U+2000–U+2BFF: ZWSP to RLM, the bidi embeddings,
 * the word joiner and invisible operators, the bidi isolates and deprecated format controls, and
 * the combining marks for symbols. Checked against startsZeroWidth for every code point of the
 * block (tui/test/graphemes.test.ts).
 */
function zeroWidthSymbolBlock(cp: number): boolean {
	return (
		(cp >= 0x200b && cp <= 0x200f) ||
		(cp >= 0x202a && cp <= 0x202e) ||
		(cp >= 0x2060 && cp <= 0x2064) ||
		(cp >= 0x2066 && cp <= 0x206f) ||
		(cp >= 0x20d0 && cp <= 0x20f0)
	);
}

/** Width of one grapheme cluster in terminal columns (0, 1 or 2). */
export function graphemeWidth(g: string): number {
	const cp = g.codePointAt(0) ?? 0;
	if (cp < 0x7f && g.length === 1) {
		if (cp >= 0x20) return 1;
		return cp === 0x09 ? 3 : 0;
	}
	// Keycaps ("1️⃣"): an ASCII base made an emoji.
	if (cp < 0x7f) return g.includes("\u20E3") && g.includes("\uFE0F") ? 2 : cp >= 0x20 ? 1 : 0;
	if (cp < 0xa0) return 0;
	if (g.length === 1 && cp < 0x300) return cp === 0xad ? 0 : 1;
	// Punctuation, arrows, box drawing, shapes and symbols alone (a screen's borders, "…", "→").
	if (g.length === 1 && cp >= 0x2000 && cp <= 0x2bff) return zeroWidthSymbolBlock(cp) ? 0 : eastAsianWidth(cp);
	if (startsZeroWidth(g)) return 0;
	// Regional indicators: a pair is a flag (2 columns), a lone one is 1.
	if (cp >= 0x1f1e6 && cp <= 0x1f1ff) return g.length >= 4 ? 2 : 1;
	if (g.length > 1) {
		// Emoji presentation forced by VS16, skin tones, keycaps and ZWJ sequences are wide.
		if (g.includes("\uFE0F") && (isPictographic(g) || g.includes("\u20E3"))) return 2;
		if (isPictographic(g) && (EMOJI_MODIFIER.test(g) || g.includes("\u200D"))) return 2;
	}
	return eastAsianWidth(cp);
}

const cache = new Map<string, number>();
const CACHE_LIMIT = 4096;

/** True when every char is printable ASCII (the common, fast case). */
function isPrintableAscii(str: string): boolean {
	for (let i = 0; i < str.length; i++) {
		const c = str.charCodeAt(i);
		if (c < 0x20 || c > 0x7e) return false;
	}
	return true;
}

/**
 * True when each UTF-16 unit of `text` is a grapheme cluster of its own, as Intl.Segmenter would
 * split it: only units below U+0300 (Latin, no combining marks; CR excluded, CR LF is one cluster)
 * and U+2000–U+2BFF (punctuation, arrows, box drawing, shapes, symbols) without the joiners
 * U+200C/U+200D and the combining marks for symbols U+20D0–U+20FF. No surrogates (emoji, flags),
 * no variation selectors, no Hangul jamo. Lets the common non-ASCII text of a screen (borders,
 * "…", "→", "·") skip the segmenter, whose first use builds ICU's locale tables (~90M instructions).
 */
export function isSingleUnitGraphemes(text: string): boolean {
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		if (c < 0x300) {
			if (c === 0x0d) return false;
			continue;
		}
		if (c < 0x2000 || c > 0x2bff || c === 0x200c || c === 0x200d || (c >= 0x20d0 && c <= 0x20ff)) return false;
	}
	return true;
}

function* segments(text: string): Generator<string> {
	for (const { segment } of getSegmenter().segment(text)) yield segment;
}

/** The grapheme clusters of `text` (see isSingleUnitGraphemes for when the segmenter is skipped). */
export function graphemes(text: string): Iterable<string> {
	return isSingleUnitGraphemes(text) ? text : segments(text);
}

/** Width of a string with no escape sequences. */
export function textWidth(text: string): number {
	if (isPrintableAscii(text)) return text.length;
	let w = 0;
	for (const g of graphemes(text)) w += graphemeWidth(g);
	return w;
}

/**
 * Visible width of a string in terminal columns, ignoring escape sequences. Printable ASCII and
 * escape sequences (styled Latin text: most lines of a screen, each measured on every frame) are
 * counted in one pass with no cache; anything else goes through the grapheme path, cached.
 */
export function visibleWidth(str: string): number {
	let width = 0;
	for (let i = 0; i < str.length; ) {
		const c = str.charCodeAt(i);
		if (c >= 0x20 && c < 0x7f) {
			width++;
			i++;
		} else if (c === 0x1b) i += escapeLength(str, i);
		else return graphemeLineWidth(str);
	}
	return width;
}

/** visibleWidth of a string holding more than printable ASCII and escape sequences. */
function graphemeLineWidth(str: string): number {
	const cached = cache.get(str);
	if (cached !== undefined) return cached;
	let width = 0;
	let runStart = 0;
	let i = 0;
	while (i < str.length) {
		if (str.charCodeAt(i) === 0x1b) {
			if (i > runStart) width += textWidth(str.slice(runStart, i));
			i += escapeLength(str, i);
			runStart = i;
		} else i++;
	}
	if (runStart < str.length) width += textWidth(str.slice(runStart));
	if (cache.size >= CACHE_LIMIT) cache.clear();
	cache.set(str, width);
	return width;
}
