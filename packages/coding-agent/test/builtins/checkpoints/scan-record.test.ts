// A run's first snapshot in a folder unchanged since the last run's scan
// needs no `git write-tree`: the shadow index's checksum still matches the
// recorded one, so the recorded tree is used, and its commit too while it is
// young. Anything changed (a file, the index written by someone else, an old
// or pruned commit) falls back to git, and the tree always equals what git's
// own scan gives.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { REUSE_COMMIT_MS, ShadowStore } from "../../../src/builtins/checkpoints/store.js";
import { fillProject, loggingGitOnPath, realGit } from "./support.js";

let root: string;
let cwd: string;
let storeDir: string;
let fresh = 0;
const savedPath = process.env.PATH;

beforeEach(() => {
	root = mkdtempSync(join(tmpdir(), "pi-cp-scanrec-"));
	cwd = fillProject(join(root, "project"));
	storeDir = join(root, "store");
});
afterEach(() => {
	process.env.PATH = savedPath;
	rmSync(root, { recursive: true, force: true });
});

/** A `git` first on PATH that logs each command's name; returns the log reader. */
const loggingGit = () => loggingGitOnPath(root, savedPath);

/** The first snapshot of a new run (a new store object on the same store directory). */
async function firstSnapshot() {
	const store = new ShadowStore(storeDir, cwd, { maxFileBytes: 64 * 1024 });
	try {
		return await store.snapshot("start");
	} finally {
		store.close();
	}
}

/** The tree git's own scan gives for `cwd` now, in a new store. */
async function scanTree(): Promise<string> {
	const other = new ShadowStore(join(root, `truth-${fresh++}`), cwd, { maxFileBytes: 64 * 1024, watch: false });
	return (await other.snapshot("truth")).tree;
}

describe("builtin:checkpoints: the last scan kept across runs", () => {
	it("an unchanged folder: no write-tree, the same tree and commit; a changed one: git's tree", async () => {
		const first = await firstSnapshot();
		const git = loggingGit();

		const again = await firstSnapshot();
		expect(git.commands()).toContain("ls-files");
		expect(git.commands()).not.toContain("write-tree");
		expect(again.tree).toBe(first.tree);
		expect(again.commit).toBe(first.commit);

		// A change: ls-files lists it, update-index writes the index, write-tree runs.
		git.clear();
		writeFileSync(join(cwd, "README.md"), "changed between runs\n");
		const changed = await firstSnapshot();
		expect(git.commands()).toEqual(expect.arrayContaining(["ls-files", "update-index", "write-tree"]));
		expect(changed.tree).not.toBe(first.tree);
		expect(changed.tree).toBe(await scanTree());
		expect(changed.commit).not.toBe(first.commit);

		// And the next run in that state is again without write-tree.
		git.clear();
		const same = await firstSnapshot();
		expect(git.commands()).not.toContain("write-tree");
		expect(same.commit).toBe(changed.commit);
		// The reused commit is a valid commit of that tree in the store.
		expect(
			execFileSync(realGit, ["--git-dir", storeDir, "rev-parse", `${same.commit}^{tree}`], { encoding: "utf8" }).trim(),
		).toBe(changed.tree);
	}, 30_000);

	it("an index someone else wrote, an old commit or a pruned one are not taken over", async () => {
		const first = await firstSnapshot();
		const git = loggingGit();

		// The index rewritten by another git (same content, new checksum is not needed: any other bytes).
		execFileSync(realGit, ["--git-dir", storeDir, "--work-tree", cwd, "update-index", "--index-version", "4"]);
		const rewritten = await firstSnapshot();
		expect(git.commands()).toContain("write-tree");
		expect(rewritten.tree).toBe(first.tree);

		// A record older than the reuse window: same tree, a commit made now (its time in the record).
		const recordFile = join(storeDir, "last-scan");
		const record = JSON.parse(readFileSync(recordFile, "utf8"));
		writeFileSync(recordFile, JSON.stringify({ ...record, at: Date.now() - REUSE_COMMIT_MS - 60_000 }));
		const old = await firstSnapshot();
		expect(old.tree).toBe(first.tree);
		const remade = JSON.parse(readFileSync(recordFile, "utf8"));
		expect(remade).toMatchObject({ tree: first.tree, commit: old.commit });
		expect(remade.at).toBeGreaterThan(Date.now() - 10_000);

		// Its ref deleted (pruned): the commit is made again, with its ref.
		const ref = (commit: string) => join(storeDir, "refs", "pi", "c", commit);
		execFileSync(realGit, ["--git-dir", storeDir, "update-ref", "-d", `refs/pi/c/${old.commit}`]);
		expect(existsSync(ref(old.commit))).toBe(false);
		const afterPrune = await firstSnapshot();
		expect(afterPrune.tree).toBe(first.tree);
		expect(existsSync(ref(afterPrune.commit))).toBe(true);

		// A damaged record is ignored.
		writeFileSync(recordFile, "{not json");
		git.clear();
		const damaged = await firstSnapshot();
		expect(git.commands()).toContain("write-tree");
		expect(damaged.tree).toBe(first.tree);
	}, 30_000);
});
