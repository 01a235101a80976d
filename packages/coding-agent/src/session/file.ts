// The session file on disk: appends one whole line per write(2) through an
// O_APPEND descriptor, synced before `append` returns, and never rewrites
// existing bytes. Before each append it checks that the file is still the
// one it loaded (same inode, same size): a deleted file is re-created from
// memory, a replaced or externally grown one is a conflict, not a silent
// redirect.
import {
	closeSync,
	constants,
	fdatasyncSync,
	fstatSync,
	fsyncSync,
	linkSync,
	mkdirSync,
	openSync,
	statSync,
	unlinkSync,
} from "node:fs";
import { dirname } from "node:path";
import { readFully, writeFully } from "./fd-io.js";
import { reacquireSessionLock, type SessionLock } from "./lock.js";
import type { SessionLoadWarning } from "./types.js";

/** "fsync": data reaches the disk before append returns; "write": it reaches the OS (survives a crash of pi, not of the machine). */
export type Durability = "fsync" | "write";

/** The file no longer matches what this process loaded. */
export class SessionConflictError extends Error {
	constructor(
		readonly sessionFile: string,
		detail: string,
	) {
		super(`Session ${sessionFile} ${detail}; reopen it (or fork it) to continue`);
		this.name = "SessionConflictError";
	}
}

/** Writing failed (disk full, read-only, permissions). Nothing already on disk was changed. */
export class SessionWriteError extends Error {
	constructor(
		readonly sessionFile: string,
		override readonly cause: unknown,
	) {
		const code = (cause as NodeJS.ErrnoException)?.code;
		super(`Cannot write session ${sessionFile}: ${code ? `${code} ` : ""}${(cause as Error)?.message ?? cause}`);
		this.name = "SessionWriteError";
	}
}

function errno(e: unknown): string | undefined {
	return (e as NodeJS.ErrnoException)?.code;
}

export function fsyncDir(dir: string): void {
	try {
		const fd = openSync(dir, "r");
		try {
			fsyncSync(fd);
		} finally {
			closeSync(fd);
		}
	} catch {
		// Not supported everywhere (e.g. some network file systems); the data itself is synced.
	}
}

export class SessionFile {
	private closed = false;
	/** Lines written but not yet fdatasync'ed (appends made under `SessionManager.deferSync`). */
	private unsynced = false;

	private constructor(
		readonly path: string,
		private fd: number,
		private lock: SessionLock | undefined,
		readonly writable: boolean,
		private size: number,
		private needsNewline: boolean,
		private readonly durability: Durability,
	) {}

	/** Read-only access (for lazy entry reads and forking sources). */
	static openForRead(path: string): SessionFile {
		const fd = openSync(path, "r");
		return new SessionFile(path, fd, undefined, false, fstatSync(fd).size, false, "write");
	}

	/** Append to an existing file whose first `size` bytes were loaded. */
	static openForAppend(
		path: string,
		lock: SessionLock,
		size: number,
		endsWithNewline: boolean,
		durability: Durability,
	): SessionFile {
		const fd = openSync(path, constants.O_RDWR | constants.O_APPEND);
		return new SessionFile(path, fd, lock, true, size, !endsWithNewline, durability);
	}

	/** Create a new file holding `text` (header + first entries), failing if the path exists. */
	static createExclusive(path: string, text: string, lock: SessionLock, durability: Durability): SessionFile {
		mkdirSync(dirname(path), { recursive: true });
		let fd: number;
		try {
			fd = openSync(path, constants.O_CREAT | constants.O_EXCL | constants.O_RDWR | constants.O_APPEND, 0o644);
		} catch (e) {
			if (errno(e) === "EEXIST") throw new SessionConflictError(path, "was created by another process meanwhile");
			throw new SessionWriteError(path, e);
		}
		const buf = Buffer.from(text);
		try {
			writeFully(fd, buf);
			if (durability === "fsync") fdatasyncSync(fd);
		} catch (e) {
			closeSync(fd);
			// Only a file we just created and could not fill: remove it rather than leave half a header.
			try {
				unlinkSync(path);
			} catch {
				// leave it
			}
			throw new SessionWriteError(path, e);
		}
		if (durability === "fsync") fsyncDir(dirname(path));
		return new SessionFile(path, fd, lock, true, buf.length, false, durability);
	}

	get byteSize(): number {
		return this.size;
	}

	/** Whether the next append will first terminate a partial last line. */
	get pendingNewline(): boolean {
		return this.needsNewline;
	}

	/** The bytes [offset, offset + length) of the file (fewer at its end). */
	readAt(offset: number, length: number): Buffer {
		const buf = Buffer.allocUnsafe(length);
		const got = readFully(this.fd, buf, offset);
		return got === length ? buf : buf.subarray(0, got);
	}

	/**
	 * Append one line (without its "\n"). `rebuild` produces the complete file
	 * text from memory, used when the file was deleted under us.
	 * Returns the byte offset where the line starts.
	 */
	append(
		line: string,
		rebuild: () => string,
		warn: (w: SessionLoadWarning) => void,
		/** False: write now (a killed process loses nothing), sync at the next `sync()` with what follows. */
		syncNow = true,
	): number {
		if (!this.writable || this.closed) throw new Error(`Session ${this.path} is not open for writing`);
		this.checkIdentity(rebuild, warn);
		const prefix = this.needsNewline ? "\n" : "";
		const buf = Buffer.from(`${prefix}${line}\n`);
		try {
			writeFully(this.fd, buf);
			if (this.durability === "fsync") {
				if (syncNow) {
					fdatasyncSync(this.fd);
					this.unsynced = false;
				} else this.unsynced = true;
			}
		} catch (e) {
			// Some bytes may have landed: resync our view so the next append starts a fresh line.
			try {
				const now = fstatSync(this.fd).size;
				if (now !== this.size) {
					this.size = now;
					this.needsNewline = true;
				}
			} catch {
				// keep the old view
			}
			throw new SessionWriteError(this.path, e);
		}
		const start = this.size + prefix.length;
		this.size += buf.length;
		this.needsNewline = false;
		return start;
	}

	/** Lines were written without their fdatasync yet. */
	get hasUnsynced(): boolean {
		return this.unsynced;
	}

	/** fdatasync lines appended without a sync (one call for all of them). */
	sync(): void {
		if (!this.unsynced || this.closed) return;
		try {
			fdatasyncSync(this.fd);
		} catch (e) {
			throw new SessionWriteError(this.path, e);
		}
		this.unsynced = false;
	}

	private checkIdentity(rebuild: () => string, warn: (w: SessionLoadWarning) => void): void {
		let onDisk: ReturnType<typeof statSync> | undefined;
		try {
			onDisk = statSync(this.path);
		} catch (e) {
			if (errno(e) !== "ENOENT") throw new SessionWriteError(this.path, e);
		}
		const mine = fstatSync(this.fd);
		if (!onDisk) {
			this.recreate(rebuild);
			warn({
				file: this.path,
				line: 0,
				byteOffset: 0,
				message: "session file was deleted while in use; re-created from memory",
			});
			return;
		}
		if (onDisk.ino !== mine.ino || onDisk.dev !== mine.dev) {
			throw new SessionConflictError(this.path, "was replaced by another file while in use");
		}
		if (mine.size !== this.size) {
			throw new SessionConflictError(
				this.path,
				`was changed by another process (size ${mine.size}, expected ${this.size})`,
			);
		}
	}

	private recreate(rebuild: () => string): void {
		const text = rebuild();
		const dir = dirname(this.path);
		const tmp = `${this.path}.${process.pid}.recreate.tmp`;
		try {
			mkdirSync(dir, { recursive: true });
			const fd = openSync(tmp, "w", 0o644);
			try {
				writeFully(fd, Buffer.from(text));
				fsyncSync(fd);
			} finally {
				closeSync(fd);
			}
			linkSync(tmp, this.path);
		} catch (e) {
			if (errno(e) === "EEXIST") throw new SessionConflictError(this.path, "was re-created by another process");
			throw new SessionWriteError(this.path, e);
		} finally {
			try {
				unlinkSync(tmp);
			} catch {
				// not created
			}
		}
		fsyncDir(dir);
		closeSync(this.fd);
		this.fd = openSync(this.path, constants.O_RDWR | constants.O_APPEND);
		this.size = fstatSync(this.fd).size;
		this.needsNewline = false;
		this.unsynced = false; // the re-created file was synced whole
		if (this.lock) this.lock = reacquireSessionLock(this.path, this.lock);
	}

	close(): void {
		if (this.closed) return;
		try {
			this.sync();
		} catch {
			// Closing still releases the file; what was written stays written.
		}
		this.closed = true;
		try {
			closeSync(this.fd);
		} finally {
			this.lock?.release();
		}
	}
}
