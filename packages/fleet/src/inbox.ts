// Steer, follow-up and abort requests from any machine: one inbox row per
// request id (a repeated request id is the same request), a NOTIFY on
// `pi_fleet_inbox` with the session id, and the owning worker claims rows in
// one UPDATE guarded by its epoch, so each row is applied once, by the current
// owner only. A row is marked applied just before it is handed to the child:
// a worker that dies in between loses that one request (documented).
import { randomUUID } from "node:crypto";
import type { Pool } from "./db.js";

export const INBOX_CHANNEL = "pi_fleet_inbox";

export type InboxKind = "steer" | "follow_up" | "abort";

export interface InboxItem {
	id: string;
	kind: InboxKind;
	text: string;
}

/** Adds a request; returns whether it was new (false: that request id was sent before). */
export async function sendToInbox(
	pool: Pool,
	sessionId: string,
	kind: InboxKind,
	text: string,
	requestId: string = randomUUID(),
): Promise<{ requestId: string; duplicate: boolean }> {
	const { rows: session } = await pool.query("SELECT 1 FROM pi_fleet_sessions WHERE id = $1", [sessionId]);
	if (session.length === 0) throw new Error(`No fleet session ${sessionId}`);
	const { rowCount } = await pool.query(
		`INSERT INTO pi_fleet_inbox (session_id, request_id, kind, text) VALUES ($1, $2, $3, $4)
		 ON CONFLICT (request_id) DO NOTHING`,
		[sessionId, requestId, kind, text],
	);
	await pool.query("SELECT pg_notify($1, $2)", [INBOX_CHANNEL, sessionId]);
	return { requestId, duplicate: rowCount === 0 };
}

/** Claims the session's unapplied requests for `epoch` (none if the epoch is stale) and hands them over in order. */
export async function applyInbox(
	pool: Pool,
	sessionId: string,
	epoch: number,
	deliver: (item: InboxItem) => void,
): Promise<number> {
	const { rows } = await pool.query<InboxItem>(
		`UPDATE pi_fleet_inbox i SET applied_at = now(), applied_epoch = $2
		 FROM pi_fleet_sessions s
		 WHERE i.session_id = $1 AND i.applied_at IS NULL AND s.id = i.session_id AND s.epoch = $2
		 RETURNING i.id::text AS id, i.kind, i.text`,
		[sessionId, epoch],
	);
	rows.sort((a, b) => Number(a.id) - Number(b.id));
	for (const item of rows) deliver(item);
	return rows.length;
}
