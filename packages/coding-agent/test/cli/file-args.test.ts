import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildInitialPrompts, processFileArgs, readPipedStdin } from "../../src/cli/file-args.js";

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
let dir: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "pi-files-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("@file arguments", () => {
	it("inlines text files with absolute names and attaches images", async () => {
		writeFileSync(join(dir, "a.md"), "hello\n");
		writeFileSync(join(dir, "pic.bin"), PNG);
		const r = await processFileArgs(["a.md", "pic.bin"], dir);
		expect(r.text).toBe(
			`<file name="${join(dir, "a.md")}">\nhello\n\n</file>\n<file name="${join(dir, "pic.bin")}"></file>\n`,
		);
		expect(r.images).toEqual([{ type: "image", data: PNG.toString("base64"), mimeType: "image/png" }]);
	});

	it("blocked images are not attached", async () => {
		writeFileSync(join(dir, "pic.png"), PNG);
		const r = await processFileArgs(["pic.png"], dir, { blockImages: true });
		expect(r.images).toEqual([]);
		expect(r.text).toBe(
			`<file name="${join(dir, "pic.png")}">[image not attached: images are blocked in the settings]</file>\n`,
		);
	});

	it("clear errors for missing files, directories and binary files", async () => {
		mkdirSync(join(dir, "d"));
		writeFileSync(join(dir, "bin"), Buffer.from([1, 0, 2]));
		await expect(processFileArgs(["nope.txt"], dir)).rejects.toThrow("File not found: nope.txt");
		await expect(processFileArgs(["d"], dir)).rejects.toThrow("Not a file: d");
		await expect(processFileArgs(["bin"], dir)).rejects.toThrow("Cannot include binary file: bin");
	});

	it("stdin, file text and the first message join without separators; others stay separate", () => {
		const files = { text: '<file name="/f">\nx\n</file>\n', images: [] };
		expect(buildInitialPrompts(["first", "second"], files, "piped")).toEqual({
			initial: { text: 'piped<file name="/f">\nx\n</file>\nfirst', images: [] },
			rest: ["second"],
		});
		expect(buildInitialPrompts([], { text: "", images: [] }, undefined)).toEqual({ rest: [] });
	});

	it("reads piped stdin fully, and nothing from a terminal", async () => {
		const piped = Object.assign(Readable.from([Buffer.from("a"), Buffer.from("b")]), { isTTY: false });
		expect(await readPipedStdin(piped as unknown as NodeJS.ReadStream)).toBe("ab");
		const tty = Object.assign(Readable.from([]), { isTTY: true });
		expect(await readPipedStdin(tty as unknown as NodeJS.ReadStream)).toBeUndefined();
	});
});
