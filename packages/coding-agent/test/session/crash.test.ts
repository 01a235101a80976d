// SIGKILL a writer at random moments, again and again on the same file:
// every entry acknowledged before a kill must load, the tree must stay
// connected, and each kill may cost at most the line being written.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SessionManager } from "../../src/session/session-manager.js";
import { startWriter } from "./crash-harness.js";
import { tempDir } from "./helpers.js";

const ITERATIONS = Number(process.env.PI_SESSION_CRASH_ITERATIONS ?? 50);

describe("crash mid-append", () => {
	it(`loses nothing acknowledged across ${ITERATIONS} SIGKILLs`, { timeout: 30_000 + ITERATIONS * 2_000 }, async () => {
		const file = join(tempDir(), "crash.jsonl");
		const acked = new Set<string>();
		let damagedLines = 0;
		let torn = 0;
		let seed = 1;
		const rnd = (n: number) => {
			seed = (seed * 1103515245 + 12345) & 0x7fffffff;
			return seed % n;
		};
		for (let i = 0; i < ITERATIONS; i++) {
			const w = startWriter(file);
			await w.ready;
			await w.waitAcks(1 + rnd(3));
			await new Promise((r) => setTimeout(r, rnd(15)));
			w.child.kill("SIGKILL");
			const exit = await w.exited;
			expect(exit.signal).toBe("SIGKILL");
			for (const id of w.acked) acked.add(id);

			// The writer's lock is stale now (its pid is gone): opening takes it over.
			const sm = SessionManager.open(file, undefined, undefined, { durability: "write" });
			const entries = sm.getEntries();
			const ids = new Set(entries.map((e) => e.id));
			for (const id of acked) expect(ids.has(id)).toBe(true);
			// Connected: one root, every other parent present.
			expect(entries.filter((e) => e.parentId === null)).toHaveLength(1);
			for (const e of entries) if (e.parentId !== null) expect(ids.has(e.parentId)).toBe(true);
			const warnings = sm.getLoadWarnings();
			expect(warnings.length - damagedLines).toBeLessThanOrEqual(1);
			if (warnings.length > damagedLines) {
				// The new damage is this kill's last line: the file ends right after it.
				const bytes = readFileSync(file);
				expect(bytes.at(-1)).not.toBe(10);
				expect(warnings.at(-1)?.byteOffset).toBe(bytes.lastIndexOf(10) + 1);
				damagedLines = warnings.length;
				torn++;
			}
			sm.close();
		}
		expect(acked.size).toBeGreaterThanOrEqual(ITERATIONS);
		if (process.env.PI_SESSION_CRASH_REPORT) console.log(`torn last lines: ${torn}/${ITERATIONS}, acked ${acked.size}`);
	});
});
