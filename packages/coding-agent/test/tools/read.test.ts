import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createReadTool } from "../../src/tools/read.js";
import { FileTracker } from "../../src/tools/shared/file-tracker.js";
import { run, runError, tempDir, text } from "./helpers.js";
import { PNG_1x1, pngOfSize } from "./images.js";

describe("read", () => {
	it("returns text without line numbers, with offset/limit and a continue hint", async () => {
		const dir = tempDir();
		writeFileSync(join(dir, "f.txt"), "l1\nl2\nl3\nl4\nl5");
		const tool = createReadTool(dir);
		expect(text(await run(tool, { path: "f.txt" }))).toBe("l1\nl2\nl3\nl4\nl5");
		expect(text(await run(tool, { path: "f.txt", offset: 2, limit: 2 }))).toBe(
			"l2\nl3\n\n[2 more lines in file. Use offset=4 to continue.]",
		);
		expect(text(await run(tool, { path: "@f.txt", offset: 5 }))).toBe("l5");
		expect(await runError(tool, { path: "f.txt", offset: 9 })).toBe("Offset 9 is beyond end of file (5 lines total)");
	});

	it("bounds big files at 2000 lines and 50KB with the reference notices", async () => {
		const dir = tempDir();
		writeFileSync(join(dir, "many.txt"), Array.from({ length: 2500 }, (_, i) => `line ${i + 1}`).join("\n"));
		const tool = createReadTool(dir);
		const r = await run(tool, { path: "many.txt" });
		expect(text(r).endsWith("line 2000\n\n[Showing lines 1-2000 of 2500. Use offset=2001 to continue.]")).toBe(true);
		expect(r.details?.truncation?.truncatedBy).toBe("lines");

		writeFileSync(join(dir, "wide.txt"), Array.from({ length: 100 }, () => "x".repeat(1023)).join("\n"));
		const w = text(await run(tool, { path: "wide.txt" }));
		expect(w.endsWith("[Showing lines 1-50 of 100 (50.0KB limit). Use offset=51 to continue.]")).toBe(true);

		writeFileSync(join(dir, "oneline.txt"), "y".repeat(60 * 1024));
		expect(text(await run(tool, { path: "oneline.txt" }))).toBe(
			"[Line 1 is 60.0KB, exceeds 50.0KB limit. Use bash: sed -n '1p' oneline.txt | head -c 51200]",
		);
	});

	it("reads a slice of a 1M-line file quickly, with exact line numbers; BOM and trailing newline handled", async () => {
		const dir = tempDir();
		const lines = Array.from({ length: 1_000_000 }, (_, i) => `row ${i + 1}`);
		writeFileSync(join(dir, "big.txt"), `${lines.join("\n")}\n`);
		writeFileSync(join(dir, "bom.txt"), "\uFEFFfirst\nsecond\n");
		writeFileSync(join(dir, "crlf.txt"), "x\r\ny\r\n");
		const tool = createReadTool(dir);
		const started = Date.now();
		// Lines are counted as the reference splits them: the final newline starts an empty line.
		expect(text(await run(tool, { path: "big.txt", offset: 500_000, limit: 3 }))).toBe(
			"row 500000\nrow 500001\nrow 500002\n\n[499999 more lines in file. Use offset=500003 to continue.]",
		);
		expect(text(await run(tool, { path: "big.txt", offset: 999_999 }))).toBe("row 999999\nrow 1000000\n");
		expect(Date.now() - started).toBeLessThan(3000);
		expect(text(await run(tool, { path: "big.txt", offset: 1_000_001 }))).toBe("");
		expect(await runError(tool, { path: "big.txt", offset: 1_000_002 })).toBe(
			"Offset 1000002 is beyond end of file (1000001 lines total)",
		);
		// A whole-file read is the file's text exactly (the BOM aside).
		expect(text(await run(tool, { path: "bom.txt" }))).toBe("first\nsecond\n");
		expect(text(await run(tool, { path: "crlf.txt" }))).toBe("x\r\ny\r\n");
		expect(text(await run(tool, { path: "crlf.txt", offset: 2, limit: 1 }))).toBe(
			"y\r\n\n[1 more lines in file. Use offset=3 to continue.]",
		);
	});

	it("gives clear errors: missing, directory, binary, symlink loop, FIFO-like special file, permission", async () => {
		const dir = tempDir();
		mkdirSync(join(dir, "sub"));
		writeFileSync(join(dir, "bin.dat"), Buffer.from([1, 2, 0, 4, 5]));
		symlinkSync(join(dir, "loop-a"), join(dir, "loop-b"));
		symlinkSync(join(dir, "loop-b"), join(dir, "loop-a"));
		const tool = createReadTool(dir);
		expect(await runError(tool, { path: "nope.txt" })).toBe("File not found: nope.txt");
		expect(await runError(tool, { path: "sub" })).toBe("sub is a directory, not a file. Use ls to list it.");
		expect(await runError(tool, { path: "bin.dat" })).toBe(
			"Cannot read bin.dat: it is a binary file (5 bytes). Use bash (e.g. file, xxd | head) to inspect it.",
		);
		expect(await runError(tool, { path: "loop-a" })).toBe(
			"Cannot read loop-a: too many levels of symbolic links (symlink loop)",
		);
		expect(await runError(tool, { path: "/dev/zero" })).toBe(
			"/dev/zero is not a regular file (device, FIFO or socket); refusing to read it.",
		);
		const denied = createReadTool(dir, {
			operations: {
				readFile: async () => Buffer.from(""),
				access: async () => {
					throw Object.assign(new Error("EACCES"), { code: "EACCES" });
				},
			},
		});
		expect(await runError(denied, { path: "secret.txt" })).toBe("Cannot read secret.txt: permission denied");
	});

	it("returns images as image content detected by magic bytes, downscaling large ones", async () => {
		const dir = tempDir();
		writeFileSync(join(dir, "tiny.bin"), PNG_1x1);
		writeFileSync(join(dir, "big.png"), await pngOfSize(2200, 400));
		const tool = createReadTool(dir);
		const small = await run(tool, { path: "tiny.bin" });
		expect(small.content[0]).toEqual({ type: "text", text: "Read image file [image/png]" });
		expect(small.content[1]).toEqual({ type: "image", mimeType: "image/png", data: PNG_1x1.toString("base64") });
		const big = await run(tool, { path: "big.png" });
		expect(text(big)).toContain("downscaled from 2200x400 to 2000x364");
		const img = big.content[1];
		expect(img.type).toBe("image");
		if (img.type === "image") {
			const data = Buffer.from(img.data, "base64");
			expect(data.readUInt32BE(16)).toBe(2000);
			expect(data.readUInt32BE(20)).toBe(364);
		}
	});

	it("resolves ~ paths and records what it read for edit's change detection", async () => {
		const dir = tempDir();
		writeFileSync(join(dir, "t.txt"), "abc");
		const tracker = new FileTracker();
		await run(createReadTool(dir, { tracker }), { path: "t.txt" });
		expect(tracker.get(join(dir, "t.txt"))?.size).toBe(3);
		const home = process.env.HOME;
		process.env.HOME = dir;
		try {
			expect(text(await run(createReadTool("/"), { path: "~/t.txt" }))).toBe("abc");
		} finally {
			process.env.HOME = home;
		}
	});
});
