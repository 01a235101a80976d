// Issue 21: the JS grep engine read /dev/zero, a 2 GB sparse file and
// /proc/self without bound, took 627 MB for a 200 MB line, and hung on a FIFO.
// Every read is bounded, non-regular files are skipped or refused, and long
// lines are scanned in overlapping windows.
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createGrepTool, runGrep } from "../../src/tools/grep.js";
import { findRipgrep } from "../../src/tools/search/executables.js";
import { FileScanner } from "../../src/tools/search/file-scan.js";
import { createFileSearcher, createSegmentMatcher, grepJs } from "../../src/tools/search/grep-js.js";
import { MAX_RG_LINE_BYTES } from "../../src/tools/search/grep-rg.js";
import type { GrepMatch, GrepQuery } from "../../src/tools/search/types.js";
import { run, runError, tempDir, text, within } from "./helpers.js";

function query(target: string, pattern: string, extra: Partial<GrepQuery> = {}): GrepQuery {
	return { target, targetIsFile: false, pattern, literal: false, ignoreCase: false, maxMatches: 101, ...extra };
}

describe("JS grep engine: bounded reads", () => {
	it("a tree with a 2 GB sparse file, a FIFO, a socket-like link to /dev/zero: quick, bounded, real matches found", async () => {
		const dir = tempDir();
		execFileSync("truncate", ["-s", "2G", join(dir, "sparse.bin")]);
		execFileSync("mkfifo", [join(dir, "pipe")]);
		symlinkSync("/dev/zero", join(dir, "zero"));
		writeFileSync(join(dir, "real.txt"), "one\nthe needle\n");
		const before = process.memoryUsage().rss;
		const t0 = performance.now();
		const found = await within(20_000, grepJs(query(dir, "needle")));
		expect(found).toEqual([{ rel: "real.txt", line: 2, text: "the needle" }]);
		expect(performance.now() - t0).toBeLessThan(10_000);
		expect(process.memoryUsage().rss - before).toBeLessThan(150 * 1024 * 1024);
	});

	it("/dev/zero and a FIFO as the single target: the engine skips them, the tool refuses them", async () => {
		const dir = tempDir();
		execFileSync("mkfifo", [join(dir, "pipe")]);
		expect(await within(3000, grepJs(query("/dev/zero", "x", { targetIsFile: true })))).toEqual([]);
		expect(await within(3000, grepJs(query(join(dir, "pipe"), "x", { targetIsFile: true })))).toEqual([]);
		const tool = createGrepTool(dir, { engine: "js" });
		expect(await within(3000, runError(tool, { pattern: "x", path: "/dev/zero" }))).toBe(
			"Cannot grep /dev/zero: it is a character device, not a regular file or directory",
		);
		expect(await within(3000, runError(tool, { pattern: "x", path: "pipe" }))).toBe(
			"Cannot grep pipe: it is a FIFO (named pipe), not a regular file or directory",
		);
		const rgTool = createGrepTool(dir, { engine: "auto" });
		expect(await within(3000, runError(rgTool, { pattern: "x", path: "pipe" }))).toMatch(/FIFO/);
	});

	it("/proc/self is searched without unbounded reads", async () => {
		const before = process.memoryUsage().rss;
		await within(30_000, grepJs(query("/proc/self", "zzzz-not-there-zzzz")));
		expect(process.memoryUsage().rss - before).toBeLessThan(150 * 1024 * 1024);
	});

	it("a 200 MB one-line file: the match is found with bounded memory", async () => {
		const dir = tempDir();
		const size = 200 * 1024 * 1024;
		const buf = Buffer.alloc(size, "a");
		Buffer.from("NEEDLE-in-the-middle").copy(buf, size / 2);
		writeFileSync(join(dir, "long.txt"), Buffer.concat([Buffer.from("first line\n"), buf, Buffer.from("\nlast\n")]));
		const before = process.memoryUsage().rss;
		const found = await grepJs(query(dir, "NEEDLE-in-\\w+"));
		expect(found.map((m) => [m.rel, m.line])).toEqual([["long.txt", 2]]);
		expect(found[0].text.startsWith("aaaa")).toBe(true);
		const last = await grepJs(query(dir, "^last$"));
		expect(last.map((m) => m.line)).toEqual([3]);
		expect(process.memoryUsage().rss - before).toBeLessThan(120 * 1024 * 1024);
		const r = await run(createGrepTool(dir, { engine: "js" }), { pattern: "NEEDLE" });
		expect(text(r)).toContain("long.txt:2: aaaa");
	}, 60_000);
});

describe("long lines in windows agree with a whole-line search", () => {
	function naive(lines: string[], re: RegExp): number[] {
		return lines.flatMap((l, i) => (re.test(l) ? [i + 1] : []));
	}

	it("random long lines with matches at every position, small windows", () => {
		let seed = 7;
		const rnd = (n: number) => {
			seed = (seed * 1103515245 + 12345) & 0x7fffffff;
			return seed % n;
		};
		const patterns = ["xyz", "^ab", "cd$", "x[a-c]+y", "q.{3}q", "ab(c|d)e"];
		const dir = tempDir();
		for (let round = 0; round < 300; round++) {
			const lines: string[] = [];
			const n = 1 + rnd(5);
			for (let i = 0; i < n; i++) {
				const len = rnd(400);
				let l = "";
				for (let k = 0; k < len; k++) l += "abcdexyzq"[rnd(9)];
				lines.push(l);
			}
			writeFileSync(join(dir, "f"), lines.join("\n"));
			for (const p of patterns) {
				const out: GrepMatch[] = [];
				const scanner = new FileScanner(createFileSearcher(p, false, false), createSegmentMatcher(p, false, false), {
					bufferBytes: 64,
					windowBytes: 32,
					overlapBytes: 8,
				});
				scanner.scan(join(dir, "f"), "f", out, 1000);
				const got = out.map((m) => m.line);
				const want = naive(lines, new RegExp(p.replace(/\./g, "[^\\n]")));
				// Windows of 32 with an overlap of 8 find every match of up to 8 bytes.
				expect(got, `pattern ${p} on ${JSON.stringify(lines)}`).toEqual(want);
			}
		}
	});

	it("binary detection still drops a big file whose NUL comes late", () => {
		const dir = tempDir();
		mkdirSync(join(dir, "d"));
		writeFileSync(join(dir, "d", "f"), Buffer.concat([Buffer.from("needle\n".repeat(100)), Buffer.from([0])]));
		const out: GrepMatch[] = [];
		new FileScanner(createFileSearcher("needle", false, false), createSegmentMatcher("needle", false, false), {
			bufferBytes: 64,
			windowBytes: 32,
			overlapBytes: 8,
		}).scan(join(dir, "d", "f"), "f", out, 1000);
		expect(out).toEqual([]);
	});
});

describe("ripgrep engine: a very long matching line", () => {
	it.skipIf(!findRipgrep())(
		"a 64 MB one-line match is kept to its head as it streams (bounded, linear), not gathered whole",
		async () => {
			const dir = tempDir();
			const size = 64 * 1024 * 1024;
			const line = Buffer.alloc(size, "é");
			Buffer.from("NEEDLE").copy(line, 0);
			writeFileSync(
				join(dir, "long.txt"),
				Buffer.concat([Buffer.from("first\n"), line, Buffer.from("\nlast NEEDLE\n")]),
			);
			const found = await within(60_000, runGrep(query(dir, "NEEDLE"), "rg"));
			expect(found.map((m) => [m.rel, m.line])).toEqual([
				["long.txt", 2],
				["long.txt", 3],
			]);
			expect(found[0].text.startsWith("NEEDLEé")).toBe(true);
			expect(Buffer.byteLength(found[0].text)).toBeLessThanOrEqual(MAX_RG_LINE_BYTES);
			expect(found[0].text).not.toContain("\uFFFD");
			expect(found[1].text).toBe("last NEEDLE");
			const r = await run(createGrepTool(dir, { engine: "rg" }), { pattern: "NEEDLE" });
			expect(text(r).split("\n")[0]).toMatch(/^long\.txt:2: NEEDLEé{100,}/);
		},
		90_000,
	);
});
