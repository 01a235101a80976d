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

/**
 * Takes a client from the pool for a while. pg emits a connection's loss as an
 * `error` event on a checked-out client that is between queries, and the pool
 * listens only to idle ones: without a listener here the process would crash
 * when the server goes away. The loss is kept and reported by the client's
 * next query; `release` destroys a client whose connection failed (or whose
 * caller says it is unusable) instead of returning it to the pool.
 */
export async function checkOut(
	pool: Pool,
): Promise<{ client: PoolClient; lost(): Error | undefined; release(broken?: unknown): void }> {
	const client = await pool.connect();
	let lostWith: Error | undefined;
	const onError = (e: Error) => {
		lostWith ??= e;
	};
	client.on("error", onError);
	let released = false;
	return {
		client,
		lost: () => lostWith,
		release(broken?: unknown) {
			if (released) return;
			released = true;
			client.removeListener("error", onError);
			const reason =
				lostWith ?? (broken === undefined ? undefined : broken instanceof Error ? broken : new Error(String(broken)));
			client.release(reason);
		},
	};
}

/** Connects (failing with a message naming PostgreSQL and the redacted URL) and creates the schema if missing. */
export async function openDatabase(url: string, max = 4): Promise<Pool> {
	const pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: 5000 });
	// An idle client losing its server must not crash the process; the next query reports it.
	pool.on("error", () => {});
	let held: Awaited<ReturnType<typeof checkOut>>;
	try {
		held = await checkOut(pool);
	} catch (e) {
		await pool.end().catch(() => {});
		throw new FleetServiceError("PostgreSQL", url, e);
	}
	const { client } = held;
	try {
		await client.query("BEGIN");
		// Concurrent workers starting at once must not race on CREATE TABLE.
		await client.query("SELECT pg_advisory_xact_lock(7261001)");
		await client.query(SCHEMA);
		await client.query("COMMIT");
	} catch (e) {
		await client.query("ROLLBACK").catch(() => {});
		held.release(e);
		await pool.end().catch(() => {});
		throw new FleetServiceError("PostgreSQL", url, e);
	}
	held.release();
	return pool;
}

/** Runs `fn` in a transaction on one client. */
export async function transaction<T>(pool: Pool, fn: (client: PoolClient) => Promise<T>): Promise<T> {
	const held = await checkOut(pool);
	const { client } = held;
	let rollbackFailed: unknown;
	try {
		await client.query("BEGIN");
		const out = await fn(client);
		await client.query("COMMIT");
		return out;
	} catch (e) {
		// A client whose ROLLBACK failed may still be inside the transaction: it must not go back to the pool.
		await client.query("ROLLBACK").catch((r: unknown) => {
			rollbackFailed = r;
		});
		throw e;
	} finally {
		held.release(rollbackFailed);
	}
}
