/** ANSI-aware word wrapping. */
import { AnsiState } from "./ansi.js";
import { walkUnits } from "./units.js";

interface Word {
	/** Spaces before the word (text only, escapes moved into the word). */
	spaces: number;
	/** Escape sequences and graphemes of the word, as [text, width] pairs (width -1 = escape). */
	units: [string, number][];
	width: number;
}

function splitWords(line: string): Word[] {
	const words: Word[] = [];
	let cur: Word = { spaces: 0, units: [], width: 0 };
	let inWord = false;
	walkUnits(line, (text, w) => {
		if (text === " ") {
			if (inWord) {
				words.push(cur);
				cur = { spaces: 0, units: [], width: 0 };
				inWord = false;
			}
			cur.spaces++;
			return true;
		}
		cur.units.push([text, w]);
		if (w >= 0) {
			cur.width += w;
			inWord = true;
		}
		return true;
	});
	if (cur.units.length > 0 || cur.spaces > 0) words.push(cur);
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
	const appendUnits = (units: [string, number][]) => {
		for (const [t, w] of units) {
			if (w < 0) state.apply(t);
			cur += t;
			if (w > 0) curWidth += w;
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
			appendUnits(word.units);
			if (word.width > 0) lineHasWord = true;
			continue;
		}
		if (word.width <= width) {
			if (curWidth > 0 || lineHasWord) pushLine();
			appendUnits(word.units);
			if (word.width > 0) lineHasWord = true;
			continue;
		}
		// A word longer than a line: fill the current line, then split by grapheme.
		if (curWidth + spaces < width && curWidth > 0) {
			cur += " ".repeat(spaces);
			curWidth += spaces;
		} else if (curWidth > 0) pushLine();
		for (const [t, w] of word.units) {
			if (w < 0) {
				state.apply(t);
				cur += t;
				continue;
			}
			if (w > width) continue; // cannot fit at all (wide char on a 1-column line)
			if (curWidth + w > width) pushLine();
			cur += t;
			curWidth += w;
			lineHasWord = true;
		}
	}
	out.push(cur + state.close());
}
