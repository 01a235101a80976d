// The first screen is drawn before marked is loaded (issue 25): marked's module
// body builds its regex tables (~10 ms), and in the built CLI its import()
// resolves in a microtask, ahead of the frame the TUI draws on the next tick.
// The app must start that load only after the frame. (A file of its own:
// @pi/tui is wrapped to log when the load starts.)
import { afterEach, describe, expect, it, vi } from "vitest";
import { VirtualTerminal } from "../../../tui/test/helpers/virtual-terminal.js";
import { InteractiveMode } from "../../src/modes/interactive/interactive-mode.js";
import { plainTheme } from "../../src/modes/interactive/theme-fallback.js";
import { makeSession } from "../agent-session/support.js";

const events = vi.hoisted(() => [] as string[]);
vi.mock("@pi/tui", async (importOriginal) => {
	const tui = await importOriginal<typeof import("@pi/tui")>();
	return {
		...tui,
		loadMarkdown: () => {
			events.push("markdown load");
			return tui.loadMarkdown();
		},
	};
});

let mode: InteractiveMode | undefined;
afterEach(async () => {
	await mode?.shutdown();
	mode = undefined;
});

describe("first screen", () => {
	it("is written before marked starts loading; marked loads right after it", async () => {
		const s = await makeSession();
		const term = new VirtualTerminal(80, 30);
		const write = term.write.bind(term);
		term.write = (data: string) => {
			if (data.includes("test-model") && !events.includes("frame")) events.push("frame");
			write(data);
		};
		mode = new InteractiveMode({
			session: s.session,
			cwd: "/work",
			agentDir: "/nonexistent-agent-dir",
			version: "9.9.9",
			terminal: term,
			theme: plainTheme,
		});
		void mode.run();
		const end = Date.now() + 3000;
		while (!events.includes("markdown load") && Date.now() < end) await new Promise((r) => setTimeout(r, 5));
		expect(events).toEqual(["frame", "markdown load"]);
		expect((await term.allLines()).join("\n")).toContain("test-model");
	});
});
