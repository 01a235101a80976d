// Opening a large session leaves V8's young generation at its starting size
// (and the first context, parsing a large branch, holds it there):
// the index is columns (tree.ts, id-index.ts), no object per line survives the
// open, so V8 has no reason to grow its semi-spaces (with a record object per
// line, all surviving, it grew them to their maximum: most of the resident
// memory a resume added). Checked in a child process, with V8's default
// growth in force; the same child then shows that growth happening for
// long-lived objects made after the open (the measure can see it).
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
	afterContext: number;
	messages: number;
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

function run(nodeFlags: string[] = [], mode = ""): Report {
	const script = bundleTestScript(join(here, "fixtures", "young-generation-child.ts"));
	const out = execFileSync(process.execPath, [...nodeFlags, script, file, mode], { encoding: "utf8" });
	return JSON.parse(out.trim().split("\n").at(-1) ?? "{}") as Report;
}

describe("young generation while a large session is opened", () => {
	it("stays at its starting size during the open of a 12 MB file (no per-line objects survive); long-lived objects made afterwards grow it", () => {
		const report = run(["--semi-space-growth-factor=2"]);
		expect(report.leaf).toBe((30_000).toString(16).padStart(8, "0"));
		expect(report.afterOpen).toBeLessThanOrEqual(4);
		expect(report.afterMore).toBeGreaterThan(report.afterOpen);
	});

	it("is held at its size while the first context parses a large branch (30k entries, 12 MB: they all survive), and grows again afterwards", () => {
		const held = run([], "context");
		expect(held.messages).toBe(30_000);
		expect(held.afterContext).toBeLessThanOrEqual(4);
		expect(held.afterMore).toBeGreaterThan(held.afterContext);
		// A user's own young-generation flags are left alone: V8 then grows it while parsing.
		const tuned = run(["--semi-space-growth-factor=2"], "context");
		expect(tuned.messages).toBe(30_000);
		expect(tuned.afterContext).toBeGreaterThan(4);
	});
});
