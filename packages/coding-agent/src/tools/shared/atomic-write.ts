/**
 * How `write` and `edit` put new content into a file. The rule: the path must
 * still be the same kind of thing afterwards, owned by the same user, with the
 * same links — only its content changes.
 *
 * - A regular file with one link (the usual case) is replaced atomically: the
 *   content goes to `.<name>.<hex>.tmp` in the same directory, gets the
 *   target's mode (and owner, when that is allowed), is fsync'ed and renamed
 *   over the target. A reader or a crash sees the old or the new file.
 * - A symlink is followed to its final target, which is written as above; the
 *   link itself stays. A dangling symlink gets its target created (what a
 *   shell's `>` does), provided the target's directory exists.
 * - Where a rename would change what the path is — a hard-linked file (the
 *   other names would keep the old text), a file whose owner this process
 *   cannot give to a new file, a directory we may not create files in — the
 *   file is written in place: same inode, owner, mode and links. The new bytes
 *   are written over the old ones, then the file is cut to length and
 *   fsync'ed; a crash in the middle of that can leave a mix of old and new
 *   bytes (there is no atomic in-place write on POSIX).
 *
 * The usual path's metadata calls and the write of the temp file are
 * synchronous: each is microseconds of kernel work, while a trip through
 * libuv's thread pool costs a thread wake-up both ways (milliseconds on a
 * loaded machine, a dozen of them per write). The fsync, which can wait on
 * the disk, and the rename stay asynchronous.
 * - Anything else (directory, device, FIFO, socket) is refused: writing to it
 *   through a rename would replace a system node by a regular file.
 */
import { randomUUID } from "node:crypto";
import type { Stats } from "node:fs";
import {
	closeSync,
	constants,
	fchmodSync,
	fchownSync,
	promises as fs,
	fstatSync,
	fsync,
	lstatSync,
	openSync,
	readlinkSync,
	rename,
	unlinkSync,
	writeSync,
} from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { forgetTempFile, rememberTempFile } from "./temp-files.js";

/** Thrown for targets that are not regular files; `describeFsError` turns it into a clear message. */
export class NotRegularFileError extends Error {
	readonly code = "ENOTREGULAR";
	constructor(
		readonly path: string,
		readonly kind: string,
	) {
		super(`${path} is a ${kind}, not a regular file`);
		this.name = "NotRegularFileError";
	}
}

export function fileKind(st: Stats): string {
	if (st.isFile()) return "regular file";
	if (st.isDirectory()) return "directory";
	if (st.isCharacterDevice()) return "character device";
	if (st.isBlockDevice()) return "block device";
	if (st.isFIFO()) return "FIFO (named pipe)";
	if (st.isSocket()) return "socket";
	return "special file";
}

function isDirError(path: string): Error {
	return Object.assign(new Error(`EISDIR: ${path} is a directory`), { code: "EISDIR" });
}

/** Refuses anything that is not a regular file. */
export function assertRegular(st: Stats, path: string): void {
	if (st.isDirectory()) throw isDirError(path);
	if (!st.isFile()) throw new NotRegularFileError(path, fileKind(st));
}

const MAX_LINK_HOPS = 40;

/**
 * Follows symlinks to the path that will really be written, without needing
 * the final target to exist. Returns its stats when it exists.
 */
export function resolveWriteTarget(path: string): { target: string; stat?: Stats; linked: boolean } {
	let current = resolve(path);
	for (let hops = 0; hops <= MAX_LINK_HOPS; hops++) {
		const linked = hops > 0;
		let st: Stats;
		try {
			st = lstatSync(current);
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code === "ENOENT") return { target: current, linked };
			throw error;
		}
		if (!st.isSymbolicLink()) return { target: current, stat: st, linked };
		const link = readlinkSync(current);
		current = resolve(dirname(current), link);
	}
	throw Object.assign(new Error(`ELOOP: too many symbolic links: ${path}`), { code: "ELOOP" });
}

/** Writes `data` into the existing file at `target` without replacing it (same inode). */
async function writeInPlace(target: string | Buffer, data: Uint8Array, expected: Stats): Promise<void> {
	// O_NONBLOCK: should the path have become a FIFO since the stat, open must not wait for a reader.
	const handle = await fs.open(target, constants.O_WRONLY | constants.O_NONBLOCK);
	try {
		const st = await handle.stat();
		assertRegular(st, target.toString());
		if (st.ino !== expected.ino || st.dev !== expected.dev) {
			throw Object.assign(new Error(`${target} was replaced while being written`), { code: "ECHANGED" });
		}
		let off = 0;
		while (off < data.length) {
			const { bytesWritten } = await handle.write(data, off, data.length - off, off);
			off += bytesWritten;
		}
		await handle.truncate(data.length);
		await handle.sync();
	} finally {
		await handle.close();
	}
}

/**
 * For an existing file whose name is not valid UTF-8 (given as raw bytes): the
 * temp-name-and-rename machinery works on string paths, so the content goes
 * into the file itself (same inode, not atomic). Only `edit` gets here, on a
 * file it has just read.
 */
export async function writeRawPathInPlace(target: Buffer, content: string): Promise<void> {
	const st = await fs.stat(target);
	assertRegular(st, target.toString("utf8"));
	return writeInPlace(target, Buffer.from(content, "utf8"), st);
}

/**
 * 48 random bits as 12 hex digits: the first 12 of a v4 UUID (all random; the version digit comes
 * after). randomUUID draws from a pool Node fills once, and session ids use it from the start, so a
 * write does not pay randomBytes' first use (~0.3M instructions of a -p tool loop).
 */
function randomHex12(): string {
	const uuid = randomUUID();
	return uuid.slice(0, 8) + uuid.slice(9, 13);
}

function tempNameFor(target: string): string {
	return join(dirname(target), `.${basename(target)}.${randomHex12()}.tmp`);
}

export interface AtomicWriteOptions {
	/** Checked before the rename: an aborted write removes its temp file and leaves the target untouched. */
	signal?: AbortSignal;
}

export async function atomicWriteFile(
	path: string,
	content: string | Uint8Array,
	options: AtomicWriteOptions = {},
): Promise<void> {
	const data = typeof content === "string" ? Buffer.from(content, "utf8") : content;
	const { target, stat, linked } = resolveWriteTarget(path);
	if (stat) {
		assertRegular(stat, target);
		// Another name shares this inode: a rename would split them.
		if (stat.nlink > 1) return writeInPlace(target, data, stat);
	}
	const mode = stat ? stat.mode & 0o7777 : undefined;
	const temp = tempNameFor(target);
	rememberTempFile(temp);
	let fd: number;
	try {
		fd = openSync(temp, "wx", mode ?? 0o666);
	} catch (error) {
		forgetTempFile(temp);
		const code = (error as NodeJS.ErrnoException).code;
		// A dangling link is written through only when its target's directory exists; links are never mkdir'ed through.
		if (code === "ENOENT" && linked) {
			throw Object.assign(new Error(`it is a symbolic link to ${target}, whose directory does not exist`), {
				code: "EDANGLING",
			});
		}
		// Directory not writable but the file is: write it in place.
		if ((code === "EACCES" || code === "EPERM" || code === "EROFS") && stat) return writeInPlace(target, data, stat);
		throw error;
	}
	let inPlace = false;
	try {
		try {
			let off = 0;
			while (off < data.length) off += writeSync(fd, data, off, data.length - off, off);
			if (mode !== undefined) fchmodSync(fd, mode);
			if (stat) {
				const made = fstatSync(fd);
				if (made.uid !== stat.uid || made.gid !== stat.gid) {
					try {
						fchownSync(fd, stat.uid, stat.gid);
						// chown clears set-id bits: put them back.
						if (mode !== undefined) fchmodSync(fd, mode);
					} catch {
						// Not allowed to give the file its owner: keep the original inode instead.
						inPlace = true;
					}
				}
			}
			if (!inPlace) {
				await fsyncFd(fd);
				options.signal?.throwIfAborted();
			}
		} finally {
			closeSync(fd);
		}
		if (inPlace && stat) {
			removeIfThere(temp);
			forgetTempFile(temp);
			return writeInPlace(target, data, stat);
		}
		await renameFile(temp, target);
		forgetTempFile(temp);
	} catch (error) {
		removeIfThere(temp);
		forgetTempFile(temp);
		throw error;
	}
}

// The callback forms, not fs.promises: a write is often a run's first use of fs.promises, whose
// first access loads and initialises node:fs/promises (with its readline and watcher modules).
function fsyncFd(fd: number): Promise<void> {
	return new Promise((resolve, reject) => fsync(fd, (error) => (error ? reject(error) : resolve())));
}

function renameFile(from: string, to: string): Promise<void> {
	return new Promise((resolve, reject) => rename(from, to, (error) => (error ? reject(error) : resolve())));
}

function removeIfThere(path: string): void {
	try {
		unlinkSync(path);
	} catch {
		// Already gone (or never made): nothing to clean up.
	}
}
