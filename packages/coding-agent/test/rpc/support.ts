// Drives the BUILT `pi --mode rpc` (dist/cli.js) against the fake provider in
// a temporary home (the CLI tests' sandbox), through RpcClient or raw lines.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { ChatStream } from "../../../ai/test/support/fake-provider/openai-chat.js";
import type { Script } from "../../../ai/test/support/fake-provider/server.js";
import { RpcClient, type RpcClientEvent } from "../../src/modes/rpc/rpc-client.js";
import { CLI, type Sandbox, useCliSandbox } from "../cli/support.js";

export { assertBuilt, createSandbox, type Sandbox, textReply, toolReply } from "../cli/support.js";

/** A client for a pi started in the sandbox with the fake model (pass extra CLI args). */
export async function startClient(sb: Sandbox, args: string[] = ["--no-session"]): Promise<RpcClient> {
	const client = new RpcClient({
		cliPath: CLI,
		cwd: sb.cwd,
		env: sb.env,
		model: "fake/fake-model",
		args,
		requestTimeoutMs: 20_000,
	});
	await client.start();
	return client;
}

/** A streamed answer that stops after some text and keeps the connection open (for abort). */
export function hangingReply(text: string): Script {
	const script = new ChatStream({ model: "fake-model" }).role().text(text).script();
	return { ...script, hangAfterBytes: script.bytes.length };
}

/** Short labels for an event sequence: `message_start:user`, `update:text_delta`, `agent_end`, … */
export function labels(events: readonly RpcClientEvent[]): string[] {
	return events.map((e) => {
		if (e.type === "message_update") return `update:${e.assistantMessageEvent.type}`;
		if (e.type === "message_start" || e.type === "message_end") return `${e.type}:${e.message.role}`;
		return e.type;
	});
}

/** Collapses runs of the same delta label (chunking differs between runs). */
export function collapseDeltas(list: string[]): string[] {
	return list.filter((k, i) => !(k.endsWith("_delta") && list[i - 1] === k));
}

export interface RawPi {
	child: ChildProcessWithoutNullStreams;
	/** Parsed stdout records so far. */
	records: Record<string, unknown>[];
	/** Raw stdout text so far. */
	stdout(): string;
	stderr(): string;
	send(text: string): void;
	/** Sends a command with a fresh id (`c1`, `c2`, …); returns the id. */
	request(command: Record<string, unknown>): string;
	/** Sends a command and resolves with its response record. */
	call(command: Record<string, unknown>, timeoutMs?: number): Promise<Record<string, unknown>>;
	/** Resolves when a record matching `pred` has arrived. */
	waitFor(pred: (r: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
	exit: Promise<number | null>;
	/** Sends a command and resolves with its response's data; a failed response rejects (with the record). */
	data(command: Record<string, unknown>): Promise<Record<string, unknown>>;
	/** Sends a prompt and resolves once the run it starts has settled (one more agent_settled record). */
	promptAndSettle(message: string, timeoutMs?: number): Promise<void>;
	/** Closes stdin (pi's signal to finish) and resolves with the exit code. */
	end(): Promise<number | null>;
}

/** Ends a raw child for good (SIGKILL) and waits for it; nothing for none (a test's teardown). */
export async function killRaw(pi: RawPi | undefined): Promise<void> {
	pi?.child.kill("SIGKILL");
	await pi?.exit;
}

/** pi --mode rpc with raw stdin/stdout access (framing tests). */
export function spawnRaw(sb: Sandbox, args: string[] = ["--no-session"]): RawPi {
	const child = spawn(process.execPath, [CLI, "--mode", "rpc", "--model", "fake/fake-model", ...args], {
		cwd: sb.cwd,
		env: sb.env,
		stdio: ["pipe", "pipe", "pipe"],
	});
	let out = "";
	let err = "";
	const records: Record<string, unknown>[] = [];
	const waiters: { pred: (r: Record<string, unknown>) => boolean; resolve: (r: Record<string, unknown>) => void }[] =
		[];
	child.stdout.setEncoding("utf8");
	child.stderr.setEncoding("utf8");
	let partial = "";
	child.stdout.on("data", (text: string) => {
		out += text;
		partial += text;
		let nl = partial.indexOf("\n");
		while (nl !== -1) {
			const record = JSON.parse(partial.slice(0, nl)) as Record<string, unknown>;
			partial = partial.slice(nl + 1);
			records.push(record);
			for (const w of [...waiters]) {
				if (w.pred(record)) {
					waiters.splice(waiters.indexOf(w), 1);
					w.resolve(record);
				}
			}
			nl = partial.indexOf("\n");
		}
	});
	child.stderr.on("data", (text: string) => {
		err += text;
	});
	const exit = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
	let seq = 0;
	const raw: RawPi = {
		child,
		records,
		stdout: () => out,
		stderr: () => err,
		send: (text) => child.stdin.write(text),
		request(command) {
			const id = `c${++seq}`;
			child.stdin.write(`${JSON.stringify({ id, ...command })}\n`);
			return id;
		},
		call(command, timeoutMs = 30_000) {
			return raw.waitFor(responseTo(raw.request(command)), timeoutMs);
		},
		waitFor(pred, timeoutMs = 20_000) {
			const found = records.find(pred);
			if (found) return Promise.resolve(found);
			return new Promise((resolve, reject) => {
				const timer = setTimeout(
					() => reject(new Error(`timed out; stdout so far:\n${out}\nstderr:\n${err}`)),
					timeoutMs,
				);
				waiters.push({
					pred,
					resolve: (r) => {
						clearTimeout(timer);
						resolve(r);
					},
				});
			});
		},
		exit,
		async data(command) {
			const response = await raw.call(command);
			if (response.success !== true) throw new Error(`not a success: ${JSON.stringify(response)}`);
			return response.data as Record<string, unknown>;
		},
		async promptAndSettle(message, timeoutMs = 30_000) {
			const settled = () => records.filter((r) => r.type === "agent_settled").length;
			const before = settled();
			await raw.call({ type: "prompt", message });
			await raw.waitFor(() => settled() > before, timeoutMs);
		},
		end() {
			child.stdin.end();
			return exit;
		},
	};
	return raw;
}

/** The response record with this id. */
export const responseTo =
	(id: string) =>
	(r: Record<string, unknown>): boolean =>
		r.type === "response" && r.id === id;

/** The current test's sandbox and a way to start the rpc child it ends (see useRpcSandbox). */
export interface RpcSandbox {
	/** The current test's sandbox (useCliSandbox's stand-in: usable from module scope, valid inside a test). */
	readonly sb: Sandbox;
	/** `pi --mode rpc` in the sandbox (spawnRaw); ended after the test. */
	spawn(args?: string[]): RawPi;
}

/** How long a child gets to exit after its stdin closed before the test fails and it is killed. */
const EXIT_GRACE_MS = 10_000;

/**
 * The lifecycle shared by the files that drive rpc children: useCliSandbox's
 * (built CLI checked once, a fresh sandbox per test, then `setup` on it);
 * after each test the children it spawned that are still running get their
 * stdin closed and are awaited — a clean shutdown, so one that does not exit
 * within EXIT_GRACE_MS fails the test (and is killed, so none outlives it) —
 * and the sandbox is closed.
 */
export function useRpcSandbox(setup?: (sb: Sandbox) => void | Promise<void>): RpcSandbox {
	let children: RawPi[] = [];
	const endChildren = async () => {
		const running = children.filter((pi) => pi.child.exitCode === null && pi.child.signalCode === null);
		children = [];
		const stuck: number[] = [];
		await Promise.all(
			running.map(async (pi) => {
				pi.child.stdin.end();
				let timer: NodeJS.Timeout | undefined;
				const late = new Promise<"late">((resolve) => {
					timer = setTimeout(() => resolve("late"), EXIT_GRACE_MS);
				});
				const result = await Promise.race([pi.exit, late]);
				clearTimeout(timer);
				if (result === "late") {
					stuck.push(pi.child.pid ?? -1);
					pi.child.kill("SIGKILL");
					await pi.exit;
				}
			}),
		);
		if (stuck.length > 0) throw new Error(`rpc child ${stuck.join(", ")} did not exit after its stdin closed`);
	};
	const sb = useCliSandbox({ setup, beforeClose: endChildren });
	return {
		sb,
		spawn(args) {
			const pi = spawnRaw(sb, args);
			children.push(pi);
			return pi;
		},
	};
}
