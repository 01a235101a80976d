// The daily prune of the checkpoint store runs a while after the session
// starts, not at its start: it reads the folder's session files and runs git,
// which a short run (a `-p` prompt) should not pay on its way to the first
// request or beside its reply. Its stamp is written when it completes, so a
// run that ends sooner leaves it due for the next one.
import { execFileSync } from "node:child_process";
import {
	chmodSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCheckpointsExtension } from "../../../src/builtins/checkpoints/index.js";
import { makeProject, sessionIn } from "./support.js";

let root: string;
let cwd: string;
const saved = { agentDir: process.env.PI_CODING_AGENT_DIR, path: process.env.PATH };
const realGit = execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim();

beforeEach(() => {
	root = mkdtempSync(join(tmpdir(), "pi-cp-prune-"));
	cwd = makeProject(root);
	process.env.PI_CODING_AGENT_DIR = join(root, "agent");
});
afterEach(() => {
	if (saved.agentDir === undefined) delete process.env.PI_CODING_AGENT_DIR;
	else process.env.PI_CODING_AGENT_DIR = saved.agentDir;
	process.env.PATH = saved.path;
	rmSync(root, { recursive: true, force: true });
});

/** A `git` first on PATH that logs each command's first word (after the -c options) and runs the real one. */
function loggingGit(): () => string[] {
	const bin = join(root, "bin");
	const log = join(root, "git.log");
	mkdirSync(bin);
	writeFileSync(
		join(bin, "git"),
		`#!/bin/sh\nfor a in "$@"; do case "$a" in -c|--*|*=*) ;; *) echo "$a" >> ${log}; break;; esac; done\nexec ${realGit} "$@"\n`,
	);
	chmodSync(join(bin, "git"), 0o755);
	process.env.PATH = `${bin}:${saved.path}`;
	return () => (existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : []);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("builtin:checkpoints: the daily prune waits until the session has run a while", () => {
	it("a due prune starts no git at session start and none beside a short prompt; it runs after the delay", async () => {
		// A first session creates the store (a start checkpoint).
		const first = await sessionIn(cwd, { "builtin:checkpoints": createCheckpointsExtension({ pruneDelayMs: 800 }) });
		first.fake.enqueue({ text: "one" });
		await first.session.prompt("hello");
		await first.bridge.shutdown();
		const storeDir = join(root, "agent", "checkpoints", readdirSync(join(root, "agent", "checkpoints"))[0] ?? "");
		const stamp = join(storeDir, "last-prune");
		rmSync(stamp, { force: true }); // due

		const commands = loggingGit();
		const s = await sessionIn(cwd, { "builtin:checkpoints": createCheckpointsExtension({ pruneDelayMs: 800 }) });
		s.fake.enqueue({ text: "two" });
		await s.session.prompt("again");
		await sleep(200);
		// Only the prompt's snapshot ran git: no count-objects / for-each-ref of the prune yet.
		expect(commands().filter((c) => c === "count-objects" || c === "for-each-ref")).toEqual([]);
		expect(existsSync(stamp)).toBe(false);

		for (let i = 0; i < 100 && !existsSync(stamp); i++) await sleep(50);
		expect(existsSync(stamp)).toBe(true);
		expect(commands()).toContain("count-objects");
		await s.bridge.shutdown();
		expect(s.errors).toEqual([]);
		expect(s.notices.filter((n) => /Checkpoint/.test(n.message))).toEqual([]);
	}, 30_000);

	it("a session that ends before the delay leaves the prune due (no stamp, no git of it)", async () => {
		const first = await sessionIn(cwd, { "builtin:checkpoints": createCheckpointsExtension() });
		first.fake.enqueue({ text: "one" });
		await first.session.prompt("hello");
		await first.bridge.shutdown();
		const storeDir = join(root, "agent", "checkpoints", readdirSync(join(root, "agent", "checkpoints"))[0] ?? "");
		rmSync(join(storeDir, "last-prune"), { force: true });

		const commands = loggingGit();
		const s = await sessionIn(cwd, { "builtin:checkpoints": createCheckpointsExtension({ pruneDelayMs: 500 }) });
		await s.bridge.shutdown();
		await sleep(800);
		expect(commands()).toEqual([]);
		expect(existsSync(join(storeDir, "last-prune"))).toBe(false);
	}, 30_000);
});
