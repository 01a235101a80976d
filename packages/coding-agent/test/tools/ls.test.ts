import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createLsTool } from "../../src/tools/ls.js";
import { run, runError, tempDir, text } from "./helpers.js";

describe("ls", () => {
	it("sorts case-insensitively, marks directories (and links to them) with /, includes dotfiles", async () => {
		const dir = tempDir();
		for (const f of ["b.txt", "A.md", ".env", "c"]) writeFileSync(join(dir, f), "");
		mkdirSync(join(dir, "Sub"));
		mkdirSync(join(dir, "out"));
		symlinkSync(join(dir, "Sub"), join(dir, "link"));
		symlinkSync(join(dir, "missing"), join(dir, "dangling"));
		expect(text(await run(createLsTool(dir), {}))).toBe(".env\nA.md\nb.txt\nc\ndangling\nlink/\nout/\nSub/");
	});

	it("limit notice, empty directory, errors", async () => {
		const dir = tempDir();
		for (let i = 0; i < 5; i++) writeFileSync(join(dir, `f${i}`), "");
		mkdirSync(join(dir, "empty"));
		const tool = createLsTool(dir);
		const r = await run(tool, { limit: 2 });
		expect(text(r)).toBe("empty/\nf0\n\n[2 entries limit reached. Use limit=4 for more]");
		expect(r.details).toEqual({ entryLimitReached: 2 });
		expect(text(await run(tool, { path: "empty" }))).toBe("(empty directory)");
		expect(await runError(tool, { path: "nope" })).toBe(`Path not found: ${join(dir, "nope")}`);
		expect(await runError(tool, { path: "f1" })).toBe(`Not a directory: ${join(dir, "f1")}`);
	});

	it("byte limit notice on huge listings", async () => {
		const dir = tempDir();
		for (let i = 0; i < 300; i++) writeFileSync(join(dir, `${String(i).padStart(3, "0")}${"n".repeat(200)}`), "");
		const out = text(await run(createLsTool(dir), {}));
		expect(out.endsWith("\n\n[50.0KB limit reached]")).toBe(true);
	});
});
