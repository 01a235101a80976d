// ctx.ui in the real app (headless terminal, an in-memory extension through
// the real bridge): the methods the tmux tests of upstream's examples do not
// reach — editor text and paste, keyed widgets added and removed, footer
// statuses, the working message and indicator during a run, tool expansion,
// raw terminal input, the terminal title.
import { afterEach, describe, expect, it } from "vitest";
import { VirtualTerminal } from "../../../tui/test/helpers/virtual-terminal.js";
import { ExtensionBridge } from "../../src/agent-session/extension-bridge.js";
import { createNoUIContext } from "../../src/extensions/no-ui.js";
import type { ExtensionContext } from "../../src/extensions/types.js";
import { InteractiveMode } from "../../src/modes/interactive/interactive-mode.js";
import { plainTheme } from "../../src/modes/interactive/theme-fallback.js";
import { makeSession } from "../agent-session/support.js";
import { inMemoryExtensions } from "../extensions/helpers.js";
import { waitForScreen } from "../support/screen.js";

let mode: InteractiveMode | undefined;
afterEach(async () => {
	await mode?.shutdown();
	mode = undefined;
});

async function setup() {
	const s = await makeSession();
	let captured: ExtensionContext | undefined;
	const { runner } = inMemoryExtensions({
		"ui.ts": (pi) => {
			pi.on("session_start", (_e, ctx) => {
				captured = ctx;
			});
		},
	});
	const bridge = new ExtensionBridge({
		session: s.session,
		runner,
		mode: "tui",
		ui: createNoUIContext(),
		hasUI: true,
		projectTrusted: true,
	});
	const term = new VirtualTerminal(80, 30);
	const titles: string[] = [];
	// The headless terminal has no title; record what the app sets.
	(term as VirtualTerminal & { setTitle?: (title: string) => void }).setTitle = (title) => titles.push(title);
	mode = new InteractiveMode({
		session: s.session,
		cwd: "/work",
		agentDir: "/nonexistent-agent-dir",
		version: "9.9.9",
		terminal: term,
		theme: plainTheme,
		extensions: { bridge, runner, problems: [] },
		submit: (text, options) => bridge.submit(text, options),
	});
	void mode.run();
	const screen = async () => (await term.allLines()).join("\n");
	const waitFor = (pred: (s: string) => boolean, ms = 10_000) => waitForScreen(screen, pred, ms);
	await waitFor(() => captured !== undefined && true);
	const ctx = captured as ExtensionContext;
	return { ...s, term, mode, ctx, screen, waitFor, titles };
}

describe("ctx.ui in the app (headless)", () => {
	it("editor text: set, read back, pasted at the cursor", async () => {
		const app = await setup();
		app.ctx.ui.setEditorText("from the extension");
		await app.waitFor((s) => s.includes("from the extension"));
		expect(app.ctx.ui.getEditorText()).toBe("from the extension");
		app.ctx.ui.pasteToEditor(" and pasted");
		expect(app.ctx.ui.getEditorText()).toBe("from the extension and pasted");
		await app.waitFor((s) => s.includes("from the extension and pasted"));
	});

	it("widgets by key, above and below the editor, removed by key; footer statuses come and go", async () => {
		const app = await setup();
		app.ctx.ui.setWidget("top", ["widget on top"]);
		app.ctx.ui.setWidget("bottom", ["widget below"], { placement: "belowEditor" });
		app.ctx.ui.setStatus("b-status", "second status");
		app.ctx.ui.setStatus("a-status", "first status");
		let s = await app.waitFor(
			(x) => x.includes("widget on top") && x.includes("widget below") && /first status second status/.test(x),
		);
		expect(s.indexOf("widget on top")).toBeLessThan(s.indexOf("widget below"));
		// Statuses are joined in key order on one footer line.
		expect(s).toMatch(/first status second status/);
		app.ctx.ui.setWidget("top", undefined);
		app.ctx.ui.setStatus("a-status", undefined);
		s = await app.waitFor((x) => !x.includes("widget on top") && !x.includes("first status"));
		expect(s).toContain("widget below");
		expect(s).toContain("second status");
	});

	it("the working message and indicator show while a run works and reset when cleared", async () => {
		const app = await setup();
		app.ctx.ui.setWorkingMessage("Crunching numbers");
		app.ctx.ui.setWorkingIndicator({ frames: ["@"] });
		let release!: () => void;
		app.fake.enqueue({ text: "done crunching", gate: new Promise<void>((r) => (release = r)) });
		app.term.typeRaw("go\r");
		await app.waitFor((s) => s.includes("@ Crunching numbers"));
		app.ctx.ui.setWorkingMessage();
		app.ctx.ui.setWorkingIndicator();
		await app.waitFor((s) => s.includes("Working...") && !s.includes("Crunching"));
		release();
		await app.waitFor((s) => s.includes("done crunching") && !s.includes("Working..."));
	});

	it("tool expansion, raw terminal input (consumed, then let go), and the title", async () => {
		const app = await setup();
		expect(app.ctx.ui.getToolsExpanded()).toBe(false);
		app.ctx.ui.setToolsExpanded(true);
		expect(app.ctx.ui.getToolsExpanded()).toBe(true);
		const seen: string[] = [];
		const off = app.ctx.ui.onTerminalInput((data) => {
			seen.push(data);
			return data === "z" ? { consume: true } : undefined;
		});
		app.term.typeRaw("z");
		app.term.typeRaw("a");
		await app.waitFor(() => seen.length === 2);
		expect(app.ctx.ui.getEditorText()).toBe("a");
		off();
		app.term.typeRaw("z");
		await app.waitFor(() => app.ctx.ui.getEditorText() === "az");
		expect(seen).toEqual(["z", "a"]);
		app.ctx.ui.setTitle("pi: extension title");
		expect(app.titles).toContain("pi: extension title");
	});
});
