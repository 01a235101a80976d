// `pi config` in the BUILT CLI under tmux: the resources of an installed
// package are listed on/off, space switches one and writes the filter at
// once (only `packages` changes), Tab shows the project scope, where a
// bundled extension is switched off (`-builtin:<name>` in "extensions"), and
// the next run really leaves the switched-off skill out. Plus the pure
// filter rewrite.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { filterFor, toggleResource } from "../../src/packages/config-model.js";
import { applyFilter } from "../../src/packages/manifest.js";
import { body, textReply } from "../cli/support.js";
import { writePackage } from "../support/packages.js";
import { hasTmux, useTmuxApp } from "../support/tmux-app.js";

describe("toggleResource", () => {
	const all = ["skills/a", "skills/b", "skills/c"];
	it("writes -path exclusions over an unfiltered entry and collapses back to a string", () => {
		const off = toggleResource("npm:x", "skills", "skills/b", all, false);
		expect(off).toEqual({ source: "npm:x", skills: ["-skills/b"] });
		expect(toggleResource(off, "skills", "skills/b", all, true)).toBe("npm:x");
	});
	it("keeps an explicit list explicit, and the result loads exactly the chosen set", () => {
		const entry = { source: "npm:x", skills: ["skills/a"], prompts: [] };
		const on = toggleResource(entry, "skills", "skills/c", all, true);
		expect(on).toEqual({ source: "npm:x", skills: ["+skills/a", "+skills/c"], prompts: [] });
		const f = (on as { skills: string[] }).skills;
		expect(applyFilter(all, f)).toEqual(["skills/a", "skills/c"]);
		expect(filterFor(all, new Set(all), f)).toBeUndefined();
		expect(filterFor(all, new Set(), f)).toEqual([]);
	});
});

const app = useTmuxApp("the pi config screen tests");

describe.skipIf(!hasTmux)("pi config (tmux)", { timeout: 120_000 }, () => {
	it("space switches a skill off in settings at once; tab shows the project; the next run leaves it out", async () => {
		const { sb } = app;
		const pkg = writePackage(join(sb.root, "kit"), {
			name: "kit",
			version: "1.0.0",
			tool: "kit_tool",
			skill: "kit-skill",
			prompt: "kit-prompt",
		});
		const settingsFile = join(sb.agentDir, "settings.json");
		writeFileSync(settingsFile, JSON.stringify({ theme: "dark", packages: [pkg] }));
		const pi = app.start({ args: ["config"] });
		const screen = await pi.waitFor("Package resources — user settings");
		expect(screen).toMatch(/extensions\/kit_tool\.ts\s+on/);
		expect(screen).toMatch(/skills\/kit-skill\s+on/);
		expect(screen).toMatch(/prompts\/kit-prompt\.md\s+on/);
		// Rows: extension, skill, prompt. Move to the skill and switch it off.
		pi.keys("Down");
		pi.keys("Space");
		await pi.waitFor(/skills\/kit-skill\s+off/);
		await pi.waitFor("Saved to");
		expect(JSON.parse(readFileSync(settingsFile, "utf8"))).toEqual({
			theme: "dark",
			packages: [{ source: pkg, skills: ["-skills/kit-skill"] }],
		});
		pi.keys("Tab");
		await pi.waitFor("Package resources — project settings");
		await pi.waitFor("No package resources in this scope.");
		// The bundled extensions are listed too: switch builtin:permissions off for this project.
		const project = await pi.waitFor(/permissions\s+on/);
		expect(project).toMatch(/pi \(built-in\)\s+mcp\s+on/);
		for (let i = 0; i < 4; i++) pi.keys("Down");
		pi.keys("Space");
		await pi.waitFor(/permissions\s+off/);
		await pi.waitFor("Saved to");
		expect(JSON.parse(readFileSync(join(sb.cwd, ".pi", "settings.json"), "utf8"))).toEqual({
			extensions: ["-builtin:permissions"],
		});
		pi.keys("Escape");
		await pi.waitFor("[pi exited 0]");

		sb.fake.enqueue(textReply("ok"));
		const r = await sb.run(["-p", "--model", "fake/fake-model", "hi"]);
		expect(r.code, r.stderr).toBe(0);
		const system = JSON.stringify(body(sb.fake, 0).messages[0].content);
		expect(system).not.toContain("kit-skill");
		expect((body(sb.fake, 0).tools ?? []).map((t) => t.function.name)).toContain("kit_tool");
	});

	it("without a terminal it says so and exits 1", async () => {
		const r = await app.sb.run(["config"]);
		expect(r.code).toBe(1);
		expect(r.stderr).toContain("pi config needs a terminal");
	});
});
