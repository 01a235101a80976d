// Opening a large session holds V8's young generation at its starting size
// (young-generation.ts): the records indexed per line all survive, and V8 would
// otherwise grow its semi-spaces to their maximum. Checked in child processes:
// held by default, grown when the user tunes the young generation (the hold
// stands aside), and V8's own growth back once the open is over.
import { execFileSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { bundleTestScript } from "../support/bundle-script.js";

const here = dirname(fileURLToPath(import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "pi-young-gen-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Report {
	leaf: string;
	afterOpen: number;
	afterMore: number;
}

/** A session of `entries` user messages (~400 bytes a line) in one chain. */
function writeSession(file: string, entries: number): void {
	const fd = openSync(file, "w");
	const header = { type: "session", version: 3, id: "s1", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/tmp" };
	const lines: string[] = [JSON.stringify(header)];
	for (let i = 1; i <= entries; i++) {
		const id = i.toString(16).padStart(8, "0");
		const parentId = i === 1 ? null : (i - 1).toString(16).padStart(8, "0");
		const text = `line ${i} `.repeat(30);
		const message = { role: "user", content: [{ type: "text", text }], timestamp: 1 };
		lines.push(JSON.stringify({ type: "message", id, parentId, timestamp: header.timestamp, message }));
		if (lines.length >= 5000) writeSync(fd, `${lines.splice(0).join("\n")}\n`);
	}
	writeSync(fd, `${lines.join("\n")}\n`);
	closeSync(fd);
}

const file = join(dir, "s-30k.jsonl");
writeSession(file, 30_000);

function run(nodeFlags: string[] = []): Report {
	const script = bundleTestScript(join(here, "fixtures", "young-generation-child.ts"));
	const out = execFileSync(process.execPath, [...nodeFlags, script, file], { encoding: "utf8" });
	return JSON.parse(out.trim().split("\n").at(-1) ?? "{}") as Report;
}

const major = Number(process.versions.node.split(".")[0]);

describe.runIf([20, 22, 24].includes(major) && typeof process.getBuiltinModule === "function")(
	"young generation while a large session is opened",
	() => {
		it("stays at its starting size during the open of a 12 MB file, and grows as usual afterwards", () => {
			const held = run();
			const free = run(["--semi-space-growth-factor=2"]);
			expect(held.leaf).toBe((30_000).toString(16).padStart(8, "0"));
			expect(free.leaf).toBe(held.leaf);
			// Without the hold the 30k surviving records make V8 grow the semi-spaces.
			expect(free.afterOpen).toBeGreaterThan(held.afterOpen);
			expect(held.afterOpen).toBeLessThanOrEqual(4);
			// After the open V8's default growth applies again.
			expect(held.afterMore).toBeGreaterThan(held.afterOpen);
		});
	},
);
