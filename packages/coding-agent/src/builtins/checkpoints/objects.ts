// Writes git objects (blob, tree, commit) and refs straight into the shadow
// store, without starting git: an incremental snapshot of a few changed files
// then costs microseconds instead of four or five git processes. The formats
// are git's loose-object and loose-ref formats (SHA-1 stores, files ref
// backend); `fastPathSupported` says whether a store qualifies.
import { createHash, randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type * as Zlib from "node:zlib";

// node:zlib is not among the modules Node starts with: loading it costs a module
// compile and init at registration, in every run, also those that never write an
// object (--no-session, read-only turns). It is required on the first object instead.
const load = createRequire(import.meta.url);
let zlib: typeof Zlib | undefined;
const deflateSync: typeof Zlib.deflateSync = (buffer, options) => {
	zlib ??= load("node:zlib") as typeof Zlib;
	return zlib.deflateSync(buffer, options);
};

export type ObjectType = "blob" | "tree" | "commit";

/**
 * 48 random bits as 12 hex digits for a temporary name: the first 12 of a v4 UUID. randomUUID draws
 * from a pool Node fills once (session ids use it from the start), so the first object of a run
 * does not pay randomBytes' first use.
 */
function randomHex12(): string {
	const uuid = randomUUID();
	return uuid.slice(0, 8) + uuid.slice(9, 13);
}

/** A store the fast path can write into: SHA-1 objects and loose refs (git's defaults). */
export function fastPathSupported(gitDir: string): boolean {
	if (existsSync(join(gitDir, "reftable"))) return false;
	try {
		const config = readFileSync(join(gitDir, "config"), "utf8");
		return !/^\s*objectformat\s*=\s*(?!sha1\b)/im.test(config);
	} catch {
		return false;
	}
}

/** The object id git gives `content` as `type`. */
export function objectId(type: ObjectType, content: Buffer): string {
	return createHash("sha1").update(`${type} ${content.length}\0`).update(content).digest("hex");
}

/** Stores one object (a no-op when the store has it) and returns its id. */
export function writeObject(gitDir: string, type: ObjectType, content: Buffer): string {
	const id = objectId(type, content);
	const dir = join(gitDir, "objects", id.slice(0, 2));
	const file = join(dir, id.slice(2));
	if (existsSync(file)) return id;
	mkdirSync(dir, { recursive: true });
	// Written aside, then renamed: a reader never sees half an object.
	const tmp = join(dir, `tmp_obj_${randomHex12()}`);
	writeFileSync(tmp, deflateSync(Buffer.concat([Buffer.from(`${type} ${content.length}\0`), content]), { level: 1 }), {
		mode: 0o444,
	});
	renameSync(tmp, file);
	return id;
}

export interface TreeEntry {
	name: string;
	/** "100644", "100755", "120000", "160000" or "40000". */
	mode: string;
	id: string;
}

/** A tree object's bytes: entries in git's order (a folder sorts as if its name ended in "/"). */
export function treeContent(entries: TreeEntry[]): Buffer {
	const key = (e: TreeEntry) => Buffer.from(e.mode === "40000" ? `${e.name}/` : e.name);
	const sorted = entries.map((e) => ({ e, k: key(e) })).sort((a, b) => Buffer.compare(a.k, b.k));
	const parts: Buffer[] = [];
	for (const { e } of sorted) parts.push(Buffer.from(`${e.mode} ${e.name}\0`), Buffer.from(e.id, "hex"));
	return Buffer.concat(parts);
}

/** A parentless commit of `tree`, as `git commit-tree` writes it with pi's identity. */
export function commitContent(tree: string, message: string, when = new Date()): Buffer {
	const stamp = `${Math.floor(when.getTime() / 1000)} +0000`;
	const who = "pi checkpoints <checkpoints@pi.invalid>";
	return Buffer.from(`tree ${tree}\nauthor ${who} ${stamp}\ncommitter ${who} ${stamp}\n\n${message}\n`);
}

/** Points the loose ref `name` (e.g. "refs/pi/c/<id>") at `id`. */
export function writeRef(gitDir: string, name: string, id: string): void {
	const file = join(gitDir, ...name.split("/"));
	mkdirSync(join(file, ".."), { recursive: true });
	// ".lock" names are never read as refs by git.
	const tmp = `${file}.${randomHex12()}.lock`;
	writeFileSync(tmp, `${id}\n`);
	renameSync(tmp, file);
}
