// The shadow store's incremental snapshots (watcher + objects written without
// git): whatever changed between two snapshots, by whatever means — a shell
// (as bash would), the user's own writes, a rename, a mode change, a deletion,
// a folder replaced by a file — is in the next snapshot. The check is exact:
// each incremental tree must equal the tree git's own full scan gives for the
// same folder in a fresh store, and the commit must be a valid git object.
import { execFileSync, spawnSync } from "node:child_process";
import {
	chmodSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	renameSync,
	rmSync,
	symlinkSync,
	unlinkSync,
	writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ShadowStore } from "../../../src/builtins/checkpoints/store.js";
import { fillProject } from "./support.js";

const hasGit = spawnSync("git", ["--version"]).status === 0;

let root: string;
let cwd: string;
let store: ShadowStore;
let fresh = 0;

beforeEach(() => {
	root = mkdtempSync(join(tmpdir(), "pi-cp-inc-"));
	cwd = fillProject(join(root, "project"));
	store = new ShadowStore(join(root, "store"), cwd, { maxFileBytes: 64 * 1024 });
});
afterEach(() => {
	store.close();
	rmSync(root, { recursive: true, force: true });
});

/** The tree git's full scan gives for `cwd` now, in a new store without a watcher. */
async function scanTree(): Promise<string> {
	const other = new ShadowStore(join(root, `scan-${fresh++}`), cwd, { maxFileBytes: 64 * 1024, watch: false });
	return (await other.snapshot("scan")).tree;
}

function sh(script: string): void {
	execFileSync("sh", ["-c", script], { cwd });
}

/** `git fsck` of the store: every object the fast path wrote is well-formed and reachable from a ref. */
function fsck(): string {
	return execFileSync("git", ["--git-dir", join(root, "store"), "fsck", "--strict", "--no-dangling"], {
		encoding: "utf8",
		stdio: ["ignore", "pipe", "pipe"],
	});
}

describe.skipIf(!hasGit)("checkpoint store: incremental snapshots", () => {
	it("a change made by any means between two snapshots is in the next one", async () => {
		const first = await store.snapshot("first");
		expect(store.fastPathOff).toBeUndefined();
		expect(first.tree).toBe(await scanTree());

		const steps: [string, () => void][] = [
			[
				"a shell edits and creates files",
				() => sh("echo changed > a.txt && mkdir -p new/deep && echo n > new/deep/n.txt"),
			],
			["the user writes a file in-process", () => writeFileSync(join(cwd, "b.txt"), "user edit\n")],
			["a rename", () => renameSync(join(cwd, "img.bin"), join(cwd, "img2.bin"))],
			["a folder rename", () => renameSync(join(cwd, "src"), join(cwd, "lib"))],
			["a mode change", () => chmodSync(join(cwd, "run.sh"), 0o644)],
			["a deletion", () => unlinkSync(join(cwd, "b.txt"))],
			["a folder deleted", () => rmSync(join(cwd, "new"), { recursive: true })],
			["a symlink", () => symlinkSync("a.txt", join(cwd, "link"))],
			["a file replaced by a folder", () => sh("rm a.txt && mkdir a.txt && echo inner > a.txt/inner")],
			["a folder replaced by a file", () => sh("rm -r lib && echo flat > lib")],
			[
				"a moved-away folder replaced by a new one",
				() => sh("mkdir d && echo 1 > d/x && mv d e && mkdir d && echo 2 > d/y"),
			],
			["a change inside the moved folder", () => sh("echo 3 > e/x && echo 4 > e/z")],
			["nothing", () => {}],
		];
		let last = first;
		for (const [what, change] of steps) {
			change();
			const snap = await store.snapshot(what);
			expect(store.fastPathOff, what).toBeUndefined();
			expect(snap.incremental, what).toBe(true);
			expect(snap.tree, what).toBe(await scanTree());
			if (what === "nothing") expect(snap.commit).toBe(last.commit);
			last = snap;
		}
		expect(fsck()).not.toMatch(/error|missing|broken/i);
		// The commits are listed and diffable like the ones git wrote.
		const changes = await store.diff(first.commit, last.commit, true);
		expect(changes.map((c) => c.path)).toContain("e/z");
	});

	it("ignore rules, nested repositories, files over the size limit and a changed .gitignore", async () => {
		writeFileSync(join(cwd, ".gitignore"), "*.log\nbuild/\n");
		await store.snapshot("first");
		sh(
			"mkdir -p build sub/inner && echo x > build/out.js && echo l > app.log && echo keep > sub/inner/k.txt && echo l > sub/inner/x.log",
		);
		sh("mkdir nested && cd nested && git init -q && echo n > n.txt");
		writeFileSync(join(cwd, "big.bin"), Buffer.alloc(65 * 1024, 1));
		let snap = await store.snapshot("mixed");
		expect(snap.incremental).toBe(true);
		expect(snap.tree).toBe(await scanTree());
		expect(snap.skipped).toEqual(["big.bin"]);
		// Ignored folders are not watched, so a new file there is never read.
		sh("echo y > build/more.js");
		snap = await store.snapshot("in ignored folder");
		expect(snap.tree).toBe(await scanTree());
		// The rules change: what was ignored is in (the store falls back to a full scan).
		writeFileSync(join(cwd, ".gitignore"), "*.log\n");
		snap = await store.snapshot("rules changed");
		expect(snap.incremental).toBeFalsy();
		expect(snap.tree).toBe(await scanTree());
		sh("echo z > build/later.js");
		snap = await store.snapshot("after the rules changed");
		expect(snap.incremental).toBe(true);
		expect(snap.tree).toBe(await scanTree());
		expect(store.fastPathOff).toBeUndefined();
	});

	it("after the watcher is gone the next snapshot scans in full and is still complete", async () => {
		await store.snapshot("first");
		store.close();
		sh("echo after-close > a.txt && rm b.txt");
		const snap = await store.snapshot("after close");
		expect(snap.incremental).toBeFalsy();
		expect(snap.tree).toBe(await scanTree());
		// ...and watching resumed: the next change is caught incrementally too.
		sh("echo again > a.txt");
		const again = await store.snapshot("again");
		expect(again.incremental).toBe(true);
		expect(again.tree).toBe(await scanTree());
	});

	it("many new files at once (a generated folder) are all in the next snapshot", async () => {
		await store.snapshot("first");
		mkdirSync(join(cwd, "gen", "a", "b"), { recursive: true });
		for (let i = 0; i < 300; i++) writeFileSync(join(cwd, "gen", i % 2 ? "a" : join("a", "b"), `f${i}.txt`), `${i}\n`);
		const snap = await store.snapshot("generated");
		expect(snap.incremental).toBe(true);
		expect(snap.tree).toBe(await scanTree());
		expect(readdirSync(join(cwd, "gen", "a")).length).toBeGreaterThan(100);
	});

	it("a full scan runs git only to list and index the files and write their tree; the tree is listed when an incremental snapshot first needs it", async () => {
		// A `git` first on PATH that logs each command (its subcommand: the first argument past pi's `-c` options).
		const bin = join(root, "bin");
		mkdirSync(bin);
		const log = join(root, "git.log");
		const realGit = execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim();
		writeFileSync(join(bin, "git"), `#!/bin/sh\necho "$*" >> "${log}"\nexec "${realGit}" "$@"\n`, { mode: 0o755 });
		const commands = (): string[] => {
			let text = "";
			try {
				text = readFileSync(log, "utf8");
			} catch {}
			return text
				.split("\n")
				.filter(Boolean)
				.map(
					(line) =>
						line
							.replace(/(-c \S+ )+/g, "")
							.replace("--literal-pathspecs ", "")
							.split(" ")[0] ?? "",
				);
		};
		const path = process.env.PATH;
		process.env.PATH = `${bin}:${path}`;
		try {
			await store.init();
			rmSync(log, { force: true });
			const first = await store.snapshot("first");
			expect(commands()).toContain("write-tree");
			expect(commands()).not.toContain("commit-tree");
			expect(commands()).not.toContain("update-ref");
			expect(commands()).not.toContain("ls-tree");
			expect(first.tree).toBe(await scanTree());
			// The commit and its ref, written without git, are what git would have written.
			const shown = execFileSync("git", ["--git-dir", join(root, "store"), "cat-file", "-p", first.commit], {
				encoding: "utf8",
			});
			expect(shown).toMatch(
				new RegExp(`^tree ${first.tree}\nauthor pi checkpoints <checkpoints@pi\\.invalid> \\d+ \\+0000\n`),
			);
			expect((await store.list()).map((c) => c.commit)).toEqual([first.commit]);
			expect(fsck()).not.toMatch(/error|missing|broken/i);

			rmSync(log, { force: true });
			sh("echo changed > a.txt");
			const second = await store.snapshot("second");
			expect(second.incremental).toBe(true);
			expect(second.tree).toBe(await scanTree());
			expect(commands().filter((c) => c === "ls-tree")).toHaveLength(1);
		} finally {
			process.env.PATH = path;
		}
	});
});
