// The last snapshot's tree held in memory: folder → entries, with each
// folder's tree id cached. An incremental snapshot changes a few entries and
// re-writes only the trees on their paths to the root. Loaded from
// `git ls-tree -r -t -z` after a full (git) snapshot.
import { type TreeEntry, treeContent, writeObject } from "./objects.js";

interface Entry {
	mode: string;
	/** Object id; undefined for a folder whose tree must be written again. */
	id: string | undefined;
}

const DIR = "40000";

function parentOf(path: string): string {
	const i = path.lastIndexOf("/");
	return i < 0 ? "" : path.slice(0, i);
}

function nameOf(path: string): string {
	return path.slice(path.lastIndexOf("/") + 1);
}

export class TreeModel {
	/** Folder path ("" for the root) → its entries by name. */
	private readonly dirs = new Map<string, Map<string, Entry>>();
	private rootId: string | undefined;

	private constructor() {
		this.dirs.set("", new Map());
	}

	/** From `ls-tree -r -t -z` output ("<mode> <type> <id>\t<path>" records). */
	static fromLsTree(out: Buffer, rootTree: string): TreeModel {
		const model = new TreeModel();
		const text = out.toString("utf8");
		let start = 0;
		while (start < text.length) {
			let end = text.indexOf("\0", start);
			if (end < 0) end = text.length;
			const record = text.slice(start, end);
			start = end + 1;
			const tab = record.indexOf("\t");
			if (tab < 0) continue;
			const [mode = "", , id = ""] = record.slice(0, tab).split(" ");
			const path = record.slice(tab + 1);
			const m = mode === "040000" ? DIR : mode;
			model.entriesOf(parentOf(path)).set(nameOf(path), { mode: m, id });
			if (m === DIR) model.entriesOf(path);
		}
		model.rootId = rootTree;
		return model;
	}

	private entriesOf(dir: string): Map<string, Entry> {
		let entries = this.dirs.get(dir);
		if (!entries) {
			entries = new Map();
			this.dirs.set(dir, entries);
		}
		return entries;
	}

	/** The entry at `path` (a file, a folder, or a nested repository's commit). */
	kind(path: string): "file" | "dir" | undefined {
		const e = this.dirs.get(parentOf(path))?.get(nameOf(path));
		if (!e) return undefined;
		return e.mode === DIR ? "dir" : "file";
	}

	/** Marks `dir` and every folder above it as needing a new tree. */
	private touch(dir: string): void {
		this.rootId = undefined;
		let d = dir;
		while (d !== "") {
			const e = this.dirs.get(parentOf(d))?.get(nameOf(d));
			if (e) e.id = undefined;
			d = parentOf(d);
		}
	}

	/** Sets the file at `path` (folders on the way are created). */
	setFile(path: string, mode: string, id: string): void {
		const parent = parentOf(path);
		// Create the missing folders top-down so each is linked into its parent.
		const missing: string[] = [];
		for (let d = parent; d !== "" && this.kind(d) !== "dir"; d = parentOf(d)) missing.unshift(d);
		for (const d of missing) {
			if (this.kind(d) === "file") this.remove(d);
			this.entriesOf(parentOf(d)).set(nameOf(d), { mode: DIR, id: undefined });
			this.entriesOf(d);
		}
		const existing = this.dirs.get(parent)?.get(nameOf(path));
		if (existing?.mode === DIR) this.remove(path);
		else if (existing && existing.mode === mode && existing.id === id) return;
		this.entriesOf(parent).set(nameOf(path), { mode, id });
		this.touch(parent);
	}

	/** Removes the file or folder (with everything under it) at `path`; empty folders above go too. */
	remove(path: string): void {
		const parent = parentOf(path);
		const entries = this.dirs.get(parent);
		const e = entries?.get(nameOf(path));
		if (!entries || !e) return;
		entries.delete(nameOf(path));
		if (e.mode === DIR) {
			const prefix = `${path}/`;
			for (const d of [...this.dirs.keys()]) if (d === path || d.startsWith(prefix)) this.dirs.delete(d);
		}
		this.touch(parent);
		// git has no empty trees: a folder left empty leaves its parent too.
		if (parent !== "" && entries.size === 0) this.remove(parent);
	}

	/** Writes the trees that changed (deepest first) and returns the root tree id. */
	writeTrees(gitDir: string): string {
		if (this.rootId) return this.rootId;
		const write = (dir: string): string => {
			const entries = this.dirs.get(dir) ?? new Map<string, Entry>();
			const list: TreeEntry[] = [];
			for (const [name, e] of entries) {
				if (e.mode === DIR && e.id === undefined) e.id = write(dir === "" ? name : `${dir}/${name}`);
				list.push({ name, mode: e.mode, id: e.id ?? "" });
			}
			return writeObject(gitDir, "tree", treeContent(list));
		};
		this.rootId = write("");
		return this.rootId;
	}
}
