/**
 * Local command execution with reliable teardown. The shell runs as the
 * leader of its own process group; every descendant also inherits a marker
 * variable, so on abort/timeout even processes that left the group (setsid
 * daemons) are found through /proc and killed: SIGTERM first, SIGKILL after a
 * short grace. Completion never depends on pipe EOF: once the shell has
 * exited, output still held open by background children is abandoned after
 * a moment.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { basename } from "node:path";

export interface BashExecOptions {
	onData: (data: Buffer) => void;
	signal?: AbortSignal;
	/** Seconds; the command is killed when it runs longer. */
	timeout?: number;
	env?: NodeJS.ProcessEnv;
}

export interface BashExecResult {
	/** null when the process was ended by a signal. */
	exitCode: number | null;
	/** The signal that ended the shell, if any. */
	signal?: string;
	timedOut?: boolean;
	aborted?: boolean;
}

/** How bash runs commands; replace to run them over ssh, in a container, etc. */
export interface BashOperations {
	exec(command: string, cwd: string, options: BashExecOptions): Promise<BashExecResult>;
}

export const KILL_GRACE_MS = 1000;
/** How long output may keep arriving after the shell exited (background children holding the pipe). */
const DRAIN_AFTER_EXIT_MS = 150;
const MARKER_VAR = "PI_BASH_RUN_ID";
const POSIX_SHELLS = new Set(["bash", "zsh", "sh", "dash", "ksh", "mksh", "ash"]);

/** The user's shell when it understands POSIX `-c` scripts, else /bin/bash. */
export function defaultShell(): string {
	const shell = process.env.SHELL;
	if (shell && POSIX_SHELLS.has(basename(shell))) return shell;
	return "/bin/bash";
}

/** Pids whose environment carries the marker (Linux /proc; empty elsewhere). */
export function findMarkedPids(marker: string): number[] {
	let entries: string[];
	try {
		entries = readdirSync("/proc");
	} catch {
		return [];
	}
	const needle = `${MARKER_VAR}=${marker}\0`;
	const pids: number[] = [];
	for (const entry of entries) {
		const pid = Number(entry);
		if (!Number.isInteger(pid) || pid === process.pid) continue;
		try {
			if (readFileSync(`/proc/${entry}/environ`, "latin1").includes(needle)) pids.push(pid);
		} catch {
			// Gone already, or not ours to read.
		}
	}
	return pids;
}

function signalTree(pgid: number | undefined, marker: string, sig: NodeJS.Signals): void {
	if (pgid !== undefined) {
		try {
			process.kill(-pgid, sig);
		} catch {
			// Group already gone.
		}
	}
	for (const pid of findMarkedPids(marker)) {
		try {
			process.kill(pid, sig);
		} catch {
			// Exited meanwhile.
		}
	}
}

export function createLocalBashOperations(options: { shellPath?: string } = {}): BashOperations {
	return {
		exec(command, cwd, { onData, signal, timeout, env }) {
			return new Promise<BashExecResult>((resolve, reject) => {
				const marker = randomBytes(8).toString("hex");
				const shell = options.shellPath ?? defaultShell();
				// One stream for both: stdout and stderr interleave in true order (prefix keeps line numbers).
				const child = spawn(shell, ["-c", `exec 2>&1; ${command}`], {
					cwd,
					detached: true,
					env: { ...(env ?? process.env), [MARKER_VAR]: marker },
					stdio: ["ignore", "pipe", "pipe"],
				});
				const pgid = child.pid;
				let exitCode: number | null = null;
				let exitSignal: string | undefined;
				let exited = false;
				let openStreams = 2;
				let stopping: "abort" | "timeout" | undefined;
				let done = false;
				const timers: NodeJS.Timeout[] = [];

				const finish = (error?: Error) => {
					if (done) return;
					done = true;
					for (const t of timers) clearTimeout(t);
					signal?.removeEventListener("abort", onAbort);
					child.stdout?.destroy();
					child.stderr?.destroy();
					if (stopping) signalTree(pgid, marker, "SIGKILL");
					if (error) reject(error);
					else
						resolve({
							exitCode,
							signal: exitSignal,
							timedOut: stopping === "timeout" || undefined,
							aborted: stopping === "abort" || undefined,
						});
				};
				const maybeFinish = () => {
					if (exited && openStreams === 0) finish();
				};
				const stop = (why: "abort" | "timeout") => {
					if (stopping || done) return;
					stopping = why;
					signalTree(pgid, marker, "SIGTERM");
					timers.push(
						setTimeout(() => {
							signalTree(pgid, marker, "SIGKILL");
							// Whatever still holds the pipe now is beyond reach: stop waiting.
							timers.push(setTimeout(() => finish(), 500));
						}, KILL_GRACE_MS),
					);
				};
				const onAbort = () => stop("abort");

				for (const stream of [child.stdout, child.stderr]) {
					stream.on("data", (d: Buffer) => {
						if (!done) onData(d);
					});
					stream.on("close", () => {
						openStreams--;
						maybeFinish();
					});
					stream.on("error", () => {});
				}
				child.on("error", (error) => finish(error));
				child.on("exit", (code, sig) => {
					exited = true;
					exitCode = code;
					exitSignal = sig ?? undefined;
					if (openStreams > 0) timers.push(setTimeout(() => finish(), stopping ? 300 : DRAIN_AFTER_EXIT_MS));
					maybeFinish();
				});
				if (signal?.aborted) onAbort();
				else signal?.addEventListener("abort", onAbort, { once: true });
				if (timeout !== undefined && timeout > 0) timers.push(setTimeout(() => stop("timeout"), timeout * 1000));
			});
		},
	};
}
