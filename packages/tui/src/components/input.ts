import { type Component, CURSOR_MARKER, type Focusable } from "../component.js";
import { KillRing } from "../editing/kill-ring.js";
import { nextGrapheme, prevGrapheme, wordLeft, wordRight } from "../editing/text.js";
import { UndoStack } from "../editing/undo-stack.js";
import { getKeybindings } from "../keybindings.js";
import { decodePrintableKey, matchesKey } from "../keys.js";
import { getSegmenter, graphemeWidth, visibleWidth } from "../utils/width.js";

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";

interface InputState {
	value: string;
	cursor: number;
}

type LastAction = "kill" | "yank" | "type" | null;

/** Single-line text input with horizontal scrolling, emacs keys, kill ring and undo. */
export class Input implements Component, Focusable {
	private value = "";
	private cursor = 0;
	focused = false;
	onSubmit?: (value: string) => void;
	onEscape?: () => void;
	onChange?: (value: string) => void;
	private readonly killRing = new KillRing();
	private readonly undoStack = new UndoStack<InputState>();
	private lastAction: LastAction = null;
	private lastYankLength = 0;
	private pasteBuffer: string | null = null;

	getValue(): string {
		return this.value;
	}

	setValue(value: string): void {
		this.value = value.replace(/[\r\n]+/g, " ");
		this.cursor = this.value.length;
		this.lastAction = null;
	}

	getCursor(): number {
		return this.cursor;
	}

	invalidate(): void {}

	handleInput(data: string): void {
		// Bracketed paste may arrive whole or in pieces.
		if (this.pasteBuffer !== null || data.startsWith(PASTE_START)) {
			this.pasteBuffer =
				(this.pasteBuffer ?? "") + (data.startsWith(PASTE_START) ? data.slice(PASTE_START.length) : data);
			const end = this.pasteBuffer.indexOf(PASTE_END);
			if (end === -1) return;
			const text = this.pasteBuffer.slice(0, end);
			const rest = this.pasteBuffer.slice(end + PASTE_END.length);
			this.pasteBuffer = null;
			this.insert(text.replace(/\r\n?|\n/g, " ").replace(/\t/g, "    "), true);
			if (rest) this.handleInput(rest);
			return;
		}
		const kb = getKeybindings();
		if (kb.matches(data, "tui.input.submit")) {
			this.onSubmit?.(this.value);
			return;
		}
		if (matchesKey(data, "escape")) {
			this.onEscape?.();
			return;
		}
		if (kb.matches(data, "tui.editor.undo")) {
			this.undo();
			return;
		}
		if (kb.matches(data, "tui.editor.redo")) {
			this.redo();
			return;
		}
		if (kb.matches(data, "tui.editor.deleteWordBackward")) {
			this.kill(wordLeft(this.value, this.cursor), this.cursor, true);
			return;
		}
		if (kb.matches(data, "tui.editor.deleteWordForward")) {
			this.kill(this.cursor, wordRight(this.value, this.cursor), false);
			return;
		}
		if (kb.matches(data, "tui.editor.deleteToLineStart")) {
			this.kill(0, this.cursor, true);
			return;
		}
		if (kb.matches(data, "tui.editor.deleteToLineEnd")) {
			this.kill(this.cursor, this.value.length, false);
			return;
		}
		if (kb.matches(data, "tui.editor.deleteCharBackward")) {
			if (this.cursor > 0) this.edit(prevGrapheme(this.value, this.cursor), this.cursor, "");
			return;
		}
		if (kb.matches(data, "tui.editor.deleteCharForward")) {
			if (this.cursor < this.value.length) this.edit(this.cursor, nextGrapheme(this.value, this.cursor), "", false);
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
			this.moveTo(wordLeft(this.value, this.cursor));
			return;
		}
		if (kb.matches(data, "tui.editor.cursorWordRight")) {
			this.moveTo(wordRight(this.value, this.cursor));
			return;
		}
		if (kb.matches(data, "tui.editor.cursorLeft")) {
			this.moveTo(prevGrapheme(this.value, this.cursor));
			return;
		}
		if (kb.matches(data, "tui.editor.cursorRight")) {
			this.moveTo(nextGrapheme(this.value, this.cursor));
			return;
		}
		if (kb.matches(data, "tui.editor.cursorLineStart")) {
			this.moveTo(0);
			return;
		}
		if (kb.matches(data, "tui.editor.cursorLineEnd")) {
			this.moveTo(this.value.length);
			return;
		}
		const text = decodePrintableKey(data);
		if (text !== undefined) this.insert(text, false);
	}

	private moveTo(pos: number): void {
		this.cursor = pos;
		this.lastAction = null;
	}

	private snapshot(): InputState {
		return { value: this.value, cursor: this.cursor };
	}

	/** Replace [from, to) with text; typing runs share one undo step. */
	private edit(from: number, to: number, text: string, cursorAtEnd = true, typing = false): void {
		if (!(typing && this.lastAction === "type")) this.undoStack.push(this.snapshot());
		this.value = this.value.slice(0, from) + text + this.value.slice(to);
		this.cursor = cursorAtEnd ? from + text.length : from;
		this.lastAction = typing ? "type" : null;
		this.onChange?.(this.value);
	}

	private insert(text: string, paste: boolean): void {
		// A space ends a typing run so undo goes word by word.
		const typing = !paste && text !== " ";
		this.edit(this.cursor, this.cursor, text, true, typing);
	}

	private kill(from: number, to: number, backward: boolean): void {
		if (from === to) return;
		const killed = this.value.slice(from, to);
		this.killRing.push(killed, { prepend: backward, accumulate: this.lastAction === "kill" });
		this.edit(from, to, "");
		this.lastAction = "kill";
	}

	private yank(): void {
		const text = this.killRing.peek();
		if (text === undefined) return;
		this.edit(this.cursor, this.cursor, text);
		this.lastAction = "yank";
		this.lastYankLength = text.length;
	}

	private yankPop(): void {
		if (this.lastAction !== "yank" || this.killRing.length < 2) return;
		const start = this.cursor - this.lastYankLength;
		this.killRing.rotate();
		const text = this.killRing.peek() ?? "";
		this.value = this.value.slice(0, start) + text + this.value.slice(this.cursor);
		this.cursor = start + text.length;
		this.lastYankLength = text.length;
		this.lastAction = "yank";
		this.onChange?.(this.value);
	}

	private undo(): void {
		const prev = this.undoStack.undo(this.snapshot());
		if (!prev) return;
		this.value = prev.value;
		this.cursor = prev.cursor;
		this.lastAction = null;
		this.onChange?.(this.value);
	}

	private redo(): void {
		const next = this.undoStack.redo(this.snapshot());
		if (!next) return;
		this.value = next.value;
		this.cursor = next.cursor;
		this.lastAction = null;
		this.onChange?.(this.value);
	}

	render(width: number): string[] {
		const prompt = "> ";
		const avail = width - prompt.length;
		if (avail <= 1) return [prompt.slice(0, Math.max(0, width))];
		// Scroll horizontally so the cursor stays visible (one column kept for it at the end).
		const before = this.value.slice(0, this.cursor);
		const after = this.value.slice(this.cursor);
		const beforeWidth = visibleWidth(before);
		let visibleBefore = before;
		if (beforeWidth > avail - 1) visibleBefore = dropFromStart(before, beforeWidth - (avail - 1));
		const usedBefore = visibleWidth(visibleBefore);
		let atCursor = " ";
		let rest = after;
		if (after.length > 0) {
			const end = nextGrapheme(after, 0);
			atCursor = after.slice(0, end);
			rest = after.slice(end);
		}
		const cursorWidth = Math.max(1, visibleWidth(atCursor));
		const restRoom = avail - usedBefore - cursorWidth;
		const restText = restRoom > 0 ? takeColumns(rest, restRoom) : "";
		const marker = this.focused ? CURSOR_MARKER : "";
		const cursorCell = usedBefore + cursorWidth <= avail ? `\x1b[7m${atCursor}\x1b[27m` : "";
		return [prompt + visibleBefore + marker + cursorCell + restText];
	}
}

/** Drop graphemes from the start until `cols` columns are gone. */
function dropFromStart(text: string, cols: number): string {
	let dropped = 0;
	let index = 0;
	for (const { segment, index: i } of getSegmenter().segment(text)) {
		if (dropped >= cols) {
			index = i;
			break;
		}
		dropped += graphemeWidth(segment);
		index = i + segment.length;
	}
	return text.slice(index);
}

/** Leading graphemes of `text` that fit in `cols` columns. */
function takeColumns(text: string, cols: number): string {
	let used = 0;
	let end = 0;
	for (const { segment, index } of getSegmenter().segment(text)) {
		const w = graphemeWidth(segment);
		if (used + w > cols) break;
		used += w;
		end = index + segment.length;
	}
	return text.slice(0, end);
}
