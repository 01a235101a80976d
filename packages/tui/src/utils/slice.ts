/** ANSI-aware column slicing and truncation. */
import { AnsiState } from "./ansi.js";
import { walkUnits } from "./units.js";
import { visibleWidth } from "./width.js";

export interface SliceResult {
	/** The slice, starting with the style active at its first column. */
	text: string;
	/** Columns the slice occupies (≤ the requested length). */
	width: number;
	/** Style active at the end of the slice; `state.close()` ends it cleanly. */
	state: AnsiState;
}

/**
 * Columns `[startCol, startCol + length)` of a line. A wide character cut by
 * the start boundary becomes spaces; one that would cross the end is left out,
 * so the result never exceeds `length` columns.
 */
export function sliceColumns(line: string, startCol: number, length: number, initial?: AnsiState): SliceResult {
	const state = initial ? initial.clone() : new AnsiState();
	const endCol = startCol + length;
	let col = 0;
	let out = "";
	let started = false;
	let width = 0;
	walkUnits(line, (text, w) => {
		if (w < 0) {
			if (started) out += text;
			state.apply(text);
			return true;
		}
		if (col >= endCol) return false;
		if (col < startCol) {
			col += w;
			if (col > startCol) {
				// Right half of a wide character: keep the columns as spaces.
				if (!started) {
					out += state.open();
					started = true;
				}
				const pad = Math.min(col, endCol) - startCol;
				out += " ".repeat(pad);
				width += pad;
			}
			return true;
		}
		if (col + w > endCol) return false;
		if (!started) {
			out += state.open();
			started = true;
		}
		out += text;
		col += w;
		width += w;
		return true;
	});
	if (!started) out = state.open();
	return { text: out, width, state };
}

/** Columns `[startCol, startCol + length)` of a line (see `sliceColumns`). */
export function sliceByColumn(line: string, startCol: number, length: number): string {
	const r = sliceColumns(line, startCol, length);
	return r.text + r.state.close();
}

/**
 * Fit text into `maxWidth` columns, ending with `ellipsis` when cut. Styles and
 * hyperlinks open at the cut are closed before the ellipsis. With `pad`, the
 * result is padded with spaces to exactly `maxWidth`.
 */
export function truncateToWidth(text: string, maxWidth: number, ellipsis = "...", pad = false): string {
	if (maxWidth <= 0) return "";
	const w = visibleWidth(text);
	if (w <= maxWidth) return pad && w < maxWidth ? text + " ".repeat(maxWidth - w) : text;
	const ellipsisWidth = visibleWidth(ellipsis);
	if (ellipsisWidth >= maxWidth) {
		const e = sliceColumns(ellipsis, 0, maxWidth);
		const out = e.text + e.state.close();
		return pad && e.width < maxWidth ? out + " ".repeat(maxWidth - e.width) : out;
	}
	const r = sliceColumns(text, 0, maxWidth - ellipsisWidth);
	let out = r.text + r.state.close() + ellipsis;
	const used = r.width + ellipsisWidth;
	if (pad && used < maxWidth) out += " ".repeat(maxWidth - used);
	return out;
}
