// RELIABILITY.md "bash abort/timeout …" and "bash with 100 MB output …",
// measured from outside: the bash tool runs in a child process (so its peak
// RSS is its own), against process trees that try to outlive it. Each run
// must end within timeout + ~2 s, leave no process of the tree alive, and keep
// memory bounded however much the command prints.
import { execFileSync, spawn } from "node:child_process";
import { rmSync, statSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { bundledScript } from "./bundle.js";
import { pidsWith, tempDir } from "./support.js";

interface RunResult {
	ms: number;
	rssGrowthKb: number;
	textLength: number;
	tail: string;
	error: string;
	fullOutputPath?: string;
}

/** Runs the command in a child; while it runs, counts the live processes whose command line holds `marker`. */
function runBash(
	command: string,
	timeoutS: number,
	abortMs = 0,
	marker?: string,
): Promise<RunResult & { seen: number }> {
	const child = spawn(
		process.execPath,
		[bundledScript("bash-runner"), tempDir(), command, String(timeoutS), String(abortMs)],
		{ stdio: ["ignore", "pipe", "pipe"] },
	);
	let out = "";
	let err = "";
	let seen = 0;
	child.stdout.on("data", (d) => {
		out += d;
	});
	child.stderr.on("data", (d) => {
		err += d;
	});
	const poll = marker
		? setInterval(() => {
				seen = Math.max(seen, pidsWith(marker).length);
			}, 50)
		: undefined;
	return new Promise((resolve, reject) => {
		child.on("close", (code) => {
			if (poll) clearInterval(poll);
			if (code !== 0) reject(new Error(`runner failed (${code}): ${err}`));
			else resolve({ ...(JSON.parse(out.trim().split("\n").at(-1) ?? "{}") as RunResult), seen });
		});
	});
}

async function expectGone(marker: string): Promise<void> {
	// The kill is sent before the tool returns; give the kernel a moment to reap.
	for (let i = 0; i < 50 && pidsWith(marker).length > 0; i++) await new Promise((r) => setTimeout(r, 20));
	const left = pidsWith(marker);
	if (left.length > 0) execFileSync("kill", ["-9", ...left.map(String)]);
	expect(left).toEqual([]);
}

describe("bash process trees", () => {
	it("timeout: background child, setsid daemon and a SIGTERM-ignoring child are all gone within timeout + ~2 s", async () => {
		const m = `${process.pid}1001`;
		const cmd = [
			`sleep 1000.${m} &`,
			`setsid sleep 1001.${m} &`,
			`sh -c "trap '' TERM; sleep 1002.${m}; :" &`,
			`trap '' TERM`,
			"echo started",
			"wait",
		].join("\n");
		const r = await runBash(cmd, 1, 0, `.${m}`);
		expect(r.seen).toBeGreaterThanOrEqual(3); // the tree really ran
		expect(r.error).toContain("timed out after 1 seconds");
		expect(r.ms).toBeLessThan(1000 + 2500);
		await expectGone(`.${m}`);
	});

	it("abort: the same tree is gone soon after the abort, and the tool does not wait for pipe EOF", async () => {
		const m = `${process.pid}1002`;
		const cmd = [
			`sleep 1000.${m} &`,
			`setsid sleep 1001.${m} &`,
			`sh -c "trap '' TERM; sleep 1002.${m}; :" &`,
			"wait",
		].join("\n");
		const r = await runBash(cmd, 0, 600, `.${m}`);
		expect(r.seen).toBeGreaterThanOrEqual(3);
		expect(r.error).toContain("aborted");
		expect(r.ms).toBeLessThan(600 + 2500);
		await expectGone(`.${m}`);
	});

	it("100 MB of binary output: bounded memory, a short tail with a notice, the full output in a temp file", async () => {
		const r = await runBash("head -c 100000000 /dev/urandom", 60);
		expect(r.error).toBe("");
		console.log(
			`[reliability] bash 100 MB output: peak RSS growth ${Math.round(r.rssGrowthKb / 1024)} MB in ${r.ms} ms`,
		);
		expect(r.rssGrowthKb).toBeLessThan(96 * 1024);
		expect(r.textLength).toBeLessThan(60 * 1024);
		expect(r.tail).toMatch(/Full output: /);
		expect(r.fullOutputPath && statSync(r.fullOutputPath).size).toBe(100_000_000);
		if (r.fullOutputPath) rmSync(r.fullOutputPath, { force: true });
	}, 60_000);

	it("a 1 MB line then short lines: the short tail is kept, memory bounded", async () => {
		const r = await runBash("head -c 1000000 /dev/zero | tr '\\0' 'q'; echo; echo last-line", 30);
		expect(r.error).toBe("");
		expect(r.tail).toMatch(/^last-line\n\n\[Showing lines 2-2 of 2/);
		expect(r.rssGrowthKb).toBeLessThan(64 * 1024);
		if (r.fullOutputPath) rmSync(r.fullOutputPath, { force: true });
	});
});
