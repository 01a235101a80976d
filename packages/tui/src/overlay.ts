/** Overlay options, layout resolution and compositing onto base lines. */
import type { Component } from "./component.js";
import { SGR_RESET } from "./utils/ansi.js";
import { sliceColumns } from "./utils/slice.js";
import { visibleWidth } from "./utils/width.js";

export type OverlayAnchor =
	| "center"
	| "top-left"
	| "top-right"
	| "bottom-left"
	| "bottom-right"
	| "top-center"
	| "bottom-center"
	| "left-center"
	| "right-center";

export interface OverlayMargin {
	top?: number;
	right?: number;
	bottom?: number;
	left?: number;
}

/** Absolute columns/rows, or a percentage of the terminal such as `"50%"`. */
export type SizeValue = number | `${number}%`;

export interface OverlayOptions {
	/** Width in columns or percent of the terminal width (default: min(80, width)). */
	width?: SizeValue;
	/** Lower bound for the width. */
	minWidth?: number;
	/** Maximum height in rows or percent of the terminal height. */
	maxHeight?: SizeValue;
	/** Where the box sits (default `center`). */
	anchor?: OverlayAnchor;
	offsetX?: number;
	offsetY?: number;
	/** Row: absolute, or percent (0% top … 100% bottom). Overrides the anchor. */
	row?: SizeValue;
	/** Column: absolute, or percent (0% left … 100% right). Overrides the anchor. */
	col?: SizeValue;
	/** Distance kept from the terminal edges. */
	margin?: OverlayMargin | number;
	/** Called each frame; the overlay is drawn only while it returns true. */
	visible?: (termWidth: number, termHeight: number) => boolean;
	/** Do not take keyboard focus when shown. */
	nonCapturing?: boolean;
}

export interface OverlayHandle {
	/** Remove the overlay for good. */
	hide(): void;
	/** Hide or show it again, keeping its place in the stack. */
	setHidden(hidden: boolean): void;
	isHidden(): boolean;
	/** Give it focus and bring it to the front. */
	focus(): void;
	/** Give focus back to what had it before. */
	unfocus(): void;
	isFocused(): boolean;
}

export interface OverlayLayout {
	width: number;
	row: number;
	col: number;
	maxHeight: number;
}

function resolveSize(value: SizeValue | undefined, total: number): number | undefined {
	if (value === undefined) return undefined;
	if (typeof value === "number") return Math.floor(value);
	const pct = Number.parseFloat(value);
	return Number.isFinite(pct) ? Math.floor((total * pct) / 100) : undefined;
}

function normalizeMargin(m: OverlayMargin | number | undefined): Required<OverlayMargin> {
	if (typeof m === "number") return { top: m, right: m, bottom: m, left: m };
	return { top: m?.top ?? 0, right: m?.right ?? 0, bottom: m?.bottom ?? 0, left: m?.left ?? 0 };
}

const clamp = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, v));

/** Width and maximum height of an overlay on a terminal of the given size. */
export function resolveOverlaySize(
	options: OverlayOptions,
	termWidth: number,
	termHeight: number,
): { width: number; maxHeight: number } {
	const m = normalizeMargin(options.margin);
	const availW = Math.max(1, termWidth - m.left - m.right);
	const availH = Math.max(1, termHeight - m.top - m.bottom);
	let width = resolveSize(options.width, termWidth) ?? Math.min(80, availW);
	if (options.minWidth !== undefined) width = Math.max(width, options.minWidth);
	width = clamp(width, 1, availW);
	const maxHeight = clamp(resolveSize(options.maxHeight, termHeight) ?? availH, 1, availH);
	return { width, maxHeight };
}

/** Position of an overlay of `height` rows; rows are relative to the screen top. */
export function resolveOverlayLayout(
	options: OverlayOptions,
	height: number,
	termWidth: number,
	termHeight: number,
): OverlayLayout {
	const { width, maxHeight } = resolveOverlaySize(options, termWidth, termHeight);
	const m = normalizeMargin(options.margin);
	const h = Math.min(height, maxHeight);
	const anchor = options.anchor ?? "center";
	const minRow = m.top;
	const maxRow = Math.max(minRow, termHeight - m.bottom - h);
	const minCol = m.left;
	const maxCol = Math.max(minCol, termWidth - m.right - width);

	let row: number;
	if (typeof options.row === "number") row = options.row;
	else if (typeof options.row === "string")
		row = minRow + Math.round(((maxRow - minRow) * Number.parseFloat(options.row)) / 100);
	else if (anchor.startsWith("top")) row = minRow;
	else if (anchor.startsWith("bottom")) row = maxRow;
	else row = minRow + Math.floor((maxRow - minRow) / 2);
	row += options.offsetY ?? 0;

	let col: number;
	if (typeof options.col === "number") col = options.col;
	else if (typeof options.col === "string")
		col = minCol + Math.round(((maxCol - minCol) * Number.parseFloat(options.col)) / 100);
	else if (anchor.endsWith("left")) col = minCol;
	else if (anchor.endsWith("right")) col = maxCol;
	else col = minCol + Math.floor((maxCol - minCol) / 2);
	col += options.offsetX ?? 0;

	return { width, maxHeight, row: clamp(row, minRow, maxRow), col: clamp(col, minCol, maxCol) };
}

/**
 * Draw `overlay` (at most `width` columns) over `base` starting at column
 * `col`, keeping the base's text and styles on both sides.
 */
export function compositeLine(base: string, overlay: string, col: number, width: number, totalWidth: number): string {
	const before = sliceColumns(base, 0, col);
	let out = before.text + before.state.close();
	if (before.width < col) out += " ".repeat(col - before.width);
	const ow = visibleWidth(overlay);
	out += SGR_RESET + overlay;
	if (ow < width) out += SGR_RESET + " ".repeat(width - ow);
	const afterStart = col + width;
	if (afterStart < totalWidth) {
		const after = sliceColumns(base, afterStart, totalWidth - afterStart);
		if (after.width > 0) out += SGR_RESET + after.text + after.state.close();
	}
	return out;
}

/** An overlay on the TUI's stack. */
export interface OverlayEntry {
	component: Component;
	options: OverlayOptions;
	hidden: boolean;
	/** Higher is drawn on top. */
	order: number;
	/** What had focus before this overlay took it. */
	previousFocus: Component | null;
}
