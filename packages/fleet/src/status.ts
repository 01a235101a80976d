// Observability: queue counts and sessions (state, attempts, epoch, owner,
// tokens, cost, the reason of a failure) for `pi fleet status`, and a live tail
// of a session's stored lines (LISTEN pi_fleet_lines, with a poll as backstop).
import type { Queue } from "bullmq";
import { checkOut, type Pool } from "./db.js";
import { LINES_CHANNEL, PgSessionStore } from "./pg-store.js";
import type { RunJobData } from "./queue.js";

interface SessionStatus {
	id: string;
	status: string;
	attempts: number;
	epoch: number;
	owner: string | null;
	model: string | null;
	cwd: string | null;
	prompt: string | null;
	reason: string | null;
	input_tokens: string;
	output_tokens: string;
	cost: number;
	lines: number;
	created_at: Date;
	updated_at: Date;
}

const TERMINAL = ["completed", "cancelled", "failed"];

export async function printStatus(
	pool: Pool,
	queue: Queue<RunJobData>,
	sessionId: string | undefined,
	json: boolean,
	out: NodeJS.WritableStream,
): Promise<number> {
	const counts = await queue.getJobCounts("waiting", "active", "delayed", "completed", "failed");
	const { rows } = await pool.query<SessionStatus>(
		`SELECT s.*, (SELECT count(*)::int FROM pi_fleet_lines l WHERE l.session_id = s.id) AS lines
		 FROM pi_fleet_sessions s WHERE ($1::text IS NULL OR s.id = $1) ORDER BY s.created_at DESC LIMIT 200`,
		[sessionId ?? null],
	);
	if (sessionId && rows.length === 0) throw new Error(`No fleet session ${sessionId}`);
	const sessions = rows.map((r) => ({
		id: r.id,
		status: r.status,
		attempts: r.attempts,
		epoch: r.epoch,
		owner: r.owner,
		model: r.model,
		cwd: r.cwd,
		prompt: r.prompt,
		reason: r.reason,
		inputTokens: Number(r.input_tokens),
		outputTokens: Number(r.output_tokens),
		cost: r.cost,
		lines: r.lines,
		createdAt: r.created_at.toISOString(),
		updatedAt: r.updated_at.toISOString(),
	}));
	if (json) {
		out.write(`${JSON.stringify({ queue: { name: queue.name, ...counts }, sessions }, null, 2)}\n`);
		return 0;
	}
	out.write(
		`queue ${queue.name}: ${Object.entries(counts)
			.map(([k, v]) => `${k} ${v}`)
			.join(", ")}\n`,
	);
	if (sessions.length === 0) {
		out.write("no sessions\n");
		return 0;
	}
	for (const s of sessions) {
		const prompt = (s.prompt ?? "").replace(/\s+/g, " ");
		out.write(
			`${s.id}  ${s.status.padEnd(9)}  attempts ${s.attempts}  epoch ${s.epoch}  tokens ${s.inputTokens}/${s.outputTokens}  $${s.cost.toFixed(4)}  ${s.lines} lines  ${prompt.length > 50 ? `${prompt.slice(0, 49)}…` : prompt}\n`,
		);
		if (s.owner && !TERMINAL.includes(s.status)) out.write(`    worker ${s.owner}\n`);
		if (s.reason && s.status !== "completed") out.write(`    reason: ${s.reason}\n`);
	}
	return 0;
}

/** Writes the session's lines as they are stored; with `follow`, keeps going until the session ends. */
export async function tailSession(
	pool: Pool,
	sessionId: string,
	follow: boolean,
	out: NodeJS.WritableStream,
): Promise<number> {
	const store = new PgSessionStore(pool);
	const statusOf = async () =>
		(await pool.query<{ status: string }>("SELECT status FROM pi_fleet_sessions WHERE id = $1", [sessionId])).rows[0]
			?.status;
	if ((await statusOf()) === undefined) throw new Error(`No fleet session ${sessionId}`);
	// A reader that went away (`pi fleet tail <id> | head`) fails the next write with EPIPE, an `error`
	// event that without a listener ended the process with a trace; following on would write to no
	// one forever. The tail stops instead, exit 1 without a trace (as `pi --version` into a closed pipe).
	// The listener stays: a write just before the end fails a tick later.
	let readerGone = false;
	let wake: () => void = () => {};
	out.on("error", () => {
		readerGone = true;
		wake();
	});
	let last = -1;
	const drain = async () => {
		for (const line of await store.readLines(sessionId, last)) {
			if (readerGone) return;
			out.write(line.bytes);
			last = line.seq;
		}
	};
	if (!follow) {
		await drain();
		return readerGone ? 1 : 0;
	}
	// A lost LISTEN connection is kept by checkOut; the status poll below then reports PostgreSQL's absence.
	const held = await checkOut(pool);
	const { client } = held;
	try {
		client.on("notification", (n) => {
			if (n.payload === sessionId) wake();
		});
		await client.query(`LISTEN ${LINES_CHANNEL}`);
		for (;;) {
			const woke = new Promise<void>((r) => {
				wake = r;
				setTimeout(r, 1000);
			});
			// The status is read before the lines: once it is final, these are all the lines there will be.
			const status = await statusOf();
			await drain();
			if (readerGone) return 1;
			if (status && TERMINAL.includes(status)) return 0;
			await woke;
			if (readerGone) return 1;
		}
	} finally {
		// A client still listening (UNLISTEN failed) is destroyed rather than pooled.
		const unlistenFailed = held.lost()
			? undefined
			: await client.query(`UNLISTEN ${LINES_CHANNEL}`).then(
					() => undefined,
					(e: unknown) => e ?? new Error("UNLISTEN failed"),
				);
		held.release(unlistenFailed);
	}
}
