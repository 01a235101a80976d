import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCheckpointsExtension } from "../../../src/builtins/checkpoints/index.js";
import { loggingGitOnPath, makeProject, sessionIn } from "./support.js";

let root: string;
let cwd: string;
const saved = { agentDir: process.env.PI_CODING_AGENT_DIR, path: process.env.PATH };

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

/** A `git` first on PATH that logs each command's name; returns the log's reader. */
const loggingGit = () => loggingGitOnPath(root, saved.path).commands;

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

	it("a session that ends before the delay prunes as it ends; the next one finds no prune due", async () => {
		const first = await sessionIn(cwd, { "builtin:checkpoints": createCheckpointsExtension() });
		first.fake.enqueue({ text: "one" });
		await first.session.prompt("hello");
		await first.bridge.shutdown();
		const storeDir = join(root, "agent", "checkpoints", readdirSync(join(root, "agent", "checkpoints"))[0] ?? "");
		const stamp = join(storeDir, "last-prune");
		rmSync(stamp, { force: true });

		const log = loggingGitOnPath(root, saved.path);
		const s = await sessionIn(cwd, { "builtin:checkpoints": createCheckpointsExtension({ pruneDelayMs: 60_000 }) });
		s.fake.enqueue({ text: "two" });
		await s.session.prompt("again");
		// A short run: nothing of the prune before its end...
		expect(log.commands().filter((c) => c === "count-objects" || c === "for-each-ref")).toEqual([]);
		await s.bridge.shutdown();
		// ...and all of it by the time its end is over: a user of only short runs still prunes, once a day.
		expect(log.commands()).toContain("count-objects");
		expect(existsSync(stamp)).toBe(true);
		expect(s.errors).toEqual([]);

		log.clear();
		const next = await sessionIn(cwd, { "builtin:checkpoints": createCheckpointsExtension({ pruneDelayMs: 60_000 }) });
		await next.bridge.shutdown();
		expect(log.commands().filter((c) => c === "count-objects" || c === "for-each-ref")).toEqual([]);
	}, 30_000);
});
