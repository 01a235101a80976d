import { promises as fs, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createWriteTool } from "../../src/tools/write.js";
import { run, runError, tempDir, text } from "./helpers.js";

describe("write", () => {
	it("writes exact content, creates parents and reports the UTF-8 byte count", async () => {
		const dir = tempDir();
		const tool = createWriteTool(dir);
		const r = await run(tool, { path: "a/b/c.txt", content: "héllo\r\nno newline" });
		expect(text(r)).toBe("Successfully wrote 18 bytes to a/b/c.txt");
		expect(readFileSync(join(dir, "a/b/c.txt"), "utf8")).toBe("héllo\r\nno newline");
	});

	it("overwrites atomically keeping the file mode", async () => {
		const dir = tempDir();
		writeFileSync(join(dir, "x.sh"), "old");
		await fs.chmod(join(dir, "x.sh"), 0o755);
		await run(createWriteTool(dir), { path: "x.sh", content: "new" });
		expect(readFileSync(join(dir, "x.sh"), "utf8")).toBe("new");
		expect(statSync(join(dir, "x.sh")).mode & 0o777).toBe(0o755);
		expect(await fs.readdir(dir)).toEqual(["x.sh"]);
	});

	it("errors clearly for a directory, a file used as a parent, and an unwritable target", async () => {
		const dir = tempDir();
		mkdirSync(join(dir, "d"));
		writeFileSync(join(dir, "f"), "");
		const tool = createWriteTool(dir);
		expect(await runError(tool, { path: "d", content: "x" })).toBe("Cannot write d: it is a directory");
		expect(await runError(tool, { path: "f/child.txt", content: "x" })).toBe(
			"Cannot write f/child.txt: a parent of this path is a file, not a directory",
		);
		const ro = createWriteTool(dir, {
			operations: {
				mkdir: async () => {},
				writeFile: async () => {
					throw Object.assign(new Error("denied"), { code: "EACCES" });
				},
			},
		});
		expect(await runError(ro, { path: "ro.txt", content: "x" })).toBe("Cannot write ro.txt: permission denied");
	});

	it("serialises parallel writes to one path (last call wins, never interleaved) and runs other paths alongside", async () => {
		const dir = tempDir();
		const order: string[] = [];
		const tool = createWriteTool(dir, {
			operations: {
				mkdir: async () => {},
				writeFile: async (p, content) => {
					order.push(`begin ${content}`);
					await new Promise((r) => setTimeout(r, 15));
					await fs.writeFile(p, content);
					order.push(`end ${content}`);
				},
			},
		});
		await Promise.all(["1", "2", "3"].map((c) => run(tool, { path: "same.txt", content: c })));
		expect(order).toEqual(["begin 1", "end 1", "begin 2", "end 2", "begin 3", "end 3"]);
		expect(readFileSync(join(dir, "same.txt"), "utf8")).toBe("3");

		const big = "z".repeat(2_000_000);
		const real = createWriteTool(dir);
		await Promise.all(Array.from({ length: 6 }, (_, i) => run(real, { path: "big.txt", content: `${i}${big}` })));
		const final = readFileSync(join(dir, "big.txt"), "utf8");
		expect(final).toBe(`5${big}`);
	});
});
