// "Nothing lost" at the product level: the BUILT CLI in json mode runs a tool
// loop against the fake provider and is SIGKILLed at random moments, again
// and again on one session file (each run continues it, taking over the dead
// process's lock). Every message whose `message_end` event was printed before
// the kill must be in the session file afterwards, the tree must stay
// connected, and the file must stay loadable with at most the torn last line
// skipped. PI_RELIABILITY_CLI_KILLS sets the number of rounds (default 12).
import { spawn } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SessionManager } from "../../src/session/session-manager.js";
import { CLI, textReply, toolReply, useCliSandbox } from "../cli/support.js";
import { seeded } from "./support.js";

const ROUNDS = Number(process.env.PI_RELIABILITY_CLI_KILLS ?? 12);
const sb = useCliSandbox();

interface Acked {
	role: string;
	timestamp: number;
}

/** Runs pi until `killAfter` message_end events were printed (plus a random delay), then SIGKILLs it. */
function runAndKill(file: string, prompt: string, killAfter: number, delayMs: number): Promise<Acked[]> {
	return new Promise((resolve) => {
		const child = spawn(
			process.execPath,
			[CLI, "--mode", "json", "--model", "fake/fake-model", "--session", file, prompt],
			{
				cwd: sb.cwd,
				env: sb.env,
				stdio: ["ignore", "pipe", "pipe"],
			},
		);
		const acked: Acked[] = [];
		let buffer = "";
		let armed = false;
		child.stdout.setEncoding("utf8");
		child.stdout.on("data", (chunk: string) => {
			buffer += chunk;
			for (let nl = buffer.indexOf("\n"); nl >= 0; nl = buffer.indexOf("\n")) {
				const line = buffer.slice(0, nl);
				buffer = buffer.slice(nl + 1);
				const event = JSON.parse(line) as { type: string; message?: { role: string; timestamp: number } };
				if (event.type === "message_end" && event.message) {
					acked.push({ role: event.message.role, timestamp: event.message.timestamp });
					if (acked.length >= killAfter && !armed) {
						armed = true;
						setTimeout(() => child.kill("SIGKILL"), delayMs);
					}
				}
			}
		});
		child.on("close", () => resolve(acked));
	});
}

describe("SIGKILL of the CLI during a tool loop", () => {
	it(`${ROUNDS} kills: every message announced by message_end is on disk`, {
		timeout: 30_000 + ROUNDS * 5_000,
	}, async () => {
		const file = join(sb.root, "killed-cli.jsonl");
		const rnd = seeded(4242);
		const all: Acked[] = [];
		for (let round = 0; round < ROUNDS; round++) {
			for (let i = 0; i < 4; i++) sb.fake.enqueue(toolReply("bash", { command: `echo round ${round} step ${i}` }));
			sb.fake.enqueue(textReply(`round ${round} done`));
			const acked = await runAndKill(file, `round ${round}`, 1 + rnd(6), rnd(30));
			expect(acked.length).toBeGreaterThan(0);
			all.push(...acked);
			const sm = SessionManager.open(file, undefined, undefined, { readOnly: true });
			const entries = sm.getEntries();
			const onDisk = new Set(
				entries.flatMap((e) => (e.type === "message" ? [`${e.message.role}@${e.message.timestamp}`] : [])),
			);
			for (const a of all) expect(onDisk.has(`${a.role}@${a.timestamp}`), `${a.role}@${a.timestamp}`).toBe(true);
			const ids = new Set(entries.map((e) => e.id));
			expect(entries.filter((e) => e.parentId === null)).toHaveLength(1);
			for (const e of entries) if (e.parentId !== null) expect(ids.has(e.parentId)).toBe(true);
			expect(sm.getLoadWarnings().length).toBeLessThanOrEqual(round + 1);
		}
		console.log(`[reliability] CLI kill loop: ${ROUNDS} kills, ${all.length} announced messages, 0 lost`);
	});
});
