import { promises as fs, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createEditTool } from "../../src/tools/edit.js";
import { createReadTool } from "../../src/tools/read.js";
import { FileTracker } from "../../src/tools/shared/file-tracker.js";
import { run, runError, tempDir, text } from "./helpers.js";

function setup(content: string | Buffer, name = "f.txt") {
	const dir = tempDir();
	const path = join(dir, name);
	writeFileSync(path, content);
	return { dir, path, tool: createEditTool(dir) };
}

describe("edit: matching", () => {
	it("replaces a unique match and returns a unified diff and the first changed line", async () => {
		const { path, tool } = setup("alpha\nbeta\ngamma\n");
		const r = await run(tool, { path: "f.txt", edits: [{ oldText: "beta", newText: "BETA" }] });
		expect(text(r)).toBe("Successfully replaced 1 block(s) in f.txt.");
		expect(readFileSync(path, "utf8")).toBe("alpha\nBETA\ngamma\n");
		expect(r.details).toEqual({
			diff: "--- f.txt\n+++ f.txt\n@@ -1,3 +1,3 @@\n alpha\n-beta\n+BETA\n gamma",
			firstChangedLine: 2,
		});
	});

	it("0 matches: error with the closest region and line numbers; file untouched", async () => {
		const src = "function a() {\n  return 1;\n}\n\nfunction b() {\n  return 2;\n}\n";
		const { path, tool } = setup(src);
		const msg = await runError(tool, {
			path: "f.txt",
			edits: [{ oldText: "function b() {\n    return 2;\n}", newText: "x" }],
		});
		expect(msg).toBe(
			"Could not find the exact text in f.txt. The old text must match exactly including all whitespace and newlines.\nThe most similar region is lines 5-7:\n5| function b() {\n6|   return 2;\n7| }",
		);
		expect(readFileSync(path, "utf8")).toBe(src);
	});

	it("2 matches: error with the count and line numbers", async () => {
		const { tool } = setup("x = 1\ny\nx = 1\n");
		expect(await runError(tool, { path: "f.txt", edits: [{ oldText: "x = 1", newText: "x = 2" }] })).toBe(
			"Found 2 occurrences of the text in f.txt. The text must be unique. Please provide more context to make it unique. Occurrences start at lines 1, 3.",
		);
	});

	it("empty oldText, no-op, and overlapping edits get specific errors", async () => {
		const { path, tool } = setup("one two three\n");
		expect(await runError(tool, { path: "f.txt", edits: [{ oldText: "", newText: "x" }] })).toBe(
			"oldText must not be empty in f.txt.",
		);
		expect(await runError(tool, { path: "f.txt", edits: [{ oldText: "two", newText: "two" }] })).toBe(
			"No changes made to f.txt. The replacement text is identical to the text it replaces.",
		);
		expect(
			await runError(tool, {
				path: "f.txt",
				edits: [
					{ oldText: "one two", newText: "1 2" },
					{ oldText: "two three", newText: "2 3" },
				],
			}),
		).toBe("edits[0] and edits[1] overlap in f.txt. Merge them into one edit or target disjoint regions.");
		expect(readFileSync(path, "utf8")).toBe("one two three\n");
	});

	it("multi-edit is atomic: one bad edit leaves the file unchanged; good ones apply against the original", async () => {
		const { path, tool } = setup("a\nb\nc\n");
		const msg = await runError(tool, {
			path: "f.txt",
			edits: [
				{ oldText: "a", newText: "A" },
				{ oldText: "zzz", newText: "Z" },
			],
		});
		expect(msg.startsWith("Could not find edits[1] in f.txt.")).toBe(true);
		expect(readFileSync(path, "utf8")).toBe("a\nb\nc\n");
		await run(tool, {
			path: "f.txt",
			edits: [
				{ oldText: "c", newText: "C\nb" },
				{ oldText: "a", newText: "A" },
			],
		});
		expect(readFileSync(path, "utf8")).toBe("A\nb\nC\nb\n");
	});

	it("accepts legacy top-level oldText/newText and edits as a JSON string", async () => {
		const { path, tool } = setup("foo bar\n");
		await run(tool, { path: "f.txt", oldText: "foo", newText: "FOO" });
		await run(tool, { path: "f.txt", edits: JSON.stringify([{ oldText: "bar", newText: "BAR" }]) });
		expect(readFileSync(path, "utf8")).toBe("FOO BAR\n");
	});

	it("missing file and non-UTF-8 file give clear errors", async () => {
		const { tool } = setup(Buffer.from([0x61, 0xff, 0x62]), "latin.txt");
		expect(await runError(tool, { path: "nope.txt", edits: [{ oldText: "a", newText: "b" }] })).toBe(
			"File not found: nope.txt",
		);
		expect(await runError(tool, { path: "latin.txt", edits: [{ oldText: "a", newText: "b" }] })).toContain(
			"it is not valid UTF-8 text",
		);
	});
});

describe("edit: line endings, BOM, tolerant matches", () => {
	it("CRLF file: LF oldText matches, CRLF kept in the replacement, and the result says so", async () => {
		const { path, tool } = setup("one\r\ntwo\r\nthree\r\n");
		const r = await run(tool, { path: "f.txt", edits: [{ oldText: "one\ntwo", newText: "1\n2\n2b" }] });
		expect(readFileSync(path, "utf8")).toBe("1\r\n2\r\n2b\r\nthree\r\n");
		expect(text(r)).toContain("matched after adapting line endings");
	});

	it("BOM is preserved", async () => {
		const { path, tool } = setup("\uFEFFkey=1\n");
		await run(tool, { path: "f.txt", edits: [{ oldText: "key=1", newText: "key=2" }] });
		expect(readFileSync(path)).toEqual(Buffer.from("\uFEFFkey=2\n", "utf8"));
	});

	it("a tolerant match (trailing spaces, smart quotes, dashes) changes only the matched span", async () => {
		const before = "keep  \t\nconst s = \u201Chello\u201D;   \nx \u2014 y\nother line with trailing   \n";
		const { path, tool } = setup(before);
		const r = await run(tool, {
			path: "f.txt",
			edits: [{ oldText: 'const s = "hello";\nx - y', newText: 'const s = "bye";\nx - z' }],
		});
		expect(text(r)).toContain("matched only after ignoring differences");
		expect(readFileSync(path, "utf8")).toBe('keep  \t\nconst s = "bye";\nx - z\nother line with trailing   \n');
	});

	it("a tolerant match that is ambiguous is an error, not a guess", async () => {
		const { tool } = setup("a \u2018q\u2019\nb\na 'q'  \n");
		expect(await runError(tool, { path: "f.txt", edits: [{ oldText: "a 'q'\n", newText: "x\n" }] })).toContain(
			"Found 2 occurrences",
		);
	});
});

describe("edit: changes on disk", () => {
	it("refuses to edit a file changed since it was last read, then works after a re-read", async () => {
		const dir = tempDir();
		const path = join(dir, "f.txt");
		writeFileSync(path, "v1\n");
		const tracker = new FileTracker();
		const read = createReadTool(dir, { tracker });
		const edit = createEditTool(dir, { tracker });
		await run(read, { path: "f.txt" });
		await fs.writeFile(path, "v1\nexternal\n");
		expect(await runError(edit, { path: "f.txt", edits: [{ oldText: "v1", newText: "v2" }] })).toBe(
			"f.txt has changed on disk since it was last read. Read it again before editing, so the edit is based on its current content.",
		);
		expect(readFileSync(path, "utf8")).toBe("v1\nexternal\n");
		await run(read, { path: "f.txt" });
		await run(edit, { path: "f.txt", edits: [{ oldText: "v1", newText: "v2" }] });
		// Its own edit does not count as an outside change.
		await run(edit, { path: "f.txt", edits: [{ oldText: "v2", newText: "v3" }] });
		expect(readFileSync(path, "utf8")).toBe("v3\nexternal\n");
	});

	it("parallel edits of one file serialise and all apply", async () => {
		const { path, tool } = setup("a\nb\nc\nd\n");
		await Promise.all(
			["a", "b", "c", "d"].map((l) =>
				run(tool, { path: "f.txt", edits: [{ oldText: `${l}\n`, newText: `${l}${l}\n` }] }),
			),
		);
		expect(readFileSync(path, "utf8")).toBe("aa\nbb\ncc\ndd\n");
	});
});
