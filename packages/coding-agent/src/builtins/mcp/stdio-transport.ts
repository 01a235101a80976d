// The stdio transport: the server is a child process in a process group of
// its own (so wrappers such as npx or uvx go down with it), speaking
// newline-delimited JSON-RPC on stdin/stdout. Its stderr goes to the MCP log
// line by line, and the last lines are kept for error reports. We write our
// own instead of the SDK's StdioClientTransport because that one can neither
// start the child in its own group nor stop the whole group.
import { type ChildProcess, spawn } from "node:child_process";
import { deserializeMessage, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/** A line longer than this is garbage (a server that never writes a newline must not fill memory). */
const MAX_LINE_BYTES = 64 * 1024 * 1024;

export interface StdioOptions {
	command: string;
	args: string[];
	env: Record<string, string>;
	cwd?: string;
	/** Each stderr line of the server. */
	onStderr: (line: string) => void;
	/** Garbage on stdout (a line that is not JSON-RPC). */
	onGarbage: (line: string, error: Error) => void;
}

/** Process groups still alive, killed when pi exits whatever the path out. */
const liveGroups = new Set<number>();
let exitHookInstalled = false;
function installExitHook(): void {
	if (exitHookInstalled) return;
	exitHookInstalled = true;
	process.on("exit", () => {
		for (const pid of liveGroups) killGroup(pid, "SIGKILL");
	});
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
	try {
		process.kill(-pid, signal);
	} catch {
		try {
			process.kill(pid, signal);
		} catch {
			// already gone
		}
	}
}

export class GroupStdioTransport implements Transport {
	onclose?: () => void;
	onerror?: (error: Error) => void;
	onmessage?: (message: JSONRPCMessage) => void;
	private child: ChildProcess | undefined;
	private chunks: Buffer[] = [];
	private pending = 0;
	private stderrRest = "";
	private closed = false;
	/** How the process ended (for error reports). */
	exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;

	constructor(private readonly o: StdioOptions) {}

	get pid(): number | undefined {
		return this.child?.pid;
	}

	start(): Promise<void> {
		installExitHook();
		return new Promise((resolveStart, rejectStart) => {
			const child = spawn(this.o.command, this.o.args, {
				cwd: this.o.cwd,
				env: { ...process.env, ...this.o.env },
				stdio: ["pipe", "pipe", "pipe"],
				detached: true,
				windowsHide: true,
			});
			this.child = child;
			child.once("error", (error) => {
				if (child.pid !== undefined) liveGroups.delete(child.pid);
				if (!this.started) rejectStart(new Error(`could not start ${this.o.command}: ${error.message}`));
				else this.onerror?.(error);
				this.finish();
			});
			child.once("spawn", () => {
				this.started = true;
				if (child.pid !== undefined) liveGroups.add(child.pid);
				resolveStart();
			});
			child.once("exit", (code, signal) => {
				this.exit = { code, signal };
				if (child.pid !== undefined) liveGroups.delete(child.pid);
				this.finish();
			});
			child.stdout?.on("data", (chunk: Buffer) => this.receive(chunk));
			child.stderr?.setEncoding("utf8");
			child.stderr?.on("data", (text: string) => {
				const lines = (this.stderrRest + text).split("\n");
				this.stderrRest = lines.pop() ?? "";
				for (const line of lines) if (line.trim() !== "") this.o.onStderr(line);
			});
			// A server that stops reading must not crash pi with EPIPE.
			child.stdin?.on("error", (error) => this.onerror?.(error));
		});
	}
	private started = false;

	private receive(chunk: Buffer): void {
		let start = 0;
		for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
			this.chunks.push(chunk.subarray(start, nl));
			const line = Buffer.concat(this.chunks).toString("utf8").replace(/\r$/, "");
			this.chunks = [];
			this.pending = 0;
			start = nl + 1;
			if (line.trim() === "") continue;
			let message: JSONRPCMessage;
			try {
				message = deserializeMessage(line);
			} catch (error) {
				this.o.onGarbage(line, error as Error);
				continue;
			}
			this.onmessage?.(message);
		}
		const rest = chunk.subarray(start);
		if (rest.length === 0) return;
		this.pending += rest.length;
		if (this.pending > MAX_LINE_BYTES) {
			this.chunks = [];
			this.pending = 0;
			this.o.onGarbage("", new Error(`a line longer than ${MAX_LINE_BYTES} bytes`));
			return;
		}
		this.chunks.push(Buffer.from(rest));
	}

	private finish(): void {
		if (this.closed) return;
		this.closed = true;
		if (this.stderrRest.trim() !== "") this.o.onStderr(this.stderrRest);
		this.stderrRest = "";
		this.onclose?.();
	}

	send(message: JSONRPCMessage): Promise<void> {
		return new Promise((resolveSend, rejectSend) => {
			const stdin = this.child?.stdin;
			if (!stdin || this.closed || stdin.destroyed) {
				rejectSend(new Error("the server process is not running"));
				return;
			}
			if (stdin.write(serializeMessage(message))) resolveSend();
			else stdin.once("drain", resolveSend);
		});
	}

	/** Closes stdin, then SIGTERM to the group, then SIGKILL after `graceMs`. */
	async close(graceMs = 2000): Promise<void> {
		const child = this.child;
		if (!child || child.pid === undefined || this.exit) {
			this.finish();
			return;
		}
		const pid = child.pid;
		const exited = new Promise<void>((r) => {
			if (this.exit) r();
			else child.once("exit", () => r());
		});
		child.stdin?.end();
		killGroup(pid, "SIGTERM");
		const timer = setTimeout(() => killGroup(pid, "SIGKILL"), graceMs);
		timer.unref();
		await exited;
		clearTimeout(timer);
		// Grandchildren (an npx wrapper's server) may outlive the leader: finish the group.
		killGroup(pid, "SIGKILL");
		liveGroups.delete(pid);
		this.finish();
	}
}
