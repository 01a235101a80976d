// Pi's exit and the checkpoint store: a snapshot still running when the
// session shuts down starts no further git command, the shutdown waits for
// the one running, and afterwards no git process is left writing into the
// store — the next session's store works (no index or ref lock left behind).
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ShadowStore } from "../../../src/builtins/checkpoints/store.js";

const hasGit = spawnSync("git", ["--version"]).status === 0;

let root: string;
let cwd: string;
let storeDir: string;

beforeEach(() => {
	root = mkdtempSync(join(tmpdir(), "pi-cp-exit-"));
	cwd = join(root, "project");
	storeDir = join(root, "store");
	// Enough files that git's full scan is still running when the shutdown comes.
	for (let d = 0; d < 40; d++) {
		mkdirSync(join(cwd, `dir${d}`), { recursive: true });
		for (let f = 0; f < 50; f++) writeFileSync(join(cwd, `dir${d}`, `f${f}.txt`), `file ${d}/${f}\n`);
	}
});
afterEach(() => {
	rmSync(root, { recursive: true, force: true });
});

/** Live processes whose environment points GIT_DIR at the store. */
function gitProcessesOnStore(): number[] {
	const found: number[] = [];
	for (const name of readdirSync("/proc")) {
		if (!/^\d+$/.test(name)) continue;
		try {
			const env = readFileSync(`/proc/${name}/environ`, "utf8").split("\0");
			if (env.includes(`GIT_DIR=${storeDir}`)) found.push(Number(name));
		} catch {
			// gone, or not ours
		}
	}
	return found;
}

describe.skipIf(!hasGit || process.platform !== "linux")("checkpoint store at pi's exit", () => {
	it("a snapshot cut short by shutdown leaves no git running and the store usable", async () => {
		const store = new ShadowStore(storeDir, cwd, { maxFileBytes: 64 * 1024, watch: false });
		await store.init();
		const running = store.snapshot("warm");
		// Let the scan start its git commands, then shut down as pi's exit does.
		for (let i = 0; i < 200 && gitProcessesOnStore().length === 0; i++) await new Promise((r) => setTimeout(r, 5));
		await store.shutdown(10_000);
		const outcome = await running.then(
			() => "finished",
			(error: unknown) => (error instanceof Error ? error.message : String(error)),
		);
		expect(gitProcessesOnStore()).toEqual([]);
		// Either it finished before the shutdown came, or it stopped at the next git command, saying why.
		expect(outcome === "finished" || /shut down/.test(outcome)).toBe(true);

		// The next session: a new store object on the same folder snapshots the whole tree.
		const next = new ShadowStore(storeDir, cwd, { maxFileBytes: 64 * 1024, watch: false });
		const snap = await next.snapshot("next");
		expect(snap.tree).toMatch(/^[0-9a-f]{40}$/);
		const listed = spawnSync("git", ["--git-dir", storeDir, "ls-tree", "-r", "--name-only", snap.tree], {
			encoding: "utf8",
		});
		expect(listed.stdout.trim().split("\n")).toHaveLength(2000);
		await next.shutdown(10_000);
	}, 60_000);

	it("after shutdown no git command starts against the store", async () => {
		const store = new ShadowStore(storeDir, cwd, { maxFileBytes: 64 * 1024, watch: false });
		await store.init();
		await store.shutdown(1_000);
		await expect(store.snapshot("late")).rejects.toThrow(/shut down/);
		expect(gitProcessesOnStore()).toEqual([]);
	});
});
