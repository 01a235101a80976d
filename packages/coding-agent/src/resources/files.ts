// File access shared by the resource loaders, hardened against bad input:
// a size cap (a 5 MB SKILL.md is skipped, not parsed), binary detection (NUL
// bytes or invalid UTF-8), non-regular files (FIFOs, sockets, devices: never
// opened, so never a hang), and a directory walk that follows symlinks but
// remembers canonical paths, so a symlink loop ends instead of recursing.
import { closeSync, fstatSync, openSync, readdirSync, readSync, realpathSync, statSync } from "node:fs";
import { join } from "node:path";

/** Largest skill, template or theme file read (bytes). */
export const MAX_RESOURCE_FILE_BYTES = 1024 * 1024;
/** Deepest directory level a walk descends to below its root. */
export const MAX_WALK_DEPTH = 12;
/** Most directories one walk visits. */
export const MAX_WALK_DIRS = 5000;

export type TextRead = { ok: true; text: string } | { ok: false; reason: string; missing?: boolean };

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Reads a small text file, refusing anything large, binary or not a regular file. */
export function readResourceText(path: string, maxBytes = MAX_RESOURCE_FILE_BYTES): TextRead {
	let stat: ReturnType<typeof statSync>;
	try {
		stat = statSync(path);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ELOOP") return { ok: false, reason: "symlink loop" };
		return { ok: false, reason: `cannot read (${code ?? String(error)})`, missing: code === "ENOENT" };
	}
	if (!stat.isFile()) return { ok: false, reason: "not a regular file" };
	if (stat.size > maxBytes) {
		return { ok: false, reason: `file too large (${stat.size} bytes, limit ${maxBytes})` };
	}
	let fd: number | undefined;
	try {
		fd = openSync(path, "r");
		// Size again on the open file: it may have changed since the stat.
		const size = Math.min(fstatSync(fd).size, maxBytes + 1);
		const buffer = Buffer.alloc(size);
		let read = 0;
		while (read < size) {
			const n = readSync(fd, buffer, read, size - read, read);
			if (n === 0) break;
			read += n;
		}
		if (read > maxBytes) return { ok: false, reason: `file too large (limit ${maxBytes} bytes)` };
		const bytes = buffer.subarray(0, read);
		if (bytes.includes(0)) return { ok: false, reason: "binary file (contains NUL bytes)" };
		let text: string;
		try {
			text = utf8.decode(bytes);
		} catch {
			return { ok: false, reason: "not valid UTF-8 text" };
		}
		return { ok: true, text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text };
	} catch (error) {
		return { ok: false, reason: `cannot read (${(error as NodeJS.ErrnoException).code ?? String(error)})` };
	} finally {
		if (fd !== undefined) closeSync(fd);
	}
}

export type PathKind = "file" | "dir" | "missing" | "other";

/** What a path is after following symlinks (a loop or broken link is `missing`). */
export function pathKind(path: string): PathKind {
	try {
		const s = statSync(path);
		return s.isFile() ? "file" : s.isDirectory() ? "dir" : "other";
	} catch {
		return "missing";
	}
}

export function canonicalPath(path: string): string {
	try {
		return realpathSync(path);
	} catch {
		return path;
	}
}

export interface DirEntry {
	name: string;
	path: string;
	kind: PathKind;
}

/** Entries of a directory, sorted by name, symlinks resolved; [] when unreadable. */
export function listDir(dir: string): DirEntry[] {
	let names: string[];
	try {
		names = readdirSync(dir);
	} catch {
		return [];
	}
	return names.sort().map((name) => {
		const path = join(dir, name);
		return { name, path, kind: pathKind(path) };
	});
}

export interface WalkGuard {
	/** Canonical paths of the directories already entered. */
	seen: Set<string>;
	visited: number;
	/** Set when a limit stopped the walk (reported once by the caller). */
	truncated?: string;
}

export function newWalkGuard(): WalkGuard {
	return { seen: new Set(), visited: 0 };
}

/**
 * Marks a directory as entered; false when it was entered before (a symlink
 * loop or a second link to it) or a limit is reached.
 */
export function enterDir(guard: WalkGuard, dir: string, depth: number): boolean {
	if (depth > MAX_WALK_DEPTH) {
		guard.truncated ??= `directory nesting deeper than ${MAX_WALK_DEPTH} levels not searched`;
		return false;
	}
	if (guard.visited >= MAX_WALK_DIRS) {
		guard.truncated ??= `stopped after ${MAX_WALK_DIRS} directories`;
		return false;
	}
	const key = canonicalPath(dir);
	if (guard.seen.has(key)) return false;
	guard.seen.add(key);
	guard.visited++;
	return true;
}
