// Which files load, in which order: global dir, trusted project dir,
// settings (with !glob, +path, -path), -e; -ne keeps only -e.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { discoverExtensions } from "../../src/extensions/discovery.js";

const root = mkdtempSync(join(tmpdir(), "pi-ext-discovery-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const agentDir = join(root, "agent");
const cwd = join(root, "project");

function touch(path: string, text = "export default function () {}\n"): string {
	mkdirSync(join(path, ".."), { recursive: true });
	writeFileSync(path, text);
	return path;
}

const g = (p: string) => join(agentDir, "extensions", p);
const pr = (p: string) => join(cwd, ".pi", "extensions", p);
touch(g("a.ts"));
touch(g("b.js"));
touch(g("notes.md"));
touch(g("types.d.ts"));
touch(g("dir/index.ts"));
touch(g("dir/helper.ts"));
touch(g("pkg/package.json"), JSON.stringify({ pi: { extensions: ["./src/main.ts"] } }));
touch(g("pkg/src/main.ts"));
touch(g("empty/readme.txt"));
touch(pr("local.ts"));
const extra = touch(join(root, "elsewhere", "extra.ts"));
const cliFile = touch(join(cwd, "cli-ext.ts"));

const paths = (r: ReturnType<typeof discoverExtensions>) => r.sources.map((s) => s.path);

describe("discoverExtensions", () => {
	it("finds *.ts/*.js, */index, */package.json pi.extensions one level deep, global first", () => {
		const r = discoverExtensions({ cwd, agentDir, projectTrusted: true });
		expect(paths(r)).toEqual([g("a.ts"), g("b.js"), g("dir/index.ts"), g("pkg/src/main.ts"), pr("local.ts")]);
		expect(r.sources.map((s) => s.sourceInfo.scope)).toEqual(["user", "user", "user", "user", "project"]);
	});

	it("leaves the project's extensions out while the project is untrusted", () => {
		const r = discoverExtensions({ cwd, agentDir, projectTrusted: false, projectSetting: [extra] });
		expect(paths(r)).not.toContain(pr("local.ts"));
		expect(paths(r)).not.toContain(extra);
	});

	it("settings add paths; !glob excludes, -path removes, +path forces back in", () => {
		const r = discoverExtensions({
			cwd,
			agentDir,
			projectTrusted: true,
			globalSetting: [extra, "!**/b.js", "!**/dir/**", `+${g("dir/index.ts")}`, "!**/pkg/**", `-${g("a.ts")}`],
		});
		expect(paths(r)).toEqual([g("dir/index.ts"), pr("local.ts"), extra]);
	});

	it("-e adds files or directories after the rest; -ne keeps only -e", () => {
		const r = discoverExtensions({ cwd, agentDir, projectTrusted: true, cliPaths: ["cli-ext.ts", g("dir")] });
		expect(paths(r).slice(-1)).toEqual([cliFile]);
		const only = discoverExtensions({
			cwd,
			agentDir,
			projectTrusted: true,
			noExtensions: true,
			cliPaths: ["cli-ext.ts", g("dir")],
		});
		expect(paths(only)).toEqual([cliFile, g("dir/index.ts")]);
	});

	it("a missing -e path is kept so the loader names it; npm:/git: are reported", () => {
		const r = discoverExtensions({
			cwd,
			agentDir,
			projectTrusted: false,
			noExtensions: true,
			cliPaths: ["missing.ts", "npm:foo"],
		});
		expect(paths(r)).toEqual([join(cwd, "missing.ts")]);
		expect(r.diagnostics.map((d) => d.message)).toEqual([
			expect.stringMatching(/package sources are loaded by the package manager/),
		]);
	});
});
