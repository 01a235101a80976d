// RELIABILITY.md "process killed mid-append": a writer process is SIGKILLed at
// random moments, again and again on one session file, and the session is
// reloaded after every kill. Every id the writer printed (after its append
// returned) must load; a torn last line is warned about with file and byte
// offset, its bytes stay in the file, and the next append starts a fresh line.
// PI_RELIABILITY_KILLS=500 for the long run (default 60 keeps CI fast).
import { appendFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SessionManager } from "../../src/session/session-manager.js";
import { bundledScript } from "./bundle.js";
import { seeded, spawnLines, tempDir } from "./support.js";

const KILLS = Number(process.env.PI_RELIABILITY_KILLS ?? 60);

describe("kill mid-append", () => {
	it(`SIGKILL ${KILLS}×: 0 acknowledged entries lost, torn lines kept aside with a warning, next append on a fresh line`, {
		timeout: 60_000 + KILLS * 1_500,
	}, async () => {
		const script = bundledScript("append-writer");
		const file = join(tempDir(), "killed.jsonl");
		const rnd = seeded(20261129);
		const acked = new Set<string>();
		let lost = 0;
		let torn = 0;
		let simulated = 0;
		let warned = 0;
		/** Torn tails seen so far: [byte offset, bytes]; each must stay in the file, followed by "\n". */
		const tails: [number, Buffer][] = [];
		for (let i = 0; i < KILLS; i++) {
			const w = spawnLines(script, [file, String(i + 1)]);
			const target = 1 + rnd(4);
			await w.waitFor((l) => l.filter((x) => x.startsWith("ack ")).length >= target);
			await new Promise((r) => setTimeout(r, rnd(12)));
			w.child.kill("SIGKILL");
			expect((await w.exited).signal).toBe("SIGKILL");
			for (const line of w.lines) if (line.startsWith("ack ")) acked.add(line.slice(4));
			if (i % 4 === 3 && readFileSync(file).at(-1) === 10) {
				// A kill inside write(2) is rare on a fast disk, so every 4th round also leaves what one
				// leaves: a prefix of a real entry line (cut mid UTF-8 sequence or mid JSON).
				const text = readFileSync(file);
				const start = text.lastIndexOf(10, text.length - 2) + 1;
				const line = text.subarray(start, text.length - 1);
				appendFileSync(file, line.subarray(0, 1 + rnd(line.length - 1)));
				simulated++;
			}

			const bytes = readFileSync(file);
			for (const [offset, tail] of tails) {
				expect(bytes.subarray(offset, offset + tail.length).equals(tail)).toBe(true);
				if (offset + tail.length < bytes.length) expect(bytes[offset + tail.length]).toBe(10);
			}
			const sm = SessionManager.open(file);
			const ids = new Set(sm.getEntries().map((e) => e.id));
			for (const id of acked) if (!ids.has(id)) lost++;
			const entries = sm.getEntries();
			expect(entries.filter((e) => e.parentId === null)).toHaveLength(1);
			for (const e of entries) if (e.parentId !== null) expect(ids.has(e.parentId)).toBe(true);
			if (bytes.at(-1) !== 10) {
				// This kill tore the last line: it is named in a warning and kept.
				const offset = bytes.lastIndexOf(10) + 1;
				const warning = sm.getLoadWarnings().find((x) => x.byteOffset === offset);
				expect(warning?.file).toBe(file);
				expect(warning?.message.length).toBeGreaterThan(0);
				tails.push([offset, Buffer.from(bytes.subarray(offset))]);
				torn++;
			}
			warned = sm.getLoadWarnings().length;
			// Every warning is one of the torn tails: nothing else was damaged.
			expect(sm.getLoadWarnings().map((x) => x.byteOffset)).toEqual(tails.map(([o]) => o));
			sm.close();
		}
		expect(lost).toBe(0);
		expect(acked.size).toBeGreaterThanOrEqual(KILLS);
		expect(torn).toBeGreaterThanOrEqual(simulated);
		expect(simulated).toBeGreaterThan(0);
		console.log(
			`[reliability] kill-mid-append: ${KILLS} kills, ${acked.size} acknowledged entries, ${lost} lost, ${torn} torn last lines (${simulated} of them written by the test as a kill inside write(2) leaves them), ${warned} warnings at the end`,
		);
	});
});
