// The fleet's figures (issue 26), with real redis-server + PostgreSQL on
// loopback (the fleet tests' throwaway servers) and the fake provider:
//   - throughput: N short runs (one streamed text answer each) submitted at once
//     to 3 `pi fleet worker` processes (built CLI, --slots S each): runs/s;
//   - failover: SIGKILL of the worker holding a streaming run → the session's
//     epoch bumped by another worker (claim) and → the run completed;
//     with the short test lock settings, and once with the defaults (--defaults);
//   - steer latency: inbox row inserted → handed to the run's child (the
//     owner's UPDATE), both stamped by PostgreSQL's clock, NOTIFY path;
//   - append latency: one ~600-byte JSONL line appended (durable on return)
//     through PgSessionStore vs the JSONL file store (fsync), median and p95.
//
//   npm run build && npx tsx bench/fleet.bench.ts [--runs=200] [--slots=2] [--failovers=3] [--defaults]
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { JsonlSessionStore } from "../packages/coding-agent/src/session/jsonl-store.js";
import { openDatabase } from "../packages/fleet/src/db.js";
import { sendToInbox } from "../packages/fleet/src/inbox.js";
import { PgSessionStore } from "../packages/fleet/src/pg-store.js";
import { openQueue } from "../packages/fleet/src/queue.js";
import { submitRun } from "../packages/fleet/src/submit.js";
import {
	type ChatMessage,
	type Reply,
	startFleet,
	textOf,
	type WorkerProc,
} from "../packages/fleet/test/support/fleet.js";
import { missingServices, startServices } from "../packages/fleet/test/support/services.js";

const args = process.argv.slice(2);
const opt = (name: string, fallback: number) =>
	Number(args.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? fallback);
const RUNS = opt("runs", 200);
const SLOTS = opt("slots", 2);
const FAILOVERS = opt("failovers", 3);
const WITH_DEFAULTS = args.includes("--defaults");

const skip = missingServices();
if (skip) {
	console.log(skip);
	process.exit(0);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))];
const ms = (x: number) => `${x.toFixed(1)} ms`;
const load = () => loadavg()[0].toFixed(1);

// The fleet's environment carries the short test settings; these are lockSettings()'s defaults.
const DEFAULT_LOCKS = { PI_FLEET_LOCK_MS: "30000", PI_FLEET_STALLED_MS: "15000" };

const gates = new Map<string, () => void>();
const resumed = (m: ChatMessage[]) => m.some((x) => textOf(x.content).includes("Resumed on worker"));
async function brain(messages: ChatMessage[]): Promise<Reply> {
	const prompt = textOf(messages.find((m) => m.role === "user")?.content);
	if (prompt.startsWith("failover")) return resumed(messages) ? { text: "done" } : { hangAfter: "partial" };
	if (prompt.startsWith("steer")) {
		if (messages.some((m) => m.role === "tool")) return { text: "steered" };
		await new Promise<void>((r) => gates.set(prompt, r));
		return { tool: "ls", args: {} };
	}
	return { text: "hello" };
}

// PostgreSQL syncs its WAL here (the tests turn fsync off), so its append figure is comparable to the fsynced file.
const services = await startServices({ fsync: true });
console.log(`load average at start: ${load()}`);
try {
	const lockEnv = { PI_FLEET_LOCK_MS: "3000", PI_FLEET_STALLED_MS: "1000" };
	const f = await startFleet(services, brain, lockEnv);
	const pool = await openDatabase(services.databaseUrl, 4);
	const queue = openQueue(services.redisUrl, f.env.PI_FLEET_QUEUE as string);
	const workers: WorkerProc[] = [];
	const spawnWorker = (extra: NodeJS.ProcessEnv = {}) => {
		const w = f.spawnWorker(SLOTS, extra);
		workers.push(w);
		return w;
	};
	const ready = (ws: WorkerProc[]) =>
		f.waitFor("workers", () => ws.every((w) => w.log().includes("slot(s) on queue")), 60_000);
	const statusOf = async (id: string) =>
		(
			await pool.query<{ status: string; epoch: number; owner: string }>(
				"SELECT status, epoch, owner FROM pi_fleet_sessions WHERE id = $1",
				[id],
			)
		).rows[0];
	const submit = (prompt: string) =>
		submitRun(pool, queue, { prompt, cwd: f.sb.cwd, model: "fake/fake-model" }, f.env).then((r) => r.sessionId);

	try {
		// 1. Throughput.
		const first = [spawnWorker(), spawnWorker(), spawnWorker()];
		await ready(first);
		const t0 = performance.now();
		const ids = await Promise.all(Array.from({ length: RUNS }, (_, i) => submit(`hello ${i}`)));
		const submitted = performance.now() - t0;
		await f.waitFor(
			"all runs",
			async () =>
				(
					await pool.query<{ n: number }>(
						"SELECT count(*)::int AS n FROM pi_fleet_sessions WHERE id = ANY($1) AND status = 'completed'",
						[ids],
					)
				).rows[0].n === RUNS,
			30 * 60_000,
		);
		const total = performance.now() - t0;
		console.log(
			`throughput: ${RUNS} runs over 3 workers × ${SLOTS} slots in ${(total / 1000).toFixed(1)} s = ${((RUNS * 1000) / total).toFixed(2)} runs/s (submitting all took ${ms(submitted)}; load ${load()})`,
		);

		// 2. Failover after kill -9.
		const failover = async (label: string) => {
			const id = await submit(`failover ${label}`);
			const owner = await f.waitFor("an owner", async () => {
				const row = await statusOf(id);
				const pid = Number(row?.owner?.split(":")[1]);
				return row?.status === "running" ? workers.find((w) => w.child.pid === pid) : undefined;
			});
			await f.waitFor("the stream", () =>
				f.sb.fake.requests.some(
					(r) =>
						textOf((r.body as { messages: ChatMessage[] }).messages.find((m) => m.role === "user")?.content) ===
						`failover ${label}`,
				),
			);
			const killed = performance.now();
			owner.child.kill("SIGKILL");
			spawnWorker(label.startsWith("default") ? DEFAULT_LOCKS : lockEnv);
			await f.waitFor("the claim", async () => ((await statusOf(id)).epoch >= 2 ? true : undefined), 120_000);
			const claimed = performance.now() - killed;
			await f.waitFor("completion", async () => (await statusOf(id)).status === "completed", 120_000);
			return { claimed, completed: performance.now() - killed };
		};
		const samples: { claimed: number; completed: number }[] = [];
		for (let i = 0; i < FAILOVERS; i++) samples.push(await failover(`short ${i}`));
		console.log(
			`failover (lock 3 s, stalled check 1 s), ${FAILOVERS} kills: kill → claimed by another worker median ${ms(median(samples.map((s) => s.claimed)))} (max ${ms(Math.max(...samples.map((s) => s.claimed)))}); kill → run completed median ${ms(median(samples.map((s) => s.completed)))} (load ${load()})`,
		);
		if (WITH_DEFAULTS) {
			for (const w of workers) w.child.kill("SIGKILL");
			const fresh = [spawnWorker(DEFAULT_LOCKS), spawnWorker(DEFAULT_LOCKS)];
			await ready(fresh);
			const d = await failover("default 0");
			console.log(
				`failover (defaults: lock 30 s, stalled check 15 s), 1 kill: kill → claimed ${ms(d.claimed)}; kill → completed ${ms(d.completed)}`,
			);
		}

		// 3. Steer latency (inbox insert → handed to the child), 20 samples on a held run each.
		const steer: number[] = [];
		for (let i = 0; i < 20; i++) {
			const prompt = `steer ${i}`;
			const id = await submit(prompt);
			await f.waitFor("the held call", () => gates.has(prompt), 60_000);
			const { requestId } = await sendToInbox(pool, id, "steer", "note");
			const row = await f.waitFor("applied", async () => {
				const r = (
					await pool.query<{ lag: number | null }>(
						"SELECT EXTRACT(EPOCH FROM (applied_at - created_at)) * 1000 AS lag FROM pi_fleet_inbox WHERE request_id = $1",
						[requestId],
					)
				).rows[0];
				return r?.lag !== null && r?.lag !== undefined ? r : undefined;
			});
			steer.push(Number(row.lag));
			gates.get(prompt)?.();
			await f.waitFor("done", async () => (await statusOf(id)).status === "completed", 60_000);
		}
		console.log(`steer latency (inbox row → handed to the run): median ${ms(median(steer))}, p95 ${ms(p95(steer))}`);

		// 4. Append latency: PostgreSQL vs JSONL (fsync).
		const line = Buffer.from(`${JSON.stringify({ type: "message", id: "x".repeat(8), pad: "y".repeat(520) })}\n`);
		const N = 500;
		const time = async (append: () => Promise<void>) => {
			const xs: number[] = [];
			for (let i = 0; i < N; i++) {
				const t = performance.now();
				await append();
				xs.push(performance.now() - t);
			}
			return xs;
		};
		const pgWriter = await new PgSessionStore(pool, "bench").claim("bench-append");
		const pgTimes = await time(() => pgWriter.append(line));
		const dir = mkdtempSync(join(tmpdir(), "pi-fleet-bench-"));
		const fileWriter = await new JsonlSessionStore(dir).claim("bench-append");
		const fileTimes = await time(() => fileWriter.append(line));
		await fileWriter.close();
		rmSync(dir, { recursive: true, force: true });
		console.log(
			`append latency, ${N} × ${line.length}-byte lines, durable on return: PostgreSQL median ${ms(median(pgTimes))} p95 ${ms(p95(pgTimes))}; JSONL file (fsync) median ${ms(median(fileTimes))} p95 ${ms(p95(fileTimes))} (load ${load()})`,
		);
	} finally {
		await queue.close();
		await pool.end();
		await f.close();
	}
} finally {
	await services.stop();
}
