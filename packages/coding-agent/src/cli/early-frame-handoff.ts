// What dist/cli.js's early frame (early-frame.ts) leaves for the app: the frame it painted, if any,
// and where the app's own first frame is recorded for the next start. Passed on globalThis because
// dist/cli.js and the CLI's bundle are separate files.
import type { ScreenRecord } from "@pi/tui";

export interface EarlyFrame {
	/**
	 * The app takes the screen, right before its terminal starts: `check` turns the painted frame's record
	 * into what the app's TUI adopts (undefined: not a record, and the frame is erased). Undefined when no
	 * frame is on the screen (none was painted, or it was erased since).
	 */
	adopt<T>(check: (record: unknown) => T | undefined): T | undefined;
	/** Erase the painted frame before something else uses the terminal (a prompt before the app). */
	release(): void;
	/** Keep the app's first frame for the next start under the same conditions. */
	save(record: ScreenRecord, bytes: string, cursorRow: number): void;
}

/** This start's hand-off; undefined when the start was not eligible (or not from dist/cli.js). */
export function takeEarlyFrame(): EarlyFrame | undefined {
	const holder = globalThis as { __pi_early_frame?: EarlyFrame };
	const frame = holder.__pi_early_frame;
	holder.__pi_early_frame = undefined;
	return frame;
}
