/**
 * The editor's text model: lines and cursor, grapheme-aware edits, an
 * emacs kill ring with yank/yank-pop, undo/redo, and cursor moves that need
 * no layout. The Editor component adds layout, history, pastes and keys.
 */
import { KillRing } from "./kill-ring.js";
import type { Segment } from "./layout.js";
import { wordLeft, wordRight } from "./text.js";
import { UndoStack } from "./undo-stack.js";

export interface BufferState {
	lines: string[];
	cursorLine: number;
	cursorCol: number;
}

export type LastAction = "type" | "kill" | "yank" | null;

/** CRLF/CR to LF, tabs to four spaces. */
export function normalizeText(text: string): string {
	return text.replace(/\r\n?/g, "\n").replace(/\t/g, "    ");
}

export class TextBuffer {
	state: BufferState = { lines: [""], cursorLine: 0, cursorCol: 0 };
	/** What the last key did: consecutive kills merge, yank-pop needs a yank, typing runs share an undo step. */
	lastAction: LastAction = null;
	readonly undoStack = new UndoStack<BufferState>();
	private readonly killRing = new KillRing();
	private lastYank: { line: number; start: number; text: string } | null = null;
	/** Atomic units of a line (graphemes; paste markers as one unit). */
	private readonly segmentsOf: (line: string) => Segment[];
	/** Called after every change of the text. */
	private readonly changed: () => void;

	constructor(segmentsOf: (line: string) => Segment[], changed: () => void) {
		this.segmentsOf = segmentsOf;
		this.changed = changed;
	}

	getText(): string {
		return this.state.lines.join("\n");
	}

	snapshot(): BufferState {
		return { lines: this.state.lines.slice(), cursorLine: this.state.cursorLine, cursorCol: this.state.cursorCol };
	}

	pushUndo(): void {
		this.undoStack.push(this.snapshot());
	}

	/** Insert (possibly multi-line) text at the cursor. */
	insert(text: string): void {
		const { lines, cursorLine, cursorCol } = this.state;
		const line = lines[cursorLine];
		const parts = normalizeText(text).split("\n");
		const before = line.slice(0, cursorCol);
		const after = line.slice(cursorCol);
		if (parts.length === 1) {
			lines[cursorLine] = before + parts[0] + after;
			this.state.cursorCol += parts[0].length;
			return;
		}
		const newLines = [before + parts[0], ...parts.slice(1, -1), parts[parts.length - 1] + after];
		lines.splice(cursorLine, 1, ...newLines);
		this.state.cursorLine = cursorLine + parts.length - 1;
		this.state.cursorCol = parts[parts.length - 1].length;
	}

	/** Atomic units of the cursor line (graphemes, paste markers). */
	private segments(line: number): Segment[] {
		return this.segmentsOf(this.state.lines[line]);
	}

	prevBoundary(): number {
		const col = this.state.cursorCol;
		let prev = 0;
		for (const s of this.segments(this.state.cursorLine)) {
			if (s.index >= col) break;
			prev = s.index;
		}
		return prev;
	}

	nextBoundary(): number {
		const col = this.state.cursorCol;
		for (const s of this.segments(this.state.cursorLine)) {
			if (s.index >= col) return s.index + s.text.length;
		}
		return this.state.lines[this.state.cursorLine].length;
	}

	backspace(): void {
		const { cursorLine, cursorCol, lines } = this.state;
		if (cursorCol === 0 && cursorLine === 0) return;
		this.pushUndo();
		if (cursorCol === 0) {
			const prevLen = lines[cursorLine - 1].length;
			lines[cursorLine - 1] += lines[cursorLine];
			lines.splice(cursorLine, 1);
			this.state.cursorLine--;
			this.state.cursorCol = prevLen;
		} else {
			const from = this.prevBoundary();
			lines[cursorLine] = lines[cursorLine].slice(0, from) + lines[cursorLine].slice(cursorCol);
			this.state.cursorCol = from;
		}
		this.lastAction = null;
		this.changed();
	}

	deleteForward(): void {
		const { cursorLine, cursorCol, lines } = this.state;
		const line = lines[cursorLine];
		if (cursorCol === line.length && cursorLine === lines.length - 1) return;
		this.pushUndo();
		if (cursorCol === line.length) {
			lines[cursorLine] = line + lines[cursorLine + 1];
			lines.splice(cursorLine + 1, 1);
		} else {
			lines[cursorLine] = line.slice(0, cursorCol) + line.slice(this.nextBoundary());
		}
		this.lastAction = null;
		this.changed();
	}

	/** Remove [from, to) of the cursor line into the kill ring. */
	private killRange(from: number, to: number, backward: boolean): void {
		const { cursorLine, lines } = this.state;
		const line = lines[cursorLine];
		const killed = line.slice(from, to);
		this.pushUndo();
		this.killRing.push(killed, { prepend: backward, accumulate: this.lastAction === "kill" });
		lines[cursorLine] = line.slice(0, from) + line.slice(to);
		this.state.cursorCol = from;
		this.lastAction = "kill";
		this.changed();
	}

	/** Kill the newline joining the cursor line with its neighbour. */
	private killNewline(backward: boolean): void {
		const { cursorLine, lines } = this.state;
		this.pushUndo();
		this.killRing.push("\n", { prepend: backward, accumulate: this.lastAction === "kill" });
		const at = backward ? cursorLine - 1 : cursorLine;
		const col = lines[at].length;
		lines[at] += lines[at + 1];
		lines.splice(at + 1, 1);
		this.state.cursorLine = at;
		this.state.cursorCol = col;
		this.lastAction = "kill";
		this.changed();
	}

	killWordBackward(): void {
		const { cursorLine, cursorCol, lines } = this.state;
		if (cursorCol === 0) {
			if (cursorLine > 0) this.killNewline(true);
			return;
		}
		this.killRange(wordLeft(lines[cursorLine], cursorCol), cursorCol, true);
	}

	killWordForward(): void {
		const { cursorLine, cursorCol, lines } = this.state;
		if (cursorCol === lines[cursorLine].length) {
			if (cursorLine < lines.length - 1) this.killNewline(false);
			return;
		}
		this.killRange(cursorCol, wordRight(lines[cursorLine], cursorCol), false);
	}

	killToLineStart(): void {
		const { cursorLine, cursorCol } = this.state;
		if (cursorCol === 0) {
			if (cursorLine > 0) this.killNewline(true);
			return;
		}
		this.killRange(0, cursorCol, true);
	}

	killToLineEnd(): void {
		const { cursorLine, cursorCol, lines } = this.state;
		if (cursorCol === lines[cursorLine].length) {
			if (cursorLine < lines.length - 1) this.killNewline(false);
			return;
		}
		this.killRange(cursorCol, lines[cursorLine].length, false);
	}

	yank(): void {
		const text = this.killRing.peek();
		if (text === undefined) return;
		this.pushUndo();
		const start = { line: this.state.cursorLine, start: this.state.cursorCol };
		this.insert(text);
		this.lastYank = { ...start, text };
		this.lastAction = "yank";
		this.changed();
	}

	yankPop(): void {
		if (this.lastAction !== "yank" || !this.lastYank || this.killRing.length < 2) return;
		// Remove the previous yank, then insert the next older entry.
		const { line, start, text } = this.lastYank;
		const joined = this.state.lines.join("\n");
		const offset = this.state.lines.slice(0, line).reduce((n, l) => n + l.length + 1, 0) + start;
		const without = joined.slice(0, offset) + joined.slice(offset + text.length);
		this.state.lines = without.split("\n");
		this.state.cursorLine = line;
		this.state.cursorCol = start;
		this.killRing.rotate();
		const next = this.killRing.peek() ?? "";
		this.insert(next);
		this.lastYank = { line, start, text: next };
		this.lastAction = "yank";
		this.changed();
	}

	undo(): void {
		const prev = this.undoStack.undo(this.snapshot());
		if (!prev) return;
		this.state = prev;
		this.lastAction = null;
		this.changed();
	}

	redo(): void {
		const next = this.undoStack.redo(this.snapshot());
		if (!next) return;
		this.state = next;
		this.lastAction = null;
		this.changed();
	}

	moveChar(dir: -1 | 1): void {
		const { cursorLine, cursorCol, lines } = this.state;
		this.lastAction = null;
		if (dir < 0) {
			if (cursorCol > 0) this.state.cursorCol = this.prevBoundary();
			else if (cursorLine > 0) {
				this.state.cursorLine--;
				this.state.cursorCol = lines[cursorLine - 1].length;
			}
		} else if (cursorCol < lines[cursorLine].length) this.state.cursorCol = this.nextBoundary();
		else if (cursorLine < lines.length - 1) {
			this.state.cursorLine++;
			this.state.cursorCol = 0;
		}
	}

	moveWord(dir: -1 | 1): void {
		const { cursorLine, cursorCol, lines } = this.state;
		this.lastAction = null;
		const line = lines[cursorLine];
		if (dir < 0) {
			if (cursorCol === 0 && cursorLine > 0) {
				this.state.cursorLine--;
				this.state.cursorCol = lines[cursorLine - 1].length;
			} else this.state.cursorCol = wordLeft(line, cursorCol);
		} else if (cursorCol === line.length && cursorLine < lines.length - 1) {
			this.state.cursorLine++;
			this.state.cursorCol = 0;
		} else this.state.cursorCol = wordRight(line, cursorCol);
	}

	jumpToChar(ch: string, dir: "forward" | "backward"): void {
		const text = this.getText();
		const { lines, cursorLine, cursorCol } = this.state;
		const offset = lines.slice(0, cursorLine).reduce((n, l) => n + l.length + 1, 0) + cursorCol;
		const at = dir === "forward" ? text.indexOf(ch, offset + 1) : text.lastIndexOf(ch, offset - 1);
		if (at === -1 || (dir === "backward" && offset === 0)) return;
		let rest = at;
		let line = 0;
		while (rest > lines[line].length) {
			rest -= lines[line].length + 1;
			line++;
		}
		this.state.cursorLine = line;
		this.state.cursorCol = rest;
		this.lastAction = null;
	}
}
