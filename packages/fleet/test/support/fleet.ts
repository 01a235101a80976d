// A fleet for end-to-end tests: the BUILT `pi` (dist/cli.js) run as
// `pi fleet worker` processes and `pi fleet …` commands against throwaway
// PostgreSQL + Redis (services.ts) and the fake provider, in the CLI tests'
// sandbox (temporary home, models.json naming fake/fake-model). The fake
// provider answers through `brain`, which decides from the request itself
// (never from the order of requests), so a run that moves between workers
// gets the same answers wherever it runs.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import type { ServerResponse } from "node:http";
import { join } from "node:path";
import { ChatStream } from "../../../ai/test/support/fake-provider/openai-chat.js";
import type { RecordedRequest } from "../../../ai/test/support/fake-provider/server.js";
import { CLI, createSandbox, type PiResult, type Sandbox } from "../../../coding-agent/test/cli/support.js";
import type { Services } from "./services.js";

export { CLI };

export interface ChatMessage {
	role: string;
	content: unknown;
	tool_calls?: { id: string; function: { name: string; arguments: string } }[];
	tool_call_id?: string;
}

export type Reply = { text: string } | { tool: string; args: Record<string, unknown> } | { hangAfter: string };

/** Decides the answer to one request; may wait (a gate a test opens). */
export type Brain = (messages: ChatMessage[], request: RecordedRequest) => Reply | Promise<Reply>;

export function textOf(content: unknown): string {
	if (typeof content === "string") return content;
	if (Array.isArray(content)) return content.map((c) => (c as { text?: string }).text ?? "").join("");
	return "";
}

let calls = 0;

function write(res: ServerResponse, reply: Reply): void {
	res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
	if ("hangAfter" in reply) {
		// Part of an answer, then nothing: the run is mid-stream until its worker goes.
		res.write(new ChatStream({ model: "fake-model" }).role().text(reply.hangAfter).script().bytes);
		return;
	}
	const stream = new ChatStream({ model: "fake-model" }).role();
	if ("text" in reply) stream.text(reply.text).finish("stop");
	else {
		const json = JSON.stringify(reply.args);
		stream.toolCall(0, `call_${++calls}_${randomUUID().slice(0, 6)}`, reply.tool, [json]).finish("tool_calls");
	}
	res.end(stream.usage({ prompt_tokens: 100, completion_tokens: 10 }).done().script().bytes);
}

export interface Fleet {
	sb: Sandbox;
	env: NodeJS.ProcessEnv;
	/** A git work tree with one committed file, for runs' --cwd. */
	repo(name: string): string;
	spawnWorker(slots?: number, extraEnv?: NodeJS.ProcessEnv): WorkerProc;
	/** `pi fleet <args>`; resolves with the exit code and output. */
	fleet(args: string[], env?: NodeJS.ProcessEnv): Promise<Output>;
	/** `pi <args>` in `cwd` with the fleet's environment. */
	pi(args: string[], cwd: string): Promise<Output>;
	sql<T>(text: string, values?: unknown[]): Promise<T[]>;
	/** Polls `check` until it returns a value other than undefined/false. */
	waitFor<T>(
		what: string,
		check: () => Promise<T | undefined | false> | T | undefined | false,
		ms?: number,
	): Promise<T>;
	close(): Promise<void>;
}

export type Output = PiResult;

export interface WorkerProc {
	child: ChildProcess;
	log(): string;
	exited: Promise<number | null>;
}

export async function startFleet(services: Services, brain: Brain, lockEnv: NodeJS.ProcessEnv): Promise<Fleet> {
	const sb = await createSandbox();
	const handler = {
		kind: "handler" as const,
		handle: async (req: RecordedRequest, res: ServerResponse) => {
			const body = req.body as { messages: ChatMessage[] };
			write(res, await brain(body.messages, req));
		},
	};
	for (let i = 0; i < 2000; i++) sb.fake.enqueue(handler);
	const env: NodeJS.ProcessEnv = {
		...sb.env,
		PI_FLEET_REDIS_URL: services.redisUrl,
		PI_FLEET_DATABASE_URL: services.databaseUrl,
		PI_FLEET_QUEUE: `q-${randomUUID().slice(0, 8)}`,
		GIT_CONFIG_NOSYSTEM: "1",
		...lockEnv,
	};
	const workers: WorkerProc[] = [];
	const { default: pg } = await import("pg");
	const pool = new pg.Pool({ connectionString: services.databaseUrl, max: 2 });
	pool.on("error", () => {});

	const fleet: Fleet = {
		sb,
		env,
		repo(name) {
			const dir = join(sb.root, name);
			mkdirSync(dir, { recursive: true });
			const git = (...args: string[]) =>
				execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: dir, stdio: "pipe" });
			git("init", "-q");
			writeFileSync(join(dir, "README.txt"), "the project\n");
			git("add", ".");
			git("commit", "-qm", "start");
			return dir;
		},
		spawnWorker(slots = 1, extraEnv = {}) {
			const child = spawn(process.execPath, [CLI, "fleet", "worker", "--slots", String(slots)], {
				cwd: sb.cwd,
				env: { ...env, ...extraEnv },
				stdio: ["ignore", "ignore", "pipe"],
				// Its own process group: a test can stop the whole "machine" (worker and its children) at once.
				detached: true,
			});
			let log = "";
			child.stderr?.setEncoding("utf8");
			child.stderr?.on("data", (t: string) => {
				log += t;
			});
			const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
			const proc = { child, log: () => log, exited };
			workers.push(proc);
			return proc;
		},
		fleet(args, extra = {}) {
			return sb.run(["fleet", ...args], { env: { ...env, ...extra } });
		},
		pi(args, cwd) {
			return sb.run(args, { cwd, env });
		},
		async sql<T>(text: string, values: unknown[] = []) {
			return (await pool.query(text, values)).rows as T[];
		},
		async waitFor(what, check, ms = 40_000) {
			const until = Date.now() + ms;
			for (;;) {
				const value = await check();
				if (value !== undefined && value !== false) return value as never;
				if (Date.now() > until) {
					const logs = workers.map((w, i) => `--- worker ${i}:\n${w.log().slice(-3000)}`).join("\n");
					throw new Error(`timed out waiting for ${what}\n${logs}`);
				}
				await new Promise((r) => setTimeout(r, 100));
			}
		},
		async close() {
			for (const w of workers) {
				try {
					// The whole group: the worker, its pi children and their tools' processes.
					process.kill(-(w.child.pid as number), "SIGCONT");
					process.kill(-(w.child.pid as number), "SIGKILL");
				} catch {
					// gone
				}
				await w.exited;
			}
			await pool.end().catch(() => {});
			await sb.close();
		},
	};
	return fleet;
}

/** Runs of `pi fleet worker` log one line per start; "started" lines of a session, per worker. */
export function startsOf(worker: WorkerProc, sessionId: string): number {
	return worker
		.log()
		.split("\n")
		.filter((l) => l.includes(`session ${sessionId}: started`)).length;
}
