// RELIABILITY.md "process killed during write/edit": a process running the
// real `write` / `edit` tools on a multi-MB file is SIGKILLed at random
// moments. The file must always hold exactly the old or the new content
// (never truncated or mixed) and keep its mode.
import { chmodSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bundledScript } from "./bundle.js";
import { seeded, spawnLines, tempDir } from "./support.js";

const content = (tag: string, size: number) => `${tag}-head\n${tag.repeat(size)}\n${tag}-tail\n`;

describe.each(["write", "edit"])("SIGKILL during %s", (mode) => {
	it("the file holds the old or the new content, never a mix, and keeps its mode", { timeout: 60_000 }, async () => {
		const dir = tempDir();
		const file = join(dir, "target.txt");
		// edit reads, matches and diffs the whole file first: it gets a smaller file and more time per call.
		const size = mode === "write" ? 3 * 1024 * 1024 : 1024 * 1024;
		const spread = mode === "write" ? 300 : 800;
		const A = content("A", size);
		const B = content("B", size);
		writeFileSync(file, A);
		chmodSync(file, 0o640);
		const rnd = seeded(mode === "write" ? 7 : 11);
		let completed = 0;
		for (let i = 0; i < 10; i++) {
			const w = spawnLines(bundledScript("tool-writer"), [dir, "target.txt", mode, String(size)]);
			await w.waitFor((l) => l.includes("ready"));
			await new Promise((r) => setTimeout(r, 20 + rnd(spread)));
			w.child.kill("SIGKILL");
			await w.exited;
			completed += w.lines.filter((l) => l.startsWith("done")).length;
			const now = readFileSync(file, "utf8");
			expect(now.length).toBe(A.length);
			expect(now === A || now === B).toBe(true);
			expect(statSync(file).mode & 0o777).toBe(0o640);
		}
		expect(completed).toBeGreaterThan(0); // the kills landed between and inside real tool calls
	});
});
