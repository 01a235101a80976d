import { existsSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createBashTool, executeBash, MAX_BASH_TIMEOUT_SECONDS } from "../../src/tools/bash.js";
import { OutputAccumulator } from "../../src/tools/output-accumulator.js";
import { run, runError, tempDir, text } from "./helpers.js";

const tempFiles: string[] = [];
const strayPids: number[] = [];
afterEach(() => {
	for (const f of tempFiles.splice(0)) rmSync(f, { force: true });
	for (const pid of strayPids.splice(0)) {
		try {
			process.kill(pid, "SIGKILL");
		} catch {}
	}
});

/** Alive and not a zombie (an unreaped zombie is already dead). */
function alive(pid: number): boolean {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
		return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
	} catch {
		return false;
	}
}

async function waitForFile(path: string): Promise<string> {
	for (let i = 0; i < 200; i++) {
		if (existsSync(path)) {
			const s = readFileSync(path, "utf8").trim();
			if (s) return s;
		}
		await new Promise((r) => setTimeout(r, 10));
	}
	throw new Error(`timed out waiting for ${path}`);
}

describe("bash: timeout validation", () => {
	it("a timeout past what timers can hold (> 2^31 ms) is refused, not 'timed out' at once", async () => {
		const dir = tempDir();
		const marker = join(dir, "ran");
		const message = await runError(createBashTool(dir), {
			command: `sleep 0.3; touch ${marker}`,
			timeout: 2 ** 31 / 1000 + 1,
		});
		expect(message).toContain("Invalid timeout 2147484.648");
		expect(message).toContain(`1 to ${MAX_BASH_TIMEOUT_SECONDS}`);
		expect(message).not.toContain("timed out");
		expect(existsSync(marker)).toBe(false);
	});

	it("negative timeouts are refused; the largest valid one runs the command normally", async () => {
		const dir = tempDir();
		expect(await runError(createBashTool(dir), { command: "true", timeout: -5 })).toContain("Invalid timeout -5");
		const r = await run(createBashTool(dir), { command: "sleep 0.3; echo fine", timeout: MAX_BASH_TIMEOUT_SECONDS });
		expect(text(r)).toContain("fine");
	});
});

describe("bash: results", () => {
	it("merges stdout and stderr, runs in cwd, reports (no output)", async () => {
		const dir = tempDir();
		const tool = createBashTool(dir);
		expect(text(await run(tool, { command: "echo out; echo err >&2; pwd" }))).toBe(`out\nerr\n${dir}`);
		expect(text(await run(tool, { command: "true" }))).toBe("(no output)");
	});

	it("non-zero exit is an error carrying the output and the code", async () => {
		const tool = createBashTool(tempDir());
		expect(await runError(tool, { command: "echo oops; exit 3" })).toBe("oops\n\nCommand exited with code 3");
	});

	it("keeps stdout/stderr order and the shell's own line numbers", async () => {
		const tool = createBashTool(tempDir(), { shellPath: "/bin/bash" });
		expect(await runError(tool, { command: "echo a; echo b >&2; echo c\nnosuchcmd_xyz" })).toBe(
			"a\nb\nc\n/bin/bash: line 2: nosuchcmd_xyz: command not found\n\nCommand exited with code 127",
		);
	});

	it("applies commandPrefix and spawnHook", async () => {
		const tool = createBashTool(tempDir(), {
			commandPrefix: "GREETING=hi",
			spawnHook: (ctx) => ({ ...ctx, env: { ...ctx.env, EXTRA: "x" } }),
		});
		expect(text(await run(tool, { command: 'echo "$GREETING $EXTRA"' }))).toBe("hi x");
	});

	it("streams partial output through onUpdate, starting with an empty update", async () => {
		const tool = createBashTool(tempDir());
		const updates: string[] = [];
		await tool.execute("id", { command: "echo first; sleep 0.3; echo second" }, undefined, (u) =>
			updates.push(u.content.map((c) => (c.type === "text" ? c.text : "")).join("")),
		);
		expect(updates[0]).toBe("");
		expect(updates).toContain("first");
		expect(updates.at(-1)).toBe("first\nsecond");
	});

	it("executeBash reports chunks, exit code and cancellation for the user ! command", async () => {
		const chunks: string[] = [];
		const r = await executeBash("printf 'a\\nb'; exit 4", { cwd: tempDir(), onChunk: (c) => chunks.push(c) });
		expect(r).toMatchObject({ output: "a\nb", exitCode: 4, cancelled: false, truncated: false });
		expect(chunks.join("")).toBe("a\nb");
		const ac = new AbortController();
		setTimeout(() => ac.abort(), 100);
		const c = await executeBash("sleep 5", { cwd: tempDir(), signal: ac.signal });
		expect(c.cancelled).toBe(true);
	});

	it("reports a missing working directory clearly", async () => {
		await expect(executeBash("true", { cwd: "/nonexistent/dir" })).rejects.toThrow(
			"Working directory does not exist: /nonexistent/dir",
		);
	});
});

describe("bash: teardown", () => {
	it("abort kills a sleep grandchild", async () => {
		const dir = tempDir();
		const pidFile = join(dir, "pid");
		const ac = new AbortController();
		const started = Date.now();
		const p = run(createBashTool(dir), { command: `sleep 1000 & echo $! > ${pidFile}; wait` }, ac.signal);
		const pid = Number(await waitForFile(pidFile));
		strayPids.push(pid);
		expect(alive(pid)).toBe(true);
		ac.abort();
		await expect(p).rejects.toThrow("Command aborted");
		expect(Date.now() - started).toBeLessThan(3000);
		expect(alive(pid)).toBe(false);
	});

	it("timeout kills a setsid daemon that left the process group", async () => {
		const dir = tempDir();
		const pidFile = join(dir, "pid");
		const started = Date.now();
		const p = run(createBashTool(dir), { command: `setsid sleep 1000 & echo $! > ${pidFile}; wait`, timeout: 1 });
		const pid = Number(await waitForFile(pidFile));
		strayPids.push(pid);
		await expect(p).rejects.toThrow("Command timed out after 1 seconds");
		// timeout + ~2 s, with slack for a loaded machine.
		expect(Date.now() - started).toBeLessThan(3500);
		expect(alive(pid)).toBe(false);
	});

	it("a child ignoring SIGTERM is SIGKILLed after the grace period", async () => {
		const dir = tempDir();
		const pidFile = join(dir, "pid");
		const started = Date.now();
		const p = run(createBashTool(dir), {
			command: `trap '' TERM; sh -c 'sleep 1000' & echo $! > ${pidFile}; wait; wait`,
			timeout: 1,
		});
		const pid = Number(await waitForFile(pidFile));
		strayPids.push(pid);
		await expect(p).rejects.toThrow("Command timed out after 1 seconds");
		const elapsed = Date.now() - started;
		expect(elapsed).toBeGreaterThanOrEqual(1900);
		expect(elapsed).toBeLessThan(4000);
		expect(alive(pid)).toBe(false);
	});

	it("does not wait for pipe EOF when a background child keeps the output open", async () => {
		const started = Date.now();
		const r = await run(createBashTool(tempDir()), { command: "sleep 1000 & echo $!", timeout: 10 });
		const pid = Number(text(r));
		strayPids.push(pid);
		expect(Date.now() - started).toBeLessThan(1500);
	});
});

describe("bash: output limits", () => {
	it("100 MB on one line: memory stays bounded, tail shown, full output in the temp file", async () => {
		const acc = new OutputAccumulator();
		const chunk = Buffer.alloc(64 * 1024, 0x61);
		for (let i = 0; i < 100; i++) acc.append(chunk);
		expect(acc.retainedBytes).toBeLessThan(400 * 1024);
		acc.finish();
		if (acc.fullOutputPath) tempFiles.push(acc.fullOutputPath);

		const tool = createBashTool(tempDir());
		const r = await run(tool, { command: "head -c 100000000 /dev/zero | tr '\\0' 'a'", timeout: 60 });
		const path = r.details?.fullOutputPath as string;
		tempFiles.push(path);
		expect(statSync(path).size).toBe(100_000_000);
		expect(text(r)).toBe(
			`${"a".repeat(51200)}\n\n[Showing last 50.0KB of line 1 (line is 95.4MB). Full output: ${path}]`,
		);
	}, 60_000);

	it("many lines: last 2000 kept with the line notice", async () => {
		const r = await run(createBashTool(tempDir()), { command: "seq 1 300000" });
		const path = r.details?.fullOutputPath as string;
		tempFiles.push(path);
		const out = text(r);
		expect(out.startsWith("298001\n")).toBe(true);
		expect(out.endsWith(`300000\n\n[Showing lines 298001-300000 of 300000. Full output: ${path}]`)).toBe(true);
		expect(readFileSync(path, "utf8").split("\n").length).toBe(300001);
	});

	it("a 1 MB line followed by short lines keeps the tail lines", async () => {
		const r = await run(createBashTool(tempDir()), {
			command: "head -c 1000000 /dev/zero | tr '\\0' 'x'; echo; echo end",
		});
		const path = r.details?.fullOutputPath as string;
		tempFiles.push(path);
		expect(text(r)).toBe(`end\n\n[Showing lines 2-2 of 2 (50.0KB limit). Full output: ${path}]`);
		expect(statSync(path).size).toBe(1_000_005);
	});

	it("binary output and invalid UTF-8 are made safe", async () => {
		const tool = createBashTool(tempDir());
		expect(text(await run(tool, { command: "printf 'a\\377b\\n\\033[31mred\\033[0m\\000z'" }))).toBe("a\uFFFDb\nredz");
		const bin = text(await run(tool, { command: "head -c 20000 /dev/urandom" }));
		expect(/[\x00-\x08\x0b-\x1f\x7f]/.test(bin)).toBe(false);
	});
});
