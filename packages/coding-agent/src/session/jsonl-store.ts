// The session store contract (store.ts) over plain JSONL files in one
// directory, `<dir>/<sessionId>.jsonl`, written through the same SessionFile
// and lock as the SessionManager: one synced write per append, the writer lock
// (a live second writer is refused at claim), and a size fence (a writer whose
// file grew under it is refused). The file store has no epoch counter: the
// lock plus the size check are its fence, so `epoch` is 0.
import { existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { type Durability, SessionConflictError, SessionFile } from "./file.js";
import { assertValidSessionId } from "./ids.js";
import { acquireSessionLock } from "./lock.js";
import {
	type SessionStore,
	type SessionStoreWriter,
	StaleWriterError,
	type StoredLine,
	splitStoredLines,
} from "./store.js";

export class JsonlSessionStore implements SessionStore {
	readonly dir: string;

	constructor(
		dir: string,
		private readonly durability: Durability = "fsync",
	) {
		this.dir = resolve(dir);
	}

	fileOf(sessionId: string): string {
		assertValidSessionId(sessionId);
		return join(this.dir, `${sessionId}.jsonl`);
	}

	async claim(sessionId: string): Promise<SessionStoreWriter> {
		const path = this.fileOf(sessionId);
		mkdirSync(this.dir, { recursive: true });
		const lock = acquireSessionLock(path);
		try {
			let file: SessionFile;
			if (existsSync(path)) {
				const bytes = readFileSync(path);
				file = SessionFile.openForAppend(
					path,
					lock,
					bytes.length,
					bytes.length === 0 || bytes[bytes.length - 1] === 10,
					this.durability,
				);
			} else {
				file = SessionFile.createExclusive(path, "", lock, this.durability);
			}
			return new JsonlWriter(sessionId, file);
		} catch (e) {
			lock.release();
			throw e;
		}
	}

	async readLines(sessionId: string, afterSeq = -1): Promise<StoredLine[]> {
		return splitStoredLines(await this.exportJsonl(sessionId)).filter((l) => l.seq > afterSeq);
	}

	async exportJsonl(sessionId: string): Promise<Buffer> {
		const path = this.fileOf(sessionId);
		return existsSync(path) ? readFileSync(path) : Buffer.alloc(0);
	}

	async importJsonl(sessionId: string, bytes: Buffer): Promise<void> {
		const path = this.fileOf(sessionId);
		if (existsSync(path) && statSync(path).size > 0) {
			throw new Error(`Cannot import into session ${sessionId}: ${path} already holds lines`);
		}
		mkdirSync(this.dir, { recursive: true });
		const lock = acquireSessionLock(path);
		try {
			// The text form is what SessionFile writes; a JSONL session is UTF-8 by format.
			SessionFile.createExclusive(path, bytes.toString("utf8"), lock, this.durability).close();
		} catch (e) {
			lock.release();
			throw e;
		}
	}
}

class JsonlWriter implements SessionStoreWriter {
	readonly epoch = 0;

	constructor(
		readonly sessionId: string,
		private readonly file: SessionFile,
	) {}

	async append(bytes: Buffer): Promise<void> {
		if (bytes.length === 0) return;
		if (bytes[bytes.length - 1] !== 10)
			throw new Error(`Session ${this.sessionId}: appended bytes must end with "\\n"`);
		const text = bytes.toString("utf8", 0, bytes.length - 1);
		try {
			this.file.append(
				text,
				() => {
					throw new StaleWriterError(this.sessionId, "the session file was deleted");
				},
				() => {},
			);
		} catch (e) {
			if (e instanceof SessionConflictError) throw new StaleWriterError(this.sessionId, e.message);
			throw e;
		}
	}

	async close(): Promise<void> {
		this.file.close();
	}
}
