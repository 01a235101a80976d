// A session's file on disk, as SessionManager gets hold of it: opening an
// existing file (the writer lock, loading its lines into the tree, a handle
// that appends or only reads) and the lazy creation of a new one (its
// directory, the lock, header and buffered entries in one exclusive write).
// Failures name the session file; a directory that cannot be created names
// the ancestor that is read-only or not writable.
import { accessSync, existsSync, constants as fsConstants, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { type Durability, SessionFile, SessionWriteError } from "./file.js";
import { type LoadState, loadSessionFile } from "./load.js";
import { acquireSessionLock, type SessionLock, SessionLockedError } from "./lock.js";
import type { SessionTree } from "./tree.js";
import type { SessionLoadWarning } from "./types.js";

export type OpenedSessionFile =
	/** The file holds nothing: the caller writes a header first (with `lock`, unless opened read-only). */
	| { kind: "empty"; lock: SessionLock | undefined }
	/**
	 * Entries loaded into the tree. `file` appends when the lock was taken and
	 * the header is sound; otherwise it only reads (`headerProblem` says why).
	 */
	| {
			kind: "loaded";
			header: LoadState["header"];
			headerProblem: string | undefined;
			file: SessionFile;
			/** Writes the session's index (see load.ts `SessionFileLoad.saveIndex`), when there is one to write. */
			saveIndex: (() => void) | undefined;
	  };

/** Opens an existing session file into `tree`; takes the writer lock unless `readOnly`. */
export function openSessionFile(
	path: string,
	tree: SessionTree,
	o: { readOnly?: boolean; durability: Durability; warn: (warning: SessionLoadWarning) => void },
): OpenedSessionFile {
	const lock = o.readOnly ? undefined : acquireSessionLock(path);
	try {
		const { state, summary, saveIndex } = loadSessionFile(path, tree);
		for (const w of state.warnings) o.warn(w);
		if (summary.size === 0) return { kind: "empty", lock };
		let file: SessionFile;
		if (lock && !state.headerProblem) {
			file = SessionFile.openForAppend(path, lock, summary.size, summary.endsWithNewline, o.durability);
		} else {
			lock?.release();
			file = SessionFile.openForRead(path);
		}
		return { kind: "loaded", header: state.header, headerProblem: state.headerProblem, file, saveIndex };
	} catch (e) {
		lock?.release();
		throw e;
	}
}

/** Creates the session file with `text` (header and buffered entries): directory, lock, one exclusive write. */
export function createSessionFile(path: string, text: string, durability: Durability): SessionFile {
	try {
		mkdirSync(dirname(path), { recursive: true });
	} catch (e) {
		throw new SessionWriteError(path, explainMkdirFailure(dirname(path), e));
	}
	let lock: SessionLock;
	try {
		lock = acquireSessionLock(path);
	} catch (e) {
		// Taking the lock is the first write (disk full, read-only): name the session, not just errno.
		if (e instanceof SessionLockedError) throw e;
		throw new SessionWriteError(path, e);
	}
	try {
		return SessionFile.createExclusive(path, text, lock, durability);
	} catch (e) {
		lock.release();
		throw e;
	}
}

/**
 * A recursive mkdir under a read-only or unwritable directory fails with
 * ENOENT (the first missing level), which hides the cause. The nearest
 * existing ancestor says what is wrong: read-only (EROFS) or not writable
 * (EACCES); that error is returned, naming the ancestor.
 */
function explainMkdirFailure(dir: string, error: unknown): unknown {
	if ((error as NodeJS.ErrnoException)?.code !== "ENOENT") return error;
	let at = dir;
	while (!existsSync(at)) {
		const up = dirname(at);
		if (up === at) return error;
		at = up;
	}
	try {
		accessSync(at, fsConstants.W_OK);
		return error;
	} catch (cause) {
		const code = (cause as NodeJS.ErrnoException).code;
		if (code !== "EROFS" && code !== "EACCES" && code !== "EPERM") return error;
		const what = code === "EROFS" ? "is on a read-only file system" : "is not writable";
		return Object.assign(new Error(`${at} ${what}, so ${dir} cannot be created`), { code });
	}
}
