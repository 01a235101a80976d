// Submitting a run and sending it requests from any machine: a session row in
// PostgreSQL (its request id makes a repeated submission the same session) and
// one BullMQ job per session (job id = session id, so adding it twice is one job).
import { randomUUID } from "node:crypto";
import type { Queue } from "bullmq";
import type { Pool } from "./db.js";
import { sendToInbox } from "./inbox.js";
import { enqueueRun, lockSettings, type RunJobData } from "./queue.js";

export interface SubmitRequest {
	prompt: string;
	cwd: string;
	model?: string;
	requestId?: string;
}

export async function submitRun(
	pool: Pool,
	queue: Queue<RunJobData>,
	request: SubmitRequest,
	env: NodeJS.ProcessEnv = process.env,
): Promise<{ sessionId: string; duplicate: boolean }> {
	const requestId = request.requestId ?? randomUUID();
	const fresh = randomUUID();
	const { rows } = await pool.query<{ id: string }>(
		`INSERT INTO pi_fleet_sessions (id, request_id, status, prompt, cwd, model) VALUES ($1, $2, 'queued', $3, $4, $5)
		 ON CONFLICT (request_id) DO NOTHING RETURNING id`,
		[fresh, requestId, request.prompt, request.cwd, request.model ?? null],
	);
	let sessionId = rows[0]?.id;
	const duplicate = !sessionId;
	if (!sessionId) {
		const { rows: existing } = await pool.query<{ id: string }>(
			"SELECT id FROM pi_fleet_sessions WHERE request_id = $1",
			[requestId],
		);
		sessionId = existing[0].id;
	}
	// Also for a duplicate: the first submission may have stored its row and then failed to reach Redis.
	await enqueueRun(queue, sessionId, lockSettings(env));
	return { sessionId, duplicate };
}

/**
 * Ends a run from anywhere: an abort request for a live owner, the row marked
 * cancelled (an owner that is gone cannot finish it; a worker that picks the job
 * up later skips it), and a job still waiting in the queue removed.
 */
export async function cancelRun(pool: Pool, queue: Queue<RunJobData>, sessionId: string): Promise<string> {
	const { rows } = await pool.query<{ status: string }>("SELECT status FROM pi_fleet_sessions WHERE id = $1", [
		sessionId,
	]);
	if (!rows[0]) throw new Error(`No fleet session ${sessionId}`);
	if (["completed", "failed", "cancelled"].includes(rows[0].status)) return rows[0].status;
	await sendToInbox(pool, sessionId, "abort", "");
	await pool.query(
		`UPDATE pi_fleet_sessions SET status = 'cancelled', reason = 'aborted by request', updated_at = now()
		 WHERE id = $1 AND status NOT IN ('completed', 'failed', 'cancelled')`,
		[sessionId],
	);
	const job = await queue.getJob(sessionId);
	if (job) {
		const state = await job.getState();
		if (state === "waiting" || state === "delayed" || state === "prioritized") await job.remove().catch(() => {});
	}
	return "cancelled";
}
