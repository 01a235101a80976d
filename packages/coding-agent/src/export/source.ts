// A session file as an export source: validated (it must exist and start
// with a session header), indexed with the session store's own loader (so
// old formats migrate and damaged lines are skipped with warnings, as when
// pi opens it), and its entries read back one at a time from their byte
// ranges, so the whole file is never held in memory.
import { closeSync, existsSync, openSync, readSync, statSync } from "node:fs";
import { loadSessionFile } from "../session/load.js";
import { SessionTree } from "../session/tree.js";
import type { SessionEntry, SessionHeader, SessionLoadWarning } from "../session/types.js";
import type { ExportSource } from "./render.js";

/** Bad input to an export or import: the message names the file and what is wrong. */
export class SessionExportError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "SessionExportError";
	}
}

export interface SessionFileSource extends ExportSource {
	header: SessionHeader;
	warnings: SessionLoadWarning[];
	entryCount: number;
	/** Releases the file; the entries cannot be read afterwards. */
	close(): void;
}

/** Checks that `file` is a readable session file; throws SessionExportError naming it otherwise. */
export function assertSessionFile(file: string): void {
	if (!existsSync(file)) throw new SessionExportError(`File not found: ${file}`);
	const st = statSync(file);
	if (st.isDirectory()) throw new SessionExportError(`${file} is a directory, not a session file`);
	if (st.size === 0) throw new SessionExportError(`${file} is empty, not a session file`);
}

export function openSessionSource(file: string, leafId?: string | null): SessionFileSource {
	assertSessionFile(file);
	const tree = new SessionTree();
	let loaded: ReturnType<typeof loadSessionFile>;
	try {
		loaded = loadSessionFile(file, tree);
	} catch (error) {
		throw new SessionExportError(`Could not read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
	}
	const { state } = loaded;
	if (!state.header || state.headerProblem) {
		throw new SessionExportError(
			`${file} is not a pi session file (${state.headerProblem ?? "its first line is not a session header"})`,
		);
	}
	const fd = openSync(file, "r");
	let open = true;
	const readEntry = (offset: number, length: number): SessionEntry | undefined => {
		const buf = Buffer.allocUnsafe(length);
		const n = readSync(fd, buf, 0, length, offset);
		try {
			return JSON.parse(buf.toString("utf8", 0, n)) as SessionEntry;
		} catch {
			return undefined;
		}
	};
	const entries: Iterable<SessionEntry> = {
		*[Symbol.iterator]() {
			for (let i = 0; i < tree.size; i++) {
				if (!open) throw new Error(`export source for ${file} is closed`);
				let entry = tree.valueAt(i);
				if (!entry) {
					const read = readEntry(tree.offsetAt(i), tree.lengthAt(i));
					if (!read) {
						state.warnings.push({
							file,
							line: tree.lineAt(i),
							byteOffset: tree.offsetAt(i),
							message: `entry ${tree.idAt(i)} does not parse; left out of the export`,
						});
						continue;
					}
					// The row may carry a deduplicated id or a resolved parent.
					entry = { ...read, id: tree.idAt(i), parentId: tree.parentIdAt(i) };
				}
				yield entry;
			}
		},
	};
	return {
		header: state.header,
		entries,
		leafId: leafId === undefined ? tree.leafId : leafId,
		warnings: state.warnings,
		entryCount: tree.size,
		close() {
			if (open) closeSync(fd);
			open = false;
		},
	};
}
