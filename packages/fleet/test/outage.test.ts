// A server going away while a run is in progress, end to end (built CLI as
// `pi fleet worker`, real PostgreSQL and Redis stopped and started again by
// the test, the fake provider):
//   - PostgreSQL down mid-run: the worker says which server at which URL, the
//     tool the model asked for waits until its intent is stored (it runs after
//     the server is back), nothing stored before is lost or written twice, and
//     the same run (same epoch, one attempt) finishes;
//   - Redis down mid-run (it comes back with its data): named in the log, the
//     run finishes meanwhile and its job completes once Redis is back;
//   - Redis back without its data (no persistence, or a flushed queue): the
//     session still queued gets its job again from a worker's reconcile pass,
//     the session running on a live worker is left alone (no second run), and
//     a running session whose worker died is queued again once its heartbeat
//     is older than a lock.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Queue } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChatMessage, type Fleet, type Reply, startFleet, textOf, type WorkerProc } from "./support/fleet.js";
import { missingServices, type Services, startServices } from "./support/services.js";

const skip = missingServices();
let services: Services;
let f: Fleet;
let worker: WorkerProc;
let queue: Queue;

const gates = new Map<string, () => void>();
const gate = (name: string) => new Promise<void>((r) => gates.set(name, r));
/** Lets the held answer go (and forgets the gate, so a retried test holds again). */
const open = (name: string) => {
	gates.get(name)?.();
	gates.delete(name);
};
/** The worker's log from now on (a retried test must not see the first try's lines). */
const logFrom = (w: WorkerProc) => {
	const mark = w.log().length;
	return () => w.log().slice(mark);
};
const promptOf = (messages: ChatMessage[]) => textOf(messages.find((m) => m.role === "user")?.content);
const resumed = (messages: ChatMessage[]) => messages.some((m) => textOf(m.content).includes("Resumed on worker"));

async function brain(messages: ChatMessage[]): Promise<Reply> {
	const prompt = promptOf(messages);
	const toolResults = messages.filter((m) => m.role === "tool");
	switch (prompt) {
		case "pg outage":
			if (toolResults.length > 0) return { text: `after the tool: ${textOf(toolResults.at(-1)?.content).trim()}` };
			await gate("pg");
			// Writes the time (ms) the tool ran.
			return { tool: "bash", args: { command: "date +%s%3N > ran-at.txt && echo ran" } };
		case "redis outage":
			await gate("redis");
			return { text: "finished while Redis was away" };
		case "hold A":
			await gate("A");
			return { text: "A done" };
		case "quick B":
			return { text: "B done" };
		case "die C":
			return resumed(messages) ? { text: "C done after its worker died" } : { hangAfter: "C thinking" };
		default:
			return { text: `unexpected prompt ${prompt}` };
	}
}

beforeAll(async () => {
	if (skip) return;
	services = await startServices();
	f = await startFleet(services, brain, {
		PI_FLEET_LOCK_MS: "4000",
		PI_FLEET_STALLED_MS: "1000",
		PI_FLEET_RECONCILE_MS: "1000",
		PI_FLEET_RETRY_MS: "200",
	});
	worker = f.spawnWorker(1);
	const u = new URL(services.redisUrl);
	queue = new Queue(f.env.PI_FLEET_QUEUE as string, {
		connection: { host: u.hostname, port: Number(u.port), maxRetriesPerRequest: null, retryStrategy: () => 250 },
	});
	queue.on("error", () => {});
	await f.waitFor("the worker to start", () => worker.log().includes("slot(s) on queue"));
}, 120_000);

afterAll(async () => {
	await queue?.close().catch(() => {});
	await f?.close();
	await services?.stop();
}, 60_000);

interface Row {
	status: string;
	epoch: number;
	attempts: number;
}

const row = async (id: string) =>
	(await f.sql<Row>("SELECT status, epoch, attempts FROM pi_fleet_sessions WHERE id = $1", [id]))[0];

async function submit(prompt: string, cwd?: string): Promise<string> {
	const r = await f.fleet(["submit", prompt, "--model", "fake/fake-model", ...(cwd ? ["--cwd", cwd] : [])]);
	expect(r.code, r.stderr).toBe(0);
	return r.stdout.trim();
}

const completed = (id: string) =>
	f.waitFor(
		`session ${id} to complete`,
		async () => {
			const r = await row(id).catch(() => undefined);
			return r?.status === "completed" ? r : undefined;
		},
		60_000,
	);

const storedBytes = async (id: string) =>
	Buffer.concat(
		(await f.sql<{ line: Buffer }>("SELECT line FROM pi_fleet_lines WHERE session_id = $1 ORDER BY seq", [id])).map(
			(r) => r.line,
		),
	);

function messagesOf(jsonl: Buffer): { role: string; content: unknown; isError?: boolean }[] {
	return jsonl
		.toString("utf8")
		.trimEnd()
		.split("\n")
		.map((l) => JSON.parse(l))
		.filter((e) => e.type === "message" && e.message.role !== "system")
		.map((e) => e.message);
}

const jobState = async (id: string) => (await queue.getJob(id))?.getState();

describe.skipIf(skip)("fleet with a server going away mid-run", () => {
	it("PostgreSQL down mid-run: named in the log, the tool waits, nothing lost, the same run finishes", async () => {
		const log = logFrom(worker);
		const cwd = f.repo(`pg-outage-${Date.now()}`);
		const id = await submit("pg outage", cwd);
		await f.waitFor("the model call to be held", () => gates.has("pg"));
		// The prompt is stored before the outage.
		await f.waitFor("the user message in PostgreSQL", async () =>
			(await storedBytes(id)).toString().includes('"role":"user"'),
		);
		const before = await storedBytes(id);
		services.stopPostgres();
		let restartedAt = 0;
		try {
			// The model asks for a tool while PostgreSQL is down.
			open("pg");
			await f.waitFor("the worker to name PostgreSQL and its URL", () =>
				log().includes(`PostgreSQL at ${services.databaseUrl} is not reachable`),
			);
		} finally {
			restartedAt = Date.now();
			services.startPostgres();
		}
		const done = await completed(id);
		await f.waitFor("the worker to say PostgreSQL is back", () =>
			log().includes(`PostgreSQL at ${services.databaseUrl} is reachable again`),
		);
		// The same run went on: no second claim, no attempt spent on the outage.
		expect(done).toEqual({ status: "completed", epoch: 1, attempts: 1 });
		const after = await storedBytes(id);
		expect(after.subarray(0, before.length).equals(before)).toBe(true);
		const messages = messagesOf(after);
		expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
		expect(messages[2].isError).toBe(false);
		expect(textOf(messages[3].content)).toBe("after the tool: ran");
		// Its intent could only be stored once PostgreSQL was back, and the tool ran after that.
		const ranAt = Number(readFileSync(join(cwd, "ran-at.txt"), "utf8").trim());
		expect(ranAt).toBeGreaterThanOrEqual(restartedAt);
		const intents = await f.sql<{ tool_name: string }>("SELECT tool_name FROM pi_fleet_intents WHERE session_id = $1", [
			id,
		]);
		expect(intents).toEqual([{ tool_name: "bash" }]);
		expect(await jobState(id)).toBe("completed");
	}, 120_000);

	it("Redis down mid-run: named in the log, the run finishes meanwhile, its job completes when Redis is back", async () => {
		const log = logFrom(worker);
		const id = await submit("redis outage");
		await f.waitFor("the model call to be held", () => gates.has("redis"));
		await services.stopRedis();
		try {
			await f.waitFor("the worker to name Redis and its URL", () =>
				log().includes(`Redis at ${services.redisUrl} is not reachable`),
			);
			open("redis");
			// The run needs PostgreSQL and the model, not Redis.
			const done = await completed(id);
			expect(done).toEqual({ status: "completed", epoch: 1, attempts: 1 });
		} finally {
			await services.startRedis();
		}
		await f.waitFor("the worker to say Redis is back", () =>
			log().includes(`Redis at ${services.redisUrl} is reachable again`),
		);
		// Either the worker reports the end itself, or (its lock lapsed meanwhile) the job is handed
		// out again and skipped: the session had ended.
		await f.waitFor("the job to complete", async () => (await jobState(id)) === "completed", 60_000);
		expect(await row(id)).toEqual({ status: "completed", epoch: 1, attempts: 1 });
		const texts = messagesOf(await storedBytes(id)).map((m) => textOf(m.content));
		expect(texts.filter((t) => t === "finished while Redis was away")).toHaveLength(1);
	}, 120_000);

	it("Redis back without its data: owed sessions get their job again, a live run is not started twice", async () => {
		const a = await submit("hold A");
		await f.waitFor("A's model call to be held", () => gates.has("A"));
		const b = await submit("quick B");
		expect(await jobState(b)).toBe("waiting"); // the worker's one slot is busy with A
		await services.stopRedis();
		await services.startRedis({ empty: true });
		expect(await queue.getJob(a)).toBeUndefined();
		await f.waitFor("B to be queued again", () =>
			worker.log().includes(`reconcile: session ${b} is queued but had no job in Redis; queued again`),
		);
		open("A");
		expect(await completed(a)).toEqual({ status: "completed", epoch: 1, attempts: 1 });
		expect(await completed(b)).toEqual({ status: "completed", epoch: 1, attempts: 1 });
		expect(worker.log()).not.toContain(`reconcile: session ${a}`);
		const textsA = messagesOf(await storedBytes(a)).map((m) => textOf(m.content));
		expect(textsA.filter((t) => t === "A done")).toHaveLength(1);

		// A running session whose worker died while Redis had lost its job.
		const c = await submit("die C");
		await f.waitFor("C's model call", () =>
			f.sb.fake.requests.some((r) => promptOf((r.body as { messages: ChatMessage[] }).messages) === "die C"),
		);
		await services.stopRedis();
		await services.startRedis({ empty: true });
		process.kill(-(worker.child.pid as number), "SIGKILL");
		await worker.exited;
		const second = f.spawnWorker(1);
		worker = second;
		await f.waitFor("C to be queued again by the new worker", () =>
			second.log().includes(`reconcile: session ${c} is running but had no job in Redis; queued again (its owner`),
		);
		expect(await completed(c)).toEqual({ status: "completed", epoch: 2, attempts: 2 });
		expect(textOf(messagesOf(await storedBytes(c)).at(-1)?.content)).toBe("C done after its worker died");
	}, 150_000);
});
