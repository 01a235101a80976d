/** Background colours that survive resets inside the text. */
import { visibleWidth } from "./width.js";

const partsCache = new WeakMap<(s: string) => string, { open: string; close: string }>();

/** Split a colour function into its opening and closing sequences. */
export function styleParts(fn: (s: string) => string): { open: string; close: string } {
	let parts = partsCache.get(fn);
	if (!parts) {
		const probe = fn("\u0000");
		const at = probe.indexOf("\u0000");
		parts = at === -1 ? { open: "", close: "" } : { open: probe.slice(0, at), close: probe.slice(at + 1) };
		partsCache.set(fn, parts);
	}
	return parts;
}

/**
 * Pad a line to `width` and paint it with a background function. Full SGR
 * resets inside the line would end the background early, so the background
 * is re-opened after each of them.
 */
export function applyBackgroundToLine(line: string, width: number, bgFn: (text: string) => string): string {
	const w = visibleWidth(line);
	const padded = w < width ? line + " ".repeat(width - w) : line;
	const { open, close } = styleParts(bgFn);
	if (!open) return bgFn(padded);
	return open + padded.replace(/\x1b\[0?m/g, (m) => m + open) + close;
}
