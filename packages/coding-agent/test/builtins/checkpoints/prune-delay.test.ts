import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createCheckpointsExtension } from "../../../src/builtins/checkpoints/index.js";
import { loggingGitOnPath, projectPerTest, sessionIn } from "./support.js";

const env = projectPerTest("pi-cp-prune-");

/** A `git` first on PATH that logs each command's name; returns the log's reader. */
const loggingGit = () => loggingGitOnPath(env.root, env.basePath).commands;

/** A first session creates the project's store (a start checkpoint); its prune stamp is then removed (due). Returns the stamp's path. */
async function storeWithPruneDue(): Promise<string> {
	const first = await sessionIn(env.cwd, { "builtin:checkpoints": createCheckpointsExtension() });
	first.fake.enqueue({ text: "one" });
	await first.session.prompt("hello");
	await first.bridge.shutdown();
	const stores = join(env.root, "agent", "checkpoints");
	const stamp = join(stores, readdirSync(stores)[0] ?? "", "last-prune");
	rmSync(stamp, { force: true });
	return stamp;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("builtin:checkpoints: the daily prune waits until the session has run a while", () => {
	it("a due prune starts no git at session start and none beside a short prompt; it runs after the delay", async () => {
		const stamp = await storeWithPruneDue();

		const commands = loggingGit();
		const s = await sessionIn(env.cwd, { "builtin:checkpoints": createCheckpointsExtension({ pruneDelayMs: 800 }) });
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
		const stamp = await storeWithPruneDue();

		const log = loggingGitOnPath(env.root, env.basePath);
		const s = await sessionIn(env.cwd, { "builtin:checkpoints": createCheckpointsExtension({ pruneDelayMs: 60_000 }) });
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
		const next = await sessionIn(env.cwd, {
			"builtin:checkpoints": createCheckpointsExtension({ pruneDelayMs: 60_000 }),
		});
		await next.bridge.shutdown();
		expect(log.commands().filter((c) => c === "count-objects" || c === "for-each-ref")).toEqual([]);
	}, 30_000);
});
