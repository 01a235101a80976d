// The `system` theme in a real terminal: the built app asks tmux for the pane's
// background (OSC 11) and draws with the built-in light theme on a light
// background and the dark one on a dark background; COLORFGBG decides when the
// terminal does not answer; a theme that does not follow the terminal is used
// as set. Colours are read back with capture-pane -e (truecolor, so the
// accent's exact RGB shows).
import { describe, expect, it } from "vitest";
import { hasTmux, useTmuxApp } from "../support/tmux-app.js";

const LIGHT_ACCENT = "38;2;42;127;120"; // light theme teal #2a7f78
const DARK_ACCENT = "38;2;125;196;189"; // dark theme teal #7dc4bd

const app = useTmuxApp("the system theme test");

async function accentOf(tmuxConf: string, env: NodeJS.ProcessEnv = {}, args: string[] = []): Promise<string> {
	const pi = await app.ready({ env: { COLORTERM: "truecolor", ...env }, args, tmuxConf });
	const screen = pi.screenWithColors();
	pi.kill();
	const light = screen.includes(LIGHT_ACCENT);
	const dark = screen.includes(DARK_ACCENT);
	return light && !dark ? "light" : dark && !light ? "dark" : `unclear (light ${light}, dark ${dark})`;
}

describe.skipIf(!hasTmux)("system theme follows the terminal background", () => {
	it("light pane → light theme, dark pane → dark theme (OSC 11); COLORFGBG when unanswered; a fixed theme stays", async () => {
		expect(await accentOf("set -g window-style 'bg=#f0f0f0'")).toBe("light");
		expect(await accentOf("set -g window-style 'bg=#101418'")).toBe("dark");
		// tmux without a window-style answers only DA1: COLORFGBG decides.
		expect(await accentOf("", { COLORFGBG: "0;15" })).toBe("light");
		expect(await accentOf("", {})).toBe("dark");
		// The terminal's answer beats COLORFGBG.
		expect(await accentOf("set -g window-style 'bg=#101418'", { COLORFGBG: "0;15" })).toBe("dark");
		// --use-theme dark on a light pane: no query decides anything.
		expect(await accentOf("set -g window-style 'bg=#f0f0f0'", {}, ["--use-theme", "dark"])).toBe("dark");
	}, 180_000);
});
