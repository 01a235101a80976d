// Child process for the kill-during-write/edit test: rewrites one file again
// and again through the real `write` or `edit` tool, alternating two
// contents of several MB, until it is SIGKILLed.
// Usage: node tool-writer.mjs <cwd> <file name> <write|edit> <size>
import { writeSync } from "node:fs";
import { createEditTool } from "../../src/tools/edit.js";
import { createReadTool } from "../../src/tools/read.js";
import { createWriteTool } from "../../src/tools/write.js";

const [cwd, name, mode, sizeArg] = process.argv.slice(2);
const size = Number(sizeArg);
const write = createWriteTool(cwd);
const edit = createEditTool(cwd);
const read = createReadTool(cwd);
// The two contents differ in one marker line, and in the bulk (so a torn file is detectable).
const content = (tag: string) => `${tag}-head\n${tag.repeat(size)}\n${tag}-tail\n`;
writeSync(1, "ready\n");
let tag = "A";
for (let i = 0; ; i++) {
	const next = tag === "A" ? "B" : "A";
	if (mode === "write") {
		await write.execute(`w${i}`, { path: name, content: content(next) }, undefined, undefined);
	} else {
		// edit needs a fresh read of the file (change detection), then swaps the whole body.
		await read.execute(`r${i}`, { path: name, limit: 1 }, undefined, undefined);
		await edit.execute(
			`e${i}`,
			{ path: name, edits: [{ oldText: content(tag), newText: content(next) }] },
			undefined,
			undefined,
		);
	}
	tag = next;
	writeSync(1, `done ${tag}\n`);
}
