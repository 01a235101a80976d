// What dist/cli.js's early frame (early-frame.ts) leaves for the app: the frame it painted, if any,
// and where the app's own first frame is recorded for the next start. Passed on globalThis because
// dist/cli.js and the CLI's bundle are separate files.
import type { ScreenRecord } from "@pi/tui";

export interface EarlyFrame {
	/**
	 * The record of the frame on the screen, as read back (the app checks it with parseScreenRecord before
	 * its TUI adopts it); undefined when none was painted.
	 */
	record: unknown;
	/** The app takes the screen: call right before its terminal starts (cooked mode back for that instant). */
	adopt(): void;
	/** The app will not run: erase the painted frame. Also done on the first other output and at exit. */
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
