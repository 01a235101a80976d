import { existsSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, join } from "node:path";
import type { AgentTool } from "@pi/agent-core";
import { type Static, Type } from "typebox";
import { type BashOperations, createLocalBashOperations } from "./bash-process.js";
import { OutputAccumulator } from "./output-accumulator.js";
import { appendNotices, notices } from "./shared/notices.js";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, type TruncationResult } from "./shared/truncate.js";

export {
	type BashExecOptions,
	type BashExecResult,
	type BashOperations,
	createLocalBashOperations,
} from "./bash-process.js";

const bashSchema = Type.Object({
	command: Type.String({ description: "Shell command to run" }),
	timeout: Type.Optional(Type.Number({ description: "Timeout in seconds (no timeout by default)" })),
});

export type BashToolInput = Static<typeof bashSchema>;

export interface BashToolDetails {
	truncation?: TruncationResult;
	fullOutputPath?: string;
}

export interface BashSpawnContext {
	command: string;
	cwd: string;
	env: NodeJS.ProcessEnv;
}

export type BashSpawnHook = (context: BashSpawnContext) => BashSpawnContext;

export interface BashToolOptions {
	operations?: BashOperations;
	/** Prepended to every command on its own line (e.g. `shopt -s expand_aliases`). */
	commandPrefix?: string;
	/** Shell binary; default $SHELL when POSIX-compatible, else /bin/bash. */
	shellPath?: string;
	/** Adjusts command, cwd or environment just before running. */
	spawnHook?: BashSpawnHook;
}

export interface ExecuteBashOptions {
	cwd: string;
	signal?: AbortSignal;
	/** Seconds. */
	timeout?: number;
	/** Sanitised output text as it arrives. */
	onChunk?: (text: string) => void;
	operations?: BashOperations;
	shellPath?: string;
	env?: NodeJS.ProcessEnv;
	/** Called (throttled by the caller) with the accumulator after each chunk. */
	onProgress?: (accumulator: OutputAccumulator) => void;
}

export interface BashResult {
	/** Sanitised output, tail-truncated to 2000 lines / 50KB. */
	output: string;
	exitCode: number | null;
	/** True when the command was aborted or timed out. */
	cancelled: boolean;
	timedOut: boolean;
	truncated: boolean;
	truncation: TruncationResult;
	/** Full output on disk, set when truncated. */
	fullOutputPath?: string;
	/** Signal that ended the command on its own (not by our abort), if any. */
	signal?: string;
}

/** Node's timers hold at most 2^31-1 ms; a longer delay fires at once (the command "timed out" immediately). */
export const MAX_BASH_TIMEOUT_SECONDS = Math.floor((2 ** 31 - 1) / 1000);

/** A timeout the timers can honour, or a clear error naming the allowed range. */
function validateTimeout(timeout: number | undefined): void {
	if (timeout === undefined || timeout === 0) return;
	if (!Number.isFinite(timeout) || timeout < 0 || timeout > MAX_BASH_TIMEOUT_SECONDS) {
		throw new Error(
			`Invalid timeout ${timeout}: give seconds from 1 to ${MAX_BASH_TIMEOUT_SECONDS} (about 24.8 days), or leave it out for no timeout. The command was not run.`,
		);
	}
}

/** PATH with pi's own bin directory in front, so tools installed for pi are found first. */
export function bashEnvironment(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
	const agentDir = base.PI_CODING_AGENT_DIR || join(homedir(), ".pi", "agent");
	const bin = join(agentDir, "bin");
	return { ...base, PATH: base.PATH ? `${bin}${delimiter}${base.PATH}` : bin };
}

/** Runs a shell command with bounded output; used by the bash tool and by user `!cmd` / RPC bash. */
export async function executeBash(command: string, options: ExecuteBashOptions): Promise<BashResult> {
	validateTimeout(options.timeout);
	if (!existsSync(options.cwd) || !statSync(options.cwd).isDirectory()) {
		throw new Error(`Working directory does not exist: ${options.cwd}`);
	}
	const ops = options.operations ?? createLocalBashOperations({ shellPath: options.shellPath });
	const acc = new OutputAccumulator();
	const decoder = options.onChunk ? new TextDecoder("utf-8") : undefined;
	let result: Awaited<ReturnType<BashOperations["exec"]>>;
	try {
		result = await ops.exec(command, options.cwd, {
			signal: options.signal,
			timeout: options.timeout,
			env: options.env ?? bashEnvironment(),
			onData: (data) => {
				acc.append(data);
				if (decoder && options.onChunk) {
					const text = decoder.decode(data, { stream: true });
					if (text) options.onChunk(text);
				}
				options.onProgress?.(acc);
			},
		});
	} finally {
		acc.finish();
	}
	const snap = acc.snapshot();
	const cancelled = Boolean(result.aborted || result.timedOut || options.signal?.aborted);
	return {
		output: snap.text,
		exitCode: result.exitCode,
		cancelled,
		timedOut: Boolean(result.timedOut),
		truncated: snap.truncation.truncated,
		truncation: snap.truncation,
		fullOutputPath: snap.fullOutputPath,
		signal: cancelled ? undefined : result.signal,
	};
}

/** The model-facing text for a finished command, with continuation notices. */
export function formatBashOutput(result: Pick<BashResult, "output" | "truncation" | "fullOutputPath">): string {
	const text = result.output.length > 0 ? result.output : "(no output)";
	const t = result.truncation;
	if (!t.truncated || !result.fullOutputPath) return text;
	const to = t.totalLines;
	const from = Math.max(1, to - t.outputLines + 1);
	let notice: string;
	if (t.lastLinePartial) notice = notices.bashPartialLine(t.outputBytes, to, t.totalBytes, result.fullOutputPath);
	else if (t.truncatedBy === "lines") notice = notices.bashLinesShown(from, to, to, result.fullOutputPath);
	else notice = notices.bashBytesShown(from, to, to, result.fullOutputPath);
	return appendNotices(text, [notice]);
}

const UPDATE_INTERVAL_MS = 100;

export function createBashTool(
	cwd: string,
	options: BashToolOptions = {},
): AgentTool<typeof bashSchema, BashToolDetails | undefined> {
	return {
		name: "bash",
		label: "bash",
		description: `Run a shell command in the working directory (${options.shellPath ?? "the user's shell, bash-compatible"}, -c) and return its combined stdout and stderr. Output is cut to the last ${DEFAULT_MAX_LINES} lines or ${DEFAULT_MAX_BYTES / 1024}KB; when cut, the full output is saved to a temp file whose path is given (read it with read or grep). A non-zero exit code makes the call fail with the output. Use timeout (seconds) for commands that may hang; don't start long-running servers in the foreground.`,
		parameters: bashSchema,
		async execute(_id, { command, timeout }, signal, onUpdate) {
			let ctx: BashSpawnContext = {
				command: options.commandPrefix ? `${options.commandPrefix}\n${command}` : command,
				cwd,
				env: bashEnvironment(),
			};
			if (options.spawnHook) ctx = options.spawnHook(ctx);
			onUpdate?.({ content: [{ type: "text", text: "" }], details: undefined });
			let lastUpdate = 0;
			let pending: NodeJS.Timeout | undefined;
			let latest: OutputAccumulator | undefined;
			const emit = () => {
				pending = undefined;
				lastUpdate = Date.now();
				if (!latest || !onUpdate) return;
				const snap = latest.snapshot();
				onUpdate({
					content: [{ type: "text", text: snap.text }],
					details: snap.truncation.truncated
						? { truncation: snap.truncation, fullOutputPath: snap.fullOutputPath }
						: undefined,
				});
			};
			let result: BashResult;
			try {
				result = await executeBash(ctx.command, {
					cwd: ctx.cwd,
					env: ctx.env,
					signal,
					timeout,
					operations: options.operations,
					shellPath: options.shellPath,
					onProgress: onUpdate
						? (acc) => {
								latest = acc;
								if (pending) return;
								const wait = UPDATE_INTERVAL_MS - (Date.now() - lastUpdate);
								if (wait <= 0) emit();
								else pending = setTimeout(emit, wait);
							}
						: undefined,
				});
			} finally {
				if (pending) clearTimeout(pending);
			}
			const text = formatBashOutput(result);
			if (result.timedOut) throw new Error(`${text}\n\nCommand timed out after ${timeout} seconds`);
			if (result.cancelled) throw new Error(`${text}\n\nCommand aborted`);
			if (result.exitCode === null && result.signal) {
				throw new Error(`${text}\n\nCommand terminated by signal ${result.signal}`);
			}
			if (result.exitCode !== 0 && result.exitCode !== null) {
				throw new Error(`${text}\n\nCommand exited with code ${result.exitCode}`);
			}
			return {
				content: [{ type: "text", text }],
				details: result.truncated
					? { truncation: result.truncation, fullOutputPath: result.fullOutputPath }
					: undefined,
			};
		},
	};
}
