/**
 * Multi-line prompt editor: soft wrap, emacs-style keys, history, undo/redo,
 * kill ring, collapsed large pastes and an autocomplete popup.
 */
import type { AutocompleteProvider } from "../autocomplete.js";
import { type Component, CURSOR_MARKER, type Focusable } from "../component.js";
import { segmentLine, type TextChunk, wordWrapLine } from "../editing/layout.js";
import { type BufferState, normalizeText, TextBuffer } from "../editing/text-buffer.js";
import { getKeybindings, type Keybinding } from "../keybindings.js";
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

export class Editor implements Component, Focusable {
	focused = false;
	protected tui: TUI;
	private paddingX: number;
	borderColor: (str: string) => string;
	onSubmit?: (text: string) => void;
	onChange?: (text: string) => void;
	disableSubmit = false;

	private readonly buf = new TextBuffer(
		(line) => segmentLine(line, this.markerIds()),
		() => this.changed(),
	);
	private readonly pastes = new Map<number, string>();
	private pasteCounter = 0;
	private pasteBuffer: string | null = null;
	private history: string[] = [];
	private historyIndex = -1;
	private draft: BufferState | null = null;
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
		return this.buf.state.lines.join("\n");
	}

	/** Text with paste markers replaced by what was pasted. */
	getExpandedText(): string {
		return this.expandMarkers(this.getText());
	}

	getLines(): string[] {
		return this.buf.state.lines.slice();
	}

	getCursor(): { line: number; col: number } {
		return { line: this.buf.state.cursorLine, col: this.buf.state.cursorCol };
	}

	setText(text: string): void {
		this.historyIndex = -1;
		this.draft = null;
		this.buf.pushUndo();
		this.setTextInternal(text);
	}

	/** Insert at the cursor as one undoable step (e.g. an image placeholder). */
	insertTextAtCursor(text: string): void {
		this.buf.pushUndo();
		this.buf.insert(text);
		this.buf.lastAction = null;
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
		this.buf.state.lines.forEach((line, i) => {
			const chunks = wordWrapLine(line, width, segmentLine(line, ids));
			chunks.forEach((c: TextChunk, j: number) => {
				out.push({ line: i, start: c.startIndex, end: c.endIndex, text: c.text, last: j === chunks.length - 1 });
			});
		});
		return out;
	}

	private cursorVisualIndex(visual: VisualLine[]): number {
		const { cursorLine, cursorCol } = this.buf.state;
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

		const lines: string[] = [this.renderTopBorder(width, above)];
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

	/** The line above the text; `hiddenAbove` lines are scrolled out of view. Subclasses may draw into it. */
	protected renderTopBorder(width: number, hiddenAbove: number): string {
		return this.borderLine(width, hiddenAbove > 0 ? `↑ ${hiddenAbove} more` : "");
	}

	protected borderLine(width: number, label: string): string {
		if (!label || width < label.length + 6) return this.borderColor("─".repeat(width));
		const text = `─── ${label} `;
		return this.borderColor(text + "─".repeat(Math.max(0, width - visibleWidth(text))));
	}

	private renderCursorLine(v: VisualLine): string {
		const col = this.buf.state.cursorCol - v.start;
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
				this.buf.jumpToChar(ch, dir);
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
				const isSlash = this.buf.state.cursorLine === 0 && this.buf.state.lines[0].startsWith("/");
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

		for (const [id, action, vertical] of this.actions) {
			if (!kb.matches(data, id)) continue;
			// Any move other than up/down forgets the column vertical moves were keeping.
			if (!vertical) this.preferredCol = null;
			action();
			return;
		}
		const text = decodePrintableKey(data);
		if (text !== undefined) this.type(text);
	}

	/** Key binding → action; `true` marks vertical moves that keep the preferred column. */
	private readonly actions: [Keybinding, () => void, boolean?][] = [
		["tui.editor.undo", () => this.buf.undo()],
		["tui.editor.redo", () => this.buf.redo()],
		["tui.input.newLine", () => this.newLine()],
		["tui.input.submit", () => this.enter()],
		["tui.input.tab", () => this.requestAutocomplete(true)],
		["tui.editor.deleteWordBackward", () => this.buf.killWordBackward()],
		["tui.editor.deleteWordForward", () => this.buf.killWordForward()],
		["tui.editor.deleteToLineStart", () => this.buf.killToLineStart()],
		["tui.editor.deleteToLineEnd", () => this.buf.killToLineEnd()],
		["tui.editor.deleteCharBackward", () => this.backspace()],
		["tui.editor.deleteCharForward", () => this.buf.deleteForward()],
		["tui.editor.yank", () => this.buf.yank()],
		["tui.editor.yankPop", () => this.buf.yankPop()],
		["tui.editor.cursorWordLeft", () => this.buf.moveWord(-1)],
		["tui.editor.cursorWordRight", () => this.buf.moveWord(1)],
		["tui.editor.cursorLeft", () => this.buf.moveChar(-1)],
		["tui.editor.cursorRight", () => this.buf.moveChar(1)],
		["tui.editor.cursorUp", () => this.moveVertical(-1), true],
		["tui.editor.cursorDown", () => this.moveVertical(1), true],
		["tui.editor.cursorLineStart", () => this.setCol(0)],
		["tui.editor.cursorLineEnd", () => this.setCol(this.buf.state.lines[this.buf.state.cursorLine].length)],
		["tui.editor.pageUp", () => this.moveVertical(-this.maxVisibleLines()), true],
		["tui.editor.pageDown", () => this.moveVertical(this.maxVisibleLines()), true],
		["tui.editor.jumpForward", () => this.startJump("forward")],
		["tui.editor.jumpBackward", () => this.startJump("backward")],
	];

	private startJump(dir: "forward" | "backward"): void {
		this.jumpMode = dir;
	}

	/** Enter: submit, or a new line when the line ends in a backslash (terminals without Shift+Enter). */
	private enter(): void {
		if (this.disableSubmit) return;
		const { lines, cursorLine, cursorCol } = this.buf.state;
		if (cursorCol > 0 && lines[cursorLine][cursorCol - 1] === "\\" && cursorCol === lines[cursorLine].length) {
			this.buf.pushUndo();
			lines[cursorLine] = lines[cursorLine].slice(0, -1);
			this.buf.state.cursorCol--;
			this.buf.insert("\n");
			this.changed();
			return;
		}
		this.submit();
	}

	private backspace(): void {
		this.buf.backspace();
		this.updateAutocomplete("");
	}

	// ---- editing primitives -----------------------------------------------------

	private changed(): void {
		this.preferredCol = null;
		this.onChange?.(this.getText());
	}

	private setTextInternal(text: string): void {
		const lines = normalizeText(text).split("\n");
		this.buf.state = { lines, cursorLine: lines.length - 1, cursorCol: lines[lines.length - 1].length };
		this.buf.lastAction = null;
		this.scrollOffset = 0;
		this.changed();
	}

	private type(text: string): void {
		// Words are the unit of undo: a run of typing is one step, a space starts the next.
		const wordChar = !/\s/.test(text);
		if (this.buf.lastAction !== "type" || !wordChar) this.buf.pushUndo();
		this.buf.insert(text);
		this.buf.lastAction = wordChar ? "type" : null;
		this.historyIndex = -1;
		this.changed();
		this.updateAutocomplete(text);
	}

	private newLine(): void {
		this.buf.pushUndo();
		this.buf.insert("\n");
		this.buf.lastAction = null;
		this.autocomplete.hide();
		this.changed();
	}

	private submit(): void {
		const text = this.getExpandedText();
		this.autocomplete.hide();
		this.buf.state = { lines: [""], cursorLine: 0, cursorCol: 0 };
		this.pastes.clear();
		this.pasteCounter = 0;
		this.historyIndex = -1;
		this.draft = null;
		this.buf.undoStack.clear();
		this.buf.lastAction = null;
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
		const text = normalizeText(raw);
		const lineCount = text.split("\n").length;
		this.buf.pushUndo();
		if (lineCount > PASTE_LINES_LIMIT || text.length > PASTE_CHARS_LIMIT) {
			const id = ++this.pasteCounter;
			this.pastes.set(id, text);
			const marker =
				lineCount > PASTE_LINES_LIMIT ? `[paste #${id} +${lineCount} lines]` : `[paste #${id} ${text.length} chars]`;
			this.buf.insert(marker);
		} else this.buf.insert(text);
		this.buf.lastAction = null;
		this.changed();
	}

	private expandMarkers(text: string): string {
		if (this.pastes.size === 0) return text;
		return text.replace(
			/\[paste #(\d+) (?:\+\d+ lines|\d+ chars)\]/g,
			(m, id: string) => this.pastes.get(Number(id)) ?? m,
		);
	}

	// ---- cursor movement ----------------------------------------------------------

	private setCol(col: number): void {
		this.buf.state.cursorCol = col;
		this.preferredCol = null;
		this.buf.lastAction = null;
	}

	/** Move by visual rows, keeping the column the cursor wanted; history at the edges. */
	private moveVertical(rows: number): void {
		this.buf.lastAction = null;
		const visual = this.layout(this.lastLayoutWidth);
		const idx = this.cursorVisualIndex(visual);
		const target = idx + rows;
		if (Math.abs(rows) === 1 && (target < 0 || target >= visual.length)) {
			if (this.navigateHistory(rows < 0 ? 1 : -1)) return;
		}
		const clamped = Math.max(0, Math.min(visual.length - 1, target));
		if (clamped === idx) {
			// Already on the first/last row: go to its start/end.
			this.buf.state.cursorCol = rows < 0 ? visual[idx].start : visual[idx].end;
			return;
		}
		const cur = visual[idx];
		const curCol = visibleWidth(this.buf.state.lines[cur.line].slice(cur.start, this.buf.state.cursorCol));
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
		this.buf.state.cursorLine = v.line;
		this.buf.state.cursorCol = col;
		this.preferredCol = want;
	}

	/** Step through history: +1 older, -1 newer. Returns false when there is nowhere to go. */
	private navigateHistory(dir: 1 | -1): boolean {
		if (this.history.length === 0) return false;
		const editorEmpty = this.buf.state.lines.length === 1 && this.buf.state.lines[0] === "";
		if (this.historyIndex === -1 && dir === 1 && !editorEmpty) return false;
		const next = this.historyIndex + dir;
		if (next < -1 || next >= this.history.length) return false;
		if (this.historyIndex === -1) this.draft = this.buf.snapshot();
		this.historyIndex = next;
		if (next === -1) {
			this.buf.state = this.draft ?? { lines: [""], cursorLine: 0, cursorCol: 0 };
			this.draft = null;
		} else {
			const lines = this.history[next].split("\n");
			this.buf.state = { lines, cursorLine: lines.length - 1, cursorCol: lines[lines.length - 1].length };
		}
		this.onChange?.(this.getText());
		return true;
	}

	// ---- autocomplete -------------------------------------------------------------

	private requestAutocomplete(force: boolean): void {
		const provider = this.autocomplete.provider;
		if (!provider) return;
		const { lines, cursorLine, cursorCol } = this.buf.state;
		if (
			force &&
			provider.shouldTriggerFileCompletion &&
			!provider.shouldTriggerFileCompletion(lines, cursorLine, cursorCol)
		) {
			// Tab inside a slash command name completes the command.
			void this.autocomplete.request(this.buf.state, false);
			return;
		}
		void this.autocomplete.request(this.buf.state, force);
	}

	/** After typing: open or refresh the popup for slash commands and @ mentions. */
	private updateAutocomplete(typed: string): void {
		if (!this.autocomplete.provider) return;
		const { lines, cursorLine, cursorCol } = this.buf.state;
		const before = lines[cursorLine].slice(0, cursorCol);
		const inSlash = cursorLine === 0 && before.startsWith("/");
		const inMention = /(?:^|\s)@\S*$/.test(before);
		if (this.autocomplete.isShowing() || inSlash || inMention || typed === "@") {
			if (!inSlash && !inMention && /\s$/.test(before)) {
				this.autocomplete.hide();
				return;
			}
			void this.autocomplete.request(this.buf.state, false);
		}
	}

	private applyCompletion(): void {
		const result = this.autocomplete.apply(this.buf.state);
		if (!result) return;
		this.buf.pushUndo();
		this.buf.state = { lines: result.lines.slice(), cursorLine: result.cursorLine, cursorCol: result.cursorCol };
		this.buf.lastAction = null;
		this.changed();
	}

	/** Resolves when the latest autocomplete request has been answered. */
	settleAutocomplete(): Promise<void> {
		return this.autocomplete.pending;
	}
}
