// The session store contract (@pi/coding-agent session/store.ts) in PostgreSQL.
// Each JSONL line is one row (session_id, seq, epoch, line bytes); a claim bumps
// the session's writer epoch, and every append checks that epoch under a row
// lock in the same transaction as its inserts, so a writer that lost the session
// (a stopped worker that woke up) writes nothing. Lines are only inserted, never
// updated; export concatenates them, which gives back imported bytes exactly.
import {
	type SessionStore,
	type SessionStoreWriter,
	StaleWriterError,
	type StoredLine,
	splitStoredLines,
} from "@pi/coding-agent/internal";
import { type Pool, type PoolClient, transaction } from "./db.js";

/** Channel notified (payload: session id) after lines of a session were committed. */
export const LINES_CHANNEL = "pi_fleet_lines";

export class PgSessionStore implements SessionStore {
	constructor(
		readonly pool: Pool,
		private readonly owner = "",
	) {}

	async claim(sessionId: string): Promise<SessionStoreWriter> {
		return transaction(this.pool, async (client) => {
			const { rows } = await client.query<{ epoch: number }>(
				`INSERT INTO pi_fleet_sessions (id, epoch, owner) VALUES ($1, 1, $2)
				 ON CONFLICT (id) DO UPDATE SET epoch = pi_fleet_sessions.epoch + 1, owner = $2, updated_at = now()
				 RETURNING epoch`,
				[sessionId, this.owner],
			);
			const next = await nextSeq(client, sessionId);
			return new PgWriter(this.pool, sessionId, rows[0].epoch, next);
		});
	}

	async readLines(sessionId: string, afterSeq = -1): Promise<StoredLine[]> {
		const { rows } = await this.pool.query<{ seq: number; line: Buffer }>(
			"SELECT seq, line FROM pi_fleet_lines WHERE session_id = $1 AND seq > $2 ORDER BY seq",
			[sessionId, afterSeq],
		);
		return rows.map((r) => ({ seq: r.seq, bytes: r.line }));
	}

	async exportJsonl(sessionId: string): Promise<Buffer> {
		return Buffer.concat((await this.readLines(sessionId)).map((l) => l.bytes));
	}

	async importJsonl(sessionId: string, bytes: Buffer): Promise<void> {
		await transaction(this.pool, async (client) => {
			await client.query("INSERT INTO pi_fleet_sessions (id, epoch) VALUES ($1, 0) ON CONFLICT (id) DO NOTHING", [
				sessionId,
			]);
			const { rows } = await client.query<{ epoch: number }>(
				"SELECT epoch FROM pi_fleet_sessions WHERE id = $1 FOR UPDATE",
				[sessionId],
			);
			if ((await nextSeq(client, sessionId)) > 0) {
				throw new Error(`Cannot import into session ${sessionId}: it already holds lines`);
			}
			await insertLines(client, sessionId, rows[0].epoch, splitStoredLines(bytes));
		});
	}
}

async function nextSeq(client: PoolClient, sessionId: string): Promise<number> {
	const { rows } = await client.query<{ next: number }>(
		"SELECT COALESCE(MAX(seq) + 1, 0)::int AS next FROM pi_fleet_lines WHERE session_id = $1",
		[sessionId],
	);
	return rows[0].next;
}

async function insertLines(client: PoolClient, sessionId: string, epoch: number, lines: StoredLine[]): Promise<void> {
	if (lines.length === 0) return;
	await client.query(
		`INSERT INTO pi_fleet_lines (session_id, seq, epoch, line)
		 SELECT $1, s, $2, l FROM unnest($3::int[], $4::bytea[]) AS t(s, l)`,
		[sessionId, epoch, lines.map((l) => l.seq), lines.map((l) => l.bytes)],
	);
	await client.query("SELECT pg_notify($1, $2)", [LINES_CHANNEL, sessionId]);
}

class PgWriter implements SessionStoreWriter {
	private closed = false;

	constructor(
		private readonly pool: Pool,
		readonly sessionId: string,
		readonly epoch: number,
		private next: number,
	) {}

	/** The sequence number the next appended line gets. */
	get nextSeq(): number {
		return this.next;
	}

	async append(bytes: Buffer): Promise<void> {
		if (this.closed) throw new Error(`Session ${this.sessionId}: writer is closed`);
		if (bytes.length === 0) return;
		if (bytes[bytes.length - 1] !== 10)
			throw new Error(`Session ${this.sessionId}: appended bytes must end with "\\n"`);
		const lines = splitStoredLines(bytes, this.next);
		await transaction(this.pool, async (client) => {
			const { rows } = await client.query<{ epoch: number }>(
				"SELECT epoch FROM pi_fleet_sessions WHERE id = $1 FOR UPDATE",
				[this.sessionId],
			);
			const current = rows[0]?.epoch;
			if (current !== this.epoch) {
				throw new StaleWriterError(this.sessionId, `writer epoch ${this.epoch}, session epoch ${current ?? "gone"}`);
			}
			// An earlier try of this append may have committed although its answer was lost (the
			// connection dropped): only this writer writes at this epoch, so lines already there
			// must be the start of these; they are not inserted twice.
			const { rows: stored } = await client.query<{ seq: number; line: Buffer }>(
				"SELECT seq, line FROM pi_fleet_lines WHERE session_id = $1 AND seq >= $2 ORDER BY seq",
				[this.sessionId, this.next],
			);
			for (const [i, row] of stored.entries()) {
				if (row.seq !== lines[i]?.seq || !row.line.equals(lines[i].bytes)) {
					throw new Error(
						`Session ${this.sessionId}: line ${row.seq} in the store differs from the line this writer appends there`,
					);
				}
			}
			await insertLines(client, this.sessionId, this.epoch, lines.slice(stored.length));
		});
		this.next += lines.length;
	}

	async close(): Promise<void> {
		this.closed = true;
	}
}
