// `/import <path>`: a JSONL session brought into the session directory as it
// is — same file name (a `-N` suffix when taken), same id, same working
// directory — after checking that it is a session file. Checking and copying
// are two steps so the app can ask before replacing the open session. The
// copy is exclusive (never overwrites), and the source is left untouched.
import { constants, copyFileSync, existsSync, mkdirSync } from "node:fs";
import { basename, join, parse, resolve } from "node:path";
import type { SessionHeader, SessionLoadWarning } from "../session/types.js";
import { openSessionSource, SessionExportError } from "./source.js";

/** A session file that passed the checks and can be imported. */
export interface CheckedImport {
	/** The absolute path of the file to import. */
	source: string;
	header: SessionHeader;
	entries: number;
	warnings: SessionLoadWarning[];
}

export interface ImportResult extends CheckedImport {
	/** The session file to open (the copy, or the source when it already is in the directory). */
	path: string;
	copied: boolean;
}

/** Validates `input` as a JSONL session file; throws SessionExportError naming it otherwise. */
export function checkSessionImport(input: string, cwd = process.cwd()): CheckedImport {
	const source = resolve(cwd, input);
	if (!source.toLowerCase().endsWith(".jsonl")) {
		throw new SessionExportError(`${source} is not a .jsonl session file`);
	}
	const checked = openSessionSource(source);
	const { header, warnings, entryCount } = checked;
	checked.close();
	return { source, header, entries: entryCount, warnings };
}

/** Copies a checked session file into `sessionDir` (a free name, never overwriting). */
export function copySessionIntoDir(checked: CheckedImport, sessionDir: string): ImportResult {
	const { source } = checked;
	mkdirSync(sessionDir, { recursive: true });
	let dest = join(sessionDir, basename(source));
	if (resolve(dest) === source) return { ...checked, path: source, copied: false };
	const { name, ext } = parse(dest);
	for (let n = 1; existsSync(dest); n++) dest = join(sessionDir, `${name}-${n}${ext}`);
	try {
		copyFileSync(source, dest, constants.COPYFILE_EXCL);
	} catch (error) {
		throw new SessionExportError(`Cannot copy ${source} to ${dest}: ${(error as NodeJS.ErrnoException).code ?? error}`);
	}
	return { ...checked, path: dest, copied: true };
}
