// The pieces a resumed run is built from, against a real PostgreSQL and git:
// the workspace snapshot/restore, the replay rule on a session file that ends
// with unanswered tool calls, the inbox (a request id applied once, by the
// current epoch only), and the mirror from a local JSONL file into the store.
import { execFileSync } from "node:child_process";
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SessionManager } from "@pi/coding-agent";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Pool } from "../src/db.js";
import { applyInbox, type InboxItem, sendToInbox } from "../src/inbox.js";
import { Mirror } from "../src/mirror.js";
import { PgSessionStore } from "../src/pg-store.js";
import { applyReplayRule } from "../src/replay.js";
import { restoreWorkspace, snapshotWorkspace } from "../src/workspace.js";
import { missingServices, type Services, startServices } from "./support/services.js";

const skip = missingServices();
const root = mkdtempSync(join(tmpdir(), "pi-fleet-recovery-"));
let services: Services | undefined;
let pool: Pool;

function gitRepo(): string {
	const dir = mkdtempSync(join(root, "ws-"));
	execFileSync("git", ["init", "-q"], { cwd: dir });
	return dir;
}

describe("workspace snapshots", () => {
	it("restores git-visible files exactly, leaves ignored files and the user's index alone", async () => {
		const ws = gitRepo();
		writeFileSync(join(ws, ".gitignore"), "ignored.txt\n");
		writeFileSync(join(ws, "a.txt"), "one");
		mkdirSync(join(ws, "dir"));
		writeFileSync(join(ws, "dir", "b.txt"), "two");
		const snap = await snapshotWorkspace(ws, "s1");
		expect(snap).toMatch(/^[0-9a-f]{40}$/);
		expect(execFileSync("git", ["rev-parse", "refs/pi-fleet/s1"], { cwd: ws, encoding: "utf8" }).trim()).toBe(snap);
		writeFileSync(join(ws, "a.txt"), "changed");
		rmSync(join(ws, "dir", "b.txt"));
		writeFileSync(join(ws, "new.txt"), "made later");
		writeFileSync(join(ws, "ignored.txt"), "mine");
		await restoreWorkspace(ws, snap as string);
		expect(readFileSync(join(ws, "a.txt"), "utf8")).toBe("one");
		expect(readFileSync(join(ws, "dir", "b.txt"), "utf8")).toBe("two");
		expect(existsSync(join(ws, "new.txt"))).toBe(false);
		expect(readFileSync(join(ws, "ignored.txt"), "utf8")).toBe("mine");
		expect(execFileSync("git", ["status", "--porcelain"], { cwd: ws, encoding: "utf8" })).toContain("?? a.txt");
	});

	it("has no snapshot outside a git work tree", async () => {
		expect(await snapshotWorkspace(mkdtempSync(join(tmpdir(), "pi-fleet-nogit-")), "s2")).toBeUndefined();
	});
});

describe("replay rule", () => {
	it("re-runs read-only tool calls and answers the others as interrupted", async () => {
		const ws = mkdtempSync(join(root, "replay-"));
		writeFileSync(join(ws, "notes.txt"), "hello from the file");
		const sm = SessionManager.create(ws, join(ws, ".sessions"));
		sm.appendMessage({ role: "user", content: [{ type: "text", text: "look" }], timestamp: 1 });
		sm.appendMessage({
			role: "assistant",
			content: [
				{ type: "toolCall", id: "c1", name: "read", arguments: { path: "notes.txt" } },
				{ type: "toolCall", id: "c2", name: "bash", arguments: { command: "echo hi > out.txt" } },
			],
			api: "openai-completions",
			provider: "fake",
			model: "fake-model",
			usage: {
				input: 1,
				output: 1,
				cacheRead: 0,
				cacheWrite: 0,
				totalTokens: 2,
				cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
			},
			stopReason: "toolUse",
			timestamp: 2,
		});
		const file = sm.getSessionFile() as string;
		sm.close();
		const outcome = await applyReplayRule(file, ws);
		expect(outcome).toMatchObject({ fresh: false, finished: false, replayed: ["c1"], interrupted: ["c2"] });
		expect(existsSync(join(ws, "out.txt"))).toBe(false);
		const results = readFileSync(file, "utf8")
			.trim()
			.split("\n")
			.map((l) => JSON.parse(l))
			.filter((e) => e.message?.role === "toolResult")
			.map((e) => e.message);
		expect(results.map((r) => [r.toolCallId, r.isError])).toEqual([
			["c1", false],
			["c2", true],
		]);
		expect(JSON.stringify(results[0].content)).toContain("hello from the file");
		expect(results[1].content[0].text).toMatch(/^Interrupted/);
		// Applying it again finds nothing left to answer.
		expect(await applyReplayRule(file, ws)).toMatchObject({ replayed: [], interrupted: [] });
	});
});

describe.skipIf(skip)("with PostgreSQL", () => {
	beforeAll(async () => {
		services = await startServices();
		pool = await openDatabase(services.databaseUrl);
	}, 90_000);
	afterAll(async () => {
		await pool?.end();
		await services?.stop();
	});

	it("inbox: a request id is applied once, and only by the session's current epoch", async () => {
		const store = new PgSessionStore(pool, "w1");
		const writer = await store.claim("inbox-1");
		const first = await sendToInbox(pool, "inbox-1", "steer", "go left", "req-1");
		const again = await sendToInbox(pool, "inbox-1", "steer", "go left", "req-1");
		expect([first.duplicate, again.duplicate]).toEqual([false, true]);
		await sendToInbox(pool, "inbox-1", "abort", "", "req-2");
		const stale: InboxItem[] = [];
		expect(await applyInbox(pool, "inbox-1", writer.epoch - 1, (i) => stale.push(i))).toBe(0);
		const got: InboxItem[] = [];
		const [a, b] = await Promise.all([
			applyInbox(pool, "inbox-1", writer.epoch, (i) => got.push(i)),
			applyInbox(pool, "inbox-1", writer.epoch, (i) => got.push(i)),
		]);
		expect(a + b).toBe(2);
		expect(got.map((i) => [i.kind, i.text])).toEqual([
			["steer", "go left"],
			["abort", ""],
		]);
		await expect(sendToInbox(pool, "no-such-session", "steer", "x")).rejects.toThrow(/No fleet session/);
	});

	it("mirror: whole lines of a local file reach the store byte for byte; usage adds to the row", async () => {
		const store = new PgSessionStore(pool, "w1");
		const writer = await store.claim("mirror-1");
		const file = join(root, "mirror-1.jsonl");
		const header = '{"type":"session","version":3,"id":"x"}\n';
		const assistant = `${JSON.stringify({ type: "message", id: "a1", message: { role: "assistant", usage: { input: 7, output: 3, cost: { total: 0.5 } } } })}\n`;
		writeFileSync(file, header);
		const mirror = new Mirror(pool, writer, file, 0);
		await mirror.flush();
		appendFileSync(file, `${assistant}{"type":"custom","id":"par`);
		await Promise.all([mirror.flush(), mirror.flush()]);
		expect((await store.exportJsonl("mirror-1")).toString()).toBe(header + assistant);
		appendFileSync(file, 'tial"}\n');
		await mirror.flush();
		expect((await store.exportJsonl("mirror-1")).equals(readFileSync(file))).toBe(true);
		const { rows } = await pool.query(
			"SELECT input_tokens, output_tokens, cost FROM pi_fleet_sessions WHERE id = 'mirror-1'",
		);
		expect(rows[0]).toEqual({ input_tokens: "7", output_tokens: "3", cost: 0.5 });
	});
});

afterAll(() => rmSync(root, { recursive: true, force: true }));
