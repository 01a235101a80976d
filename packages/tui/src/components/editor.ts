/**
 * Multi-line prompt editor: soft wrap, emacs-style keys, history, undo/redo,
 * kill ring, collapsed large pastes and an autocomplete popup.
 */
import type { AutocompleteProvider } from "../autocomplete.js";
import { type Component, CURSOR_MARKER, type Focusable } from "../component.js";
import { KillRing } from "../editing/kill-ring.js";
import { type Segment, segmentLine, type TextChunk, wordWrapLine } from "../editing/layout.js";
import { wordLeft, wordRight } from "../editing/text.js";
import { UndoStack } from "../editing/undo-stack.js";
import { getKeybindings } from "../keybindings.js";
import { decodePrintableKey, matchesKey } from "../keys.js";
import type { TUI } from "../tui.js";
import { truncateToWidth } from "../utils/slice.js";
import { visibleWidth } from "../utils/width.js";
import { EditorAutocomplete } from "./editor-autocomplete.js";
import type { SelectListTheme } from "./select-list.js";

export { type TextChunk, wordWrapLine } from "../editing/layout.js";

export interface EditorTheme {
	borderColor: (str: string) => string;
	selectList: SelectListTheme;
}

export interface EditorOptions {
	paddingX?: number;
	autocompleteMaxVisible?: number;
}

interface EditorState {
	lines: string[];
	cursorLine: number;
	cursorCol: number;
}

interface VisualLine {
	line: number;
	start: number;
	end: number;
	text: string;
	/** Whether this is the last chunk of its logical line. */
	last: boolean;
}

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";
/** Pastes with more lines than this become a marker. */
const PASTE_LINES_LIMIT = 10;
/** Single-line pastes longer than this become a marker. */
const PASTE_CHARS_LIMIT = 1000;

type LastAction = "type" | "kill" | "yank" | null;

export class Editor implements Component, Focusable {
	focused = false;
	protected tui: TUI;
	private paddingX: number;
	borderColor: (str: string) => string;
	onSubmit?: (text: string) => void;
	onChange?: (text: string) => void;
	disableSubmit = false;

	private state: EditorState = { lines: [""], cursorLine: 0, cursorCol: 0 };
	private readonly pastes = new Map<number, string>();
	private pasteCounter = 0;
	private pasteBuffer: string | null = null;
	private history: string[] = [];
	private historyIndex = -1;
	private draft: EditorState | null = null;
	private readonly killRing = new KillRing();
	private readonly undoStack = new UndoStack<EditorState>();
	private lastAction: LastAction = null;
	private lastYank: { line: number; start: number; text: string } | null = null;
	private jumpMode: "forward" | "backward" | null = null;
	private preferredCol: number | null = null;
	private scrollOffset = 0;
	private lastLayoutWidth = 80;
	private readonly autocomplete: EditorAutocomplete;

	constructor(tui: TUI, theme: EditorTheme, options: EditorOptions = {}) {
		this.tui = tui;
		this.borderColor = theme.borderColor;
		this.paddingX = options.paddingX ?? 0;
		this.autocomplete = new EditorAutocomplete(theme.selectList, options.autocompleteMaxVisible ?? 5, () =>
			this.tui.requestRender(),
		);
	}

	// ---- public API -----------------------------------------------------------

	getPaddingX(): number {
		return this.paddingX;
	}

	setPaddingX(padding: number): void {
		this.paddingX = Math.max(0, padding);
	}

	getAutocompleteMaxVisible(): number {
		return this.autocomplete.maxVisible;
	}

	setAutocompleteMaxVisible(maxVisible: number): void {
		this.autocomplete.maxVisible = Math.max(1, maxVisible);
	}

	setAutocompleteProvider(provider: AutocompleteProvider): void {
		this.autocomplete.provider = provider;
	}

	isShowingAutocomplete(): boolean {
		return this.autocomplete.isShowing();
	}

	/** Remember a submitted prompt for Up/Down recall (consecutive duplicates skipped). */
	addToHistory(text: string): void {
		if (!text.trim() || this.history[0] === text) return;
		this.history.unshift(text);
		if (this.history.length > 100) this.history.pop();
	}

	/** Text with paste markers as shown. */
	getText(): string {
		return this.state.lines.join("\n");
	}

	/** Text with paste markers replaced by what was pasted. */
	getExpandedText(): string {
		return this.expandMarkers(this.getText());
	}

	getLines(): string[] {
		return this.state.lines.slice();
	}

	getCursor(): { line: number; col: number } {
		return { line: this.state.cursorLine, col: this.state.cursorCol };
	}

	setText(text: string): void {
		this.historyIndex = -1;
		this.draft = null;
		this.pushUndo();
		this.setTextInternal(text);
	}

	/** Insert at the cursor as one undoable step (e.g. an image placeholder). */
	insertTextAtCursor(text: string): void {
		this.pushUndo();
		this.insertInternal(text);
		this.lastAction = null;
		this.changed();
	}

	invalidate(): void {}

	// ---- rendering --------------------------------------------------------------

	private markerIds(): Set<number> {
		return new Set(this.pastes.keys());
	}

	private layout(width: number): VisualLine[] {
		const ids = this.markerIds();
		const out: VisualLine[] = [];
		this.state.lines.forEach((line, i) => {
			const chunks = wordWrapLine(line, width, segmentLine(line, ids));
			chunks.forEach((c: TextChunk, j: number) => {
				out.push({ line: i, start: c.startIndex, end: c.endIndex, text: c.text, last: j === chunks.length - 1 });
			});
		});
		return out;
	}

	private cursorVisualIndex(visual: VisualLine[]): number {
		const { cursorLine, cursorCol } = this.state;
		for (let i = 0; i < visual.length; i++) {
			const v = visual[i];
			if (v.line !== cursorLine) continue;
			if (cursorCol < v.end || (cursorCol === v.end && v.last) || (cursorCol === v.start && v.start === v.end))
				return i;
		}
		return Math.max(0, visual.length - 1);
	}

	private maxVisibleLines(): number {
		return Math.max(3, Math.floor(this.tui.terminal.rows * 0.4));
	}

	render(width: number): string[] {
		const padX = Math.max(0, Math.min(this.paddingX, Math.floor((width - 2) / 2)));
		// One column is kept free for the cursor at the end of a full row.
		const layoutWidth = Math.max(1, width - padX * 2 - 1);
		this.lastLayoutWidth = layoutWidth;
		const visual = this.layout(layoutWidth);
		const cursorIdx = this.cursorVisualIndex(visual);
		const maxLines = this.maxVisibleLines();
		if (cursorIdx < this.scrollOffset) this.scrollOffset = cursorIdx;
		if (cursorIdx >= this.scrollOffset + maxLines) this.scrollOffset = cursorIdx - maxLines + 1;
		this.scrollOffset = Math.max(0, Math.min(this.scrollOffset, Math.max(0, visual.length - maxLines)));
		const shown = visual.slice(this.scrollOffset, this.scrollOffset + maxLines);
		const above = this.scrollOffset;
		const below = visual.length - this.scrollOffset - shown.length;

		const lines: string[] = [this.borderLine(width, above > 0 ? `↑ ${above} more` : "")];
		const pad = " ".repeat(padX);
		shown.forEach((v, k) => {
			const isCursor = this.scrollOffset + k === cursorIdx;
			lines.push(truncateToWidth(pad + (isCursor ? this.renderCursorLine(v) : v.text), width, ""));
		});
		lines.push(this.borderLine(width, below > 0 ? `↓ ${below} more` : ""));
		const list = this.autocomplete.getList();
		if (list) for (const l of list.render(width)) lines.push(l);
		return lines;
	}

	private borderLine(width: number, label: string): string {
		if (!label || width < label.length + 6) return this.borderColor("─".repeat(width));
		const text = `─── ${label} `;
		return this.borderColor(text + "─".repeat(Math.max(0, width - visibleWidth(text))));
	}

	private renderCursorLine(v: VisualLine): string {
		const col = this.state.cursorCol - v.start;
		const before = v.text.slice(0, col);
		const rest = v.text.slice(col);
		const marker = this.focused ? CURSOR_MARKER : "";
		if (rest.length === 0) return `${before}${marker}\x1b[7m \x1b[27m`;
		const seg = segmentLine(rest, this.markerIds())[0];
		const at = seg ? seg.text : rest[0];
		return `${before}${marker}\x1b[7m${at}\x1b[27m${rest.slice(at.length)}`;
	}

	// ---- input ------------------------------------------------------------------

	handleInput(data: string): void {
		if (this.pasteBuffer !== null || data.startsWith(PASTE_START)) {
			this.collectPaste(data);
			return;
		}
		if (this.jumpMode) {
			const dir = this.jumpMode;
			this.jumpMode = null;
			const ch = decodePrintableKey(data);
			if (ch !== undefined) {
				this.jumpToChar(ch, dir);
				return;
			}
		}
		const kb = getKeybindings();
		if (this.autocomplete.isShowing()) {
			const list = this.autocomplete.getList();
			if (kb.matches(data, "tui.select.up") || kb.matches(data, "tui.select.down")) {
				list?.handleInput(data);
				return;
			}
			if (kb.matches(data, "tui.input.tab") || kb.matches(data, "tui.select.confirm")) {
				const isSlash = this.state.cursorLine === 0 && this.state.lines[0].startsWith("/");
				this.applyCompletion();
				// Enter on a slash command both completes and submits it.
				if (isSlash && kb.matches(data, "tui.input.submit") && !this.disableSubmit) this.submit();
				return;
			}
			if (matchesKey(data, "escape")) {
				this.autocomplete.hide();
				return;
			}
		}

		if (kb.matches(data, "tui.editor.undo")) {
			this.undo();
			return;
		}
		if (kb.matches(data, "tui.editor.redo")) {
			this.redo();
			return;
		}
		if (kb.matches(data, "tui.input.newLine")) {
			this.newLine();
			return;
		}
		if (kb.matches(data, "tui.input.submit")) {
			if (this.disableSubmit) return;
			const { lines, cursorLine, cursorCol } = this.state;
			// A trailing backslash + Enter inserts a newline (for terminals without Shift+Enter).
			if (cursorCol > 0 && lines[cursorLine][cursorCol - 1] === "\\" && cursorCol === lines[cursorLine].length) {
				this.pushUndo();
				this.state.lines[cursorLine] = lines[cursorLine].slice(0, -1);
				this.state.cursorCol--;
				this.insertInternal("\n");
				this.changed();
				return;
			}
			this.submit();
			return;
		}
		if (kb.matches(data, "tui.input.tab")) {
			this.requestAutocomplete(true);
			return;
		}
		if (kb.matches(data, "tui.editor.deleteWordBackward")) {
			this.killWordBackward();
			return;
		}
		if (kb.matches(data, "tui.editor.deleteWordForward")) {
			this.killWordForward();
			return;
		}
		if (kb.matches(data, "tui.editor.deleteToLineStart")) {
			this.killToLineStart();
			return;
		}
		if (kb.matches(data, "tui.editor.deleteToLineEnd")) {
			this.killToLineEnd();
			return;
		}
		if (kb.matches(data, "tui.editor.deleteCharBackward")) {
			this.backspace();
			return;
		}
		if (kb.matches(data, "tui.editor.deleteCharForward")) {
			this.deleteForward();
			return;
		}
		if (kb.matches(data, "tui.editor.yank")) {
			this.yank();
			return;
		}
		if (kb.matches(data, "tui.editor.yankPop")) {
			this.yankPop();
			return;
		}
		if (kb.matches(data, "tui.editor.cursorWordLeft")) {
			this.moveWord(-1);
			return;
		}
		if (kb.matches(data, "tui.editor.cursorWordRight")) {
			this.moveWord(1);
			return;
		}
		if (kb.matches(data, "tui.editor.cursorLeft")) {
			this.moveChar(-1);
			return;
		}
		if (kb.matches(data, "tui.editor.cursorRight")) {
			this.moveChar(1);
			return;
		}
		if (kb.matches(data, "tui.editor.cursorUp")) {
			this.moveVertical(-1);
			return;
		}
		if (kb.matches(data, "tui.editor.cursorDown")) {
			this.moveVertical(1);
			return;
		}
		if (kb.matches(data, "tui.editor.cursorLineStart")) {
			this.setCol(0);
			return;
		}
		if (kb.matches(data, "tui.editor.cursorLineEnd")) {
			this.setCol(this.state.lines[this.state.cursorLine].length);
			return;
		}
		if (kb.matches(data, "tui.editor.pageUp")) {
			this.moveVertical(-this.maxVisibleLines());
			return;
		}
		if (kb.matches(data, "tui.editor.pageDown")) {
			this.moveVertical(this.maxVisibleLines());
			return;
		}
		if (kb.matches(data, "tui.editor.jumpForward")) {
			this.jumpMode = "forward";
			return;
		}
		if (kb.matches(data, "tui.editor.jumpBackward")) {
			this.jumpMode = "backward";
			return;
		}
		const text = decodePrintableKey(data);
		if (text !== undefined) this.type(text);
	}

	// ---- editing primitives -----------------------------------------------------

	private snapshot(): EditorState {
		return { lines: this.state.lines.slice(), cursorLine: this.state.cursorLine, cursorCol: this.state.cursorCol };
	}

	private pushUndo(): void {
		this.undoStack.push(this.snapshot());
	}

	private changed(): void {
		this.preferredCol = null;
		this.onChange?.(this.getText());
	}

	private setTextInternal(text: string): void {
		const lines = normalize(text).split("\n");
		this.state = { lines, cursorLine: lines.length - 1, cursorCol: lines[lines.length - 1].length };
		this.lastAction = null;
		this.scrollOffset = 0;
		this.changed();
	}

	/** Insert (possibly multi-line) text at the cursor. */
	private insertInternal(text: string): void {
		const { lines, cursorLine, cursorCol } = this.state;
		const line = lines[cursorLine];
		const parts = normalize(text).split("\n");
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

	private type(text: string): void {
		// Words are the unit of undo: a run of typing is one step, a space starts the next.
		const wordChar = !/\s/.test(text);
		if (this.lastAction !== "type" || !wordChar) this.pushUndo();
		this.insertInternal(text);
		this.lastAction = wordChar ? "type" : null;
		this.historyIndex = -1;
		this.changed();
		this.updateAutocomplete(text);
	}

	private newLine(): void {
		this.pushUndo();
		this.insertInternal("\n");
		this.lastAction = null;
		this.autocomplete.hide();
		this.changed();
	}

	private submit(): void {
		const text = this.getExpandedText();
		this.autocomplete.hide();
		this.state = { lines: [""], cursorLine: 0, cursorCol: 0 };
		this.pastes.clear();
		this.pasteCounter = 0;
		this.historyIndex = -1;
		this.draft = null;
		this.undoStack.clear();
		this.lastAction = null;
		this.scrollOffset = 0;
		this.changed();
		this.onSubmit?.(text);
	}

	private collectPaste(data: string): void {
		this.pasteBuffer =
			(this.pasteBuffer ?? "") + (data.startsWith(PASTE_START) ? data.slice(PASTE_START.length) : data);
		const end = this.pasteBuffer.indexOf(PASTE_END);
		if (end === -1) return;
		const content = this.pasteBuffer.slice(0, end);
		const rest = this.pasteBuffer.slice(end + PASTE_END.length);
		this.pasteBuffer = null;
		this.paste(content);
		if (rest) this.handleInput(rest);
	}

	private paste(raw: string): void {
		const text = normalize(raw);
		const lineCount = text.split("\n").length;
		this.pushUndo();
		if (lineCount > PASTE_LINES_LIMIT || text.length > PASTE_CHARS_LIMIT) {
			const id = ++this.pasteCounter;
			this.pastes.set(id, text);
			const marker =
				lineCount > PASTE_LINES_LIMIT ? `[paste #${id} +${lineCount} lines]` : `[paste #${id} ${text.length} chars]`;
			this.insertInternal(marker);
		} else this.insertInternal(text);
		this.lastAction = null;
		this.changed();
	}

	private expandMarkers(text: string): string {
		if (this.pastes.size === 0) return text;
		return text.replace(
			/\[paste #(\d+) (?:\+\d+ lines|\d+ chars)\]/g,
			(m, id: string) => this.pastes.get(Number(id)) ?? m,
		);
	}

	/** Atomic units of the cursor line (graphemes, paste markers). */
	private segments(line: number): Segment[] {
		return segmentLine(this.state.lines[line], this.markerIds());
	}

	private prevBoundary(): number {
		const col = this.state.cursorCol;
		let prev = 0;
		for (const s of this.segments(this.state.cursorLine)) {
			if (s.index >= col) break;
			prev = s.index;
		}
		return prev;
	}

	private nextBoundary(): number {
		const col = this.state.cursorCol;
		for (const s of this.segments(this.state.cursorLine)) {
			if (s.index >= col) return s.index + s.text.length;
		}
		return this.state.lines[this.state.cursorLine].length;
	}

	private backspace(): void {
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
		this.updateAutocomplete("");
	}

	private deleteForward(): void {
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

	private killWordBackward(): void {
		const { cursorLine, cursorCol, lines } = this.state;
		if (cursorCol === 0) {
			if (cursorLine > 0) this.killNewline(true);
			return;
		}
		this.killRange(wordLeft(lines[cursorLine], cursorCol), cursorCol, true);
	}

	private killWordForward(): void {
		const { cursorLine, cursorCol, lines } = this.state;
		if (cursorCol === lines[cursorLine].length) {
			if (cursorLine < lines.length - 1) this.killNewline(false);
			return;
		}
		this.killRange(cursorCol, wordRight(lines[cursorLine], cursorCol), false);
	}

	private killToLineStart(): void {
		const { cursorLine, cursorCol } = this.state;
		if (cursorCol === 0) {
			if (cursorLine > 0) this.killNewline(true);
			return;
		}
		this.killRange(0, cursorCol, true);
	}

	private killToLineEnd(): void {
		const { cursorLine, cursorCol, lines } = this.state;
		if (cursorCol === lines[cursorLine].length) {
			if (cursorLine < lines.length - 1) this.killNewline(false);
			return;
		}
		this.killRange(cursorCol, lines[cursorLine].length, false);
	}

	private yank(): void {
		const text = this.killRing.peek();
		if (text === undefined) return;
		this.pushUndo();
		const start = { line: this.state.cursorLine, start: this.state.cursorCol };
		this.insertInternal(text);
		this.lastYank = { ...start, text };
		this.lastAction = "yank";
		this.changed();
	}

	private yankPop(): void {
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
		this.insertInternal(next);
		this.lastYank = { line, start, text: next };
		this.lastAction = "yank";
		this.changed();
	}

	private undo(): void {
		const prev = this.undoStack.undo(this.snapshot());
		if (!prev) return;
		this.state = prev;
		this.lastAction = null;
		this.changed();
	}

	private redo(): void {
		const next = this.undoStack.redo(this.snapshot());
		if (!next) return;
		this.state = next;
		this.lastAction = null;
		this.changed();
	}

	// ---- cursor movement ----------------------------------------------------------

	private setCol(col: number): void {
		this.state.cursorCol = col;
		this.preferredCol = null;
		this.lastAction = null;
	}

	private moveChar(dir: -1 | 1): void {
		const { cursorLine, cursorCol, lines } = this.state;
		this.lastAction = null;
		this.preferredCol = null;
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

	private moveWord(dir: -1 | 1): void {
		const { cursorLine, cursorCol, lines } = this.state;
		this.lastAction = null;
		this.preferredCol = null;
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

	/** Move by visual rows, keeping the column the cursor wanted; history at the edges. */
	private moveVertical(rows: number): void {
		this.lastAction = null;
		const visual = this.layout(this.lastLayoutWidth);
		const idx = this.cursorVisualIndex(visual);
		const target = idx + rows;
		if (Math.abs(rows) === 1 && (target < 0 || target >= visual.length)) {
			if (this.navigateHistory(rows < 0 ? 1 : -1)) return;
		}
		const clamped = Math.max(0, Math.min(visual.length - 1, target));
		if (clamped === idx) {
			// Already on the first/last row: go to its start/end.
			this.state.cursorCol = rows < 0 ? visual[idx].start : visual[idx].end;
			return;
		}
		const cur = visual[idx];
		const curCol = visibleWidth(this.state.lines[cur.line].slice(cur.start, this.state.cursorCol));
		const want = this.preferredCol ?? curCol;
		const v = visual[clamped];
		let col = v.start;
		let used = 0;
		for (const s of segmentLine(v.text, this.markerIds())) {
			if (used + s.width > want) break;
			used += s.width;
			col = v.start + s.index + s.text.length;
		}
		// The end of a wrapped row is the start of the next one: stay on this row.
		if (!v.last && col === v.end) col = v.end - (v.text.length - (segmentLine(v.text).at(-1)?.index ?? 0));
		this.state.cursorLine = v.line;
		this.state.cursorCol = col;
		this.preferredCol = want;
	}

	/** Step through history: +1 older, -1 newer. Returns false when there is nowhere to go. */
	private navigateHistory(dir: 1 | -1): boolean {
		if (this.history.length === 0) return false;
		const editorEmpty = this.state.lines.length === 1 && this.state.lines[0] === "";
		if (this.historyIndex === -1 && dir === 1 && !editorEmpty) return false;
		const next = this.historyIndex + dir;
		if (next < -1 || next >= this.history.length) return false;
		if (this.historyIndex === -1) this.draft = this.snapshot();
		this.historyIndex = next;
		if (next === -1) {
			this.state = this.draft ?? { lines: [""], cursorLine: 0, cursorCol: 0 };
			this.draft = null;
		} else {
			const lines = this.history[next].split("\n");
			this.state = { lines, cursorLine: lines.length - 1, cursorCol: lines[lines.length - 1].length };
		}
		this.onChange?.(this.getText());
		return true;
	}

	private jumpToChar(ch: string, dir: "forward" | "backward"): void {
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
		this.preferredCol = null;
		this.lastAction = null;
	}

	// ---- autocomplete -------------------------------------------------------------

	private requestAutocomplete(force: boolean): void {
		const provider = this.autocomplete.provider;
		if (!provider) return;
		const { lines, cursorLine, cursorCol } = this.state;
		if (
			force &&
			provider.shouldTriggerFileCompletion &&
			!provider.shouldTriggerFileCompletion(lines, cursorLine, cursorCol)
		) {
			// Tab inside a slash command name completes the command.
			void this.autocomplete.request(this.state, false);
			return;
		}
		void this.autocomplete.request(this.state, force);
	}

	/** After typing: open or refresh the popup for slash commands and @ mentions. */
	private updateAutocomplete(typed: string): void {
		if (!this.autocomplete.provider) return;
		const { lines, cursorLine, cursorCol } = this.state;
		const before = lines[cursorLine].slice(0, cursorCol);
		const inSlash = cursorLine === 0 && before.startsWith("/");
		const inMention = /(?:^|\s)@\S*$/.test(before);
		if (this.autocomplete.isShowing() || inSlash || inMention || typed === "@") {
			if (!inSlash && !inMention && /\s$/.test(before)) {
				this.autocomplete.hide();
				return;
			}
			void this.autocomplete.request(this.state, false);
		}
	}

	private applyCompletion(): void {
		const result = this.autocomplete.apply(this.state);
		if (!result) return;
		this.pushUndo();
		this.state = { lines: result.lines.slice(), cursorLine: result.cursorLine, cursorCol: result.cursorCol };
		this.lastAction = null;
		this.changed();
	}

	/** Resolves when the latest autocomplete request has been answered. */
	settleAutocomplete(): Promise<void> {
		return this.autocomplete.pending;
	}
}

/** CRLF/CR to LF, tabs to four spaces. */
function normalize(text: string): string {
	return text.replace(/\r\n?/g, "\n").replace(/\t/g, "    ");
}
