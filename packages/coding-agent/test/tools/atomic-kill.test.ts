import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { bundleTestScript } from "../support/bundle-script.js";
import { tempDir } from "./helpers.js";

const atomicWrite = fileURLToPath(new URL("../../src/tools/shared/atomic-write.ts", import.meta.url));

describe("atomic write under SIGKILL", () => {
	it("a writer killed mid-write leaves the old or the new content, never a torn file", async () => {
		const dir = tempDir();
		const target = join(dir, "data.txt");
		const size = 8 * 1024 * 1024;
		writeFileSync(target, "A".repeat(size));
		const source = join(dir, "writer.ts");
		writeFileSync(
			source,
			`import { atomicWriteFile } from ${JSON.stringify(atomicWrite)};
const big = { A: "A".repeat(${size}), B: "B".repeat(${size}) };
let next = "B";
process.stdout.write("ready\\n");
for (;;) { await atomicWriteFile(${JSON.stringify(target)}, big[next]); next = next === "A" ? "B" : "A"; }
`,
		);
		// Bundled to plain JS once: each child starts without a TS loader (tsx cost about a second per start).
		const script = bundleTestScript(source);
		for (const delay of [5, 40, 120]) {
			const child = spawn(process.execPath, [script], { stdio: ["ignore", "pipe", "inherit"] });
			await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
			await new Promise((r) => setTimeout(r, delay));
			child.kill("SIGKILL");
			await new Promise((r) => child.once("exit", r));
			const content = readFileSync(target, "latin1");
			expect(content.length).toBe(size);
			expect(content === "A".repeat(size) || content === "B".repeat(size)).toBe(true);
		}
	}, 30_000);
});
