// The fleet's PostgreSQL schema and connection. Tables:
//   pi_fleet_sessions  one row per session: status, writer epoch, owner (and its heartbeat), workspace snapshot, cost
//   pi_fleet_lines     the session's JSONL lines, append-only: (session_id, seq, epoch, line bytes)
//   pi_fleet_inbox     steer / follow-up / abort requests, one per request id, applied once
//   pi_fleet_intents   tool calls recorded before they run (the replay rule after a crash)
import pg from "pg";
import { FleetServiceError } from "./config.js";

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS pi_fleet_sessions (
	id text PRIMARY KEY,
	request_id text UNIQUE,
	status text NOT NULL DEFAULT 'queued',
	epoch integer NOT NULL DEFAULT 0,
	owner text,
	prompt text,
	cwd text,
	model text,
	snapshot text,
	reason text,
	attempts integer NOT NULL DEFAULT 0,
	input_tokens bigint NOT NULL DEFAULT 0,
	output_tokens bigint NOT NULL DEFAULT 0,
	cost double precision NOT NULL DEFAULT 0,
	created_at timestamptz NOT NULL DEFAULT now(),
	updated_at timestamptz NOT NULL DEFAULT now()
);
-- When the owning worker last said it is running the session (reconcile.ts: a
-- running session whose job vanished from Redis is queued again only once its
-- owner has been quiet for longer than a lock lasts).
ALTER TABLE pi_fleet_sessions ADD COLUMN IF NOT EXISTS heartbeat_at timestamptz;
CREATE TABLE IF NOT EXISTS pi_fleet_lines (
	session_id text NOT NULL,
	seq integer NOT NULL,
	epoch integer NOT NULL,
	line bytea NOT NULL,
	PRIMARY KEY (session_id, seq)
);
CREATE TABLE IF NOT EXISTS pi_fleet_inbox (
	id bigserial PRIMARY KEY,
	session_id text NOT NULL,
	request_id text NOT NULL UNIQUE,
	kind text NOT NULL,
	text text NOT NULL DEFAULT '',
	created_at timestamptz NOT NULL DEFAULT now(),
	applied_at timestamptz,
	applied_epoch integer
);
CREATE TABLE IF NOT EXISTS pi_fleet_intents (
	session_id text NOT NULL,
	tool_call_id text NOT NULL,
	tool_name text NOT NULL,
	epoch integer NOT NULL,
	snapshot text,
	created_at timestamptz NOT NULL DEFAULT now(),
	PRIMARY KEY (session_id, tool_call_id)
);
`;

/** Connects (failing with a message naming PostgreSQL and the redacted URL) and creates the schema if missing. */
export async function openDatabase(url: string, max = 4): Promise<Pool> {
	const pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: 5000 });
	// An idle client losing its server must not crash the process; the next query reports it.
	pool.on("error", () => {});
	let client: PoolClient;
	try {
		client = await pool.connect();
	} catch (e) {
		await pool.end().catch(() => {});
		throw new FleetServiceError("PostgreSQL", url, e);
	}
	try {
		await client.query("BEGIN");
		// Concurrent workers starting at once must not race on CREATE TABLE.
		await client.query("SELECT pg_advisory_xact_lock(7261001)");
		await client.query(SCHEMA);
		await client.query("COMMIT");
	} catch (e) {
		await client.query("ROLLBACK").catch(() => {});
		client.release();
		await pool.end().catch(() => {});
		throw new FleetServiceError("PostgreSQL", url, e);
	}
	client.release();
	return pool;
}

/** Runs `fn` in a transaction on one client. */
export async function transaction<T>(pool: Pool, fn: (client: PoolClient) => Promise<T>): Promise<T> {
	const client = await pool.connect();
	try {
		await client.query("BEGIN");
		const out = await fn(client);
		await client.query("COMMIT");
		return out;
	} catch (e) {
		await client.query("ROLLBACK").catch(() => {});
		throw e;
	} finally {
		client.release();
	}
}
