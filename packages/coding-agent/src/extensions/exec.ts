// `pi.exec`: runs a program without a shell and collects its output. Pi
// terminates the command on timeout, abort, or when stdout + stderr pass
// maxBuffer (SIGTERM, then SIGKILL after 5 s); a command ended by a signal
// reports 128 + the signal number, as a shell would.
import { spawn } from "node:child_process";
import { constants } from "node:os";
import type { ExecOptions, ExecResult } from "./types.js";

const DEFAULT_MAX_BUFFER = 256 * 1024 * 1024;
const KILL_GRACE_MS = 5000;

export function execCommand(
	command: string,
	args: string[],
	cwd: string,
	options: ExecOptions = {},
): Promise<ExecResult> {
	return new Promise((resolvePromise) => {
		const maxBuffer = options.maxBuffer ?? DEFAULT_MAX_BUFFER;
		const stdout: Buffer[] = [];
		const stderr: Buffer[] = [];
		let size = 0;
		let killed = false;
		let truncated = false;
		let settled = false;
		let killTimer: NodeJS.Timeout | undefined;
		let timeoutTimer: NodeJS.Timeout | undefined;

		const child = spawn(command, args, {
			cwd: options.cwd ?? cwd,
			stdio: ["ignore", "pipe", "pipe"],
			windowsHide: true,
		});
		const terminate = () => {
			if (killed || child.exitCode !== null) return;
			killed = true;
			child.kill("SIGTERM");
			killTimer = setTimeout(() => child.kill("SIGKILL"), KILL_GRACE_MS);
			killTimer.unref();
		};
		const collect = (into: Buffer[]) => (chunk: Buffer) => {
			if (truncated) return;
			const room = maxBuffer - size;
			if (chunk.length > room) {
				into.push(chunk.subarray(0, Math.max(0, room)));
				size = maxBuffer;
				truncated = true;
				terminate();
				return;
			}
			into.push(chunk);
			size += chunk.length;
		};
		child.stdout.on("data", collect(stdout));
		child.stderr.on("data", collect(stderr));

		const onAbort = () => terminate();
		if (options.signal?.aborted) terminate();
		options.signal?.addEventListener("abort", onAbort, { once: true });
		if (options.timeout && options.timeout > 0) timeoutTimer = setTimeout(terminate, options.timeout);

		const finish = (code: number) => {
			if (settled) return;
			settled = true;
			if (timeoutTimer) clearTimeout(timeoutTimer);
			if (killTimer) clearTimeout(killTimer);
			options.signal?.removeEventListener("abort", onAbort);
			resolvePromise({
				stdout: Buffer.concat(stdout).toString("utf8"),
				stderr: Buffer.concat(stderr).toString("utf8"),
				code,
				killed,
				...(truncated ? { truncated: true } : {}),
			});
		};
		child.on("error", (error) => {
			stderr.push(Buffer.from(error.message));
			finish(127);
		});
		child.on("close", (code, signal) => {
			if (signal) finish(128 + (constants.signals[signal] ?? 0));
			else finish(code ?? (killed ? 143 : 1));
		});
	});
}
