// Small pieces of the interactive mode: slash-command parsing and registry,
// keybindings.json, `@` file listing, the git branch, OSC 52.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { copyWithTool, osc52 } from "../../src/modes/interactive/clipboard.js";
import { parseSlashCommand, SlashCommandRegistry } from "../../src/modes/interactive/commands/registry.js";
import { createFileLister } from "../../src/modes/interactive/file-lister.js";
import { readGitBranch } from "../../src/modes/interactive/git-branch.js";
import { loadKeybindings, parseKeybindingsConfig } from "../../src/modes/interactive/keybindings.js";

let dir: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "pi-interactive-"));
});
afterEach(() => {
	rmSync(dir, { recursive: true, force: true });
});

describe("slash commands", () => {
	it("parses name and trimmed arguments", () => {
		expect(parseSlashCommand("/compact  keep the API notes ")).toEqual({ name: "compact", args: "keep the API notes" });
		expect(parseSlashCommand("/new")).toEqual({ name: "new", args: "" });
		expect(parseSlashCommand("/name a\nb")).toEqual({ name: "name", args: "a\nb" });
		expect(parseSlashCommand("/usr/bin/ls")).toBeUndefined();
		expect(parseSlashCommand("hello /new")).toBeUndefined();
	});

	it("registers, replaces, hides and lists for autocomplete", () => {
		const r = new SlashCommandRegistry();
		let changes = 0;
		r.onChange(() => changes++);
		r.register({ name: "a", description: "first", run: () => {} });
		r.register({ name: "b", description: "second", argumentHint: "<x>", run: () => {} });
		r.register({ name: "secret", description: "hidden", hidden: true, run: () => {} });
		r.register({ name: "a", description: "replaced", run: () => {} });
		expect(changes).toBe(4);
		expect(r.list().map((c) => [c.name, c.description])).toEqual([
			["a", "replaced"],
			["b", "second"],
		]);
		expect(r.has("secret")).toBe(true);
		expect(r.toAutocomplete().map((c) => [c.name, c.description])).toEqual([
			["a", "replaced"],
			["b", "<x>  second"],
		]);
		r.unregister("b");
		expect(r.get("b")).toBeUndefined();
	});
});

describe("keybindings.json", () => {
	it("overrides defaults, migrates legacy ids, reports bad entries", () => {
		const parsed = parseKeybindingsConfig(
			JSON.stringify({ "app.model.cycleForward": "ctrl+n", expandTools: ["ctrl+x"], "app.exit": 5 }),
		);
		expect(parsed.config).toEqual({ "app.model.cycleForward": "ctrl+n", "app.tools.expand": ["ctrl+x"] });
		expect(parsed.warnings).toEqual(['keybindings.json: "app.exit" must be a key or an array of keys']);
	});

	it("loads from the agent dir; a malformed file keeps the defaults with a warning", () => {
		writeFileSync(join(dir, "keybindings.json"), JSON.stringify({ "app.thinking.toggle": "ctrl+y" }));
		const ok = loadKeybindings(dir);
		expect(ok.manager.getKeys("app.thinking.toggle")).toEqual(["ctrl+y"]);
		expect(ok.manager.matches("\x19", "app.thinking.toggle")).toBe(true);
		expect(ok.manager.getKeys("app.interrupt")).toEqual(["escape"]);
		writeFileSync(join(dir, "keybindings.json"), "{ nope");
		const bad = loadKeybindings(dir);
		expect(bad.manager.getKeys("app.thinking.toggle")).toEqual(["ctrl+t"]);
		expect(bad.warnings[0]).toContain("keybindings.json");
		expect(bad.warnings[0]).toContain("(defaults used)");
	});
});

describe("@ file listing", () => {
	it("lists files and folders, respecting .gitignore and skipping .git and node_modules", async () => {
		mkdirSync(join(dir, ".git"));
		writeFileSync(join(dir, ".git", "HEAD"), "ref: refs/heads/feature/x\n");
		writeFileSync(join(dir, ".gitignore"), "build/\n*.log\n");
		mkdirSync(join(dir, "src", "deep"), { recursive: true });
		mkdirSync(join(dir, "build"));
		mkdirSync(join(dir, "node_modules", "pkg"), { recursive: true });
		for (const f of ["src/a.ts", "src/deep/b.ts", "build/out.js", "debug.log", "README.md", "node_modules/pkg/i.js"])
			writeFileSync(join(dir, f), "");
		const list = createFileLister();
		const files = await list({ basePath: dir, query: "", signal: new AbortController().signal, limit: 50 });
		expect(files.sort()).toEqual([".gitignore", "README.md", "src/", "src/a.ts", "src/deep/", "src/deep/b.ts"]);
		expect(readGitBranch(join(dir, "src", "deep"))).toBe("feature/x");
	});

	it("reuses a listing for a few seconds", async () => {
		writeFileSync(join(dir, "one.txt"), "");
		let now = 0;
		const list = createFileLister(() => now);
		const opts = { basePath: dir, query: "", signal: new AbortController().signal, limit: 50 };
		expect(await list(opts)).toEqual(["one.txt"]);
		writeFileSync(join(dir, "two.txt"), "");
		now = 1000;
		expect(await list(opts)).toEqual(["one.txt"]);
		now = 6000;
		expect(await list(opts)).toEqual(["one.txt", "two.txt"]);
	});
});

describe("git branch and clipboard", () => {
	it("detached HEAD shows the short commit; outside a repository nothing", () => {
		mkdirSync(join(dir, ".git"));
		writeFileSync(join(dir, ".git", "HEAD"), "0123456789abcdef0123456789abcdef01234567\n");
		expect(readGitBranch(dir)).toBe("0123456");
		expect(readGitBranch("/")).toBeUndefined();
	});

	it("OSC 52 carries the text base64-encoded", () => {
		expect(osc52("héllo")).toBe(`\x1b]52;c;${Buffer.from("héllo").toString("base64")}\x07`);
	});

	it.skipIf(process.platform !== "linux")(
		"a clipboard tool that exits without reading is a failed copy, not an EPIPE that ends pi",
		async () => {
			// xclip without an X server exits at once; a long answer then cannot be written to it.
			const bin = join(dir, "bin");
			mkdirSync(bin);
			writeFileSync(join(bin, "xclip"), "#!/bin/sh\nexit 1\n");
			chmodSync(join(bin, "xclip"), 0o755);
			const saved = { PATH: process.env.PATH, DISPLAY: process.env.DISPLAY, WAYLAND: process.env.WAYLAND_DISPLAY };
			process.env.PATH = `${bin}:${process.env.PATH}`;
			process.env.DISPLAY = ":99";
			delete process.env.WAYLAND_DISPLAY;
			try {
				expect(await copyWithTool("answer ".repeat(200_000))).toBe(false);
				// The write's EPIPE, if unheard, would surface on one of the next turns.
				await new Promise((r) => setTimeout(r, 50));
			} finally {
				process.env.PATH = saved.PATH;
				if (saved.DISPLAY === undefined) delete process.env.DISPLAY;
				else process.env.DISPLAY = saved.DISPLAY;
				if (saved.WAYLAND !== undefined) process.env.WAYLAND_DISPLAY = saved.WAYLAND;
			}
		},
	);
});
