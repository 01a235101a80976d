// Which appearance (light or dark) `system` and light/dark pairs follow: the
// terminal's answer to an OSC 11 background query when the chosen theme
// needs it and both ends are a TTY, else COLORFGBG, else undefined (the
// theme manager then uses dark). The query is bounded in time
// (BACKGROUND_QUERY_TIMEOUT_MS) and runs before the TUI reads input. The CLI
// sends it before the app's code loads (cli/run.ts) and hands over the pending
// answer (`sent`), so the app does not wait a terminal round trip to draw.
import {
	type Appearance,
	appearanceFromColorFgBg,
	appearanceOf,
	type BackgroundQueryResult,
	type BackgroundQueryStreams,
	queryTerminalBackground,
} from "@pi/tui";
import { themeFollowsTerminal } from "./follows-terminal.js";

export { themeFollowsTerminal };

export interface AppearanceDetection {
	appearance: Appearance | undefined;
	/** Where it came from, for --verbose and tests. */
	from: "osc11" | "COLORFGBG" | "none";
}

export async function detectTerminalAppearance(
	setting: string,
	streams: BackgroundQueryStreams,
	env: NodeJS.ProcessEnv,
	timeoutMs?: number,
	/** The same query, already sent (cli/run.ts): its answer instead of asking again. */
	sent?: Promise<BackgroundQueryResult>,
): Promise<AppearanceDetection> {
	if (themeFollowsTerminal(setting)) {
		const reply = await (sent ?? queryTerminalBackground(streams, timeoutMs));
		if (reply.rgb) return { appearance: appearanceOf(reply.rgb), from: "osc11" };
	}
	const fallback = appearanceFromColorFgBg(env);
	return fallback ? { appearance: fallback, from: "COLORFGBG" } : { appearance: undefined, from: "none" };
}
