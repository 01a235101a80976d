import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFindTool } from "../../src/tools/find.js";
import { createGrepTool } from "../../src/tools/grep.js";
import { findFd, findRipgrep, supportsFlag } from "../../src/tools/search/executables.js";
import { findFdRun, findJs } from "../../src/tools/search/find-engines.js";
import { grepJs } from "../../src/tools/search/grep-js.js";
import { grepRipgrep } from "../../src/tools/search/grep-rg.js";
import { pathSortKey } from "../../src/tools/search/walk.js";
import { run, runError, tempDir, text } from "./helpers.js";
import { generateTree } from "./tree.js";

const rg = findRipgrep();
const fd = findFd();
if (!rg) console.warn("SKIP: ripgrep (rg) not on PATH — JS-vs-rg grep comparison skipped (apt-get install ripgrep)");
if (!fd) console.warn("SKIP: fd/fdfind not on PATH — JS-vs-fd find comparison skipped (apt-get install fd-find)");
else if (!supportsFlag(fd, "--no-require-git")) {
	console.warn(
		"SKIP: this fd lacks --no-require-git; JS-vs-fd outside a git repository skipped (the tool uses JS there)",
	);
}

const grepQueries: Record<string, unknown>[] = [
	{ pattern: "needle" },
	{ pattern: "needle", literal: true },
	{ pattern: "need(le|ed)\\d*", limit: 1000 },
	{ pattern: "needle", ignoreCase: true, limit: 1000 },
	{ pattern: "NEEDLE|Needle" },
	{ pattern: "needle", glob: "*.ts", limit: 1000 },
	{ pattern: "needle", glob: "!*.md", limit: 1000 },
	{ pattern: "needle", glob: "src/**", limit: 1000 },
	{ pattern: "needle", context: 2, limit: 20 },
	{ pattern: "needle", limit: 5 },
	{ pattern: "end$" },
	{ pattern: "^second" },
	{ pattern: "needle", path: "sub", limit: 1000 },
	{ pattern: "needle", path: "sub/inner", limit: 1000 },
	{ pattern: "needle", path: "crlf.txt" },
	{ pattern: "zzz-no-such-thing" },
	{ pattern: "a.b", literal: true },
	{ pattern: "x{700}" },
	{ pattern: "at.end" },
	{ pattern: "end.$" },
	{ pattern: "[.]b", glob: "!*.md" },
	{ pattern: "alpha\\s+needle" },
	{ pattern: "needle", glob: "*.log", limit: 1000 },
	{ pattern: "\u00fcnicode" },
	{ pattern: "e .nicode" },
	{ pattern: "\u2014 l" },
	{ pattern: "n\\w+e\\b", ignoreCase: true, limit: 1000 },
	{ pattern: "\u00dcNICODE", ignoreCase: true },
];

const findQueries: Record<string, unknown>[] = [
	{ pattern: "*" },
	{ pattern: "*.txt" },
	{ pattern: "*.log" },
	{ pattern: "src/**/*.ts" },
	{ pattern: "lib/*" },
	{ pattern: ".env" },
	{ pattern: "x.txt", limit: 2 },
	{ pattern: "*", path: "sub" },
	{ pattern: "nothing-matches-*" },
];

describe.each([
	{ git: false, label: "plain directory" },
	{ git: true, label: "git work tree" },
])("grep and find engines agree ($label)", ({ git }) => {
	// One tree per block: the queries only read it.
	let shared: string | undefined;
	beforeAll(() => {
		shared = mkdtempSync(join(tmpdir(), "pi-search-"));
		generateTree(shared, { git });
	});
	afterAll(() => {
		if (shared) rmSync(shared, { recursive: true, force: true });
	});
	const setup = () => shared as string;

	it.skipIf(!rg).each(grepQueries)("grep %j: JS engine output equals ripgrep's", async (query) => {
		const dir = setup();
		const js = text(await run(createGrepTool(dir, { engine: "js" }), query));
		const native = text(await run(createGrepTool(dir, { engine: "rg" }), query));
		expect(js).toBe(native);
	});

	const fdUsable = fd && (git || supportsFlag(fd, "--no-require-git"));
	it.skipIf(!fdUsable).each(findQueries)("find %j: JS engine output equals fd's", async (query) => {
		const dir = setup();
		const js = text(await run(createFindTool(dir, { engine: "js" }), query));
		const native = text(await run(createFindTool(dir, { engine: "fd" }), query));
		expect(js).toBe(native);
	});
});

describe("grep (JS engine, exact output)", () => {
	it("honours nested .gitignore/.ignore files, includes hidden files, skips binaries, sorts by path", async () => {
		const dir = tempDir();
		generateTree(dir, { files: 0 });
		const out = text(await run(createGrepTool(dir, { engine: "js" }), { pattern: "needle", ignoreCase: true }));
		expect(out).toBe(
			[
				".env:1: NEEDLE=1",
				"a/x.txt:1: needle in a",
				"a-b/x.txt:1: needle in a-b",
				"a.b/x.txt:1: needle in dotted dir",
				"crlf.txt:1: needle at end",
				"crlf.txt:2: second needle",
				`long.txt:1: needle ${"x".repeat(493)}... [truncated]`,
				"sub/inner/docs/private.md:1: needle not anchored here",
				"sub/keep.log:1: needle kept by negation",
				"unicode/caf\u00e9 \u00fcber.txt:1: needle \u00fcnicode \u2014 line",
				"",
				"[Some lines truncated to 500 chars. Use read tool to see full lines]",
			].join("\n"),
		);
	});

	it("context lines, match limit notice, single-file search, errors", async () => {
		const dir = tempDir();
		writeFileSync(join(dir, "f.txt"), "1\n2\nhit\n4\n5\nhit\n7\n8\n9\n");
		const tool = createGrepTool(dir, { engine: "js" });
		expect(text(await run(tool, { pattern: "hit", context: 1 }))).toBe(
			"f.txt-2- 2\nf.txt:3: hit\nf.txt-4- 4\nf.txt-5- 5\nf.txt:6: hit\nf.txt-7- 7",
		);
		expect(text(await run(tool, { pattern: "hit", limit: 1 }))).toBe(
			"f.txt:3: hit\n\n[1 matches limit reached. Use limit=2 for more, or refine pattern]",
		);
		expect(text(await run(tool, { pattern: "hit", path: "f.txt", limit: 2 }))).toBe("f.txt:3: hit\nf.txt:6: hit");
		expect(text(await run(tool, { pattern: "nothing" }))).toBe("No matches found");
		expect(await runError(tool, { pattern: "x", path: "missing" })).toBe(`Path not found: ${join(dir, "missing")}`);
		expect(await runError(tool, { pattern: "(unclosed" })).toContain("Invalid regex pattern");
	});

	it("respects ancestor .gitignore files up to the repository root", async () => {
		const dir = tempDir();
		execFileSync("git", ["init", "-q", dir]);
		writeFileSync(join(dir, ".gitignore"), "*.gen\n");
		mkdirSync(join(dir, "pkg"));
		writeFileSync(join(dir, "pkg", "a.gen"), "needle\n");
		writeFileSync(join(dir, "pkg", "a.src"), "needle\n");
		const engines: ("js" | "rg")[] = rg ? ["js", "rg"] : ["js"];
		for (const engine of engines) {
			expect(text(await run(createGrepTool(dir, { engine }), { pattern: "needle", path: "pkg" }))).toBe(
				"a.src:1: needle",
			);
		}
	});
});

describe("walk order", () => {
	it("sort keys reproduce depth-first order with names by code unit", () => {
		const paths = ["ab", "a.b/x", "a/x", "a-b/x", "a", "a/x/y", "a.b"];
		const sorted = [...paths].sort((x, y) => (pathSortKey(x) < pathSortKey(y) ? -1 : 1));
		expect(sorted).toEqual(["a", "a/x", "a/x/y", "a-b/x", "a.b", "a.b/x", "ab"]);
	});
});

describe("find (JS engine, exact output)", () => {
	it("lists matches with / on directories, honouring ignore files, in stable order", async () => {
		const dir = tempDir();
		generateTree(dir, { files: 0 });
		const tool = createFindTool(dir, { engine: "js" });
		expect(text(await run(tool, { pattern: "*.txt" }))).toBe(
			"a/x.txt\na-b/x.txt\na.b/x.txt\ncrlf.txt\nlong.txt\nunicode/caf\u00e9 \u00fcber.txt",
		);
		expect(text(await run(tool, { pattern: "*i*" }))).toBe(
			".gitignore\nbinary.bin\nempty-dir/\nlink-to-dir\nlink-to-file\nsrc/.ignore\nsrc/lib/\nsrc/lib/.gitignore\nsub/.gitignore\nsub/inner/\nsub/inner/docs/private.md\nunicode/",
		);
		expect(text(await run(tool, { pattern: "*.txt", limit: 2 }))).toBe(
			"a/x.txt\na-b/x.txt\n\n[2 results limit reached. Use limit=4 for more, or refine pattern]",
		);
		expect(text(await run(tool, { pattern: "*.none" }))).toBe("No files found matching pattern");
		expect(await runError(tool, { pattern: "*", path: "nope" })).toBe(`Path not found: ${join(dir, "nope")}`);
	});
});

describe("engine selection and abort", () => {
	it("auto engine gives the same find result as the JS engine outside a git repository", async () => {
		const dir = tempDir();
		generateTree(dir, { files: 10 });
		const auto = text(await run(createFindTool(dir), { pattern: "*.log" }));
		expect(auto).toBe(text(await run(createFindTool(dir, { engine: "js" }), { pattern: "*.log" })));
		expect(auto).toContain("sub/keep.log");
	});

	it("every engine rejects an aborted search instead of returning partial results", async () => {
		const dir = tempDir();
		generateTree(dir, { files: 50 });
		const ac = new AbortController();
		ac.abort();
		const query = { target: dir, targetIsFile: false, pattern: "needle", literal: false, ignoreCase: false };
		await expect(grepJs({ ...query, maxMatches: 10, signal: ac.signal })).rejects.toThrow();
		if (rg)
			await expect(grepRipgrep(rg, { ...query, maxMatches: 10, signal: ac.signal })).rejects.toThrow(
				"Operation aborted",
			);
		await expect(findJs({ root: dir, pattern: "*", signal: ac.signal })).rejects.toThrow();
		if (fd) {
			await expect(findFdRun(fd, ["--glob", "*", "."], { root: dir, pattern: "*", signal: ac.signal })).rejects.toThrow(
				"Operation aborted",
			);
		}
	});
});
