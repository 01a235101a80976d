// `/import <path>`: a JSONL session brought into the session directory as it
// is — same file name (a `-N` suffix when taken), same id, same working
// directory — after checking that it is a session file. The copy is exclusive
// (never overwrites), and the source is left untouched.
import { constants, copyFileSync, existsSync, mkdirSync } from "node:fs";
import { basename, join, parse, resolve } from "node:path";
import type { SessionHeader, SessionLoadWarning } from "../session/types.js";
import { openSessionSource, SessionExportError } from "./source.js";

export interface ImportResult {
	/** The session file to open (the copy, or the source when it already is in the directory). */
	path: string;
	header: SessionHeader;
	entries: number;
	warnings: SessionLoadWarning[];
	copied: boolean;
}

export function importSessionFile(input: string, sessionDir: string, cwd = process.cwd()): ImportResult {
	const source = resolve(cwd, input);
	if (!source.toLowerCase().endsWith(".jsonl")) {
		throw new SessionExportError(`${source} is not a .jsonl session file`);
	}
	const checked = openSessionSource(source);
	const { header, warnings, entryCount } = checked;
	checked.close();
	mkdirSync(sessionDir, { recursive: true });
	let dest = join(sessionDir, basename(source));
	if (resolve(dest) === source) return { path: source, header, entries: entryCount, warnings, copied: false };
	const { name, ext } = parse(dest);
	for (let n = 1; existsSync(dest); n++) dest = join(sessionDir, `${name}-${n}${ext}`);
	try {
		copyFileSync(source, dest, constants.COPYFILE_EXCL);
	} catch (error) {
		throw new SessionExportError(`Cannot copy ${source} to ${dest}: ${(error as NodeJS.ErrnoException).code ?? error}`);
	}
	return { path: dest, header, entries: entryCount, warnings, copied: true };
}
