// `pi fleet worker`: a BullMQ worker with N slots. Each job is one session's
// run (run.ts), driven in a `pi --mode rpc` child, so an agent crash fails
// that run, never the worker. BullMQ renews the job lock while the run lives;
// when this process dies, another worker's stalled-job check hands the job on
// and that worker claims the session (epoch + 1) and continues it. A job that
// keeps failing or stalling is given up after `attempts` starts and the
// session is marked failed with the reason.
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Job, UnrecoverableError, Worker } from "bullmq";
import type { FleetConfig } from "./config.js";
import { openDatabase, type Pool, type PoolClient } from "./db.js";
import { INBOX_CHANNEL } from "./inbox.js";
import { PgSessionStore } from "./pg-store.js";
import { checkRedis, type LockSettings, lockSettings, type RunJobData, redisConnection } from "./queue.js";
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

	const runs = new Map<string, () => void>();
	const listener = await listenInbox(pool, runs, log);
	const store = new PgSessionStore(pool, id);

	const worker = new Worker<RunJobData, RunEnd>(
		config.queue,
		async (job) => {
			const { sessionId } = job.data;
			await giveUpWhenExhausted(pool, sessionId, settings);
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
	worker.on("error", (e) => log(`worker: ${e.message}`));
	worker.on("failed", (job: Job<RunJobData> | undefined, err: Error) => {
		if (!job) return;
		const final = err instanceof UnrecoverableError || job.attemptsMade >= (job.opts.attempts ?? 1);
		if (!final) return;
		void pool
			.query(
				`UPDATE pi_fleet_sessions SET status = 'failed', reason = $2, owner = NULL, updated_at = now()
				 WHERE id = $1 AND status NOT IN ('completed', 'cancelled', 'failed')`,
				[job.data.sessionId, err.message],
			)
			.catch((e) => log(`session ${job.data.sessionId}: could not record the failure: ${(e as Error).message}`));
	});
	await worker.waitUntilReady();
	log(`worker ${id}: ${options.slots} slot(s) on queue ${config.queue}`);

	return {
		id,
		async close(force = false) {
			await worker.close(force);
			listener?.release(true);
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

/** One connection LISTENs for inbox notifications and wakes the run of that session (runs also poll every second). */
async function listenInbox(
	pool: Pool,
	runs: Map<string, () => void>,
	log: (m: string) => void,
): Promise<PoolClient | undefined> {
	try {
		const client = await pool.connect();
		client.on("notification", (n) => {
			if (n.channel === INBOX_CHANNEL && n.payload) runs.get(n.payload)?.();
		});
		client.on("error", (e) => log(`inbox listener: ${e.message} (runs keep polling)`));
		await client.query(`LISTEN ${INBOX_CHANNEL}`);
		return client;
	} catch (e) {
		log(`inbox listener: ${(e as Error).message} (runs keep polling)`);
		return undefined;
	}
}
