/**
 * A TUI's first frame as data, so a later start can put the same frame on the
 * screen before the app's code has loaded (the CLI's early frame) and the app's
 * TUI can then take that screen over as its own previous frame: its first
 * render writes only what differs, nothing when the frame is the same.
 */
import { ScreenWriter } from "./screen-writer.js";

export const HIDE_CURSOR = "\x1b[?25l";
export const SYNC_START = "\x1b[?2026h";
export const SYNC_END = "\x1b[?2026l";

export interface ScreenRecord {
	/** Terminal size the frame was drawn for. */
	width: number;
	height: number;
	/** The frame's rows as written (cursor marker removed, overlays composited). */
	lines: string[];
	/** Where the hardware cursor was placed, if anywhere. */
	cursor: { row: number; col: number } | null;
	showHardwareCursor: boolean;
}

/** What the terminal holds after a record's bytes were written to a fresh screen. */
export interface ScreenState {
	cursorRow: number;
	cursorCol: number;
	screenLines: number;
	hardwareCursorVisible: boolean;
}

/**
 * What a TUI writes for `record` as its first frame on a screen whose cursor is at the start of an
 * empty line (cursor hidden, the frame, the cursor placed), and the terminal's state after it.
 */
export function drawScreenRecord(record: ScreenRecord): { bytes: string; state: ScreenState } {
	const writer = new ScreenWriter(record.showHardwareCursor);
	const frame = writer.fullFrame(record.lines, record.width, false);
	const cursor = writer.placeCursor(record.cursor, record.lines.length);
	return {
		bytes: HIDE_CURSOR + SYNC_START + frame + cursor + SYNC_END,
		state: {
			cursorRow: writer.cursorRow,
			cursorCol: writer.cursorCol,
			screenLines: writer.screenLines,
			hardwareCursorVisible: writer.hardwareCursorVisible,
		},
	};
}

/** A record read back from storage, or undefined when it is not one. */
export function parseScreenRecord(value: unknown): ScreenRecord | undefined {
	if (typeof value !== "object" || value === null) return undefined;
	const r = value as Partial<ScreenRecord>;
	const size = (n: unknown) => typeof n === "number" && Number.isInteger(n) && n > 0;
	if (!size(r.width) || !size(r.height) || typeof r.showHardwareCursor !== "boolean") return undefined;
	if (!Array.isArray(r.lines) || !r.lines.every((l) => typeof l === "string")) return undefined;
	const c = r.cursor;
	const cursorOk =
		c === null || (typeof c === "object" && c !== undefined && Number.isInteger(c.row) && Number.isInteger(c.col));
	if (!cursorOk) return undefined;
	return {
		width: r.width as number,
		height: r.height as number,
		lines: r.lines,
		cursor: c ? { row: c.row, col: c.col } : null,
		showHardwareCursor: r.showHardwareCursor,
	};
}
