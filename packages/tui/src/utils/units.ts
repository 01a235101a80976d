/**
 * Splits a line into units: escape sequences (no width) and grapheme
 * clusters (with their column width). Slicing and wrapping work on units.
 */
import { escapeLength } from "./ansi.js";
import { graphemes, graphemeWidth } from "./width.js";

/** An escape sequence (`width === -1`) or one grapheme cluster. */
export interface Unit {
	text: string;
	/** Columns taken; -1 marks an escape sequence. */
	width: number;
}

/**
 * Whether a code unit after an ASCII character joins it into one grapheme
 * cluster with what follows (a combining mark, ZWJ, VS16, the keycap mark):
 * the ASCII fast paths of `walkUnits` and wrap.ts stop before such a character.
 */
export function joinsPrevious(c: number): boolean {
	return (c >= 0x300 && c < 0x370) || c === 0x200d || c === 0xfe0f || c === 0x20e3;
}

/** Call `fn` for each unit of `line`, in order. Returning `false` stops the walk. */
export function walkUnits(line: string, fn: (text: string, width: number) => boolean | undefined): void {
	const n = line.length;
	let i = 0;
	while (i < n) {
		const c = line.charCodeAt(i);
		if (c === 0x1b) {
			const len = escapeLength(line, i);
			if (fn(line.slice(i, i + len), -1) === false) return;
			i += len;
			continue;
		}
		if (c >= 0x20 && c < 0x7f) {
			// ASCII fast path, except before a combining mark that would join this char.
			if (!joinsPrevious(line.charCodeAt(i + 1))) {
				if (fn(line[i], 1) === false) return;
				i++;
				continue;
			}
		}
		// Segment the run up to the next escape sequence.
		let end = line.indexOf("\x1b", i);
		if (end === -1) end = n;
		for (const segment of graphemes(line.slice(i, end))) {
			if (fn(segment, graphemeWidth(segment)) === false) return;
		}
		i = end;
	}
}
