// Which appearance (light or dark) `system` and light/dark pairs follow: the
// terminal's answer to an OSC 11 background query when the chosen theme
// needs it and both ends are a TTY, else COLORFGBG, else undefined (the
// theme manager then uses dark). The query is bounded in time
// (BACKGROUND_QUERY_TIMEOUT_MS) and runs before the TUI reads input.
import {
	type Appearance,
	appearanceFromColorFgBg,
	appearanceOf,
	type BackgroundQueryStreams,
	queryTerminalBackground,
} from "@pi/tui";
import { themeFollowsTerminal } from "./theme-manager.js";

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
): Promise<AppearanceDetection> {
	if (themeFollowsTerminal(setting)) {
		const reply = await queryTerminalBackground(streams, timeoutMs);
		if (reply.rgb) return { appearance: appearanceOf(reply.rgb), from: "osc11" };
	}
	const fallback = appearanceFromColorFgBg(env);
	return fallback ? { appearance: fallback, from: "COLORFGBG" } : { appearance: undefined, from: "none" };
}
