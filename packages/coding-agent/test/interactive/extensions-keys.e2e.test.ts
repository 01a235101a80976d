// Extension shortcuts and command arguments in the BUILT app (tmux): a
// shortcut on a built-in key is reported and the built-in keeps the key
// unless keybindings.json moves the built-in elsewhere; /hotkeys lists the
// extension's keys; an extension command's argument completion is offered
// with descriptions and completes into the editor.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hasTmux, submit, type TmuxPi, useTmuxApp } from "../support/tmux-app.js";

const app = useTmuxApp("the extension shortcut tests");

const EXTENSION = [
	"export default function (pi) {",
	'  pi.registerShortcut("ctrl+t", { description: "Wants ctrl+t", handler: async (ctx) => ctx.ui.notify("extension got ctrl+t") });',
	'  pi.registerShortcut("ctrl+alt+x", { description: "Say hi", handler: async (ctx) => ctx.ui.notify("hi from ctrl+alt+x") });',
	'  pi.registerCommand("greet", {',
	'    description: "Greet someone",',
	'    getArgumentCompletions: (prefix) => ["world", "team", "moon"]',
	'      .filter((n) => n.startsWith(prefix)).map((n) => ({ value: n, label: n, description: "greet the " + n })),',
	'    handler: async (args, ctx) => ctx.ui.notify("hello " + args.trim()),',
	"  });",
	'  pi.on("session_start", (_e, ctx) => ctx.ui.notify("keys extension started"));',
	"}",
].join("\n");

function start(): TmuxPi {
	const file = join(app.sb.cwd, "keys.ts");
	writeFileSync(file, EXTENSION);
	return app.start({ args: ["-e", file], columns: 160, rows: 150 });
}

const count = (screen: string, text: string) => screen.split(text).length - 1;

describe.skipIf(!hasTmux)("extension shortcuts and command arguments (tmux)", () => {
	it("a clash with a built-in key is reported and the built-in keeps it; other keys run; /hotkeys lists both", async () => {
		const p = start();
		const first = await p.waitFor(/keys extension started[\s\S]*fake-model\s*$/m, 30_000);
		expect(first).toMatch(/Extension shortcut ctrl\+t \(.*keys\.ts\) is the key of app\.thinking\.toggle/);
		p.keys("C-M-x");
		await p.waitFor("hi from ctrl+alt+x", 30_000);
		// ctrl+t goes to the built-in; the next ctrl+alt+x (handled after it, in order) proves the key was seen.
		p.keys("C-t");
		p.keys("C-M-x");
		await p.waitFor((s) => count(s, "hi from ctrl+alt+x") === 2, 30_000);
		expect(p.screen()).not.toContain("extension got ctrl+t");
		const hotkeys = await submit(p, "/hotkeys", /Extension shortcuts[\s\S]*ctrl\+alt\+x +Say hi/, 30_000);
		expect(hotkeys).toMatch(/ctrl\+t \(taken by a built-in\) +Wants ctrl\+t/);
		expect(p.exited()).toBe(false);
	}, 90_000);

	it("keybindings.json moving the built-in elsewhere gives the key to the extension, without a warning", async () => {
		writeFileSync(join(app.sb.agentDir, "keybindings.json"), JSON.stringify({ "app.thinking.toggle": "ctrl+alt+y" }));
		const p = start();
		const first = await p.waitFor(/keys extension started[\s\S]*fake-model\s*$/m, 30_000);
		expect(first).not.toContain("Extension shortcut ctrl+t");
		p.keys("C-t");
		await p.waitFor("extension got ctrl+t", 30_000);
		const hotkeys = await submit(p, "/hotkeys", /Extension shortcuts[\s\S]*ctrl\+alt\+x +Say hi/, 30_000);
		expect(hotkeys).toMatch(/ctrl\+t +Wants ctrl\+t/);
		expect(hotkeys).not.toContain("taken by a built-in");
	}, 90_000);

	it("an extension command's argument completion is offered with descriptions and completes the argument", async () => {
		const p = start();
		await p.waitFor(/keys extension started[\s\S]*fake-model\s*$/m, 30_000);
		p.type("/greet ");
		await p.waitFor(/world\s+greet the world[\s\S]*moon\s+greet the moon/, 30_000);
		p.type("mo");
		await p.waitFor((s) => s.includes("greet the moon") && !s.includes("greet the world"), 30_000);
		p.keys("Tab");
		await p.waitFor((s) => /\/greet moon/.test(s) && !s.includes("greet the moon"), 30_000);
		p.keys("Enter");
		await p.waitFor("hello moon", 30_000);
		expect(p.exited()).toBe(false);
	}, 90_000);
});
