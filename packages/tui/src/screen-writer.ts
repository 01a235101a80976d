/**
 * What the TUI writes to the terminal for a frame: the escape sequences of a
 * full or a partial redraw and of the cursor's placement, with what the
 * terminal then holds (the cursor's row and column, the rows of content on
 * screen, whether the hardware cursor shows). The TUI decides which kind of
 * frame to draw; this writes it.
 */
import { AnsiState, escapeLength, OSC8_CLOSE, SGR_RESET } from "./utils/ansi.js";
import { truncateToWidth } from "./utils/slice.js";
import { visibleWidth } from "./utils/width.js";

/**
 * Reset appended to a written line that contains escape sequences, so styles
 * and links never leak into the next line (a line without any needs none).
 */
function lineReset(written: string): string {
	if (written.indexOf("\x1b") === -1) return "";
	return written.includes("\x1b]8;") ? SGR_RESET + OSC8_CLOSE : SGR_RESET;
}

/** Column the cursor rests on after writing `line`, or -1 when unknown (pending wrap at the edge). */
function endColumn(line: string, width: number): number {
	// Where a terminal leaves the cursor after an inline image is not reliable.
	if (line.includes("\x1b_G") || line.includes("\x1b]1337;")) return -1;
	const w = visibleWidth(line);
	return w < width ? w : -1;
}
const CLEAR_ALL = "\x1b[3J\x1b[2J\x1b[H";
const KITTY_IMAGE_ID = /\x1b_G[^\x1b]*?i=(\d+)/g;

export class ScreenWriter {
	/** Content row the terminal cursor is on. */
	cursorRow = 0;
	/** Screen column of the cursor, or -1 when unknown. */
	cursorCol = -1;
	/** Rows of content the terminal holds (only grows between full redraws). */
	screenLines = 0;
	hardwareCursorVisible = false;

	constructor(public showHardwareCursor: boolean) {}

	/** Escape sequence moving the cursor from content row `from` to `to` (both on screen). */
	moveRows(from: number, to: number): string {
		if (to > from) return `\x1b[${to - from}B`;
		if (to < from) return `\x1b[${from - to}A`;
		return "";
	}

	/** Every line from the top; with `clear`, the screen and scrollback are wiped first. */
	fullFrame(lines: string[], width: number, clear: boolean): string {
		let out = clear ? CLEAR_ALL : "";
		let last = "";
		for (let i = 0; i < lines.length; i++) {
			if (i > 0) out += "\r\n";
			last = this.prepareLine(lines[i], width);
			out += last + lineReset(last);
		}
		this.cursorRow = Math.max(0, lines.length - 1);
		this.cursorCol = endColumn(last, width);
		this.screenLines = clear ? lines.length : Math.max(this.screenLines, lines.length);
		return out;
	}

	/** Rewrite from line `first` (already known to differ) to the end. */
	partialFrame(
		oldTail: string[],
		start: number,
		prevLength: number,
		lines: string[],
		first: number,
		width: number,
	): string {
		const prevAt = (i: number) => oldTail[i - start];
		let out = "";
		// Kitty images placed on rewritten lines must be deleted or they would stay on screen.
		for (let i = first; i < prevLength; i++) {
			const old = prevAt(i);
			if (old.includes("\x1b_G")) {
				for (const m of old.matchAll(KITTY_IMAGE_ID)) out += `\x1b_Ga=d,d=I,i=${m[1]}\x1b\\`;
			}
		}
		// Reach row `first`: rows that exist are reached by moving, new rows by newlines.
		const lastExisting = Math.max(0, this.screenLines - 1);
		if (first <= lastExisting) out += this.moveRows(this.cursorRow, first);
		else {
			out += this.moveRows(this.cursorRow, lastExisting);
			out += "\r\n".repeat(first - lastExisting);
			this.cursorCol = 0;
		}
		let row = first;
		let wroteTail = false;
		if (first < lines.length) {
			wroteTail = true;
			let last = this.prepareLine(lines[first], width);
			const old = first < prevLength ? this.prepareLine(prevAt(first), width) : undefined;
			const cut = old !== undefined ? diffStart(old, last) : null;
			if (cut) {
				// Rewrite only from the first changed column (a streamed token is a few bytes).
				if (this.cursorCol !== cut.col) out += `\x1b[${cut.col + 1}G`;
				const tail = cut.state.open() + last.slice(cut.index);
				out += (old !== undefined && visibleWidth(old) > visibleWidth(last) ? "\x1b[K" : "") + tail + lineReset(tail);
			} else {
				if (this.cursorCol !== 0) out += "\r";
				out += (old !== undefined && old.length > 0 ? "\x1b[K" : "") + last + lineReset(last);
			}
			for (let i = first + 1; i < lines.length; i++) {
				last = this.prepareLine(lines[i], width);
				// Rows we never wrote, or blanked, need no clearing.
				const clear = i < prevLength && prevAt(i).length > 0 ? "\x1b[K" : "";
				out += `\r\n${clear}${last}${lineReset(last)}`;
			}
			row = lines.length - 1;
			this.cursorCol = endColumn(last, width);
		}
		this.screenLines = Math.max(this.screenLines, lines.length);
		if (prevLength > lines.length) {
			// Content shrank: blank the rows that held the old tail.
			if (!wroteTail) out += "\r\x1b[J";
			else {
				out += "\x1b[1B\r\x1b[J";
				row = lines.length;
			}
			this.cursorCol = 0;
		}
		this.cursorRow = row;
		return out;
	}

	/** Make a line safe to write: no tabs, never wider than the terminal. */
	prepareLine(line: string, width: number): string {
		let l = line;
		if (l.includes("\t")) l = l.replaceAll("\t", "   ");
		if (visibleWidth(l) > width) l = truncateToWidth(l, width, "");
		return l;
	}

	/** Move the hardware cursor to the marker (or keep it hidden at the content end). */
	placeCursor(cursor: { row: number; col: number } | null, total: number): string {
		let out = "";
		if (cursor && cursor.row < total) {
			out += this.moveRows(this.cursorRow, cursor.row);
			if (this.cursorCol !== cursor.col) out += `\x1b[${cursor.col + 1}G`;
			this.cursorRow = cursor.row;
			this.cursorCol = cursor.col;
			if (this.showHardwareCursor && !this.hardwareCursorVisible) {
				out += "\x1b[?25h";
				this.hardwareCursorVisible = true;
			}
		} else if (this.hardwareCursorVisible) {
			out += "\x1b[?25l";
			this.hardwareCursorVisible = false;
		}
		if (!this.showHardwareCursor && this.hardwareCursorVisible) {
			out += "\x1b[?25l";
			this.hardwareCursorVisible = false;
		}
		return out;
	}
}

/**
 * Where two versions of a line start to differ, at a point where rewriting
 * can safely begin: outside escape sequences and grapheme clusters. Returns
 * the string index in `next`, its column, and the style active there; null
 * when the lines differ from the start or hold images.
 */
export function diffStart(prev: string, next: string): { index: number; col: number; state: AnsiState } | null {
	const limit = Math.min(prev.length, next.length);
	let p = 0;
	while (p < limit && prev.charCodeAt(p) === next.charCodeAt(p)) p++;
	if (p < 8) return null; // not worth a column jump
	if (next.includes("\x1b_G") || next.includes("\x1b]1337") || prev.includes("\x1b_G")) return null;
	// A boundary is safe when the next char in both lines cannot join what precedes it.
	const safeAt = (k: number) =>
		(k >= prev.length || prev.charCodeAt(k) < 0x7f) && (k >= next.length || next.charCodeAt(k) < 0x7f);
	let i = 0;
	let col = 0;
	let safeIndex = 0;
	let safeCol = 0;
	while (i < p) {
		const c = next.charCodeAt(i);
		if (c === 0x1b) {
			const len = escapeLength(next, i);
			if (i + len > p) break;
			i += len;
		} else if (c < 0x7f) {
			if (c >= 0x20) col++;
			i++;
		} else {
			// A non-ASCII run counts only if it ends inside the common prefix.
			let end = i;
			while (end < p && next.charCodeAt(end) >= 0x7f) end++;
			if (end >= p) break;
			col += visibleWidth(next.slice(i, end));
			i = end;
		}
		if (safeAt(i)) {
			safeIndex = i;
			safeCol = col;
		}
	}
	if (safeIndex < 8) return null;
	const state = new AnsiState();
	let e = next.indexOf("\x1b");
	while (e !== -1 && e < safeIndex) {
		const len = escapeLength(next, e);
		state.apply(next.slice(e, e + len));
		e = next.indexOf("\x1b", e + len);
	}
	return { index: safeIndex, col: safeCol, state };
}
