// Issue 21: interrupted atomic writes left `.<name>.<hex>.tmp` files in the
// user's project. An aborted write removes its temp file; one killed outright
// is removed by the next start of the built CLI (through the journal), and
// nothing else that merely looks like a temp file is touched.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { atomicWriteFile } from "../../src/tools/shared/atomic-write.js";
import { assertBuilt, createSandbox, type Sandbox } from "../cli/support.js";
import { bundledScript } from "./bundle.js";
import { tempDir } from "./support.js";

const ours = (names: string[]) => names.filter((n) => /^\.data\.txt\.[0-9a-f]{12}\.tmp$/.test(n));

let sb: Sandbox | undefined;
afterEach(async () => {
	await sb?.close();
	sb = undefined;
});

describe("temp files of interrupted writes", () => {
	it("an aborted write removes its temp file and leaves the target as it was", async () => {
		const dir = tempDir();
		const target = join(dir, "data.txt");
		writeFileSync(target, "old");
		const ac = new AbortController();
		const pending = atomicWriteFile(target, "x".repeat(4 * 1024 * 1024), { signal: ac.signal });
		ac.abort();
		await expect(pending).rejects.toThrow(/abort/i);
		expect(readFileSync(target, "utf8")).toBe("old");
		expect(readdirSync(dir)).toEqual(["data.txt"]);
	});

	it("a process that exits while a write is in flight removes the temp file", async () => {
		const dir = tempDir();
		const target = join(dir, "data.txt");
		writeFileSync(target, "A");
		const child = spawn(process.execPath, [bundledScript("stalled-writer"), target, "exit"], { stdio: "inherit" });
		const code = await new Promise((r) => child.once("exit", r));
		expect(code).toBe(13);
		expect(readdirSync(dir)).toEqual(["data.txt"]);
		expect(readFileSync(target, "utf8")).toBe("A");
	});

	it("a writer SIGKILLed mid-write leaves a temp file; the next start of pi removes it, and only it", async () => {
		assertBuilt();
		sb = await createSandbox();
		const journal = join(sb.agentDir, "pending-writes");
		const target = join(sb.cwd, "data.txt");
		const decoy = join(sb.cwd, ".notes.txt.0123456789ab.tmp");
		writeFileSync(decoy, "the user's own file");
		writeFileSync(target, "A");
		// The child stops inside the write (its rename never returns) and is SIGKILLed there:
		// the temp file is fully written, exactly what a kill between fsync and rename leaves.
		const child = spawn(process.execPath, [bundledScript("stalled-writer"), target, "hold", journal], {
			stdio: ["ignore", "pipe", "inherit"],
		});
		await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
		child.kill("SIGKILL");
		await new Promise((r) => child.once("exit", r));
		expect(ours(readdirSync(sb.cwd))).toHaveLength(1);
		expect(readFileSync(target, "utf8")).toBe("A");
		expect(readdirSync(journal).length).toBeGreaterThan(0);
		const r = await sb.run(["--list-models"]);
		expect(r.code).toBe(0);
		expect(ours(readdirSync(sb.cwd))).toEqual([]);
		expect(readFileSync(decoy, "utf8")).toBe("the user's own file");
		expect(readdirSync(journal)).toEqual([]);
	}, 60_000);
});
