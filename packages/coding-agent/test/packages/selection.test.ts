// Which resources of a package load: `autoload: false` entries (only what
// they name; a project one narrows the user's package instead of replacing
// it), the rows and rewrites `pi config` makes for them and for the bundled
// extensions, and `pi --help` listing the flags a package's extension
// registers. Local-path packages through the built CLI (no npm, no git).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { builtinEnabled, builtinRows, toggleBuiltin } from "../../src/packages/builtin-config.js";
import { enabledOf, toggleResource } from "../../src/packages/config-model.js";
import { applyDelta } from "../../src/packages/manifest.js";
import { body, textReply, useCliSandbox } from "../cli/support.js";
import { writePackage } from "../support/packages.js";

describe("autoload: false", () => {
	const all = ["skills/a", "skills/b", "skills/c"];
	it("starts from nothing (or the given start) and applies the patterns in order", () => {
		expect(applyDelta(all, new Set(), undefined)).toEqual([]);
		expect(applyDelta(all, new Set(), ["+skills/b"])).toEqual(["skills/b"]);
		expect(applyDelta(all, new Set(), ["skills/*", "-skills/a", "!skills/c"])).toEqual(["skills/b"]);
		expect(applyDelta(all, new Set(all), ["-skills/b"])).toEqual(["skills/a", "skills/c"]);
		// Never more than the package offers.
		expect(applyDelta(all, new Set(), ["+skills/zzz"])).toEqual([]);
		expect(enabledOf({ source: "x", autoload: false, skills: ["+skills/c"] }, "skills", all)).toEqual(["skills/c"]);
		expect(enabledOf({ source: "x", autoload: false }, "skills", all)).toEqual([]);
	});

	it("pi config switches write +item/-item on the entry and keep it an object", () => {
		const entry = { source: "x", autoload: false };
		const on = toggleResource(entry, "skills", "skills/b", all, true);
		expect(on).toEqual({ source: "x", autoload: false, skills: ["+skills/b"] });
		expect(toggleResource(on, "skills", "skills/b", all, false)).toEqual({ source: "x", autoload: false });
		// Over the user's entry (which loads a and b): switching b off in the project writes -skills/b.
		const user = { source: "x", skills: ["-skills/c"] };
		const off = toggleResource(entry, "skills", "skills/b", all, false, user);
		expect(off).toEqual({ source: "x", autoload: false, skills: ["-skills/b"] });
		expect(enabledOf(off, "skills", all, new Set(enabledOf(user, "skills", all)))).toEqual(["skills/a"]);
	});
});

describe("built-in extensions in pi config", () => {
	it("on unless -builtin:<name>; the last entry wins; the project inherits the user's", () => {
		expect(builtinEnabled("mcp", [])).toBe(true);
		expect(builtinEnabled("mcp", [["-builtin:mcp"]])).toBe(false);
		expect(builtinEnabled("mcp", [["-builtin:mcp"], ["+builtin:mcp"]])).toBe(true);
		expect(builtinRows(["mcp", "codemode"], [["-builtin:codemode"]]).map((r) => [r.item, r.enabled])).toEqual([
			["mcp", true],
			["codemode", false],
		]);
	});
	it("a switch rewrites only that built-in's entries, adding one only when the inherited state differs", () => {
		expect(toggleBuiltin(["./ext.ts"], "mcp", false, [])).toEqual(["./ext.ts", "-builtin:mcp"]);
		expect(toggleBuiltin(["./ext.ts", "-builtin:mcp"], "mcp", true, [])).toEqual(["./ext.ts"]);
		// Project scope, the user has it off: on in the project needs +builtin:mcp.
		expect(toggleBuiltin([], "mcp", true, [["-builtin:mcp"]])).toEqual(["+builtin:mcp"]);
		expect(toggleBuiltin(["+builtin:mcp"], "mcp", false, [["-builtin:mcp"]])).toEqual([]);
	});
});

const sb = useCliSandbox();

function kit(): string {
	const dir = writePackage(join(sb.root, "kit"), { name: "kit", version: "1.0.0", tool: "kit_tool", skill: "kit-a" });
	mkdirSync(join(dir, "skills", "kit-b"), { recursive: true });
	writeFileSync(join(dir, "skills", "kit-b", "SKILL.md"), "---\nname: kit-b\ndescription: Skill kit-b\n---\nb\n");
	writeFileSync(
		join(dir, "extensions", "flagged.ts"),
		'export default function (pi: any) { pi.registerFlag("kit-mode", { description: "Mode of the kit package", type: "string" }); }\n',
	);
	return dir;
}

async function ask(extra: string[] = []) {
	sb.fake.enqueue(textReply("ok"));
	const index = sb.fake.requests.length;
	const r = await sb.run(["-p", "--model", "fake/fake-model", ...extra, "hi"]);
	expect(r.code, r.stderr).toBe(0);
	const m = body(sb.fake, index).messages[0];
	return {
		system: typeof m.content === "string" ? m.content : JSON.stringify(m.content),
		tools: (body(sb.fake, index).tools ?? []).map((t) => t.function.name),
	};
}

describe("autoload: false through the CLI", { timeout: 120_000 }, () => {
	it("a user entry loads only what it names; a project entry narrows the user's package", async () => {
		const dir = kit();
		writeFileSync(
			join(sb.agentDir, "settings.json"),
			JSON.stringify({ packages: [{ source: dir, autoload: false, skills: ["+skills/kit-a", "+skills/kit-b"] }] }),
		);
		const user = await ask();
		expect(user.system).toContain("kit-a");
		expect(user.system).toContain("kit-b");
		expect(user.tools).not.toContain("kit_tool");

		// The project takes kit-b away and adds the tool, over the user's selection, without its own copy.
		mkdirSync(join(sb.cwd, ".pi"), { recursive: true });
		writeFileSync(
			join(sb.cwd, ".pi", "settings.json"),
			JSON.stringify({
				packages: [
					{ source: dir, autoload: false, skills: ["-skills/kit-b"], extensions: ["+extensions/kit_tool.ts"] },
				],
			}),
		);
		const project = await ask(["--approve"]);
		expect(project.system).toContain("kit-a");
		expect(project.system).not.toContain("kit-b");
		expect(project.tools).toContain("kit_tool");
		// Untrusted: the user's selection alone.
		const untrusted = await ask(["--no-approve"]);
		expect(untrusted.system).toContain("kit-b");
		expect(untrusted.tools).not.toContain("kit_tool");
	});

	it("pi --help lists the flags a user package's extension registers", async () => {
		const dir = kit();
		const before = await sb.run(["--help"]);
		expect(before.stdout).not.toContain("--kit-mode");
		writeFileSync(join(sb.agentDir, "settings.json"), JSON.stringify({ packages: [dir] }));
		const help = await sb.run(["--help"]);
		expect(help.code, help.stderr).toBe(0);
		expect(help.stdout).toMatch(/--kit-mode <value>\s+Mode of the kit package/);
		// The flag is accepted on a run.
		const used = await ask(["--kit-mode", "fast"]);
		expect(used.tools).toContain("kit_tool");
	});
});
