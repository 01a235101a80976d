// Issue 21: a catastrophic regex (`(a+)+$` on a 33-character line) or a
// pathological glob (`*a*a…*b`) in the JS grep/find engines froze the whole
// process: RPC `abort` and `get_state` went unanswered. The search now runs in
// a worker thread with a time limit; abort terminates it.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { createFindTool } from "../../src/tools/find.js";
import { createGrepTool } from "../../src/tools/grep.js";
import { assertBuilt, createSandbox, type Sandbox, textReply, toolReply } from "../cli/support.js";
import { type RawPi, spawnRaw } from "../rpc/support.js";
import { tempDir } from "./support.js";

const CATASTROPHIC = "(a+)+$";
const GLOB = `${"*a".repeat(14)}*b`;

/** Largest gap between timer ticks while `p` runs: how long the event loop was blocked. */
async function maxLoopGap<T>(p: Promise<T>): Promise<{ gap: number; result: PromiseSettledResult<T> }> {
	let last = performance.now();
	let gap = 0;
	const timer = setInterval(() => {
		const now = performance.now();
		gap = Math.max(gap, now - last);
		last = now;
	}, 10);
	const [result] = await Promise.allSettled([p]);
	clearInterval(timer);
	return { gap, result };
}

describe("JS search engines never block the event loop", () => {
	// From source the worker is bundled on first use (the built CLI ships it): do that before measuring.
	beforeAll(async () => {
		await createFindTool(tempDir(), { engine: "js" }).execute("c", { pattern: "*" }, undefined, undefined);
	});

	it("grep (a+)+$ on a 33-char line: the loop keeps running, abort answers at once", async () => {
		const dir = tempDir();
		writeFileSync(join(dir, "evil.txt"), `${"a".repeat(33)}!\n`);
		const ac = new AbortController();
		setTimeout(() => ac.abort(), 400);
		const t0 = performance.now();
		const { gap, result } = await maxLoopGap(
			createGrepTool(dir, { engine: "js" }).execute("c", { pattern: CATASTROPHIC }, ac.signal, undefined),
		);
		expect(result.status).toBe("rejected");
		expect(performance.now() - t0).toBeLessThan(1500);
		expect(gap).toBeLessThan(250);
	});

	it("grep: the time limit ends a catastrophic search with a clear error", async () => {
		const dir = tempDir();
		writeFileSync(join(dir, "evil.txt"), `${"a".repeat(33)}!\n`);
		const t0 = performance.now();
		const { result } = await maxLoopGap(
			createGrepTool(dir, { engine: "js", timeLimitMs: 500 }).execute(
				"c",
				{ pattern: CATASTROPHIC },
				undefined,
				undefined,
			),
		);
		expect(result.status).toBe("rejected");
		expect((result as PromiseRejectedResult).reason.message).toMatch(/^Search stopped after 1s without finishing/);
		expect(performance.now() - t0).toBeLessThan(3000);
	});

	it("find with a pathological glob: the loop keeps running, abort answers at once", async () => {
		const dir = tempDir();
		mkdirSync(join(dir, "d"));
		for (let i = 0; i < 20; i++) writeFileSync(join(dir, "d", `${"a".repeat(60)}${i}`), "");
		const ac = new AbortController();
		setTimeout(() => ac.abort(), 400);
		const t0 = performance.now();
		const { gap, result } = await maxLoopGap(
			createFindTool(dir, { engine: "js" }).execute("c", { pattern: GLOB }, ac.signal, undefined),
		);
		expect(result.status).toBe("rejected");
		expect(performance.now() - t0).toBeLessThan(1500);
		expect(gap).toBeLessThan(250);
	});

	it("ordinary searches still return the same results through the worker", async () => {
		const dir = tempDir();
		writeFileSync(join(dir, "a.txt"), "x\nneedle here\n");
		const r = await createGrepTool(dir, { engine: "js" }).execute("c", { pattern: "need(le)" }, undefined, undefined);
		expect(r.content[0]).toEqual({ type: "text", text: "a.txt:2: needle here" });
		const f = await createFindTool(dir, { engine: "js" }).execute("c", { pattern: "*.txt" }, undefined, undefined);
		expect(f.content[0]).toEqual({ type: "text", text: "a.txt" });
	});
});

describe("over RPC with the built CLI (no rg on PATH, so the JS engine runs)", () => {
	let sb: Sandbox | undefined;
	let pi: RawPi | undefined;
	afterEach(async () => {
		pi?.child.kill("SIGKILL");
		await pi?.exit;
		pi = undefined;
		await sb?.close();
		sb = undefined;
	});

	it("get_state and abort answer during a catastrophic-regex grep", async () => {
		assertBuilt();
		sb = await createSandbox();
		sb.writeModels();
		const emptyPath = join(sb.root, "empty-path");
		mkdirSync(emptyPath);
		sb.env.PATH = emptyPath;
		writeFileSync(join(sb.cwd, "evil.txt"), `${"a".repeat(33)}!\n`);
		sb.fake.enqueue(toolReply("grep", { pattern: CATASTROPHIC }));
		sb.fake.enqueue(textReply("done"));
		pi = spawnRaw(sb, ["--no-session", "--tools", "read,grep"]);
		let n = 0;
		const command = async (cmd: Record<string, unknown>) => {
			const id = `c${++n}`;
			const t0 = performance.now();
			pi?.send(`${JSON.stringify({ id, ...cmd })}\n`);
			const res = await pi?.waitFor((r) => r.type === "response" && r.id === id, 5000);
			return { res, ms: performance.now() - t0 };
		};
		expect((await command({ type: "prompt", message: "search" })).res?.success).toBe(true);
		await pi.waitFor((r) => r.type === "tool_execution_start", 15_000);
		await new Promise((r) => setTimeout(r, 300));
		const state = await command({ type: "get_state" });
		expect(state.res?.success).toBe(true);
		expect(state.ms).toBeLessThan(1000);
		const abort = await command({ type: "abort" });
		expect(abort.res?.success).toBe(true);
		const settled = await pi.waitFor((r) => r.type === "agent_settled", 5000);
		expect(settled).toEqual({ type: "agent_settled", aborted: true });
		process.stderr.write(
			`rpc during catastrophic grep: get_state ${state.ms.toFixed(0)} ms, abort ${abort.ms.toFixed(0)} ms\n`,
		);
		expect(abort.ms).toBeLessThan(1500);
	}, 40_000);
});
