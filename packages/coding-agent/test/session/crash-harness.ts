import { type ChildProcess, spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { bundleTestScript } from "../support/bundle-script.js";

const here = dirname(fileURLToPath(import.meta.url));

/** The writer bundled once to plain JS, so each child starts in tens of ms. */
export function writerScript(): string {
	return bundleTestScript(join(here, "fixtures", "crash-writer.ts"));
}

export interface Writer {
	child: ChildProcess;
	acked: string[];
	/** Lines the child printed that are neither acks nor "ready". */
	other: string[];
	/** Resolves with the first line ("ready <pid>") or rejects with stderr when the child exits first. */
	ready: Promise<void>;
	/** Resolves when at least `n` entries were acknowledged. */
	waitAcks(n: number): Promise<void>;
	exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

export function startWriter(
	file: string,
	mode: "append" | "hold" | "fill" = "append",
	fileSizeLimitBlocks?: number,
): Writer {
	const args = [writerScript(), file, mode];
	const child =
		fileSizeLimitBlocks === undefined
			? spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] })
			: spawn("sh", ["-c", `ulimit -f ${fileSizeLimitBlocks}; exec "$0" "$@"`, process.execPath, ...args], {
					stdio: ["ignore", "pipe", "pipe"],
				});
	const acked: string[] = [];
	const other: string[] = [];
	let stderr = "";
	let buffer = "";
	let readyResolve: () => void = () => {};
	let readyReject: (e: Error) => void = () => {};
	const ready = new Promise<void>((res, rej) => {
		readyResolve = res;
		readyReject = rej;
	});
	ready.catch(() => {}); // observed through `exited` when the child fails to start
	const waiters: { n: number; resolve: () => void }[] = [];
	child.stdout?.setEncoding("utf8");
	child.stdout?.on("data", (chunk: string) => {
		buffer += chunk;
		let nl = buffer.indexOf("\n");
		while (nl >= 0) {
			const line = buffer.slice(0, nl);
			buffer = buffer.slice(nl + 1);
			if (line.startsWith("ready")) readyResolve();
			else if (line.startsWith("ack ")) acked.push(line.slice(4));
			else other.push(line);
			nl = buffer.indexOf("\n");
		}
		for (const w of waiters.splice(0)) {
			if (acked.length >= w.n) w.resolve();
			else waiters.push(w);
		}
	});
	child.stderr?.setEncoding("utf8");
	child.stderr?.on("data", (c: string) => {
		stderr += c;
	});
	const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((res) => {
		child.on("exit", (code, signal) => {
			readyReject(new Error(`writer exited (${code ?? signal}): ${stderr}`));
			res({ code, signal, stderr });
		});
	});
	return {
		child,
		acked,
		other,
		ready,
		exited,
		waitAcks(n: number) {
			if (acked.length >= n) return Promise.resolve();
			return new Promise<void>((resolve) => waiters.push({ n, resolve }));
		},
	};
}
