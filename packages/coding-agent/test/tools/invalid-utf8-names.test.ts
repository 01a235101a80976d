// Issue 21: file names that are not valid UTF-8 were missed by the JS grep
// engine (the walk joined the lossily decoded name, which names no file) and
// could not be read (the path grep/find/ls show, with U+FFFD for each bad
// byte, did not open). The name shown is the lossy one; the tools map it back
// to the bytes on disk.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createEditTool } from "../../src/tools/edit.js";
import { createFindTool } from "../../src/tools/find.js";
import { createGrepTool } from "../../src/tools/grep.js";
import { createLsTool } from "../../src/tools/ls.js";
import { createReadTool } from "../../src/tools/read.js";
import { findFd, findRipgrep } from "../../src/tools/search/executables.js";
import { rawPathFor } from "../../src/tools/shared/paths.js";
import { run, runError, tempDir, text } from "./helpers.js";

/** `dir/<prefix><0xff 0xfe><suffix>` as raw bytes; returns the name as the tools show it. */
function badName(dir: string | Buffer, prefix: string, suffix: string): { raw: Buffer; shown: string } {
	const name = Buffer.concat([Buffer.from(prefix), Buffer.from([0xff, 0xfe]), Buffer.from(suffix)]);
	const base = typeof dir === "string" ? Buffer.from(dir) : dir;
	return { raw: Buffer.concat([base, Buffer.from("/"), name]), shown: name.toString("utf8") };
}

function tree() {
	const dir = tempDir();
	const file = badName(dir, "caf", ".txt");
	writeFileSync(file.raw, "first\nthe needle here\nlast\n");
	const sub = badName(dir, "d", "ir");
	mkdirSync(sub.raw);
	const inner = badName(sub.raw, "in", ".md");
	writeFileSync(inner.raw, "another needle");
	writeFileSync(join(dir, "plain.txt"), "no match\n");
	return { dir, file, sub, inner };
}

const greps = [{ engine: "js" as const }, ...(findRipgrep() ? [{ engine: "rg" as const }] : [])];
const finds = [{ engine: "js" as const }, ...(findFd() ? [{ engine: "auto" as const }] : [])];

describe("file names that are not valid UTF-8", () => {
	it("the shown name is the lossy one (each bad byte run is U+FFFD)", () => {
		const { file } = tree();
		expect(file.shown).toBe("caf\uFFFD\uFFFD.txt");
	});

	it.each(greps)("grep ($engine) finds matches inside them, with context lines", async ({ engine }) => {
		const { dir, file, sub, inner } = tree();
		const tool = createGrepTool(dir, { engine });
		const out = text(await run(tool, { pattern: "needle", context: 1 }));
		expect(out).toBe(
			[
				`${file.shown}-1- first`,
				`${file.shown}:2: the needle here`,
				`${file.shown}-3- last`,
				`${sub.shown}/${inner.shown}:1: another needle`,
			].join("\n"),
		);
		// The name grep printed, given back as the path to search.
		expect(text(await run(tool, { pattern: "needle", path: file.shown }))).toBe(`${file.shown}:2: the needle here`);
		expect(text(await run(tool, { pattern: "needle", path: sub.shown }))).toBe(`${inner.shown}:1: another needle`);
	});

	it.each(finds)("find ($engine) lists them", async ({ engine }) => {
		const { dir, file, sub, inner } = tree();
		const tool = createFindTool(dir, { engine });
		expect(text(await run(tool, { pattern: "*" })).split("\n")).toEqual([
			file.shown,
			`${sub.shown}/`,
			`${sub.shown}/${inner.shown}`,
			"plain.txt",
		]);
		expect(text(await run(tool, { pattern: "*.md", path: sub.shown }))).toBe(inner.shown);
	});

	it("read opens the path grep, find and ls show (also inside a directory with such a name)", async () => {
		const { dir, file, sub, inner } = tree();
		expect(text(await run(createLsTool(dir), {}))).toContain(file.shown);
		const read = createReadTool(dir);
		expect(text(await run(read, { path: file.shown }))).toBe("first\nthe needle here\nlast\n");
		expect(text(await run(read, { path: join(dir, sub.shown, inner.shown) }))).toBe("another needle");
		expect(await runError(read, { path: "caf\uFFFD.txt" })).toMatch(/not found|ENOENT|No such file/i);
	});

	it("edit changes the file on disk under its real name (no second file with U+FFFD in its name)", async () => {
		const { dir, file } = tree();
		const read = createReadTool(dir);
		await run(read, { path: file.shown });
		await run(createEditTool(dir), { path: file.shown, edits: [{ oldText: "needle", newText: "thread" }] });
		expect(text(await run(read, { path: file.shown }))).toBe("first\nthe thread here\nlast\n");
		expect(text(await run(createFindTool(dir, { engine: "js" }), { pattern: "caf*" }))).toBe(file.shown);
	});

	it("two names that decode alike are not guessed between", () => {
		const dir = tempDir();
		writeFileSync(badName(dir, "x", "").raw, "a");
		writeFileSync(Buffer.concat([Buffer.from(`${dir}/x`), Buffer.from([0xfe, 0xff])]), "b");
		expect(() => rawPathFor(join(dir, "x\uFFFD\uFFFD"))).toThrow(/2 files/);
	});
});
