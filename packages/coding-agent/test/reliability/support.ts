// Shared helpers of the reliability suite: temp dirs removed after each test,
// every file under a folder, a child process whose stdout lines are collected,
// and a seeded PRNG.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";

const dirs: string[] = [];

export function tempDir(prefix = "pi-rel-"): string {
	const dir = mkdtempSync(join(tmpdir(), prefix));
	dirs.push(dir);
	return dir;
}

afterEach(() => {
	for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Every file under `dir`, recursively. */
export function allFiles(dir: string): string[] {
	const out: string[] = [];
	for (const name of readdirSync(dir)) {
		const p = join(dir, name);
		if (statSync(p).isDirectory()) out.push(...allFiles(p));
		else out.push(p);
	}
	return out;
}

export function seeded(seed: number): (n: number) => number {
	let state = seed >>> 0 || 1;
	return (n: number) => {
		state = (state * 1103515245 + 12345) & 0x7fffffff;
		return state % n;
	};
}

export interface LineChild {
	child: ChildProcess;
	lines: string[];
	stderr(): string;
	/** Resolves once `predicate` holds for the lines so far. */
	waitFor(predicate: (lines: string[]) => boolean): Promise<void>;
	exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Spawns `node script args…` and collects its stdout lines. */
export function spawnLines(script: string, args: string[], env: NodeJS.ProcessEnv = process.env): LineChild {
	const child = spawn(process.execPath, [script, ...args], { stdio: ["ignore", "pipe", "pipe"], env });
	const lines: string[] = [];
	let buffer = "";
	let err = "";
	const waiters: { predicate: (l: string[]) => boolean; resolve: () => void; reject: (e: Error) => void }[] = [];
	const check = () => {
		for (const w of waiters.splice(0)) {
			if (w.predicate(lines)) w.resolve();
			else waiters.push(w);
		}
	};
	child.stdout?.setEncoding("utf8");
	child.stdout?.on("data", (chunk: string) => {
		buffer += chunk;
		for (let nl = buffer.indexOf("\n"); nl >= 0; nl = buffer.indexOf("\n")) {
			lines.push(buffer.slice(0, nl));
			buffer = buffer.slice(nl + 1);
		}
		check();
	});
	child.stderr?.setEncoding("utf8");
	child.stderr?.on("data", (c: string) => {
		err += c;
	});
	const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
		child.on("exit", (code, signal) => {
			for (const w of waiters.splice(0)) w.reject(new Error(`child exited (${code ?? signal}): ${err}`));
			resolve({ code, signal });
		});
	});
	return {
		child,
		lines,
		stderr: () => err,
		exited,
		waitFor(predicate) {
			if (predicate(lines)) return Promise.resolve();
			if (child.exitCode !== null || child.signalCode !== null) {
				return Promise.reject(new Error(`child already exited: ${err}`));
			}
			return new Promise((resolve, reject) => waiters.push({ predicate, resolve, reject }));
		},
	};
}

/** Pids whose command line contains `marker` (from /proc, so zombies of other tests are not confused). */
export function pidsWith(marker: string): number[] {
	const out: number[] = [];
	for (const name of readdirSync("/proc")) {
		if (!/^\d+$/.test(name)) continue;
		try {
			const cmd = readFileSync(`/proc/${name}/cmdline`, "utf8").replaceAll("\0", " ");
			const state = readFileSync(`/proc/${name}/stat`, "utf8").split(") ")[1]?.[0];
			if (cmd.includes(marker) && state !== "Z") out.push(Number(name));
		} catch {
			// gone meanwhile
		}
	}
	return out;
}
