// The shadow store: a git object database outside the project
// (`<agentDir>/checkpoints/<project>/`) whose work tree is the project. It
// never touches the project's own `.git`. A checkpoint is a parentless
// commit kept alive by one ref `refs/pi/c/<commit>`, so pruning is deleting
// refs then `gc`. The first snapshot (and any after the watcher lost track) is
// git's scan: `ls-files` against the shadow index, `update-index` of what it
// lists, `write-tree` (not needed when the index is as the last run's scan
// left it: scan-record.ts); later ones take the watcher's changed paths and write
// objects directly (fast-path.ts). All store work goes through one queue:
// parallel tool calls never race for the index lock.
import { createHash } from "node:crypto";
import {
	accessSync,
	constants,
	existsSync,
	lstatSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	realpathSync,
	rmdirSync,
	rmSync,
	writeFileSync,
} from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { FastPath } from "./fast-path.js";
import { type GitTarget, git, gitOk, splitNul } from "./git.js";
import { commitContent, fastPathSupported, writeObject, writeRef } from "./objects.js";
import { indexChecksum, readScanRecord, type ScanRecord, writeScanRecord } from "./scan-record.js";
import { TreeModel } from "./tree-model.js";

export interface SnapshotResult {
	commit: string;
	tree: string;
	/** Files left out because they are larger than the size limit. */
	skipped: string[];
	/** True when the watcher's changed paths were enough (no scan of the tree). */
	incremental?: boolean;
}

export type ChangeStatus = "added" | "modified" | "deleted" | "renamed" | "type";

export interface FileChange {
	status: ChangeStatus;
	path: string;
	/** For renames: the old path. */
	from?: string;
}

export interface StoreOptions {
	/** Files above this many bytes are not snapshotted. */
	maxFileBytes: number;
	/** Paths (absolute) inside the work tree that must never be snapshotted (the store itself, pi's own dir). */
	excludeDirs?: string[];
	/** Watch the work tree for incremental snapshots (default true); false: git scans every time. */
	watch?: boolean;
}

/** From this many files on, a scan writes one pack instead of loose objects. */
const BULK_FILES = 1000;
/**
 * A later run reuses the last scan's commit for the same tree while it is younger than this: well
 * inside prune's grace period (an hour), so a commit just taken up again is never pruned before
 * the session entry naming it is written.
 */
export const REUSE_COMMIT_MS = 30 * 60 * 1000;

/** `<name>-<hash of the real path>`: readable, and distinct for two folders of the same name. */
export function projectKey(cwd: string): string {
	let real = cwd;
	try {
		real = realpathSync(cwd);
	} catch {}
	const name =
		basename(real)
			.replace(/[^A-Za-z0-9._-]/g, "_")
			.slice(0, 40) || "root";
	return `${name}-${createHash("sha256").update(real).digest("hex").slice(0, 12)}`;
}

const REF_PREFIX = "refs/pi/c/";
const STATUS: Record<string, ChangeStatus> = { A: "added", M: "modified", D: "deleted", R: "renamed", T: "type" };

export class ShadowStore {
	readonly target: GitTarget;
	private queue: Promise<unknown> = Promise.resolve();
	private ready: Promise<void> | undefined;
	private readonly commitOfTree = new Map<string, string>();
	/** When this process made each commit (ms): how old the last-scan record's commit is. */
	private readonly madeAt = new Map<string, number>();
	/** The last full scan, of this run or an earlier one (scan-record.ts); SHA-1 stores only. */
	private lastScan: ScanRecord | undefined;
	private readonly fast: FastPath | undefined;
	private fastOff: string | undefined;
	/** Commits and refs are written without git (a SHA-1 store with loose refs: git's defaults). */
	private direct = false;
	private stopped = false;

	constructor(
		readonly dir: string,
		readonly workTree: string,
		private readonly options: StoreOptions,
	) {
		this.target = { gitDir: dir, workTree, stopped: () => this.stopped };
		if (options.watch !== false) this.fast = new FastPath(this.target, options.maxFileBytes, options.excludeDirs ?? []);
	}

	/** Runs `fn` after every earlier store operation (one at a time). */
	private serial<T>(fn: () => Promise<T>): Promise<T> {
		const run = this.queue.then(fn, fn);
		this.queue = run.catch(() => {});
		return run;
	}

	init(): Promise<void> {
		this.ready ??= this.serial(async () => {
			if (!existsSync(join(this.dir, "HEAD"))) {
				try {
					mkdirSync(this.dir, { recursive: true });
				} catch (error) {
					// Recursive mkdir under a read-only parent can say ENOENT; say what is wrong instead.
					throw new Error(`cannot create the checkpoint store ${this.dir}: ${unwritableReason(this.dir, error)}`);
				}
				await gitOk(undefined, ["init", "-q", "--bare", this.dir]);
			}
			// Checked each start: the excluded dirs follow where pi's own folders are.
			const lines = ["# written by pi: never snapshot pi's own state"];
			for (const d of this.options.excludeDirs ?? []) {
				const rel = relative(this.workTree, d);
				if (rel && !rel.startsWith("..") && !isAbsolute(rel)) lines.push(`/${rel.split(sep).join("/")}/`);
			}
			const exclude = join(this.dir, "info", "exclude");
			const text = `${lines.join("\n")}\n`;
			// Written only when it changes: a file write on the way to the first snapshot of every run.
			if (readText(exclude) !== text) {
				mkdirSync(join(this.dir, "info"), { recursive: true });
				writeFileSync(exclude, text);
			}
			this.direct = fastPathSupported(this.dir);
			if (this.fast && !this.direct) this.fastOff = "the store is not a SHA-1 store with loose refs";
			if (this.direct) this.lastScan = readScanRecord(this.dir);
		});
		return this.ready;
	}

	/**
	 * Records the work tree as a checkpoint. Once a full scan has run and the
	 * watcher is up, only the paths it saw change are looked at (no git
	 * process); otherwise git scans the tree against the shadow index (its stat
	 * cache), or only `paths` when the watcher is unavailable.
	 */
	snapshot(message: string, paths?: string[]): Promise<SnapshotResult> {
		return this.init().then(() =>
			this.serial(async () => {
				const fast = this.fast;
				if (fast?.ready) {
					// A failure here (the ignore helper died, a read error) only costs a full scan.
					const snap = await fast.snapshot().catch(() => undefined);
					if (snap) return this.commitFast(message, snap.tree, snap.skipped);
				}
				if (fast && !this.fastOff) {
					// (Re)start watching before the scan: whatever changes during it is seen next time.
					let reason: string | undefined;
					try {
						if (!(await fast.start())) reason = fast.lost;
					} catch (error) {
						reason = error instanceof Error ? error.message : String(error);
					}
					if (reason) {
						fast.close();
						this.fastOff = reason;
					} else {
						const result = await this.scan(message, undefined);
						// The scan's tree is what the next incremental snapshot starts from; it is listed
						// (one more git process) only when that snapshot comes: a run with one snapshot
						// (a `-p` prompt without tools) never needs it.
						fast.adoptLater(async () => {
							const listing = await gitOk(this.target, ["ls-tree", "-r", "-t", "-z", result.tree]);
							return TreeModel.fromLsTree(listing, result.tree);
						}, result.skipped);
						return result;
					}
				}
				return this.scan(message, paths);
			}),
		);
	}

	/** Why incremental snapshots fall back to git's scan (watcher unavailable), if they do. */
	get fastPathOff(): string | undefined {
		return this.fastOff;
	}

	/** Stops watching the work tree (the store stays usable; the next snapshot scans). */
	close(): void {
		this.fast?.close();
	}

	/**
	 * Pi is exiting: stops watching, starts no further git command, and waits at most `timeoutMs` for the one
	 * running to end — so no git outlives pi writing into the store. Running commands are not killed: a git
	 * killed mid-update leaves an index or ref lock that would stop the next session's snapshots.
	 */
	async shutdown(timeoutMs: number): Promise<void> {
		this.stopped = true;
		this.close();
		let timer: NodeJS.Timeout | undefined;
		const late = new Promise<void>((resolve) => {
			timer = setTimeout(resolve, timeoutMs);
			timer.unref();
		});
		await Promise.race([this.queue, late]);
		clearTimeout(timer);
	}

	/** git's scan: `ls-files` against the shadow index, then `update-index` of what it lists. */
	private async scan(message: string, paths: string[] | undefined): Promise<SnapshotResult> {
		const scope = paths ? this.inside(paths) : undefined;
		if (scope && scope.length === 0) return this.writeCommit(message, []);
		const listArgs = ["ls-files", "-z", "-m", "-d", "-o", "--exclude-standard"];
		const listed = splitNul(await gitOk(this.target, scope ? [...listArgs, "--", ...scope] : listArgs));
		const skipped: string[] = [];
		const update: string[] = [];
		for (const path of new Set(listed)) {
			// A nested repository shows up as "dir/": its files are its own repository's business.
			if (path.endsWith("/")) continue;
			let size = 0;
			try {
				const st = lstatSync(join(this.workTree, path));
				if (st.isDirectory()) continue;
				size = st.isFile() ? st.size : 0;
			} catch {}
			if (size > this.options.maxFileBytes) skipped.push(path);
			else update.push(path);
		}
		if (update.length > 0) {
			// Many files (a first snapshot): stream them into one pack instead of a loose file each
			// (a 51 MB tree took 206 MB as loose objects, 31 MB as a pack).
			const bulk = update.length >= BULK_FILES ? ["-c", "core.bigFileThreshold=1"] : [];
			await gitOk(
				this.target,
				[...bulk, "update-index", "--add", "--remove", "-z", "--stdin"],
				`${update.join("\0")}\0`,
			);
		}
		return this.writeCommit(message, skipped);
	}

	/** A commit for a tree the fast path wrote: objects and ref written directly, no git process. */
	private commitFast(message: string, tree: string, skipped: string[]): SnapshotResult {
		let commit = this.commitOfTree.get(tree) ?? this.recentCommitOf(tree);
		if (!commit) {
			commit = writeObject(this.dir, "commit", commitContent(tree, message));
			writeRef(this.dir, `${REF_PREFIX}${commit}`, commit);
			this.madeAt.set(commit, Date.now());
		}
		this.commitOfTree.set(tree, commit);
		return { commit, tree, skipped, incremental: true };
	}

	/** The last scan's commit when it is of `tree`, young enough (REUSE_COMMIT_MS) and still in the store. */
	private recentCommitOf(tree: string): string | undefined {
		const last = this.lastScan;
		if (last?.tree !== tree || Date.now() - last.at > REUSE_COMMIT_MS) return undefined;
		return existsSync(join(this.dir, ...REF_PREFIX.split("/"), last.commit)) ? last.commit : undefined;
	}

	private async writeCommit(message: string, skipped: string[]): Promise<SnapshotResult> {
		// The index unchanged since the last scan's write-tree (nothing to update, nobody else wrote
		// it): the tree is the one that scan recorded, without a git process.
		const last = this.direct ? this.lastScan : undefined;
		const unchanged = last !== undefined && indexChecksum(this.dir) === last.index;
		const tree = unchanged ? last.tree : (await gitOk(this.target, ["write-tree"])).toString().trim();
		// The commit and its ref as the fast path writes them: two git processes fewer per scan.
		if (this.direct) {
			const commit = this.commitFast(message, tree, skipped).commit;
			this.recordScan(unchanged ? last.index : indexChecksum(this.dir), tree, commit);
			return { commit, tree, skipped };
		}
		let commit = this.commitOfTree.get(tree);
		if (!commit) {
			commit = (await gitOk(this.target, ["commit-tree", tree, "-m", message])).toString().trim();
			await gitOk(this.target, ["update-ref", `${REF_PREFIX}${commit}`, commit]);
			this.commitOfTree.set(tree, commit);
		}
		return { commit, tree, skipped };
	}

	/** Keeps what this scan left for the next run's first snapshot (scan-record.ts), when it changed. */
	private recordScan(index: string | undefined, tree: string, commit: string): void {
		const last = this.lastScan;
		if (!index) return;
		const at = this.madeAt.get(commit) ?? (last?.commit === commit ? last.at : 0);
		if (last?.index === index && last.tree === tree && last.commit === commit && last.at === at) return;
		this.lastScan = { index, tree, commit, at };
		writeScanRecord(this.dir, this.lastScan);
	}

	/** Work-tree-relative forms of the paths that lie inside it (others are not ours to snapshot). */
	private inside(paths: string[]): string[] {
		const out: string[] = [];
		for (const p of paths) {
			const rel = relative(this.workTree, resolve(this.workTree, p));
			if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) continue;
			out.push(rel.split(sep).join("/"));
		}
		return out;
	}

	/** True when the store still has this checkpoint. */
	async has(commit: string): Promise<boolean> {
		await this.init();
		const r = await git(this.target, ["cat-file", "-e", `${commit}^{commit}`]);
		return r.code === 0;
	}

	async treeOf(commit: string): Promise<string> {
		await this.init();
		return (await gitOk(this.target, ["rev-parse", `${commit}^{tree}`])).toString().trim();
	}

	/** What changes when the work tree goes from `from` to `to` (renames paired when `renames`). */
	async diff(from: string, to: string, renames = false): Promise<FileChange[]> {
		await this.init();
		const args = ["diff-tree", "-r", "-z", "--name-status", renames ? "-M" : "--no-renames", from, to];
		const parts = splitNul(await gitOk(this.target, args));
		const out: FileChange[] = [];
		for (let i = 0; i < parts.length; ) {
			const code = parts[i++] ?? "";
			const status = STATUS[code[0] ?? ""] ?? "modified";
			if (status === "renamed") {
				const fromPath = parts[i++] ?? "";
				out.push({ status, from: fromPath, path: parts[i++] ?? "" });
			} else out.push({ status, path: parts[i++] ?? "" });
		}
		return out;
	}

	/** Writes `write` from checkpoint `commit` (content and mode) and deletes `remove`; empty folders left behind go too. */
	restore(commit: string, write: string[], remove: string[]): Promise<void> {
		return this.init().then(() =>
			this.serial(async () => {
				for (const path of remove) rmSync(join(this.workTree, path), { force: true });
				if (remove.length > 0) {
					await gitOk(this.target, ["update-index", "--force-remove", "-z", "--stdin"], `${remove.join("\0")}\0`);
					this.removeEmptyParents(remove);
				}
				if (write.length > 0) {
					// A folder standing where a file goes back (or the reverse) is cleared first.
					for (const path of write) this.clearObstacles(path);
					await gitOk(
						this.target,
						["checkout", commit, "--pathspec-from-file=-", "--pathspec-file-nul"],
						`${write.join("\0")}\0`,
					);
				}
			}),
		);
	}

	private clearObstacles(path: string): void {
		const parts = path.split("/");
		for (let i = 1; i <= parts.length; i++) {
			const p = join(this.workTree, ...parts.slice(0, i));
			let st: ReturnType<typeof lstatSync> | undefined;
			try {
				st = lstatSync(p);
			} catch {
				return;
			}
			const last = i === parts.length;
			if (last ? st.isDirectory() : !st.isDirectory()) {
				rmSync(p, { recursive: true, force: true });
				return;
			}
		}
	}

	private removeEmptyParents(paths: string[]): void {
		const dirs = new Set<string>();
		for (const p of paths) {
			let d = dirname(join(this.workTree, p));
			while (d !== this.workTree && d.startsWith(this.workTree + sep)) {
				dirs.add(d);
				d = dirname(d);
			}
		}
		for (const d of [...dirs].sort((a, b) => b.length - a.length)) {
			try {
				if (readdirSync(d).length === 0) rmdirSync(d);
			} catch {}
		}
	}

	/** Bytes the store's objects take on disk. */
	async sizeBytes(): Promise<number> {
		await this.init();
		const out = (await gitOk(this.target, ["count-objects", "-v"])).toString();
		const kib = (key: string) => Number(new RegExp(`^${key}: (\\d+)`, "m").exec(out)?.[1] ?? 0);
		return (kib("size") + kib("size-pack") + kib("size-garbage")) * 1024;
	}

	/** Every checkpoint the store holds, oldest first. */
	async list(): Promise<{ commit: string; time: number }[]> {
		await this.init();
		const out = (
			await gitOk(this.target, ["for-each-ref", "--format=%(objectname) %(committerdate:unix)", REF_PREFIX])
		).toString();
		return out
			.split("\n")
			.filter(Boolean)
			.map((line) => {
				const [commit = "", time = "0"] = line.split(" ");
				return { commit, time: Number(time) * 1000 };
			})
			.sort((a, b) => a.time - b.time);
	}

	/** Drops checkpoints (refs) and lets gc reclaim what only they held. */
	async drop(commits: string[]): Promise<void> {
		if (commits.length === 0) return;
		await this.init();
		await this.serial(async () => {
			const script = commits.map((c) => `delete ${REF_PREFIX}${c}\n`).join("");
			await gitOk(this.target, ["update-ref", "--stdin"], script);
			for (const [tree, commit] of this.commitOfTree) if (commits.includes(commit)) this.commitOfTree.delete(tree);
			if (this.lastScan && commits.includes(this.lastScan.commit)) this.lastScan = undefined;
		});
		// Outside the queue: gc does not touch the index, and the grace period keeps
		// objects a concurrent snapshot has just written.
		await gitOk(this.target, ["gc", "-q", "--prune=1.hour.ago"]);
	}
}

function readText(file: string): string | undefined {
	try {
		return readFileSync(file, "utf8");
	} catch {
		return undefined;
	}
}

/** Why a directory could not be created: the nearest existing ancestor is read-only or not writable, or the errno. */
function unwritableReason(dir: string, error: unknown): string {
	let parent = dirname(dir);
	while (!existsSync(parent) && dirname(parent) !== parent) parent = dirname(parent);
	try {
		accessSync(parent, constants.W_OK);
	} catch (access) {
		const code = (access as NodeJS.ErrnoException).code;
		return code === "EROFS" ? `${parent} is on a read-only file system` : `${parent} is not writable (${code})`;
	}
	return (error as NodeJS.ErrnoException).code ?? String(error);
}
