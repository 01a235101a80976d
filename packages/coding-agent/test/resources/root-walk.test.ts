// The loading skills and prompt templates share (root-walk.ts), over real files.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { ResourceDiagnostic, ResourceOrigin } from "../../src/resources/diagnostics.js";
import { listDir } from "../../src/resources/files.js";
import { loadFirstOfName, readFrontmatterFile, type WalkRoot } from "../../src/resources/root-walk.js";

let root: string;
beforeEach(() => {
	root = mkdtempSync(join(tmpdir(), "pi-root-walk-"));
});
afterEach(() => {
	rmSync(root, { recursive: true, force: true });
});

const user: ResourceOrigin = { source: "user" };
const parseYaml = (t: string) => parse(t);

/** A resource kind whose item is named by the file's first line. */
function loadNotes(roots: WalkRoot[], include?: (filePath: string, origin: ResourceOrigin) => boolean) {
	const read: string[] = [];
	const result = loadFirstOfName(
		roots,
		{
			kind: "prompt",
			noun: "note",
			label: (name) => `note "${name}"`,
			collect: (r, _guard, out) => {
				for (const entry of listDir(r.path)) if (entry.kind === "file") out.push({ path: entry.path, declared: false });
			},
			loadFile: (file, origin) => {
				read.push(file.path);
				const warnings: ResourceDiagnostic[] = [];
				const fm = readFrontmatterFile(file.path, parseYaml, (message) =>
					warnings.push({ type: "warning", kind: "prompt", message, path: file.path }),
				);
				if (!fm) return { diagnostics: warnings };
				const name = fm.body.split("\n")[0];
				return { item: { name, filePath: file.path, origin }, diagnostics: warnings };
			},
		},
		include,
	);
	return { ...result, read };
}

describe("loadFirstOfName", () => {
	it("the first item of a name wins, a later one is a collision; a file reached twice is read once; excluded files are not read", () => {
		mkdirSync(join(root, "a"));
		mkdirSync(join(root, "b"));
		writeFileSync(join(root, "a", "1.md"), "alpha\n");
		writeFileSync(join(root, "a", "2.md"), "beta\n");
		writeFileSync(join(root, "b", "1.md"), "alpha\n");
		writeFileSync(join(root, "b", "skip.md"), "gamma\n");
		writeFileSync(join(root, "b", "bad.md"), "---\n: [\n---\nbroken\n");
		symlinkSync(join(root, "a"), join(root, "link"));
		const r = loadNotes(
			[
				{ path: join(root, "a"), origin: user },
				{ path: join(root, "link"), origin: user },
				{ path: join(root, "b"), origin: { source: "project" } },
				{ path: join(root, "missing"), origin: user, optional: true },
			],
			(path) => !path.endsWith("skip.md"),
		);
		expect(r.items.map((i) => i.name).sort()).toEqual(["alpha", "beta"]);
		expect(r.items.find((i) => i.name === "alpha")?.filePath).toBe(join(root, "a", "1.md"));
		expect(r.read.filter((p) => p.endsWith("skip.md"))).toEqual([]);
		expect(r.read.filter((p) => p.startsWith(join(root, "link")))).toEqual([]);
		expect(r.diagnostics.map((d) => [d.type, d.path])).toEqual(
			expect.arrayContaining([
				["collision", join(root, "b", "1.md")],
				["warning", join(root, "b", "bad.md")],
			]),
		);
		expect(r.diagnostics).toHaveLength(2);
		expect(r.diagnostics.find((d) => d.type === "collision")?.message).toBe(
			`note "alpha" skipped: the name is taken by ${join(root, "a", "1.md")} (user)`,
		);
	});
});

describe("readFrontmatterFile", () => {
	it("parses the frontmatter; an unreadable file or bad frontmatter is skipped with a warning (the parse error only when asked)", () => {
		const good = join(root, "good.md");
		writeFileSync(good, "---\ndescription: d\n---\nbody\n");
		const bad = join(root, "bad.md");
		writeFileSync(bad, "---\na: [\n---\nbody\n");
		const warnings: [string, string | undefined, number | undefined][] = [];
		const warn = (message: string, field?: string, line?: number) => warnings.push([message, field, line]);
		expect(readFrontmatterFile(good, parseYaml, warn)).toMatchObject({ data: { description: "d" }, body: "body\n" });
		expect(readFrontmatterFile(join(root, "missing.md"), parseYaml, warn)).toBeUndefined();
		expect(readFrontmatterFile(bad, parseYaml, warn, false)).toBeUndefined();
		expect(warnings).toHaveLength(1);
		expect(readFrontmatterFile(bad, parseYaml, warn)).toBeUndefined();
		expect(warnings).toHaveLength(2);
		expect(warnings[0][0]).toMatch(/^skipped: /);
		expect(warnings[1][0]).toMatch(/^skipped: /);
		expect(warnings[1][2]).toBeTypeOf("number");
	});
});
