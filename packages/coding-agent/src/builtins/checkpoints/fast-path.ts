// The incremental snapshot without git processes: the watcher names the
// paths that changed since the last snapshot, each is looked at once (lstat,
// read, hash), new ones are asked of `git check-ignore` (a long-lived
// process), and the trees on their paths are re-written from the in-memory
// model. A full scan by git stays the reference: it runs first, and again
// whenever the watcher cannot vouch for its list (then `snapshot` returns
// undefined and the store scans).
import { type Dirent, existsSync, lstatSync, readdirSync, readFileSync, readlinkSync, type Stats } from "node:fs";
import { join, relative, sep } from "node:path";
import type { GitTarget } from "./git.js";
import { IgnoreChecker } from "./ignore-check.js";
import { writeObject } from "./objects.js";
import type { TreeModel } from "./tree-model.js";
import { TreeWatcher } from "./watcher.js";

export interface FastSnapshot {
	tree: string;
	skipped: string[];
}

export class FastPath {
	private watcher: TreeWatcher | undefined;
	private ignore: IgnoreChecker | undefined;
	private model: TreeModel | undefined;
	/** Lists the last full scan's tree into `model`, on the first incremental snapshot that needs it. */
	private loadModel: (() => Promise<TreeModel>) | undefined;
	/** Files over the size limit as of the last look (named in every snapshot, like the full scan does). */
	private big = new Set<string>();
	private readonly excluded: string[];

	constructor(
		private readonly target: GitTarget,
		private readonly maxFileBytes: number,
		excludeDirs: string[],
	) {
		this.excluded = excludeDirs
			.map((d) => relative(target.workTree, d))
			.filter((r) => r !== "" && !r.startsWith("..") && !r.startsWith(sep))
			.map((r) => r.split(sep).join("/"));
	}

	/** Why the watcher is not usable, when it is not. */
	get lost(): string | undefined {
		return this.watcher ? this.watcher.lost : "not started";
	}

	get ready(): boolean {
		const model = this.model !== undefined || this.loadModel !== undefined;
		return model && this.watcher !== undefined && this.watcher.lost === undefined;
	}

	/** (Re)starts watching every folder git does not ignore; false when that failed (`lost` says why). */
	async start(): Promise<boolean> {
		this.close();
		this.watcher = new TreeWatcher(this.target.workTree);
		this.ignore = new IgnoreChecker(this.target);
		try {
			await this.walk([""], undefined);
		} catch (error) {
			this.close();
			throw error;
		}
		return this.watcher?.lost === undefined;
	}

	/** After a full scan: its tree is what the next incremental snapshot starts from. */
	adopt(model: TreeModel, skipped: string[]): void {
		this.model = model;
		this.loadModel = undefined;
		this.big = new Set(skipped);
	}

	/** `adopt`, with the model made by `load` when the next snapshot needs it. */
	adoptLater(load: () => Promise<TreeModel>, skipped: string[]): void {
		this.model = undefined;
		this.loadModel = load;
		this.big = new Set(skipped);
	}

	close(): void {
		this.watcher?.close();
		this.ignore?.close();
		this.watcher = undefined;
		this.ignore = undefined;
		this.model = undefined;
		this.loadModel = undefined;
	}

	private skip(rel: string): boolean {
		if (rel.split("/").includes(".git")) return true;
		return this.excluded.some((d) => rel === d || rel.startsWith(`${d}/`));
	}

	/**
	 * Watches the folders `level` and everything under them that is not
	 * ignored; with `files`, collects the files found (new folders' contents).
	 * A folder is watched before it is read, so nothing created meanwhile is missed.
	 */
	private async walk(level: string[], files: string[] | undefined): Promise<void> {
		const watcher = this.watcher;
		const ignore = this.ignore;
		if (!watcher || !ignore) return;
		let current = level;
		while (current.length > 0) {
			const subdirs: string[] = [];
			for (const dir of current) {
				if (!watcher.watch(dir)) continue;
				let names: Dirent[];
				try {
					names = readdirSync(dir === "" ? this.target.workTree : join(this.target.workTree, dir), {
						withFileTypes: true,
					});
				} catch {
					continue;
				}
				for (const ent of names) {
					const rel = dir === "" ? ent.name : `${dir}/${ent.name}`;
					if (ent.name === ".git" || this.skip(rel)) continue;
					if (ent.isDirectory()) {
						// A nested repository is its own business (the full scan skips it too).
						if (!existsSync(join(this.target.workTree, rel, ".git"))) subdirs.push(rel);
					} else if (files && (ent.isFile() || ent.isSymbolicLink())) files.push(rel);
				}
			}
			if (watcher.lost) return;
			const ignored = await ignore.check(subdirs);
			current = subdirs.filter((_, i) => !ignored[i]);
		}
	}

	/** A snapshot of what changed since the last one; undefined when a full scan is needed. */
	async snapshot(): Promise<FastSnapshot | undefined> {
		if (!this.model && this.loadModel) {
			const load = this.loadModel;
			this.loadModel = undefined;
			this.model = await load();
		}
		const { watcher, ignore, model } = this;
		if (!watcher || !ignore || !model) return undefined;
		await watcher.settle();
		if (watcher.lost) return undefined;
		const paths = watcher.take();
		// Ignore rules changed: what is in or out may differ anywhere.
		if (paths.some((p) => p === ".gitignore" || p.endsWith("/.gitignore"))) return undefined;
		const candidates: string[] = [];
		const newDirs: string[] = [];
		for (const p of paths.sort()) {
			if (this.skip(p)) continue;
			let st: Stats | undefined;
			try {
				st = lstatSync(join(this.target.workTree, p));
			} catch {}
			if (!st?.isDirectory()) {
				if (watcher.watchedIno(p) !== undefined) watcher.unwatchUnder(p);
			}
			if (!st) {
				model.remove(p);
				this.forgetBig(p);
				continue;
			}
			if (st.isDirectory()) {
				if (model.kind(p) === "file") model.remove(p);
				this.big.delete(p);
				// A watched folder reports its own children; a new (or replaced) one is read whole.
				if (watcher.watchedIno(p) === st.ino) continue;
				watcher.unwatchUnder(p);
				if (!existsSync(join(this.target.workTree, p, ".git"))) newDirs.push(p);
				continue;
			}
			if (model.kind(p) === "dir") {
				model.remove(p);
				this.forgetBig(p);
			}
			if (!st.isFile() && !st.isSymbolicLink()) {
				model.remove(p);
				continue;
			}
			// Tracked files stay tracked whatever the ignore rules say (as in git's index).
			if (model.kind(p) === "file") this.put(p, st);
			else candidates.push(p);
		}
		if (newDirs.length > 0) {
			const ignored = await ignore.check(newDirs);
			await this.walk(
				newDirs.filter((_, i) => !ignored[i]),
				candidates,
			);
		}
		const eligible = [...new Set(candidates)].filter((p) => !this.inNestedRepo(p));
		const ignored = await ignore.check(eligible);
		for (let i = 0; i < eligible.length; i++) {
			const p = eligible[i];
			if (p === undefined || ignored[i]) continue;
			let st: Stats | undefined;
			try {
				st = lstatSync(join(this.target.workTree, p));
			} catch {}
			if (st && (st.isFile() || st.isSymbolicLink())) this.put(p, st);
		}
		if (watcher.lost) return undefined;
		return { tree: model.writeTrees(this.target.gitDir), skipped: [...this.big].sort() };
	}

	private forgetBig(p: string): void {
		const prefix = `${p}/`;
		for (const b of this.big) if (b === p || b.startsWith(prefix)) this.big.delete(b);
	}

	/** True when a folder between the root and `p` is another repository. */
	private inNestedRepo(p: string): boolean {
		const parts = p.split("/");
		for (let i = 1; i < parts.length; i++) {
			if (existsSync(join(this.target.workTree, ...parts.slice(0, i), ".git"))) return true;
		}
		return false;
	}

	/** Hashes the file at `p` into the store and the model (over the size limit: the old version stays, named). */
	private put(p: string, st: Stats): void {
		const model = this.model;
		if (!model) return;
		if (st.isFile() && st.size > this.maxFileBytes) {
			this.big.add(p);
			return;
		}
		this.big.delete(p);
		const abs = join(this.target.workTree, p);
		let content: Buffer;
		try {
			content = st.isSymbolicLink() ? readlinkSync(abs, { encoding: "buffer" }) : readFileSync(abs);
		} catch {
			model.remove(p);
			return;
		}
		const mode = st.isSymbolicLink() ? "120000" : st.mode & 0o100 ? "100755" : "100644";
		model.setFile(p, mode, writeObject(this.target.gitDir, "blob", content));
	}
}
