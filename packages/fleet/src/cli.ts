// `pi fleet <command>`: the core CLI loads this package by name at run time and
// hands over the arguments after `fleet`. Each command connects to the servers
// named by PI_FLEET_REDIS_URL / PI_FLEET_DATABASE_URL (or settings.json's
// "fleet"), says which server at which URL when one cannot be reached, and exits 1.
import { resolve } from "node:path";
import { type FleetConfig, FleetConfigError, FleetServiceError, loadFleetConfig } from "./config.js";
import { openDatabase, type Pool } from "./db.js";
import { sendToInbox } from "./inbox.js";
import { PgSessionStore } from "./pg-store.js";
import { checkRedis, openQueue } from "./queue.js";
import { printStatus, tailSession } from "./status.js";
import { cancelRun, submitRun } from "./submit.js";

/** Structurally the core CLI's SubcommandIo. */
export interface FleetIo {
	stdin: NodeJS.ReadStream;
	stdout: NodeJS.WritableStream;
	stderr: NodeJS.WritableStream;
	env: NodeJS.ProcessEnv;
	cwd: string;
}

const USAGE = `Usage:
  pi fleet worker [--slots N]                      run sessions from the queue (N at a time, default 1)
  pi fleet submit <prompt> [--cwd DIR] [--model M] [--request-id ID]
                                                   queue a run; prints its session id
  pi fleet status [session] [--json]               queue counts, sessions, tokens and cost
  pi fleet tail <session> [--no-follow]            the session's JSONL lines, live until it ends
  pi fleet steer <session> <text> [--follow-up] [--request-id ID]
                                                   steer (or queue a follow-up for) a running session
  pi fleet abort <session>                         cancel a run, also when its worker is gone
  pi fleet export <session>                        the session as JSONL on stdout

Servers: PI_FLEET_REDIS_URL and PI_FLEET_DATABASE_URL, or in settings.json
  "fleet": { "redisUrl": "redis://…", "databaseUrl": "postgres://…" }
(PI_FLEET_QUEUE names the BullMQ queue, default pi-fleet.)
`;

class UsageError extends Error {}

interface Parsed {
	positional: string[];
	flags: Map<string, string | true>;
}

function parse(argv: readonly string[], valued: string[], boolean: string[]): Parsed {
	const positional: string[] = [];
	const flags = new Map<string, string | true>();
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		if (arg === "--") {
			positional.push(...argv.slice(i + 1));
			break;
		}
		if (valued.includes(arg)) {
			const value = argv[++i];
			if (value === undefined) throw new UsageError(`${arg} needs a value`);
			flags.set(arg, value);
		} else if (boolean.includes(arg)) flags.set(arg, true);
		else if (arg.startsWith("--")) throw new UsageError(`unknown option ${arg}`);
		else positional.push(arg);
	}
	return { positional, flags };
}

const str = (p: Parsed, flag: string): string | undefined => {
	const v = p.flags.get(flag);
	return typeof v === "string" ? v : undefined;
};

export async function runFleetCommand(argv: readonly string[], io: FleetIo): Promise<number> {
	const [sub, ...rest] = argv;
	if (sub === undefined || sub === "--help" || sub === "-h" || sub === "help") {
		io.stdout.write(USAGE);
		return sub === undefined ? 1 : 0;
	}
	try {
		switch (sub) {
			case "worker":
				return await workerCommand(parse(rest, ["--slots"], []), io);
			case "submit":
				return await submitCommand(parse(rest, ["--cwd", "--model", "--request-id"], []), io);
			case "status":
				return await statusCommand(parse(rest, [], ["--json"]), io);
			case "tail":
				return await tailCommand(parse(rest, [], ["--no-follow"]), io);
			case "steer":
				return await steerCommand(parse(rest, ["--request-id"], ["--follow-up"]), io);
			case "abort":
				return await abortCommand(parse(rest, [], []), io);
			case "export":
				return await exportCommand(parse(rest, [], []), io);
			default:
				throw new UsageError(`unknown command "pi fleet ${sub}"`);
		}
	} catch (e) {
		if (e instanceof UsageError) {
			io.stderr.write(`Error: ${e.message}\n\n${USAGE}`);
			return 1;
		}
		if (e instanceof FleetConfigError || e instanceof FleetServiceError) {
			io.stderr.write(`Error: ${e.message}\n`);
			return 1;
		}
		io.stderr.write(`Error: ${(e as Error).message ?? e}\n`);
		return 1;
	}
}

async function withDatabase<T>(config: FleetConfig, fn: (pool: Pool) => Promise<T>): Promise<T> {
	const pool = await openDatabase(config.databaseUrl, 2);
	try {
		return await fn(pool);
	} finally {
		await pool.end().catch(() => {});
	}
}

async function withQueue<T>(config: FleetConfig, fn: (queue: ReturnType<typeof openQueue>) => Promise<T>): Promise<T> {
	await checkRedis(config.redisUrl);
	const queue = openQueue(config.redisUrl, config.queue);
	try {
		return await fn(queue);
	} finally {
		await queue.close().catch(() => {});
	}
}

function one(p: Parsed, what: string, count = 1): string[] {
	if (p.positional.length !== count) throw new UsageError(`expected ${what}`);
	return p.positional;
}

async function workerCommand(p: Parsed, io: FleetIo): Promise<number> {
	one(p, "no arguments", 0);
	const slotsText = str(p, "--slots") ?? "1";
	const slots = Number(slotsText);
	if (!Number.isInteger(slots) || slots < 1)
		throw new UsageError(`--slots must be a whole number ≥ 1, got "${slotsText}"`);
	const config = loadFleetConfig(io.env);
	const { startWorker } = await import("./worker.js");
	const log = (m: string) => io.stderr.write(`[pi fleet ${new Date().toISOString()}] ${m}\n`);
	const worker = await startWorker({ config, slots, env: io.env, log });
	await new Promise<void>((done) => {
		let stopping = false;
		const stop = (signal: NodeJS.Signals) => {
			if (stopping) {
				log(`${signal} again: leaving the running sessions to other workers`);
				void worker.close(true).finally(done);
				return;
			}
			stopping = true;
			log(`${signal}: finishing the running sessions (send it again to leave them to other workers)`);
			void worker.close().finally(done);
		};
		process.on("SIGTERM", stop);
		process.on("SIGINT", stop);
	});
	return 0;
}

async function submitCommand(p: Parsed, io: FleetIo): Promise<number> {
	const [prompt] = one(p, "one prompt (quote it)");
	if (!prompt.trim()) throw new UsageError("the prompt is empty");
	const config = loadFleetConfig(io.env);
	const cwd = resolve(io.cwd, str(p, "--cwd") ?? ".");
	const { sessionId, duplicate } = await withQueue(config, (queue) =>
		withDatabase(config, (pool) =>
			submitRun(pool, queue, { prompt, cwd, model: str(p, "--model"), requestId: str(p, "--request-id") }, io.env),
		),
	);
	if (duplicate) io.stderr.write(`Request ${str(p, "--request-id")} was submitted before: session ${sessionId}\n`);
	io.stdout.write(`${sessionId}\n`);
	return 0;
}

async function statusCommand(p: Parsed, io: FleetIo): Promise<number> {
	if (p.positional.length > 1) throw new UsageError("expected at most one session id");
	const config = loadFleetConfig(io.env);
	return withQueue(config, (queue) =>
		withDatabase(config, (pool) => printStatus(pool, queue, p.positional[0], p.flags.has("--json"), io.stdout)),
	);
}

async function tailCommand(p: Parsed, io: FleetIo): Promise<number> {
	const [sessionId] = one(p, "one session id");
	const config = loadFleetConfig(io.env);
	return withDatabase(config, (pool) => tailSession(pool, sessionId, !p.flags.has("--no-follow"), io.stdout));
}

async function steerCommand(p: Parsed, io: FleetIo): Promise<number> {
	const [sessionId, text] = one(p, "a session id and the text", 2);
	const config = loadFleetConfig(io.env);
	const kind = p.flags.has("--follow-up") ? "follow_up" : "steer";
	const { requestId, duplicate } = await withDatabase(config, (pool) =>
		sendToInbox(pool, sessionId, kind, text, str(p, "--request-id")),
	);
	io.stdout.write(`${requestId}${duplicate ? " (sent before; applied once)" : ""}\n`);
	return 0;
}

async function abortCommand(p: Parsed, io: FleetIo): Promise<number> {
	const [sessionId] = one(p, "one session id");
	const config = loadFleetConfig(io.env);
	const status = await withQueue(config, (queue) => withDatabase(config, (pool) => cancelRun(pool, queue, sessionId)));
	io.stdout.write(`${sessionId} ${status}\n`);
	return 0;
}

async function exportCommand(p: Parsed, io: FleetIo): Promise<number> {
	const [sessionId] = one(p, "one session id");
	const config = loadFleetConfig(io.env);
	const bytes = await withDatabase(config, async (pool) => {
		const { rows } = await pool.query("SELECT 1 FROM pi_fleet_sessions WHERE id = $1", [sessionId]);
		if (rows.length === 0) throw new Error(`No fleet session ${sessionId}`);
		return new PgSessionStore(pool).exportJsonl(sessionId);
	});
	await new Promise<void>((done) => io.stdout.write(bytes, () => done()));
	return 0;
}
