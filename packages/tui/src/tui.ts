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
import { drawScreenRecord, type ScreenRecord, SYNC_END, SYNC_START } from "./screen-record.js";
import { ScreenWriter } from "./screen-writer.js";
import type { Terminal } from "./terminal.js";
import {
	type Appearance,
	COLOR_SCHEME_NOTIFY_OFF,
	COLOR_SCHEME_NOTIFY_ON,
	parseColorSchemeReport,
} from "./terminal-background.js";
import { truncateToWidth } from "./utils/slice.js";
import { visibleWidth } from "./utils/width.js";

/**
 * Monotonic milliseconds for frame pacing. Not `performance.now()`: the first use of Node's
 * `performance` global loads its perf_hooks modules (~6M instructions), and the first frame
 * would pay for them.
 */
function monotonicMs(): number {
	const [seconds, nanoseconds] = process.hrtime();
	return seconds * 1e3 + nanoseconds / 1e6;
}

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
	/** Called once when the terminal goes away while started (its input or output failed: EIO, EPIPE). */
	onTerminalLost?: (error: Error) => void;

	private readonly frame = new FrameLines();
	private readonly writer: ScreenWriter;
	private hasFrame = false;
	private clearOnShrink = false;
	/** A forced redraw clears the screen on the next frame. */
	private clearNext = false;
	private prevWidth = 0;
	private prevHeight = 0;
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
	private readonly minInterval: number;
	private fullRedrawCount = 0;
	/** A frame already on the screen when the TUI starts (adoptScreen). */
	private adopted: ScreenRecord | undefined;
	private first: ScreenRecord | undefined;

	constructor(terminal: Terminal, options: TUIOptions | boolean = {}) {
		super();
		this.terminal = terminal;
		const opts = typeof options === "boolean" ? { showHardwareCursor: options } : options;
		this.writer = new ScreenWriter(opts.showHardwareCursor ?? false);
		this.minInterval = opts.minRenderIntervalMs ?? 16;
	}

	/**
	 * Take a frame that is already on the screen (written as drawScreenRecord makes it, e.g. by a CLI before
	 * the app loaded) as this TUI's previous frame: the first render after start() then writes only
	 * the rows that differ from it. Call before start().
	 */
	adoptScreen(record: ScreenRecord): void {
		if (!this.started) this.adopted = record;
	}

	/** The first frame this TUI drew (after an adopted one: the frame it drew over it). */
	get firstFrame(): ScreenRecord | undefined {
		return this.first;
	}

	/** Number of full redraws so far (first frame excluded). */
	get fullRedraws(): number {
		return this.fullRedrawCount;
	}

	getShowHardwareCursor(): boolean {
		return this.writer.showHardwareCursor;
	}

	setShowHardwareCursor(enabled: boolean): void {
		this.writer.showHardwareCursor = enabled;
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
			(error) => this.onTerminalLost?.(error),
		);
		this.terminal.hideCursor();
		this.writer.hardwareCursorVisible = false;
		const adopted = this.adopted;
		this.adopted = undefined;
		if (adopted && !this.hasFrame) {
			const { state } = drawScreenRecord(adopted);
			this.writer.cursorRow = state.cursorRow;
			this.writer.cursorCol = state.cursorCol;
			this.writer.screenLines = state.screenLines;
			this.frame.adopt(adopted.lines);
			this.hasFrame = true;
			// A size that changed since makes the first render a full redraw, as a resize does.
			this.prevWidth = adopted.width;
			this.prevHeight = adopted.height;
		}
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
			this.terminal.write(`${this.writer.moveRows(this.writer.cursorRow, last)}\r\n`);
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
		const wait = this.lastRenderAt + this.minInterval - monotonicMs();
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
		this.lastRenderAt = monotonicMs();
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
			const top = Math.max(0, Math.max(lines.length, this.writer.screenLines) - height) + layout.row;
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
			out = this.writer.fullFrame(lines, width, false);
		} else if (this.clearNext || this.prevWidth !== width || this.prevHeight !== height) {
			this.clearNext = false;
			this.fullRedrawCount++;
			out = this.writer.fullFrame(lines, width, true);
		} else {
			const common = Math.min(prevLength, lines.length);
			let first = start;
			while (first < common && oldTail[first - start] === lines[first]) first++;
			if (first === common && prevLength === lines.length) {
				// Nothing changed: at most the hardware cursor moves.
				this.recordFirst(lines, width, height, cursor);
				const move = this.writer.placeCursor(cursor, lines.length);
				if (move) this.terminal.write(move);
				return;
			}
			const viewportTop = Math.max(0, this.writer.screenLines - height);
			const shrinkRedraw =
				this.clearOnShrink &&
				lines.length < this.writer.screenLines &&
				this.writer.screenLines > height &&
				!this.hasOverlay();
			if (first < viewportTop || shrinkRedraw) {
				this.fullRedrawCount++;
				out = this.writer.fullFrame(lines, width, true);
			} else out = this.writer.partialFrame(oldTail, start, prevLength, lines, first, width);
		}
		this.hasFrame = true;
		this.prevWidth = width;
		this.prevHeight = height;
		this.recordFirst(lines, width, height, cursor);
		out += this.writer.placeCursor(cursor, lines.length);
		this.terminal.write(SYNC_START + out + SYNC_END);
	}

	private recordFirst(
		lines: string[],
		width: number,
		height: number,
		cursor: { row: number; col: number } | null,
	): void {
		if (this.first) return;
		const showHardwareCursor = this.writer.showHardwareCursor;
		this.first = { width, height, lines: lines.slice(), cursor: cursor && { ...cursor }, showHardwareCursor };
	}
}
