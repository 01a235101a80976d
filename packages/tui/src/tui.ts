/**
 * The TUI: renders a component tree into the terminal's normal screen with
 * differential updates.
 *
 * Each frame renders every child to lines for the terminal width and compares
 * them with the previous frame. Only the lines from the first change down are
 * rewritten (within the first changed line, only from the first changed
 * column), inside synchronized-output brackets so the terminal shows the frame
 * atomically. Content grows at the bottom and scrolls into the terminal's own
 * scrollback; the screen is cleared and redrawn only when the width or height
 * changes or a change lies above the visible rows.
 */
import { type Component, Container, CURSOR_MARKER, isFocusable } from "./component.js";
import { FrameLines, type FrameUpdate } from "./frame-lines.js";
import { isKeyRelease, matchesKey } from "./keys.js";
import {
	compositeLine,
	type OverlayEntry,
	type OverlayHandle,
	type OverlayOptions,
	resolveOverlayLayout,
	resolveOverlaySize,
} from "./overlay.js";
import type { Terminal } from "./terminal.js";
import {
	type Appearance,
	COLOR_SCHEME_NOTIFY_OFF,
	COLOR_SCHEME_NOTIFY_ON,
	parseColorSchemeReport,
} from "./terminal-background.js";
import { AnsiState, escapeLength, OSC8_CLOSE, SGR_RESET } from "./utils/ansi.js";
import { truncateToWidth } from "./utils/slice.js";
import { visibleWidth } from "./utils/width.js";

const SYNC_START = "\x1b[?2026h";
const SYNC_END = "\x1b[?2026l";
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

export type InputListenerResult = { consume?: boolean; data?: string } | undefined;
export type InputListener = (data: string) => InputListenerResult;

export interface TUIOptions {
	/** Show the hardware cursor at the focused component's CURSOR_MARKER (default false: positioned but hidden). */
	showHardwareCursor?: boolean;
	/** Minimum ms between frames; requests in between are merged (default 16). */
	minRenderIntervalMs?: number;
}

export class TUI extends Container {
	readonly terminal: Terminal;
	/** Called on Shift+Ctrl+D before input reaches the focused component. */
	onDebug?: () => void;

	private readonly frame = new FrameLines();
	private hasFrame = false;
	private clearOnShrink = false;
	/** A forced redraw clears the screen on the next frame. */
	private clearNext = false;
	private prevWidth = 0;
	private prevHeight = 0;
	/** Content row the terminal cursor is on. */
	private cursorRow = 0;
	/** Screen column of the cursor, or -1 when unknown. */
	private cursorCol = -1;
	/** Rows of content the terminal holds (only grows between full redraws). */
	private screenLines = 0;
	private focusedComponent: Component | null = null;
	private readonly inputListeners = new Set<InputListener>();
	private readonly colorSchemeListeners = new Set<(appearance: Appearance) => void>();
	private readonly overlays: OverlayEntry[] = [];
	/** Every component ever shown as an overlay. */
	private readonly overlayComponents = new WeakSet<Component>();
	/** The last focused component that is not an overlay. */
	private baseFocus: Component | null = null;
	private overlayOrder = 0;
	private renderScheduled = false;
	private renderTimer: NodeJS.Timeout | undefined;
	private lastRenderAt = 0;
	private started = false;
	private stopped = false;
	private showHardwareCursor: boolean;
	private readonly minInterval: number;
	private fullRedrawCount = 0;
	private hardwareCursorVisible = false;

	constructor(terminal: Terminal, options: TUIOptions | boolean = {}) {
		super();
		this.terminal = terminal;
		const opts = typeof options === "boolean" ? { showHardwareCursor: options } : options;
		this.showHardwareCursor = opts.showHardwareCursor ?? false;
		this.minInterval = opts.minRenderIntervalMs ?? 16;
	}

	/** Number of full redraws so far (first frame excluded). */
	get fullRedraws(): number {
		return this.fullRedrawCount;
	}

	getShowHardwareCursor(): boolean {
		return this.showHardwareCursor;
	}

	setShowHardwareCursor(enabled: boolean): void {
		this.showHardwareCursor = enabled;
		this.requestRender();
	}

	getClearOnShrink(): boolean {
		return this.clearOnShrink;
	}

	/**
	 * When on, content that shrinks is redrawn from scratch so it ends at the
	 * bottom of the screen again; when off (default), only the rows that held
	 * the old tail are blanked.
	 */
	setClearOnShrink(enabled: boolean): void {
		this.clearOnShrink = enabled;
	}

	// ---- focus and input -------------------------------------------------

	setFocus(component: Component | null): void {
		if (component === null || !this.overlayComponents.has(component)) this.baseFocus = component;
		if (this.focusedComponent === component) return;
		if (isFocusable(this.focusedComponent)) this.focusedComponent.focused = false;
		this.focusedComponent = component;
		if (isFocusable(component)) component.focused = true;
		this.requestRender();
	}

	getFocus(): Component | null {
		return this.focusedComponent;
	}

	/** Listen to input before it reaches the focused component; return `{consume: true}` to stop it. */
	addInputListener(listener: InputListener): () => void {
		this.inputListeners.add(listener);
		return () => this.inputListeners.delete(listener);
	}

	removeInputListener(listener: InputListener): void {
		this.inputListeners.delete(listener);
	}

	/**
	 * Called when the terminal reports a light/dark change. While a listener
	 * exists and the TUI runs, the terminal is asked for these reports (DEC
	 * mode 2031); terminals without the mode never send one.
	 */
	onColorSchemeChange(listener: (appearance: Appearance) => void): () => void {
		this.colorSchemeListeners.add(listener);
		if (this.colorSchemeListeners.size === 1 && this.started) this.terminal.write(COLOR_SCHEME_NOTIFY_ON);
		return () => {
			if (!this.colorSchemeListeners.delete(listener)) return;
			if (this.colorSchemeListeners.size === 0 && this.started) this.terminal.write(COLOR_SCHEME_NOTIFY_OFF);
		};
	}

	/** Route one input chunk (normally called by the terminal). */
	handleInput(data: string): void {
		const scheme = this.colorSchemeListeners.size > 0 ? parseColorSchemeReport(data) : undefined;
		if (scheme) {
			for (const listener of this.colorSchemeListeners) listener(scheme);
			this.requestRender();
			return;
		}
		let current = data;
		for (const listener of this.inputListeners) {
			const r = listener(current);
			if (r?.consume) return;
			if (r?.data !== undefined) current = r.data;
		}
		if (current.length === 0) return;
		if (this.onDebug && matchesKey(current, "shift+ctrl+d")) {
			this.onDebug();
			return;
		}
		// A focused overlay that is hidden or off-screen must not swallow keys.
		const overlay = this.overlays.find((o) => o.component === this.focusedComponent);
		if (overlay && !this.isOverlayVisible(overlay)) {
			const fallback = this.topmostCapturingOverlay();
			this.setFocus(fallback?.component ?? overlay.previousFocus);
		}
		const target = this.focusedComponent;
		if (!target?.handleInput) return;
		if (!target.wantsKeyRelease && isKeyRelease(current)) return;
		target.handleInput(current);
		this.requestRender();
	}

	// ---- overlays -----------------------------------------------------------

	showOverlay(component: Component, options: OverlayOptions = {}): OverlayHandle {
		const entry: OverlayEntry = {
			component,
			options,
			hidden: false,
			order: ++this.overlayOrder,
			previousFocus: this.focusedComponent,
		};
		this.overlays.push(entry);
		this.overlayComponents.add(component);
		if (!options.nonCapturing && this.isOverlayVisible(entry)) this.setFocus(component);
		this.requestRender();
		const handle: OverlayHandle = {
			hide: () => this.removeOverlay(entry),
			setHidden: (hidden) => {
				if (entry.hidden === hidden) return;
				entry.hidden = hidden;
				if (hidden && this.focusedComponent === component) this.restoreFocusFrom(entry);
				else if (!hidden && !options.nonCapturing) {
					entry.previousFocus = this.focusedComponent;
					entry.order = ++this.overlayOrder;
					this.setFocus(component);
				}
				this.requestRender();
			},
			isHidden: () => entry.hidden,
			focus: () => {
				if (!this.overlays.includes(entry)) return;
				if (this.focusedComponent !== component) entry.previousFocus = this.focusedComponent;
				entry.order = ++this.overlayOrder;
				this.setFocus(component);
				this.requestRender();
			},
			unfocus: () => {
				if (this.focusedComponent === component) this.restoreFocusFrom(entry);
			},
			isFocused: () => this.focusedComponent === component,
		};
		return handle;
	}

	/** Remove the topmost overlay and give focus back. */
	hideOverlay(): void {
		const top = [...this.overlays].sort((a, b) => b.order - a.order)[0];
		if (top) this.removeOverlay(top);
	}

	/** Whether any overlay is currently drawn. */
	hasOverlay(): boolean {
		return this.overlays.some((o) => this.isOverlayVisible(o));
	}

	private removeOverlay(entry: OverlayEntry): void {
		const i = this.overlays.indexOf(entry);
		if (i === -1) return;
		this.overlays.splice(i, 1);
		if (this.focusedComponent === entry.component) this.restoreFocusFrom(entry);
		this.requestRender();
	}

	/** Focus moves to the topmost other overlay, else back to what had it before overlays. */
	private restoreFocusFrom(entry: OverlayEntry): void {
		const next = this.topmostCapturingOverlay(entry);
		if (next) {
			this.setFocus(next.component);
			return;
		}
		const prev = entry.previousFocus;
		const prevIsOverlay = prev !== null && this.overlayComponents.has(prev);
		this.setFocus(prevIsOverlay ? this.baseFocus : prev);
	}

	private isOverlayVisible(o: OverlayEntry): boolean {
		if (o.hidden) return false;
		return o.options.visible ? o.options.visible(this.terminal.columns, this.terminal.rows) : true;
	}

	private topmostCapturingOverlay(except?: OverlayEntry): OverlayEntry | undefined {
		let best: OverlayEntry | undefined;
		for (const o of this.overlays) {
			if (o === except || o.options.nonCapturing || !this.isOverlayVisible(o)) continue;
			if (!best || o.order > best.order) best = o;
		}
		return best;
	}

	// ---- lifecycle ----------------------------------------------------------

	start(): void {
		if (this.started) return;
		this.started = true;
		this.stopped = false;
		this.terminal.start(
			(data) => this.handleInput(data),
			() => this.requestRender(),
		);
		this.terminal.hideCursor();
		this.hardwareCursorVisible = false;
		if (this.colorSchemeListeners.size > 0) this.terminal.write(COLOR_SCHEME_NOTIFY_ON);
		this.requestRender();
	}

	/** Stop rendering, leave the cursor below the content and give the terminal back. */
	stop(): void {
		if (this.stopped) return;
		this.stopped = true;
		this.renderScheduled = false;
		if (this.renderTimer) clearTimeout(this.renderTimer);
		this.renderTimer = undefined;
		if (this.hasFrame) {
			const last = Math.max(0, this.frame.lines.length - 1);
			this.terminal.write(`${this.moveRows(this.cursorRow, last)}\r\n`);
		}
		if (this.started && this.colorSchemeListeners.size > 0) this.terminal.write(COLOR_SCHEME_NOTIFY_OFF);
		this.terminal.showCursor();
		if (this.started) this.terminal.stop();
		this.started = false;
		// After a stop (e.g. an external editor ran), the screen is unknown: start over cleanly.
		if (this.hasFrame) {
			this.clearNext = true;
			this.frame.reset();
		}
	}

	override invalidate(): void {
		super.invalidate();
		for (const o of this.overlays) o.component.invalidate?.();
	}

	/**
	 * Ask for a frame. Requests are merged: at most one frame per tick and per
	 * `minRenderIntervalMs`. `force` redraws the whole screen.
	 */
	requestRender(force = false): void {
		if (force) {
			this.clearNext = true;
			this.frame.reset();
		}
		if (this.renderScheduled || this.stopped) return;
		this.renderScheduled = true;
		const wait = this.lastRenderAt + this.minInterval - performance.now();
		if (wait > 0) {
			this.renderTimer = setTimeout(() => this.flushScheduled(), wait);
		} else process.nextTick(() => this.flushScheduled());
	}

	private flushScheduled(): void {
		this.renderTimer = undefined;
		if (!this.renderScheduled || this.stopped) return;
		this.renderNow();
	}

	// ---- rendering ----------------------------------------------------------

	/** Render a frame immediately (used by the scheduler, tests and benchmarks). */
	renderNow(): void {
		this.renderScheduled = false;
		this.lastRenderAt = performance.now();
		const width = this.terminal.columns;
		const height = this.terminal.rows;
		const update = this.frame.update(this, width);
		const lines = this.frame.lines;
		if (this.overlays.length > 0) this.compositeOverlays(lines, width, height);
		const cursor = this.extractCursor(lines, height);
		this.draw(lines, width, height, update, cursor);
	}

	/** Draw visible overlays into the rows, in place. */
	private compositeOverlays(lines: string[], width: number, height: number): void {
		const visible = this.overlays.filter((o) => this.isOverlayVisible(o)).sort((a, b) => a.order - b.order);
		for (const o of visible) {
			const size = resolveOverlaySize(o.options, width, height);
			const rendered = o.component.render(size.width).slice(0, size.maxHeight);
			const layout = resolveOverlayLayout(o.options, rendered.length, width, height);
			// Overlay rows are screen rows: the last `height` content lines.
			const top = Math.max(0, Math.max(lines.length, this.screenLines) - height) + layout.row;
			this.frame.beforeModify(Math.min(top, lines.length));
			while (lines.length < top + rendered.length) lines.push("");
			for (let i = 0; i < rendered.length; i++) {
				const ol =
					visibleWidth(rendered[i]) > layout.width ? truncateToWidth(rendered[i], layout.width, "") : rendered[i];
				lines[top + i] = compositeLine(lines[top + i], ol, layout.col, layout.width, width);
			}
		}
	}

	/** Find and remove (in place) the cursor marker in the visible rows. */
	private extractCursor(lines: string[], height: number): { row: number; col: number } | null {
		const from = Math.max(0, lines.length - height);
		for (let row = lines.length - 1; row >= from; row--) {
			const line = lines[row];
			const at = line.indexOf(CURSOR_MARKER);
			if (at === -1) continue;
			this.frame.beforeModify(row);
			lines[row] = line.slice(0, at) + line.slice(at + CURSOR_MARKER.length);
			return { row, col: visibleWidth(line.slice(0, at)) };
		}
		return null;
	}

	/** Escape sequence moving the cursor from content row `from` to `to` (both on screen). */
	private moveRows(from: number, to: number): string {
		if (to > from) return `\x1b[${to - from}B`;
		if (to < from) return `\x1b[${from - to}A`;
		return "";
	}

	private draw(
		lines: string[],
		width: number,
		height: number,
		update: FrameUpdate,
		cursor: { row: number; col: number } | null,
	): void {
		const { start, oldTail, prevLength } = update;
		let out: string;
		if (!this.hasFrame) {
			out = this.fullFrame(lines, width, false);
		} else if (this.clearNext || this.prevWidth !== width || this.prevHeight !== height) {
			this.clearNext = false;
			this.fullRedrawCount++;
			out = this.fullFrame(lines, width, true);
		} else {
			const common = Math.min(prevLength, lines.length);
			let first = start;
			while (first < common && oldTail[first - start] === lines[first]) first++;
			if (first === common && prevLength === lines.length) {
				// Nothing changed: at most the hardware cursor moves.
				const move = this.placeCursor(cursor, lines.length);
				if (move) this.terminal.write(move);
				return;
			}
			const viewportTop = Math.max(0, this.screenLines - height);
			const shrinkRedraw =
				this.clearOnShrink && lines.length < this.screenLines && this.screenLines > height && !this.hasOverlay();
			if (first < viewportTop || shrinkRedraw) {
				this.fullRedrawCount++;
				out = this.fullFrame(lines, width, true);
			} else out = this.partialFrame(oldTail, start, prevLength, lines, first, width);
		}
		this.hasFrame = true;
		this.prevWidth = width;
		this.prevHeight = height;
		out += this.placeCursor(cursor, lines.length);
		this.terminal.write(SYNC_START + out + SYNC_END);
	}

	/** Every line from the top; with `clear`, the screen and scrollback are wiped first. */
	private fullFrame(lines: string[], width: number, clear: boolean): string {
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
	private partialFrame(
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
	private prepareLine(line: string, width: number): string {
		let l = line;
		if (l.includes("\t")) l = l.replaceAll("\t", "   ");
		if (visibleWidth(l) > width) l = truncateToWidth(l, width, "");
		return l;
	}

	/** Move the hardware cursor to the marker (or keep it hidden at the content end). */
	private placeCursor(cursor: { row: number; col: number } | null, total: number): string {
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
