// Runs npm and git for the package manager: arguments as an array (no shell),
// output captured, a time limit, and a failure turned into one readable line
// naming the command and what it printed (npm's "npm error …" lines, git's
// "fatal: …"), never a stack trace.
import { spawn } from "node:child_process";

export interface ExecResult {
	code: number | null;
	stdout: string;
	stderr: string;
	/** Spawning failed (command not found …). */
	spawnError?: string;
}

export interface ExecOptions {
	cwd?: string;
	env?: NodeJS.ProcessEnv;
	/** Kill the command after this long (ms). Default 10 minutes. */
	timeoutMs?: number;
}

export function exec(command: string, args: readonly string[], options: ExecOptions = {}): Promise<ExecResult> {
	return new Promise((resolve) => {
		let stdout = "";
		let stderr = "";
		let settled = false;
		const child = spawn(command, [...args], {
			cwd: options.cwd,
			env: options.env ?? process.env,
			stdio: ["ignore", "pipe", "pipe"],
		});
		const timer = setTimeout(() => {
			stderr += `\n(timed out after ${Math.round((options.timeoutMs ?? 600_000) / 1000)} s)`;
			child.kill("SIGTERM");
		}, options.timeoutMs ?? 600_000);
		child.stdout.on("data", (d) => {
			stdout += d;
		});
		child.stderr.on("data", (d) => {
			stderr += d;
		});
		child.on("error", (error) => {
			if (settled) return;
			settled = true;
			clearTimeout(timer);
			resolve({ code: null, stdout, stderr, spawnError: error.message });
		});
		child.on("close", (code) => {
			if (settled) return;
			settled = true;
			clearTimeout(timer);
			resolve({ code, stdout, stderr });
		});
	});
}

/** The lines of a failed command worth showing: npm's `npm error` lines, git's `fatal:`/`error:`, else the last few. */
export function failureSummary(result: ExecResult): string {
	if (result.spawnError) return result.spawnError;
	const lines = result.stderr
		.split("\n")
		.map((l) => l.trim())
		.filter((l) => l !== "");
	const npm = lines
		.filter((l) => l.startsWith("npm error") || l.startsWith("npm ERR!"))
		.map((l) => l.replace(/^npm (error|ERR!)\s*/, ""))
		.filter((l) => l !== "" && !/^A complete log of this run|^\/.*debug.*\.log$/.test(l));
	const git = lines.filter((l) => /^(fatal|error):/.test(l));
	const picked = npm.length > 0 ? npm : git.length > 0 ? git : lines.slice(-3);
	const text = picked.slice(0, 6).join("; ");
	return text || `exit code ${result.code}`;
}

/** Throws an Error "<what>: <summary>" unless the command succeeded. */
export function check(result: ExecResult, what: string): ExecResult {
	if (result.code === 0) return result;
	throw new Error(`${what}: ${failureSummary(result)}`);
}
