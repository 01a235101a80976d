/** ANSI-aware word wrapping. */
import { AnsiState, escapeLength } from "./ansi.js";
import { joinsPrevious } from "./units.js";
import { graphemes, graphemeWidth } from "./width.js";

/**
 * A piece of a word: an escape sequence (`width` -1), a run of printable ASCII characters other
 * than space (`run`: one column each, splittable anywhere), or one grapheme cluster.
 */
interface Piece {
	text: string;
	width: number;
	run: boolean;
}

interface Word {
	/** Spaces before the word (text only, escapes moved into the word). */
	spaces: number;
	pieces: Piece[];
	width: number;
}

const newWord = (): Word => ({ spaces: 0, pieces: [], width: 0 });

/**
 * The words of a line. Runs of plain ASCII become one piece each (a transcript's lines are mostly
 * that: a piece per character made most of a long session's first frame); escape sequences and
 * everything else go by grapheme cluster, as `walkUnits` splits them.
 */
function splitWords(line: string): Word[] {
	const words: Word[] = [];
	let cur = newWord();
	let inWord = false;
	const space = () => {
		if (inWord) {
			words.push(cur);
			cur = newWord();
			inWord = false;
		}
		cur.spaces++;
	};
	const n = line.length;
	let i = 0;
	while (i < n) {
		const c = line.charCodeAt(i);
		if (c === 0x1b) {
			const len = escapeLength(line, i);
			cur.pieces.push({ text: line.slice(i, i + len), width: -1, run: false });
			i += len;
			continue;
		}
		if (c === 0x20 && !joinsPrevious(line.charCodeAt(i + 1))) {
			space();
			i++;
			continue;
		}
		if (c > 0x20 && c < 0x7f) {
			let j = i + 1;
			for (; j < n; j++) {
				const d = line.charCodeAt(j);
				if (d <= 0x20 || d >= 0x7f) break;
			}
			// The last character joins a combining mark after it: it goes with the cluster below.
			if (j < n && joinsPrevious(line.charCodeAt(j))) j--;
			if (j > i) {
				cur.pieces.push({ text: line.slice(i, j), width: j - i, run: true });
				cur.width += j - i;
				inWord = true;
				i = j;
				continue;
			}
		}
		// Anything else: grapheme clusters up to the next escape sequence.
		let end = line.indexOf("\x1b", i);
		if (end === -1) end = n;
		for (const g of graphemes(line.slice(i, end))) {
			if (g === " ") {
				space();
				continue;
			}
			const w = graphemeWidth(g);
			cur.pieces.push({ text: g, width: w, run: false });
			cur.width += w;
			inWord = true;
		}
		i = end;
	}
	if (cur.pieces.length > 0 || cur.spaces > 0) words.push(cur);
	return words;
}

/**
 * Wrap text to `width` columns, breaking at spaces and splitting words longer
 * than a line. Styles and hyperlinks active at a break are closed at the end of
 * the line and re-opened at the start of the next one, so every line stands
 * alone. Lines are not padded; spaces at a break are dropped.
 */
export function wrapTextWithAnsi(text: string, width: number): string[] {
	const out: string[] = [];
	if (width <= 0) return [""];
	const state = new AnsiState();
	for (const rawLine of text.split("\n")) wrapLine(rawLine, width, state, out);
	return out;
}

function wrapLine(line: string, width: number, state: AnsiState, out: string[]): void {
	if (line.length === 0) {
		out.push("");
		return;
	}
	const words = splitWords(line);
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
	const append = (word: Word) => {
		for (const p of word.pieces) {
			if (p.width < 0) state.apply(p.text);
			else curWidth += p.width;
			cur += p.text;
		}
	};
	for (const word of words) {
		// Leading indentation of the source line is kept; spaces at a wrap are not.
		const spaces = lineHasWord || firstLine ? word.spaces : 0;
		if (curWidth + spaces + word.width <= width) {
			if (spaces > 0) {
				cur += " ".repeat(spaces);
				curWidth += spaces;
			}
			append(word);
			if (word.width > 0) lineHasWord = true;
			continue;
		}
		if (word.width <= width) {
			if (curWidth > 0 || lineHasWord) pushLine();
			append(word);
			if (word.width > 0) lineHasWord = true;
			continue;
		}
		// A word longer than a line: fill the current line, then split it by grapheme.
		if (curWidth + spaces < width && curWidth > 0) {
			cur += " ".repeat(spaces);
			curWidth += spaces;
		} else if (curWidth > 0) pushLine();
		for (const p of word.pieces) {
			if (p.width < 0) {
				state.apply(p.text);
				cur += p.text;
				continue;
			}
			if (p.run) {
				// One column per character: as much of the run as the line holds, then the next line.
				for (let at = 0; at < p.text.length; ) {
					if (curWidth + 1 > width) pushLine();
					const take = Math.min(p.text.length - at, width - curWidth);
					cur += p.text.slice(at, at + take);
					curWidth += take;
					at += take;
					lineHasWord = true;
				}
				continue;
			}
			if (p.width > width) continue; // cannot fit at all (wide char on a 1-column line)
			if (curWidth + p.width > width) pushLine();
			cur += p.text;
			curWidth += p.width;
			lineHasWord = true;
		}
	}
	out.push(cur + state.close());
}
