// `pi fleet …` end to end with the built CLI: a worker process, real Redis and
// PostgreSQL, the fake provider. Submit → run → status/tail/export; a fleet
// session's JSONL equals a local run's file (ids and timestamps aside);
// duplicate submissions; steering applied once; a poisoned job; abort; clear
// errors when a server is down at start.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChatMessage, type Fleet, type Reply, startFleet, textOf, type WorkerProc } from "./support/fleet.js";
import { freePort, missingServices, type Services, startServices } from "./support/services.js";

const skip = missingServices();
let services: Services;
let f: Fleet;
let worker: WorkerProc;

/** Gates a test opens to let a held model answer go. */
const gates = new Map<string, () => void>();
const gate = (name: string) => new Promise<void>((r) => gates.set(name, r));

function promptOf(messages: ChatMessage[]): string {
	return textOf(messages.find((m) => m.role === "user")?.content);
}

async function brain(messages: ChatMessage[]): Promise<Reply> {
	const prompt = promptOf(messages);
	const toolResults = messages.filter((m) => m.role === "tool");
	if (prompt === "say hello") return { text: "hello from the fleet" };
	if (prompt === "steer me") {
		if (toolResults.length === 0) {
			await gate("steer");
			return { tool: "ls", args: {} };
		}
		return { text: "steered" };
	}
	if (prompt === "hold on") return { hangAfter: "thinking about it" };
	if (prompt.startsWith("Say hello to ") || prompt.startsWith("/")) return { text: `answering: ${prompt}` };
	return { text: `unexpected prompt ${prompt}` };
}

beforeAll(async () => {
	if (skip) return;
	services = await startServices();
	f = await startFleet(services, brain, {
		PI_FLEET_LOCK_MS: "5000",
		PI_FLEET_STALLED_MS: "2000",
		PI_FLEET_ATTEMPTS: "2",
		PI_FLEET_RETRY_MS: "200",
	});
	worker = f.spawnWorker(3);
	await f.waitFor("the worker to start", () => worker.log().includes("slot(s) on queue"));
}, 120_000);

afterAll(async () => {
	await f?.close();
	await services?.stop();
}, 60_000);

interface Row {
	status: string;
	reason: string | null;
	attempts: number;
}

async function submit(prompt: string, ...args: string[]): Promise<string> {
	const r = await f.fleet(["submit", prompt, ...args]);
	expect(r.stderr).not.toMatch(/^Error/m);
	expect(r.code).toBe(0);
	return r.stdout.trim();
}

function settled(id: string, status = "completed"): Promise<Row> {
	return f.waitFor(`session ${id} to be ${status}`, async () => {
		const [row] = await f.sql<Row>("SELECT status, reason, attempts FROM pi_fleet_sessions WHERE id = $1", [id]);
		return row && row.status === status ? row : undefined;
	});
}

/**
 * A session's entries with what must differ between two runs checked for its
 * form and then replaced: entry ids become their position (so `parentId` still
 * says which entry came before: the same tree), times must be times, a tool's
 * `durationMs` a duration, the provider's `responseId` a non-empty id (the fake
 * makes one per answer, as providers do), a checkpoint `commit` a git commit id.
 * Everything else, `cwd` included, must be equal.
 */
function normalise(jsonl: string): unknown[] {
	const entries = jsonl
		.trimEnd()
		.split("\n")
		.map((line) => JSON.parse(line) as Record<string, unknown>);
	const position = new Map(entries.map((e, i) => [e.id, `#${i}`]));
	const check = (ok: boolean, key: string, value: unknown) => {
		if (!ok) throw new Error(`unexpected ${key}: ${JSON.stringify(value)}`);
	};
	const walk = (value: unknown, key = ""): unknown => {
		if (Array.isArray(value)) return value.map((v) => walk(v));
		if (value && typeof value === "object") {
			return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, k)]));
		}
		switch (key) {
			case "parentId":
				check(value === null || position.has(value), key, value);
				return value === null ? null : position.get(value);
			case "timestamp":
				check(
					(typeof value === "number" && value > 0) || (typeof value === "string" && !Number.isNaN(Date.parse(value))),
					key,
					value,
				);
				return "<time>";
			case "durationMs":
				check(typeof value === "number" && value >= 0, key, value);
				return "<duration>";
			case "responseId":
				check(typeof value === "string" && value.length > 0, key, value);
				return "<response id>";
			case "commit":
				check(typeof value === "string" && /^[0-9a-f]{40}$/.test(value), key, value);
				return "<commit>";
			default:
				return value;
		}
	};
	return entries.map((entry) =>
		Object.fromEntries(Object.entries(entry).map(([k, v]) => [k, k === "id" ? position.get(v) : walk(v, k)])),
	);
}

describe.skipIf(skip)("pi fleet (built CLI, real Redis + PostgreSQL)", () => {
	it("says which server at which URL is down at start", async () => {
		const dead = await freePort();
		const noRedis = await f.fleet(["worker"], { PI_FLEET_REDIS_URL: `redis://127.0.0.1:${dead}` });
		expect(noRedis.code).toBe(1);
		expect(noRedis.stderr).toContain(`Error: Redis at redis://127.0.0.1:${dead} is not reachable: ECONNREFUSED`);
		const noPg = await f.fleet(["submit", "x"], {
			PI_FLEET_DATABASE_URL: `postgres://postgres:secret@127.0.0.1:${dead}/postgres`,
		});
		expect(noPg.code).toBe(1);
		expect(noPg.stderr).toContain(
			`Error: PostgreSQL at postgres://postgres:***@127.0.0.1:${dead}/postgres is not reachable`,
		);
		expect(noPg.stderr).not.toContain("secret");
	}, 60_000);

	it("runs a submitted prompt; status, tail and export agree; the JSONL equals a local run's", async () => {
		const cwd = f.repo("hello");
		const id = await submit("say hello", "--cwd", cwd, "--model", "fake/fake-model");
		await settled(id);
		const exported = await f.fleet(["export", id]);
		expect(exported.code).toBe(0);
		const tail = await f.fleet(["tail", id]);
		expect(tail.code).toBe(0);
		expect(tail.stdout).toBe(exported.stdout);
		const status = JSON.parse((await f.fleet(["status", id, "--json"])).stdout) as {
			sessions: { status: string; inputTokens: number; outputTokens: number; lines: number }[];
		};
		expect(status.sessions[0]).toMatchObject({ status: "completed", inputTokens: 100, outputTokens: 10 });
		expect(status.sessions[0].lines).toBe(exported.stdout.trimEnd().split("\n").length);

		// The same prompt run locally by `pi -p` in the same folder: the same entries, in the same order.
		const local = await f.pi(
			["-p", "--model", "fake/fake-model", "--session-dir", join(f.sb.root, "local"), "say hello"],
			cwd,
		);
		expect(local.stdout).toContain("hello from the fleet");
		const [file] = readdirSync(join(f.sb.root, "local"));
		expect(normalise(exported.stdout)).toEqual(normalise(readFileSync(join(f.sb.root, "local", file), "utf8")));
	}, 60_000);

	it("a repeated request id is the same session, run once", async () => {
		const first = await submit("say hello", "--request-id", "req-dup", "--model", "fake/fake-model");
		const again = await f.fleet(["submit", "say hello", "--request-id", "req-dup", "--model", "fake/fake-model"]);
		expect(again.code).toBe(0);
		expect(again.stdout.trim()).toBe(first);
		expect(again.stderr).toContain("was submitted before");
		const row = await settled(first);
		expect(row.attempts).toBe(1);
		expect(await f.sql("SELECT id FROM pi_fleet_sessions WHERE request_id = 'req-dup'")).toHaveLength(1);
	}, 60_000);

	it("steering sent twice from two processes with one request id reaches the model once", async () => {
		const id = await submit("steer me", "--model", "fake/fake-model");
		await f.waitFor("the model call to be held", () => gates.has("steer"));
		const [a, b] = await Promise.all([
			f.fleet(["steer", id, "also read the README", "--request-id", "steer-1"]),
			f.fleet(["steer", id, "also read the README", "--request-id", "steer-1"]),
		]);
		expect([a.code, b.code]).toEqual([0, 0]);
		await f.waitFor("the steer request to be handed to the run", async () => {
			const rows = await f.sql<{ applied_at: Date | null }>(
				"SELECT applied_at FROM pi_fleet_inbox WHERE request_id = 'steer-1'",
			);
			return rows.length === 1 && rows[0].applied_at !== null;
		});
		gates.get("steer")?.();
		await settled(id);
		const lastRequest = f.sb.fake.requests
			.map((r) => (r.body as { messages: ChatMessage[] }).messages)
			.filter((m) => promptOf(m) === "steer me")
			.at(-1) as ChatMessage[];
		expect(lastRequest.filter((m) => m.role === "user" && textOf(m.content) === "also read the README")).toHaveLength(
			1,
		);
		const exported = (await f.fleet(["export", id])).stdout;
		expect(exported.split("also read the README").length - 1).toBe(1);
	}, 60_000);

	it("a poisoned job is tried a bounded number of times, then failed with its reason", async () => {
		const id = await submit("say hello", "--model", "nowhere/no-such-model");
		const row = await settled(id, "failed");
		expect(row.attempts).toBe(2);
		expect(row.reason).toContain("no-such-model");
		const status = await f.fleet(["status", id]);
		expect(status.stdout).toContain("failed");
		expect(status.stdout).toContain("reason:");
	}, 60_000);

	it("a prompt starting with / is taken as locally: a template expands, a command runs alone, any other /word reaches the model", async () => {
		const prompts = join(f.sb.agentDir, "prompts");
		const extensions = join(f.sb.agentDir, "extensions");
		mkdirSync(prompts, { recursive: true });
		mkdirSync(extensions, { recursive: true });
		writeFileSync(join(prompts, "greet.md"), "Say hello to $1");
		writeFileSync(
			join(extensions, "noop.ts"),
			'export default function (pi) {\n\tpi.registerCommand("noop", { handler: async () => {} });\n}\n',
		);
		try {
			const cwd = f.repo(`slash-${Date.now()}`);
			const model = ["--cwd", cwd, "--model", "fake/fake-model"];
			const [greet, noop, unknown, resume] = await Promise.all([
				submit("/greet world", ...model),
				submit("/noop", ...model),
				submit("/nosuchcommand please", ...model),
				// The fleet's own resume command, typed by a user: text, as for a local pi that has no such command.
				submit("/fleet-resume now", ...model),
			]);
			const userTexts = async (id: string) => {
				await settled(id);
				const jsonl = (await f.fleet(["export", id])).stdout;
				return jsonl
					.split("\n")
					.filter(Boolean)
					.map((l) => JSON.parse(l))
					.filter((e) => e.type === "message" && ["user", "assistant"].includes(e.message.role))
					.map((e) => `${e.message.role}: ${textOf(e.message.content)}`);
			};
			expect(await userTexts(greet)).toEqual(["user: Say hello to world", "assistant: answering: Say hello to world"]);
			// A command that starts no run: the session ends with nothing asked of the model (it used to wait forever).
			expect(await userTexts(noop)).toEqual([]);
			expect(
				f.sb.fake.requests.some((r) => promptOf((r.body as { messages: ChatMessage[] }).messages) === "/noop"),
			).toBe(false);
			expect(await userTexts(unknown)).toEqual([
				"user: /nosuchcommand please",
				"assistant: answering: /nosuchcommand please",
			]);
			expect(await userTexts(resume)).toEqual(["user: /fleet-resume now", "assistant: answering: /fleet-resume now"]);

			// The same prompts through a local `pi -p` in the same folder: the same user messages.
			for (const [prompt, id] of [
				["/greet world", greet],
				["/nosuchcommand please", unknown],
			] as const) {
				const dir = join(f.sb.root, `local-${id}`);
				const local = await f.pi(["-p", "--model", "fake/fake-model", "--session-dir", dir, prompt], cwd);
				expect(local.code, local.stderr).toBe(0);
				const [file] = readdirSync(dir);
				const localTexts = readFileSync(join(dir, file), "utf8")
					.split("\n")
					.filter(Boolean)
					.map((l) => JSON.parse(l))
					.filter((e) => e.type === "message" && ["user", "assistant"].includes(e.message.role))
					.map((e) => `${e.message.role}: ${textOf(e.message.content)}`);
				expect(await userTexts(id)).toEqual(localTexts);
			}
		} finally {
			rmSync(join(prompts, "greet.md"), { force: true });
			rmSync(join(extensions, "noop.ts"), { force: true });
		}
	}, 120_000);

	it("abort stops a running session", async () => {
		const id = await submit("hold on", "--model", "fake/fake-model");
		await f.waitFor("the run to be streaming", () =>
			f.sb.fake.requests.some((r) => promptOf((r.body as { messages: ChatMessage[] }).messages) === "hold on"),
		);
		const r = await f.fleet(["abort", id]);
		expect(r.code).toBe(0);
		expect(r.stdout.trim()).toBe(`${id} cancelled`);
		await f.waitFor("the worker to end the run", () => worker.log().includes(`session ${id}: cancelled`));
		expect((await settled(id, "cancelled")).reason).toBe("aborted by request");
	}, 60_000);
});
