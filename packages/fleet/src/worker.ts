// `pi fleet worker`: a BullMQ worker with N slots. Each job is one session's
// run (run.ts), driven in a `pi --mode rpc` child, so an agent crash fails
// that run, never the worker. BullMQ renews the job lock while the run lives;
// when this process dies, another worker's stalled-job check hands the job on
// and that worker claims the session (epoch + 1) and continues it. A job that
// keeps failing or stalling is given up after `attempts` starts and the
// session is marked failed with the reason. PostgreSQL or Redis going away
// mid-run is logged once, naming the server and its URL; runs wait for
// PostgreSQL (outage.ts) and BullMQ reconnects to Redis by itself. Sessions
// whose job Redis lost are queued again (reconcile.ts).
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Job, UnrecoverableError, Worker } from "bullmq";
import { Redis } from "ioredis";
import type { FleetConfig } from "./config.js";
import { openDatabase, type Pool, type PoolClient } from "./db.js";
import { INBOX_CHANNEL } from "./inbox.js";
import { isUnreachable, Outage } from "./outage.js";
import { PgSessionStore } from "./pg-store.js";
import { checkRedis, type LockSettings, lockSettings, openQueue, type RunJobData, redisConnection } from "./queue.js";
import { startReconciler } from "./reconcile.js";
import { type RunEnd, runSession } from "./run.js";

export interface WorkerOptions {
	config: FleetConfig;
	slots: number;
	/** The pi CLI file each run's child executes (default: this process's script). */
	piCli?: string;
	env?: NodeJS.ProcessEnv;
	log(message: string): void;
}

export interface FleetWorker {
	id: string;
	/** Stops taking jobs; waits for running ones unless `force` (then they stall and move to another worker). */
	close(force?: boolean): Promise<void>;
}

/** The child extension's file next to this module (dist: .js; source under tests: .ts). */
export function childExtensionPath(): string {
	for (const name of ["child-extension.js", "child-extension.ts"]) {
		const path = fileURLToPath(new URL(`./${name}`, import.meta.url));
		if (existsSync(path)) return path;
	}
	throw new Error(`The fleet child extension is missing next to ${fileURLToPath(import.meta.url)}`);
}

export async function startWorker(options: WorkerOptions): Promise<FleetWorker> {
	const { config, log } = options;
	const env = options.env ?? process.env;
	const settings = lockSettings(env);
	await checkRedis(config.redisUrl);
	const pool = await openDatabase(config.databaseUrl, options.slots * 3 + 2);
	const id = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
	const workDir = mkdtempSync(join(tmpdir(), "pi-fleet-worker-"));
	const piCli = options.piCli ?? process.argv[1];
	const childExtension = childExtensionPath();

	const pg = new Outage("PostgreSQL", config.databaseUrl, log);
	const redis = new Outage("Redis", config.redisUrl, log);
	const runs = new Map<string, () => void>();
	const listener = listenInbox(pool, runs, log);
	const store = new PgSessionStore(pool, id);
	const heartbeatMs = Math.max(250, Math.min(5000, Math.floor(settings.lockDuration / 4)));

	const worker = new Worker<RunJobData, RunEnd>(
		config.queue,
		async (job) => {
			const { sessionId } = job.data;
			await pg.retry(`session ${sessionId}: starting`, () => giveUpWhenExhausted(pool, sessionId, settings));
			log(`session ${sessionId}: started (job attempt ${job.attemptsStarted})`);
			try {
				const end = await runSession(
					{
						pool,
						store,
						workerId: id,
						workDir,
						piCli,
						childExtension,
						env,
						pg,
						heartbeatMs,
						log,
						register(sessionId, poll) {
							runs.set(sessionId, poll);
							return () => runs.delete(sessionId);
						},
					},
					sessionId,
				);
				log(`session ${sessionId}: ${end}`);
				return end;
			} catch (e) {
				const reason = (e as Error).message;
				log(`session ${sessionId}: failed: ${reason}`);
				await pool
					.query(
						`UPDATE pi_fleet_sessions SET reason = $2, updated_at = now(),
						 status = CASE WHEN status = 'running' THEN 'retrying' ELSE status END WHERE id = $1`,
						[sessionId, reason],
					)
					.catch(() => {});
				throw e;
			}
		},
		{
			connection: redisConnection(config.redisUrl),
			concurrency: options.slots,
			lockDuration: settings.lockDuration,
			stalledInterval: settings.stalledInterval,
			// Stalls are bounded by our own count of starts (giveUpWhenExhausted), which also records the reason.
			maxStalledCount: settings.attempts + 1,
		},
	);
	worker.on("error", (e) => {
		if (isUnreachable(e)) redis.down(e, "the queue (job locks are not renewed meanwhile)");
		else log(`worker: ${e.message}`);
	});
	// Says when Redis is back (BullMQ's connections reconnect on their own schedule, as this one).
	const probe = new Redis(config.redisUrl, {
		maxRetriesPerRequest: null,
		retryStrategy: (n) => Math.min(250 * n, 2000),
	});
	probe.on("error", (e) => redis.down(e, "the queue (job locks are not renewed meanwhile)"));
	probe.on("ready", () => redis.up());
	worker.on("failed", (job: Job<RunJobData> | undefined, err: Error) => {
		if (!job) return;
		const final = err instanceof UnrecoverableError || job.attemptsMade >= (job.opts.attempts ?? 1);
		if (!final) return;
		void pg
			.retry(`session ${job.data.sessionId}: recording its failure`, () =>
				pool.query(
					`UPDATE pi_fleet_sessions SET status = 'failed', reason = $2, owner = NULL, updated_at = now()
					 WHERE id = $1 AND status NOT IN ('completed', 'cancelled', 'failed')`,
					[job.data.sessionId, err.message],
				),
			)
			.catch((e) => log(`session ${job.data.sessionId}: could not record the failure: ${(e as Error).message}`));
	});
	await worker.waitUntilReady();
	log(`worker ${id}: ${options.slots} slot(s) on queue ${config.queue}`);
	const queue = openQueue(config.redisUrl, config.queue);
	const reconciler = startReconciler({
		pool,
		queue,
		settings,
		pg,
		runningHere: (sessionId) => runs.has(sessionId),
		log,
	});

	return {
		id,
		async close(force = false) {
			reconciler.stop();
			await worker.close(force);
			await queue.close().catch(() => {});
			await reconciler.idle();
			probe.disconnect();
			listener.close();
			await pool.end().catch(() => {});
			rmSync(workDir, { recursive: true, force: true });
		},
	};
}

/** A job started `attempts` times without finishing (crashes, stalls, errors) fails for good, with its reason. */
async function giveUpWhenExhausted(pool: Pool, sessionId: string, settings: LockSettings): Promise<void> {
	const { rows } = await pool.query<{ attempts: number; status: string; reason: string | null }>(
		"SELECT attempts, status, reason FROM pi_fleet_sessions WHERE id = $1",
		[sessionId],
	);
	const row = rows[0];
	if (!row || row.attempts < settings.attempts || ["completed", "cancelled", "failed"].includes(row.status)) return;
	const reason = `gave up after ${row.attempts} starts: ${row.reason ?? "the worker running it stopped each time"}`;
	await pool.query(
		`UPDATE pi_fleet_sessions SET status = 'failed', reason = $2, owner = NULL, updated_at = now()
		 WHERE id = $1 AND status NOT IN ('completed', 'cancelled', 'failed')`,
		[sessionId, reason],
	);
	throw new UnrecoverableError(reason);
}

/**
 * One connection LISTENs for inbox notifications and wakes the run of that
 * session (runs also poll every second). A lost connection (PostgreSQL went
 * away) is made again every second until it works.
 */
function listenInbox(pool: Pool, runs: Map<string, () => void>, log: (m: string) => void): { close(): void } {
	let dropCurrent: (() => void) | undefined;
	let closed = false;
	let timer: NodeJS.Timeout | undefined;
	const retry = () => {
		if (!closed) timer = setTimeout(connect, 1000);
	};
	const connect = async () => {
		let c: PoolClient;
		try {
			c = await pool.connect();
		} catch {
			retry();
			return;
		}
		let lost = false;
		const drop = (e?: Error) => {
			if (lost) return;
			lost = true;
			if (e && !isUnreachable(e)) log(`inbox listener: ${e.message} (runs keep polling)`);
			c.release(true);
			dropCurrent = undefined;
			retry();
		};
		c.on("notification", (n) => {
			if (n.channel === INBOX_CHANNEL && n.payload) runs.get(n.payload)?.();
		});
		c.on("error", drop);
		c.on("end", () => drop());
		try {
			await c.query(`LISTEN ${INBOX_CHANNEL}`);
		} catch (e) {
			drop(e as Error);
			return;
		}
		if (closed) {
			drop();
			return;
		}
		dropCurrent = drop;
		// Requests that arrived while not listening.
		for (const poll of runs.values()) poll();
	};
	void connect();
	return {
		close() {
			closed = true;
			clearTimeout(timer);
			dropCurrent?.();
		},
	};
}
