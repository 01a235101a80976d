/**
 * Temp files of atomic writes (`.<name>.<12 hex>.tmp` next to the target) must
 * not outlive the write. A failed or aborted write removes its own; a process
 * that exits (normally or through a handled signal) removes those still in
 * flight; for a process that is killed outright, each temp file is noted in a
 * journal directory (one small file per write, `<pid>-<hex>`, holding the temp
 * path) and the next start removes what a dead process left behind. Only
 * paths that the journal names and that have our temp-name shape are ever
 * deleted, so a user's own files are never touched.
 */
import { closeSync, promises as fs, mkdirSync, openSync, readdirSync, unlinkSync, writeSync } from "node:fs";
import { basename, join } from "node:path";

const TEMP_NAME = /^\..+\.([0-9a-f]{12})\.tmp$/;
/** A journal entry of a live process older than this is treated as stale (its pid was reused). */
const STALE_MS = 24 * 60 * 60 * 1000;

const inFlight = new Map<string, string | undefined>();
let journalDir: string | undefined;
/** The journal directory this process has made (or found), so each write does not ask again. */
let journalMade: string | undefined;
let exitHookInstalled = false;

export function isOwnTempName(name: string): boolean {
	return TEMP_NAME.test(name);
}

/** Where to journal temp files (e.g. `<agentDir>/pending-writes`); undefined turns journaling off. */
export function setTempFileJournal(dir: string | undefined): void {
	journalDir = dir;
	journalMade = undefined;
}

function removeInFlightSync(): void {
	for (const [temp, entry] of inFlight) {
		try {
			unlinkSync(temp);
		} catch {}
		if (entry) {
			try {
				unlinkSync(entry);
			} catch {}
		}
	}
	inFlight.clear();
}

function journalEntryFor(temp: string): string | undefined {
	const hex = TEMP_NAME.exec(basename(temp))?.[1];
	return journalDir && hex ? join(journalDir, `${process.pid}-${hex}`) : undefined;
}

/** Creates the journal entry `entry` holding `temp` (open, write, close: the atomic write's own calls). */
function writeEntry(entry: string, temp: string): void {
	const fd = openSync(entry, "w", 0o600);
	try {
		writeSync(fd, temp);
	} finally {
		closeSync(fd);
	}
}

/**
 * Called before the temp file is created. Synchronous, like the rest of an
 * atomic write's small calls (see atomic-write.ts): a few microseconds each.
 * The journal directory is made by the first write that needs it, and again
 * only if it has gone since (the entry's open then fails with ENOENT). The
 * entry is written with open/write/close, which the atomic write itself uses:
 * writeFileSync's first use compiled its own path (~1M instructions of a -p
 * run's tool loop).
 */
export function rememberTempFile(temp: string): void {
	if (!exitHookInstalled) {
		exitHookInstalled = true;
		process.on("exit", removeInFlightSync);
	}
	let entry = journalEntryFor(temp);
	if (entry) {
		const dir = journalDir as string;
		try {
			if (journalMade !== dir) {
				mkdirSync(dir, { recursive: true, mode: 0o700 });
				journalMade = dir;
			}
			try {
				writeEntry(entry, temp);
			} catch (error) {
				if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
				mkdirSync(dir, { recursive: true, mode: 0o700 });
				writeEntry(entry, temp);
			}
		} catch {
			// A journal we cannot write only loses clean-up after a hard kill; the write itself goes on.
			entry = undefined;
		}
	}
	inFlight.set(temp, entry);
}

/** Called once the temp file is renamed or removed. */
export function forgetTempFile(temp: string): void {
	const entry = inFlight.get(temp);
	inFlight.delete(temp);
	if (!entry) return;
	// unlink, not fs.rm: rm's first use loads and compiles Node's internal rimraf.
	try {
		unlinkSync(entry);
	} catch {
		// Already gone: the start-up sweep only removes what still exists.
	}
}

function processAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === "EPERM";
	}
}

/**
 * Removes temp files left by processes that died mid-write. Returns the temp
 * paths it deleted.
 */
export async function sweepStaleTempFiles(dir: string | undefined = journalDir): Promise<string[]> {
	if (!dir) return [];
	let names: string[];
	try {
		// Listed synchronously: it runs at every start, where the directory is almost always empty
		// or missing, and one readdir(2) costs less than a round trip through the thread pool.
		names = readdirSync(dir);
	} catch {
		return [];
	}
	const removed: string[] = [];
	for (const name of names) {
		const m = /^(\d+)-([0-9a-f]{12})$/.exec(name);
		if (!m) continue;
		const pid = Number(m[1]);
		if (pid === process.pid) continue;
		const entry = join(dir, name);
		try {
			const st = await fs.stat(entry);
			if (processAlive(pid) && Date.now() - st.mtimeMs < STALE_MS) continue;
			const temp = (await fs.readFile(entry, "utf8")).trim();
			const tempMatch = TEMP_NAME.exec(basename(temp));
			if (tempMatch && tempMatch[1] === m[2]) {
				const tst = await fs.lstat(temp).catch(() => undefined);
				if (tst?.isFile()) {
					await fs.rm(temp, { force: true });
					removed.push(temp);
				}
			}
			await fs.rm(entry, { force: true });
		} catch {
			// Unreadable entry: leave it for a later start.
		}
	}
	return removed;
}
