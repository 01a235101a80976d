// PostgreSQL is the record of which runs are owed; Redis may forget its jobs (a
// server without persistence restarted, a flushed queue). Each worker, when it
// starts and then every PI_FLEET_RECONCILE_MS, looks at the sessions that are
// queued, retrying or running and puts back the job of any that has none:
//   - queued / retrying: at once (nobody can be running it: its job is gone);
//   - running: only once its owner has been quiet (no heartbeat_at) for longer
//     than a lock lasts plus a stalled-job check — an owner that is alive keeps
//     beating, and re-queuing its run would start a second one that fences it.
// The job id is the session id, so workers reconciling at once, or a submit
// racing one, add one job. A job BullMQ failed for good while PostgreSQL was
// unreachable (so the failure was not recorded) gets its session marked failed.
import type { Queue } from "bullmq";
import type { Pool } from "./db.js";
import { isUnreachable, type Outage } from "./outage.js";
import { enqueueRun, type LockSettings, type RunJobData } from "./queue.js";

export interface ReconcileOptions {
	pool: Pool;
	queue: Queue<RunJobData>;
	settings: LockSettings;
	pg: Outage;
	/** Sessions this worker is running now (never re-queued). */
	runningHere(sessionId: string): boolean;
	log(message: string): void;
}

interface OwedRow {
	id: string;
	status: string;
	owner: string | null;
	quiet_ms: number;
}

/** One pass; returns the ids of the sessions whose job was put back. */
export async function reconcileOnce(options: ReconcileOptions): Promise<string[]> {
	const { pool, queue, settings, log } = options;
	const { rows } = await pool.query<OwedRow>(
		`SELECT id, status, owner,
		   (EXTRACT(EPOCH FROM (now() - COALESCE(heartbeat_at, updated_at))) * 1000)::float8 AS quiet_ms
		 FROM pi_fleet_sessions WHERE status IN ('queued', 'retrying', 'running') ORDER BY created_at`,
	);
	const requeued: string[] = [];
	const ownerLapse = settings.lockDuration + settings.stalledInterval;
	for (const row of rows) {
		if (options.runningHere(row.id)) continue;
		const job = await queue.getJob(row.id);
		if (job) {
			// In the failed set a job is done with (a retry waits in the delayed set).
			if ((await job.getState()) !== "failed") continue;
			await pool.query(
				`UPDATE pi_fleet_sessions SET status = 'failed', reason = $2, owner = NULL, updated_at = now()
				 WHERE id = $1 AND status NOT IN ('completed', 'cancelled', 'failed')`,
				[row.id, job.failedReason || "the job failed"],
			);
			log(`reconcile: session ${row.id}: its job had failed (${job.failedReason}); marked failed`);
			continue;
		}
		if (row.status === "running" && row.quiet_ms < ownerLapse) continue;
		await enqueueRun(queue, row.id, settings);
		requeued.push(row.id);
		log(
			`reconcile: session ${row.id} is ${row.status} but had no job in Redis; queued again` +
				(row.status === "running"
					? ` (its owner ${row.owner ?? "?"} silent for ${(row.quiet_ms / 1000).toFixed(1)} s)`
					: ""),
		);
	}
	return requeued;
}

/** Reconciles now and every `settings.reconcileInterval`; a pass that fails (a server down) is tried at the next. */
export function startReconciler(options: ReconcileOptions): { stop(): void; idle(): Promise<unknown> } {
	let running: Promise<unknown> = Promise.resolve();
	let busy = false;
	let stopped = false;
	const pass = () => {
		if (busy || stopped) return;
		busy = true;
		running = reconcileOnce(options)
			.then(
				() => {
					options.pg.up();
				},
				(e) => {
					// An outage is reported by whoever waits for the server; the next pass tries again.
					if (!isUnreachable(e)) options.log(`reconcile: ${(e as Error).message}`);
				},
			)
			.finally(() => {
				busy = false;
			});
	};
	pass();
	const timer = setInterval(pass, options.settings.reconcileInterval);
	return {
		stop() {
			stopped = true;
			clearInterval(timer);
		},
		idle: () => running,
	};
}
