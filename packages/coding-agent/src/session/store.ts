// The session store contract: where the JSONL lines of a session live. The
// local JSONL file (jsonl-store.ts, the same SessionFile + lock the
// SessionManager writes through) is one implementation; @pi/fleet's
// PostgreSQL store is another. Both keep the rules of session/README.md:
//   - durable before announced: `append` resolves only after the bytes are durable,
//     so whoever emits an event after it never announces a line a crash could lose;
//   - one writer: `claim` makes the caller the only writer (the PostgreSQL store bumps
//     a writer epoch; the file store takes the lock and fences by size), and an older
//     writer's append is refused with StaleWriterError;
//   - never rewritten: stored bytes are only appended to;
//   - byte-exact: `exportJsonl(importJsonl(bytes))` gives back exactly `bytes`.

/** A line as stored: its sequence number (0 = the first line, the header) and its bytes, "\n" included. */
export interface StoredLine {
	seq: number;
	bytes: Buffer;
}

/** The one writer of a session, from `SessionStore.claim`. */
export interface SessionStoreWriter {
	readonly sessionId: string;
	/** The writer epoch this writer holds (0 where the store fences otherwise, see the implementation). */
	readonly epoch: number;
	/**
	 * Appends bytes that end with "\n" (one or more whole lines). Resolves once they are
	 * durable; rejects with StaleWriterError when another writer took over.
	 */
	append(bytes: Buffer): Promise<void>;
	/** Gives up the writer role (a later claim does not need to fence this one out). */
	close(): Promise<void>;
}

export interface SessionStore {
	/** Becomes the session's only writer; any earlier writer's appends are refused from now on. */
	claim(sessionId: string): Promise<SessionStoreWriter>;
	/** The session's stored lines after `afterSeq` (-1: all), in order. */
	readLines(sessionId: string, afterSeq?: number): Promise<StoredLine[]>;
	/** The session as JSONL file bytes, exactly as appended or imported. */
	exportJsonl(sessionId: string): Promise<Buffer>;
	/** Stores a JSONL file's bytes as a new session; refuses an id that already holds lines. */
	importJsonl(sessionId: string, bytes: Buffer): Promise<void>;
}

/** An append by a writer that lost the session to a newer one. Nothing was written. */
export class StaleWriterError extends Error {
	constructor(
		readonly sessionId: string,
		detail: string,
	) {
		super(`Session ${sessionId}: this writer was fenced out (${detail}); nothing was written`);
		this.name = "StaleWriterError";
	}
}

/**
 * Splits JSONL bytes into stored lines: each chunk ends after its "\n"; a last
 * chunk without one (a torn final line) is kept as it is, so joining the chunks
 * gives back the input byte for byte.
 */
export function splitStoredLines(bytes: Buffer, firstSeq = 0): StoredLine[] {
	const lines: StoredLine[] = [];
	let start = 0;
	for (let nl = bytes.indexOf(10); nl >= 0; nl = bytes.indexOf(10, start)) {
		lines.push({ seq: firstSeq + lines.length, bytes: bytes.subarray(start, nl + 1) });
		start = nl + 1;
	}
	if (start < bytes.length) lines.push({ seq: firstSeq + lines.length, bytes: bytes.subarray(start) });
	return lines;
}
