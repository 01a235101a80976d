// A theme that follows the terminal (`system`, a light/dark pair) switches
// while the app runs when the terminal reports a colour-scheme change (DEC
// mode 2031, `ESC [ ? 997 ; 1|2 n`); a fixed theme stays. The app is driven
// through a memory terminal: what it writes is read back as truecolor SGR.
import { MemoryTerminal } from "@pi/tui";
import { afterEach, describe, expect, it } from "vitest";
import { InteractiveMode } from "../../src/modes/interactive/interactive-mode.js";
import { ThemeManager } from "../../src/modes/interactive/themes/theme-manager.js";
import { makeSession } from "../agent-session/support.js";

const LIGHT_ACCENT = "38;2;42;127;120"; // built-in light theme's accent
const DARK_ACCENT = "38;2;125;196;189"; // built-in dark theme's accent

let mode: InteractiveMode | undefined;
const savedColorTerm = process.env.COLORTERM;
afterEach(async () => {
	await mode?.shutdown();
	mode = undefined;
	process.env.COLORTERM = savedColorTerm;
});

async function start(useTheme?: string) {
	process.env.COLORTERM = "truecolor";
	const s = await makeSession();
	const term = new MemoryTerminal(80, 24);
	mode = new InteractiveMode({
		session: s.session,
		cwd: "/work",
		agentDir: "/nonexistent-agent-dir",
		version: "9.9.9",
		terminal: term,
		appearance: "dark",
		useTheme,
	});
	void mode.run();
	/** Waits until the output written since the last call contains `needle`. */
	const written = async (needle: string, ms = 3000) => {
		let out = "";
		const end = Date.now() + ms;
		while (!out.includes(needle)) {
			if (Date.now() > end) throw new Error(`no ${JSON.stringify(needle)} in output:\n${JSON.stringify(out)}`);
			await new Promise((r) => setTimeout(r, 10));
			out += term.takeOutput();
		}
		return out;
	};
	return { term, written };
}

describe("the theme follows the terminal's colour-scheme reports", () => {
	it("system: dark at start, light after a light report, dark again after a dark one; notifications off at exit", async () => {
		const { term, written } = await start();
		const first = await written(DARK_ACCENT);
		expect(first).toContain("\x1b[?2031h");
		expect(first).not.toContain(LIGHT_ACCENT);
		term.sendInput("\x1b[?997;2n");
		const light = await written(LIGHT_ACCENT);
		expect(light).not.toContain(DARK_ACCENT);
		term.sendInput("\x1b[?997;1n");
		await written(DARK_ACCENT);
		// The report is not typed into the editor.
		term.sendInput("x");
		await written("x");
		await mode?.shutdown();
		mode = undefined;
		expect(term.takeOutput()).toContain("\x1b[?2031l");
	});

	it("a light/dark pair picks its light half; a fixed theme stays as set", async () => {
		const pair = await start("light/dark");
		await pair.written(DARK_ACCENT);
		pair.term.sendInput("\x1b[?997;2n");
		await pair.written(LIGHT_ACCENT);
		await mode?.shutdown();
		mode = undefined;

		const fixed = await start("dark");
		await fixed.written(DARK_ACCENT);
		fixed.term.sendInput("\x1b[?997;2n");
		fixed.term.sendInput("y");
		const after = await fixed.written("y");
		expect(after).not.toContain(LIGHT_ACCENT);
	});

	it("ThemeManager.setAppearance: switches only a following theme, and only on a real change; /settings choice counts", () => {
		const themes = new ThemeManager({
			cwd: "/work",
			agentDir: "/nonexistent-agent-dir",
			files: [],
			appearance: "dark",
			env: {},
		});
		const changes: string[] = [];
		themes.onChange((t) => changes.push(t.definition.name));
		expect(themes.current.definition.name).toBe("dark");
		expect(themes.setAppearance("dark")).toBe(false);
		expect(themes.setAppearance("light")).toBe(true);
		expect(changes).toEqual(["light"]);
		// The user picks a fixed theme: reports no longer switch it.
		themes.select("dark");
		expect(themes.followsTerminal()).toBe(false);
		expect(themes.setAppearance("dark")).toBe(false);
		expect(themes.setAppearance("light")).toBe(false);
		expect(themes.current.definition.name).toBe("dark");
		// Back to `system`: it resolves with the last reported appearance.
		themes.select("system");
		expect(themes.current.definition.name).toBe("light");
	});
});
