// One writer per session file, across processes.
//
// Why our own lock instead of proper-lockfile: proper-lockfile detects a dead
// holder only by an mtime heartbeat (stale after >= 2 s, default 10 s), so a
// pi killed with SIGKILL would block reopening its own session for seconds,
// and it keeps a timer alive. Session writers live on one machine, where the
// holder's pid can be checked directly. So: `<file>.lock` holds
// {pid, hostname, token, startTime}; it is created atomically with its
// content (write a private temp file, hard-link it into place: link fails if
// the lock exists); a lock whose process is gone (or whose pid now belongs to
// a process started later) is stale and broken under a short-lived breaker
// lock, so two processes can never both break and re-take it. A lock from
// another host is never broken automatically: the error names the file to
// remove.
import { randomUUID } from "node:crypto";
import { closeSync, linkSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from "node:fs";
import { hostname } from "node:os";

export class SessionLockedError extends Error {
	constructor(
		readonly sessionFile: string,
		readonly lockFile: string,
		readonly holderPid: number | undefined,
		detail: string,
	) {
		super(
			`Session ${sessionFile} is in use by another pi process${holderPid ? ` (pid ${holderPid})` : ""}: ${detail}. ` +
				`Continue it in a new session with --fork, or remove ${lockFile} if no other pi is running.`,
		);
		this.name = "SessionLockedError";
	}
}

interface LockInfo {
	pid: number;
	hostname: string;
	token: string;
	startTime?: string;
}

const heldTokens = new Map<string, string>(); // lock path → token held by this process
let exitHookInstalled = false;

function procStartTime(pid: number): string | undefined {
	try {
		// Field 22 of /proc/<pid>/stat (after the parenthesised command name) is the start time.
		const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
		return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
	} catch {
		return undefined;
	}
}

let myStartTimeCache: string | undefined | null = null;
function myStartTime(): string | undefined {
	if (myStartTimeCache === null) myStartTimeCache = procStartTime(process.pid);
	return myStartTimeCache;
}

function readLock(path: string): LockInfo | undefined | "missing" {
	try {
		const info = JSON.parse(readFileSync(path, "utf8")) as LockInfo;
		return typeof info.pid === "number" && typeof info.token === "string" ? info : undefined;
	} catch (e) {
		if ((e as NodeJS.ErrnoException).code === "ENOENT") return "missing";
		return undefined;
	}
}

/** Whether the holder may still be running. Errs on the side of "alive". */
function holderAlive(info: LockInfo): boolean {
	if (info.hostname !== hostname()) return true;
	if (info.pid === process.pid) {
		if ([...heldTokens.values()].includes(info.token)) return true;
		// Our pid but not our token: left by an earlier process that had the same pid (containers).
		return info.startTime !== undefined && info.startTime === myStartTime();
	}
	try {
		process.kill(info.pid, 0);
	} catch (e) {
		if ((e as NodeJS.ErrnoException).code === "ESRCH") return false;
		return true; // EPERM: exists, someone else's
	}
	if (info.startTime !== undefined) {
		const now = procStartTime(info.pid);
		if (now !== undefined && now !== info.startTime) return false; // pid reused
	}
	return true;
}

function createWithContent(path: string, content: string): boolean {
	const tmp = `${path}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`;
	const fd = openSync(tmp, "wx", 0o644);
	try {
		writeSync(fd, content);
	} catch (e) {
		// A full disk: the temp file must not stay behind in the user's session directory.
		closeSync(fd);
		try {
			unlinkSync(tmp);
		} catch {
			// already gone
		}
		throw e;
	}
	closeSync(fd);
	try {
		linkSync(tmp, path);
		return true;
	} catch (e) {
		if ((e as NodeJS.ErrnoException).code === "EEXIST") return false;
		throw e;
	} finally {
		try {
			unlinkSync(tmp);
		} catch {
			// already gone
		}
	}
}

function removeIfStillStale(lockPath: string, stale: LockInfo): void {
	const breaker = `${lockPath}.break`;
	const content = JSON.stringify({ pid: process.pid, hostname: hostname(), token: randomUUID() });
	if (!createWithContent(breaker, content)) {
		// Another process is breaking it. A breaker left by a crash expires quickly.
		try {
			if (Date.now() - statSync(breaker).mtimeMs > 5000) unlinkSync(breaker);
		} catch {
			// gone meanwhile
		}
		return;
	}
	try {
		const again = readLock(lockPath);
		if (again !== "missing" && again !== undefined && again.token === stale.token) unlinkSync(lockPath);
	} finally {
		unlinkSync(breaker);
	}
}

export interface SessionLock {
	readonly path: string;
	/** False when the lock file vanished or was taken over. */
	isHeld(): boolean;
	release(): void;
}

export function acquireSessionLock(sessionFile: string): SessionLock {
	const lockPath = `${sessionFile}.lock`;
	const token = randomUUID();
	const info: LockInfo = { pid: process.pid, hostname: hostname(), token, startTime: myStartTime() };
	for (let attempt = 0; attempt < 10; attempt++) {
		if (createWithContent(lockPath, JSON.stringify(info))) {
			heldTokens.set(lockPath, token);
			installExitHook();
			return makeLock(lockPath, token);
		}
		const holder = readLock(lockPath);
		if (holder === "missing") continue; // released meanwhile
		if (holder === undefined) {
			// Unreadable lock: never produced by this code (content is linked in whole).
			throw new SessionLockedError(sessionFile, lockPath, undefined, "its lock file is unreadable");
		}
		if (holderAlive(holder)) {
			const where = holder.hostname === hostname() ? "" : ` on host ${holder.hostname}`;
			throw new SessionLockedError(sessionFile, lockPath, holder.pid, `it is open for writing${where}`);
		}
		removeIfStillStale(lockPath, holder);
	}
	throw new SessionLockedError(sessionFile, lockPath, undefined, "could not take its lock");
}

function makeLock(lockPath: string, token: string): SessionLock {
	return {
		path: lockPath,
		isHeld() {
			const cur = readLock(lockPath);
			return cur !== "missing" && cur !== undefined && cur.token === token;
		},
		release() {
			if (heldTokens.get(lockPath) !== token) return;
			heldTokens.delete(lockPath);
			const cur = readLock(lockPath);
			if (cur !== "missing" && cur !== undefined && cur.token === token) {
				try {
					unlinkSync(lockPath);
				} catch {
					// already gone
				}
			}
		},
	};
}

function installExitHook(): void {
	if (exitHookInstalled) return;
	exitHookInstalled = true;
	process.on("exit", () => {
		for (const [path, token] of heldTokens) {
			const cur = readLock(path);
			if (cur !== "missing" && cur !== undefined && cur.token === token) {
				try {
					unlinkSync(path);
				} catch {
					// best effort
				}
			}
		}
		heldTokens.clear();
	});
}

/** Re-take a lock whose file vanished (e.g. the session directory was removed). */
export function reacquireSessionLock(sessionFile: string, old: SessionLock): SessionLock {
	if (old.isHeld()) return old;
	old.release();
	return acquireSessionLock(sessionFile);
}
