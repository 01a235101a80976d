// One run of one session on this worker: claim the session (epoch + 1), lay
// its stored lines out as a local JSONL file, restore the workspace and apply
// the replay rule when it was interrupted, then drive a `pi --mode rpc` child
// on that file. The child's file is the local journal; every line it writes
// is copied into PostgreSQL (mirror.ts) before the worker acknowledges a tool
// intent, and at every event. Steering/abort come from the inbox (inbox.ts).
import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { attachJsonlLineReader, StaleWriterError, serializeJsonLine } from "@pi/coding-agent/internal";
import { type IntentAck, type IntentMessage, RESUME_COMMAND, RESUME_TOKEN_ENV } from "./child-extension.js";
import type { Pool } from "./db.js";
import { applyInbox } from "./inbox.js";
import { Mirror } from "./mirror.js";
import { isUnreachable, type Outage } from "./outage.js";
import type { PgSessionStore } from "./pg-store.js";
import { applyReplayRule, finalError, REPLAY_SAFE_TOOLS } from "./replay.js";
import { restoreWorkspace, snapshotWorkspace } from "./workspace.js";

export interface RunEnvironment {
	pool: Pool;
	store: PgSessionStore;
	workerId: string;
	/** Where this worker keeps its local session files. */
	workDir: string;
	/** The pi CLI entry run with node for each child. */
	piCli: string;
	/** The fleet child extension file (`-e`). */
	childExtension: string;
	env: NodeJS.ProcessEnv;
	/** PostgreSQL's state on this worker: steps that need it wait while it is down. */
	pg: Outage;
	/** How often the run tells PostgreSQL its owner is alive (heartbeat_at). */
	heartbeatMs: number;
	log(message: string): void;
	/** Makes the run reachable for inbox notifications; returns the unregister function. */
	register(sessionId: string, poll: () => void): () => void;
}

export type RunEnd = "completed" | "cancelled" | "fenced" | "skipped";

/** This worker lost the session to a newer one; it stopped its child and wrote nothing more. */
export class FencedError extends Error {
	override name = "FencedError";
}

interface SessionRow {
	id: string;
	status: string;
	prompt: string | null;
	cwd: string | null;
	model: string | null;
	snapshot: string | null;
}

const TERMINAL = new Set(["completed", "cancelled", "failed"]);

export async function runSession(env: RunEnvironment, sessionId: string): Promise<RunEnd> {
	const pg = <T>(what: string, fn: () => Promise<T>) => env.pg.retry(`session ${sessionId}: ${what}`, fn);
	const { rows } = await pg("reading the session", () =>
		env.pool.query<SessionRow>("SELECT id, status, prompt, cwd, model, snapshot FROM pi_fleet_sessions WHERE id = $1", [
			sessionId,
		]),
	);
	const row = rows[0];
	if (!row) throw new Error(`Session ${sessionId} has no row in pi_fleet_sessions`);
	if (TERMINAL.has(row.status)) return "skipped";
	const cwd = row.cwd ?? process.cwd();

	const writer = await pg("claiming the session", () => env.store.claim(sessionId));
	const epoch = writer.epoch;
	await pg("claiming the session", () =>
		env.pool.query(
			`UPDATE pi_fleet_sessions SET status = 'running', attempts = attempts + 1, heartbeat_at = now(), updated_at = now()
			 WHERE id = $1 AND epoch = $2`,
			[sessionId, epoch],
		),
	);
	// The owner's heartbeat, from the claim on (reconcile.ts leaves a running session alone while it beats).
	const heartbeat = setInterval(() => {
		env.pool
			.query("UPDATE pi_fleet_sessions SET heartbeat_at = now() WHERE id = $1 AND epoch = $2", [sessionId, epoch])
			.then(
				() => env.pg.up(),
				(e) => (isUnreachable(e) ? env.pg.down(e, `session ${sessionId}`) : undefined),
			);
	}, env.heartbeatMs);
	try {
		return await drive(env, sessionId, row, cwd, writer);
	} finally {
		clearInterval(heartbeat);
	}
}

async function drive(
	env: RunEnvironment,
	sessionId: string,
	row: SessionRow,
	cwd: string,
	writer: Awaited<ReturnType<PgSessionStore["claim"]>>,
): Promise<RunEnd> {
	const pg = <T>(what: string, fn: () => Promise<T>) => env.pg.retry(`session ${sessionId}: ${what}`, fn);
	const epoch = writer.epoch;
	const file = join(env.workDir, `${sessionId}.jsonl`);
	rmSync(file, { force: true });
	rmSync(`${file}.lock`, { force: true });
	const stored = await pg("reading the session", () => env.store.exportJsonl(sessionId));
	writeFileSync(file, stored);
	const mirror = new Mirror(env.pool, writer, file, stored.length);

	const resumeToken = randomUUID();
	let prompt: string;
	if (stored.length === 0) {
		const snapshot = await snapshotWorkspace(cwd, sessionId);
		if (snapshot)
			await pg("recording the workspace snapshot", () => recordSnapshot(env.pool, sessionId, epoch, snapshot));
		prompt = row.prompt ?? "";
	} else {
		if (row.snapshot) await restoreWorkspace(cwd, row.snapshot);
		const replay = await applyReplayRule(file, cwd);
		await pg("storing its lines", () => mirror.flush());
		if (replay.finished) {
			await pg("recording the end of the run", () => finish(env.pool, sessionId, epoch, "completed"));
			return "completed";
		}
		if (replay.fresh) prompt = row.prompt ?? "";
		else {
			const parts = [`Resumed on worker ${env.workerId} after the previous worker stopped.`];
			if (replay.replayed.length) parts.push(`Re-ran read-only tool calls: ${replay.replayed.join(", ")}.`);
			if (replay.interrupted.length) parts.push(`Interrupted tool calls: ${replay.interrupted.join(", ")}.`);
			prompt = `/${RESUME_COMMAND} ${resumeToken} ${parts.join(" ")}`;
			env.log(
				`session ${sessionId}: resumed at epoch ${epoch} (${parts.slice(1).join(" ") || "model call re-issued"})`,
			);
		}
	}

	const args = [env.piCli, "--mode", "rpc", "--session", file, "-e", env.childExtension];
	if (row.model) args.push("--model", row.model);
	const child = spawn(process.execPath, args, {
		cwd,
		env: { ...env.env, [RESUME_TOKEN_ENV]: resumeToken },
		stdio: ["pipe", "pipe", "pipe", "ipc"],
	});
	let stderr = "";
	child.stderr?.setEncoding("utf8");
	child.stderr?.on("data", (t: string) => {
		stderr = (stderr + t).slice(-4000);
	});
	child.stdin?.on("error", () => {});
	const send = (command: Record<string, unknown>) => child.stdin?.write(serializeJsonLine(command));

	let aborted = false;
	let accepting = false;
	/** Set once this run lost the session (a newer epoch, or a write refused): the child is killed. */
	let lostTo: number | undefined;
	const fenced = (e: unknown) => {
		if (e instanceof StaleWriterError) {
			lostTo ??= -1;
			child.kill("SIGKILL");
			return true;
		}
		return false;
	};
	const abort = () => {
		if (aborted) return;
		aborted = true;
		send({ type: "abort" });
	};
	// A hard cancel (`pi fleet abort` marks the row) or a newer owner ends this run even without an inbox row.
	const pollOnce = async () => {
		const { rows: now } = await env.pool.query<{ status: string; epoch: number }>(
			"SELECT status, epoch FROM pi_fleet_sessions WHERE id = $1",
			[sessionId],
		);
		if (now[0] && now[0].epoch !== epoch) {
			lostTo = now[0].epoch;
			child.kill("SIGKILL");
			return;
		}
		if (now[0]?.status === "cancelled") abort();
		await applyInbox(env.pool, sessionId, epoch, (item) => {
			if (item.kind === "abort") abort();
			else send({ type: item.kind === "follow_up" ? "follow_up" : "steer", message: item.text });
		});
	};
	const poll = () => {
		if (!accepting) return;
		pollOnce().then(
			() => env.pg.up(),
			(e) => {
				if (isUnreachable(e)) env.pg.down(e, `session ${sessionId}`);
				else env.log(`session ${sessionId}: inbox: ${(e as Error).message}`);
			},
		);
	};
	const unregister = env.register(sessionId, poll);
	const timer = setInterval(poll, 1000);

	const done = new Promise<void>((resolve, reject) => {
		let settled = false;
		attachJsonlLineReader(child.stdout as NodeJS.ReadableStream, (line) => {
			let record: { type?: string; id?: string; success?: boolean; error?: string; data?: { disposition?: string } };
			try {
				record = JSON.parse(line);
			} catch {
				return;
			}
			if (record.type === "response" && record.id === "run") {
				if (record.success === false) reject(new Error(`pi refused the prompt: ${record.error}`));
				// A slash command that ran and started no run (as `pi -p "/cmd"`): the prompt is done.
				if (record.data?.disposition === "handled") {
					settled = true;
					resolve();
					return;
				}
				accepting = true;
				poll();
				return;
			}
			// Copied now if PostgreSQL answers; otherwise by a later flush (the line stays in the file).
			mirror.flush().catch((e) => {
				if (fenced(e)) reject(new FencedError(String(e)));
			});
			if (record.type === "agent_settled") {
				settled = true;
				resolve();
			}
		});
		child.on("exit", (code, signal) => {
			if (lostTo !== undefined)
				reject(
					new FencedError(
						lostTo < 0 ? `session ${sessionId}: a write was refused` : `session ${sessionId} moved to epoch ${lostTo}`,
					),
				);
			else if (!settled)
				reject(
					new Error(
						`pi child exited (${signal ?? `code ${code}`}) before the run settled: ${stderr.trim().slice(-800)}`,
					),
				);
		});
		child.on("error", reject);
	});

	child.on("message", (raw: unknown) => {
		const m = raw as IntentMessage;
		if (m?.fleet !== "intent" && m?.fleet !== "done") return;
		void env.pg
			.retry(
				`session ${sessionId}: recording tool call ${m.toolCallId} before it runs (the tool waits)`,
				() => onIntent(env, sessionId, epoch, cwd, mirror, m),
				() => child.connected,
			)
			.then(
				(ack) => child.connected && child.send(ack),
				(e) => {
					if (!fenced(e)) env.log(`session ${sessionId}: intent ${m.toolCallId}: ${(e as Error).message}`);
					if (child.connected) child.send({ fleet: "ack", id: m.id, block: "the fleet could not record this call" });
				},
			);
	});

	send({ id: "run", type: "prompt", message: prompt });
	try {
		await done;
		accepting = false;
		// The child ends with its stdin; the IPC channel would keep it alive (its extension exits when it closes).
		child.stdin?.end();
		if (child.connected) child.disconnect();
		await exited(child);
		await pg("storing its lines", () => mirror.flush());
		const snapshot = await snapshotWorkspace(cwd, sessionId);
		if (snapshot)
			await pg("recording the workspace snapshot", () => recordSnapshot(env.pool, sessionId, epoch, snapshot));
		const failure = aborted ? undefined : finalError(file, cwd);
		// Tried again (BullMQ attempts): the next start re-issues the failed call.
		if (failure) throw new Error(`the run ended on a failed model call: ${failure}`);
		const end = aborted ? "cancelled" : "completed";
		await pg("recording the end of the run", () => finish(env.pool, sessionId, epoch, end));
		return end;
	} catch (e) {
		if (e instanceof FencedError || e instanceof StaleWriterError) {
			env.log(`session ${sessionId}: fenced at epoch ${epoch}, writes refused: ${(e as Error).message}`);
			return "fenced";
		}
		throw e;
	} finally {
		accepting = false;
		clearInterval(timer);
		unregister();
		if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
		await exited(child);
		await writer.close();
		rmSync(file, { force: true });
		rmSync(`${file}.lock`, { force: true });
	}
}

async function onIntent(
	env: RunEnvironment,
	sessionId: string,
	epoch: number,
	cwd: string,
	mirror: Mirror,
	m: IntentMessage,
): Promise<IntentAck> {
	// The assistant message naming the call is in the file; it reaches PostgreSQL first.
	await mirror.flush();
	if (REPLAY_SAFE_TOOLS.has(m.toolName)) {
		if (m.fleet === "intent") await recordIntent(env.pool, sessionId, epoch, m, null);
		return { fleet: "ack", id: m.id };
	}
	const snapshot = (await snapshotWorkspace(cwd, sessionId)) ?? null;
	if (m.fleet === "intent") await recordIntent(env.pool, sessionId, epoch, m, snapshot);
	if (snapshot) await recordSnapshot(env.pool, sessionId, epoch, snapshot);
	return { fleet: "ack", id: m.id };
}

async function recordIntent(
	pool: Pool,
	sessionId: string,
	epoch: number,
	m: IntentMessage,
	snapshot: string | null,
): Promise<void> {
	await pool.query(
		`INSERT INTO pi_fleet_intents (session_id, tool_call_id, tool_name, epoch, snapshot) VALUES ($1, $2, $3, $4, $5)
		 ON CONFLICT (session_id, tool_call_id) DO NOTHING`,
		[sessionId, m.toolCallId, m.toolName, epoch, snapshot],
	);
}

async function recordSnapshot(pool: Pool, sessionId: string, epoch: number, snapshot: string): Promise<void> {
	const { rowCount } = await pool.query(
		"UPDATE pi_fleet_sessions SET snapshot = $3, updated_at = now() WHERE id = $1 AND epoch = $2",
		[sessionId, epoch, snapshot],
	);
	if (rowCount === 0) throw new StaleWriterError(sessionId, "a newer writer took the session before the snapshot");
}

async function finish(pool: Pool, sessionId: string, epoch: number, status: "completed" | "cancelled"): Promise<void> {
	await pool.query(
		"UPDATE pi_fleet_sessions SET status = $3, owner = NULL, updated_at = now() WHERE id = $1 AND epoch = $2 AND status <> 'cancelled'",
		[sessionId, epoch, status],
	);
}

function exited(child: ChildProcess): Promise<void> {
	if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
	return new Promise((resolve) => child.once("exit", () => resolve()));
}
