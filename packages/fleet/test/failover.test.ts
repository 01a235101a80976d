// Failover end to end: three `pi fleet worker` processes (the built CLI), real
// Redis + PostgreSQL, the fake provider. A worker killed with SIGKILL mid-stream
// or mid-tool: another worker takes the job when its lock runs out (short lock
// settings here), claims the session (epoch + 1), restores the workspace,
// applies the replay rule and re-issues the model call. A worker stopped with
// SIGSTOP (with its children, like a frozen machine) and resumed after the
// takeover has its writes refused. Abort works when the owner is gone.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { Queue } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChatMessage, type Fleet, type Reply, startFleet, textOf, type WorkerProc } from "./support/fleet.js";
import { missingServices, type Services, startServices } from "./support/services.js";

const skip = missingServices();

/** The pids of a process's children (none: []). */
function childrenOf(pid: number): number[] {
	try {
		return execFileSync("ps", ["-o", "pid=", "--ppid", String(pid)], { encoding: "utf8" })
			.split("\n")
			.map((l) => Number(l.trim()))
			.filter((n) => n > 0);
	} catch {
		return []; // ps exits 1 when it lists nothing
	}
}
let services: Services;
let f: Fleet;
const workers: WorkerProc[] = [];

const gates = new Map<string, () => void>();
const gate = (name: string) => new Promise<void>((r) => gates.set(name, r));
const resumed = (messages: ChatMessage[]) => messages.some((m) => textOf(m.content).includes("Resumed on worker"));
const promptOf = (messages: ChatMessage[]) => textOf(messages.find((m) => m.role === "user")?.content);

async function brain(messages: ChatMessage[]): Promise<Reply> {
	const prompt = promptOf(messages);
	const toolResults = messages.filter((m) => m.role === "tool");
	switch (prompt) {
		case "stream then die":
			return resumed(messages) ? { text: "finished after failover" } : { hangAfter: "a partial answer" };
		case "tool then die":
			if (toolResults.length > 0) return { text: `after the tool: ${textOf(toolResults.at(-1)?.content)}` };
			return { tool: "bash", args: { command: "echo started > marker.txt && sleep 15" } };
		case "zombie":
			if (resumed(messages)) return { text: "answer from the new owner" };
			await gate("zombie");
			return { text: "zombie answer" };
		case "hold on":
			return { hangAfter: "thinking" };
		default:
			return { text: `unexpected prompt ${prompt}` };
	}
}

function startWorker(): WorkerProc {
	const w = f.spawnWorker(1);
	workers.push(w);
	return w;
}

beforeAll(async () => {
	if (skip) return;
	services = await startServices();
	f = await startFleet(services, brain, { PI_FLEET_LOCK_MS: "3000", PI_FLEET_STALLED_MS: "1000" });
	for (let i = 0; i < 3; i++) startWorker();
	await f.waitFor("three workers", () => workers.every((w) => w.log().includes("slot(s) on queue")));
}, 120_000);

afterAll(async () => {
	await f?.close();
	await services?.stop();
}, 60_000);

interface Row {
	status: string;
	epoch: number;
	owner: string | null;
}

const row = async (id: string) =>
	(await f.sql<Row>("SELECT status, epoch, owner FROM pi_fleet_sessions WHERE id = $1", [id]))[0];

async function submit(prompt: string, cwd?: string): Promise<string> {
	const r = await f.fleet(["submit", prompt, "--model", "fake/fake-model", ...(cwd ? ["--cwd", cwd] : [])]);
	expect(r.code, r.stderr).toBe(0);
	return r.stdout.trim();
}

/** The worker process that owns the session now (its id is host:pid:…). */
async function ownerOf(id: string): Promise<WorkerProc> {
	return f.waitFor(`an owner of ${id}`, async () => {
		const owner = (await row(id))?.owner;
		const pid = Number(owner?.split(":")[1]);
		return workers.find((w) => w.child.pid === pid);
	});
}

const requested = (prompt: string) =>
	f.waitFor(`a model request for "${prompt}"`, () =>
		f.sb.fake.requests.some((r) => promptOf((r.body as { messages: ChatMessage[] }).messages) === prompt),
	);

const completed = (id: string) =>
	f.waitFor(`session ${id} to complete`, async () => ((await row(id))?.status === "completed" ? row(id) : undefined));

async function entriesOf(id: string): Promise<{ type: string; message?: { role: string; content: unknown } }[]> {
	const out = await f.fleet(["export", id]);
	return out.stdout
		.trimEnd()
		.split("\n")
		.map((l) => JSON.parse(l));
}

const messagesOf = async (id: string) =>
	(await entriesOf(id)).filter((e) => e.type === "message").map((e) => e.message as { role: string; content: unknown });

describe.skipIf(skip)("fleet failover (3 workers, real Redis + PostgreSQL)", () => {
	it("kill -9 mid-stream: another worker re-issues the model call and finishes the run", async () => {
		const id = await submit("stream then die");
		await requested("stream then die");
		const owner = await ownerOf(id);
		owner.child.kill("SIGKILL");
		startWorker();
		const done = await completed(id);
		expect(done.epoch).toBeGreaterThanOrEqual(2);
		const messages = await messagesOf(id);
		expect(messages.filter((m) => m.role === "user").map((m) => textOf(m.content))).toEqual(["stream then die"]);
		expect(textOf(messages.at(-1)?.content)).toBe("finished after failover");
		expect(workers.some((w) => w !== owner && w.log().includes(`session ${id}: resumed at epoch`))).toBe(true);
	}, 60_000);

	it("kill -9 mid-tool: the workspace is restored and the tool is answered as interrupted", async () => {
		const cwd = f.repo("tooling");
		const id = await submit("tool then die", cwd);
		await f.waitFor("the tool to have run", () => existsSync(join(cwd, "marker.txt")));
		const owner = await ownerOf(id);
		owner.child.kill("SIGKILL");
		startWorker();
		await completed(id);
		// The snapshot taken before the tool ran did not have the tool's file.
		expect(existsSync(join(cwd, "marker.txt"))).toBe(false);
		const messages = await messagesOf(id);
		const results = messages.filter((m) => m.role === "toolResult");
		expect(results).toHaveLength(1);
		expect(textOf(results[0].content)).toMatch(/^Interrupted: /);
		expect(textOf(messages.at(-1)?.content)).toMatch(/^after the tool: Interrupted: /);
		const intents = await f.sql<{ tool_name: string; snapshot: string | null }>(
			"SELECT tool_name, snapshot FROM pi_fleet_intents WHERE session_id = $1",
			[id],
		);
		expect(intents).toEqual([{ tool_name: "bash", snapshot: expect.stringMatching(/^[0-9a-f]{40}$/) }]);
	}, 60_000);

	it("a stopped worker resumed after the takeover has its writes refused", async () => {
		const id = await submit("zombie");
		await f.waitFor("the zombie's model call to be held", () => gates.has("zombie"));
		const zombie = await ownerOf(id);
		const group = -(zombie.child.pid as number);
		process.kill(group, "SIGSTOP");
		let before: { n: number }[];
		try {
			const done = await completed(id);
			expect(done.epoch).toBeGreaterThanOrEqual(2);
			before = await f.sql<{ n: number }>("SELECT count(*)::int AS n FROM pi_fleet_lines WHERE session_id = $1", [id]);
		} finally {
			// The held answer reaches the zombie's child as soon as the group runs again.
			gates.get("zombie")?.();
			process.kill(group, "SIGCONT");
		}
		// "session …: fenced" alone is the worker's line once the run has given up (its child reaped, the slot free).
		await f.waitFor("the zombie to give the run up", () => zombie.log().includes(`session ${id}: fenced\n`));
		expect(zombie.log()).toMatch(new RegExp(`session ${id}: fenced at epoch \\d+, writes refused`));
		expect(childrenOf(zombie.child.pid as number)).toEqual([]);
		const after = await f.sql<{ n: number }>("SELECT count(*)::int AS n FROM pi_fleet_lines WHERE session_id = $1", [
			id,
		]);
		expect(after[0].n).toBe(before[0].n);
		const texts = (await messagesOf(id)).map((m) => textOf(m.content));
		expect(texts).toContain("answer from the new owner");
		expect(texts).not.toContain("zombie answer");
		expect(zombie.child.exitCode).toBeNull();
	}, 60_000);

	it("abort works when the owner is gone", async () => {
		const id = await submit("hold on");
		await requested("hold on");
		const owner = await ownerOf(id);
		owner.child.kill("SIGKILL");
		const r = await f.fleet(["abort", id]);
		expect(r.stdout.trim()).toBe(`${id} cancelled`);
		// Whether or not another worker picked the job up before the abort, the run ends cancelled, not run on:
		// the dead owner's job is handed out once its lock lapses and the worker that takes it skips it (or
		// stops the run it had resumed), or it was still waiting and abort removed it.
		const u = new URL(services.redisUrl);
		const queue = new Queue(f.env.PI_FLEET_QUEUE as string, {
			connection: { host: u.hostname, port: Number(u.port), maxRetriesPerRequest: null },
		});
		try {
			await f.waitFor(
				"the job to be done with",
				async () => {
					const job = await queue.getJob(id);
					return job === undefined || (await job.getState()) === "completed";
				},
				90_000,
			);
		} finally {
			await queue.close();
		}
		expect((await row(id)).status).toBe("cancelled");
		const status = JSON.parse((await f.fleet(["status", id, "--json"])).stdout) as { sessions: { status: string }[] };
		expect(status.sessions[0].status).toBe("cancelled");
	}, 150_000);
});
