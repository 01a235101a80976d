// A typed client for `pi --mode rpc`: spawns the CLI as a child process,
// sends commands with generated ids, resolves each with its response, and
// hands every other stdout record (session events, bash output, extension UI
// requests) to listeners. Responses that fail reject with RpcError.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { AgentMessage } from "@pi/agent-core";
import type { ImageContent, Model, ThinkingLevel } from "@pi/ai";
import type { CompactionResult } from "../../agent-session/compaction/summarize.js";
import type { QueueMode } from "../../config/settings.js";
import type { SessionEntry, SessionTreeNode } from "../../session/types.js";
import { attachJsonlLineReader, serializeJsonLine } from "./jsonl.js";
import type {
	PromptDisposition,
	QueuedInputDisposition,
	RpcBashExecutionUpdate,
	RpcBashResult,
	RpcCommand,
	RpcCommandType,
	RpcExtensionError,
	RpcExtensionUIRequest,
	RpcExtensionUIResponse,
	RpcResponse,
	RpcResponseData,
	RpcSessionState,
	RpcSessionStats,
	RpcSlashCommand,
} from "./rpc-types.js";
import type { JsonAgentSessionEvent } from "./wire-event.js";

export interface RpcClientOptions {
	/** The pi CLI entry (a JS file run with node); default this package's dist/cli.js. */
	cliPath?: string;
	/** Node binary; default the current one. */
	nodePath?: string;
	cwd?: string;
	/** Environment of the child; default the current one. */
	env?: NodeJS.ProcessEnv;
	provider?: string;
	model?: string;
	/** More CLI arguments (e.g. ["--no-session"]). */
	args?: string[];
	/** Milliseconds a command may wait for its response; default 5 minutes (compaction can be slow). */
	requestTimeoutMs?: number;
}

/** Everything on stdout that is not a response. */
export type RpcClientEvent = JsonAgentSessionEvent | RpcBashExecutionUpdate | RpcExtensionError | RpcExtensionUIRequest;
export type RpcEventListener = (event: RpcClientEvent) => void;

/** A command that failed (`success: false`), or a process that went away. */
export class RpcError extends Error {
	constructor(
		message: string,
		readonly command: string,
	) {
		super(message);
		this.name = "RpcError";
	}
}

type CommandInput = RpcCommand extends infer C ? (C extends { type: string } ? Omit<C, "id"> : never) : never;

interface Pending {
	resolve(response: RpcResponse): void;
	reject(error: Error): void;
	timer: NodeJS.Timeout;
}

function defaultCliPath(): string {
	const candidates = [new URL("./cli.js", import.meta.url), new URL("../../../dist/cli.js", import.meta.url)];
	for (const url of candidates) {
		const path = fileURLToPath(url);
		if (existsSync(path)) return path;
	}
	throw new Error("Cannot find the pi CLI (dist/cli.js); build it or pass cliPath");
}

export class RpcClient {
	private child: ChildProcessWithoutNullStreams | undefined;
	private readonly listeners = new Set<RpcEventListener>();
	private readonly pending = new Map<string, Pending>();
	private nextId = 0;
	private stderr = "";
	private exited: Promise<number | null> | undefined;
	private exitError: Error | undefined;

	constructor(private readonly options: RpcClientOptions = {}) {}

	/** Spawns `pi --mode rpc`. */
	async start(): Promise<void> {
		if (this.child) throw new Error("RpcClient already started");
		const o = this.options;
		const args = [o.cliPath ?? defaultCliPath(), "--mode", "rpc"];
		if (o.provider) args.push("--provider", o.provider);
		if (o.model) args.push("--model", o.model);
		args.push(...(o.args ?? []));
		const child = spawn(o.nodePath ?? process.execPath, args, {
			cwd: o.cwd,
			env: o.env ?? process.env,
			stdio: ["pipe", "pipe", "pipe"],
		});
		this.child = child;
		this.exitError = undefined;
		child.stderr.setEncoding("utf8");
		child.stderr.on("data", (text: string) => {
			this.stderr += text;
		});
		child.stdin.on("error", () => {}); // a dead child shows up as 'exit'
		attachJsonlLineReader(child.stdout, (line) => this.handleLine(line));
		this.exited = new Promise((resolve) => {
			child.on("exit", (code, signal) => {
				this.exitError = new Error(
					`pi exited (${signal ?? `code ${code}`})${this.stderr ? `; stderr:\n${this.stderr.trimEnd()}` : ""}`,
				);
				this.rejectAll(this.exitError);
				resolve(code);
			});
		});
		await new Promise<void>((resolve, reject) => {
			child.once("spawn", resolve);
			child.once("error", reject);
		});
	}

	/** Closes stdin (pi finishes its current work and exits); kills it after `graceMs`. Returns the exit code. */
	async stop(graceMs = 5000): Promise<number | null> {
		const child = this.child;
		if (!child || !this.exited) return null;
		child.stdin.end();
		const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
		try {
			return await this.exited;
		} finally {
			clearTimeout(timer);
			this.child = undefined;
		}
	}

	/** Everything pi wrote to stderr so far. */
	getStderr(): string {
		return this.stderr;
	}

	/** The child's pid, while running. */
	get pid(): number | undefined {
		return this.child?.pid;
	}

	onEvent(listener: RpcEventListener): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}

	/** Sends a command and resolves with its response, successful or not. */
	send(command: CommandInput & { id?: string }): Promise<RpcResponse> {
		const child = this.child;
		if (!child) return Promise.reject(new Error("RpcClient not started"));
		if (this.exitError) return Promise.reject(this.exitError);
		const id = command.id ?? `req-${++this.nextId}`;
		return new Promise<RpcResponse>((resolve, reject) => {
			const timeoutMs = this.options.requestTimeoutMs ?? 300_000;
			const timer = setTimeout(() => {
				this.pending.delete(id);
				reject(new RpcError(`No response to ${command.type} within ${timeoutMs} ms`, command.type));
			}, timeoutMs);
			this.pending.set(id, { resolve, reject, timer });
			child.stdin.write(serializeJsonLine({ ...command, id }));
		});
	}

	/** Writes raw text to pi's stdin (tests of framing; no correlation). */
	writeRaw(text: string): void {
		if (!this.child) throw new Error("RpcClient not started");
		this.child.stdin.write(text);
	}

	/** Answers an extension UI dialog. */
	respondToUI(
		// Distributed over the union, so each answer shape (value / confirmed / cancelled) is accepted.
		response: RpcExtensionUIResponse extends infer R ? (R extends unknown ? Omit<R, "type"> : never) : never,
	): void {
		this.writeRaw(serializeJsonLine({ type: "extension_ui_response", ...response }));
	}

	// -- waiting for events ---------------------------------------------------------------

	/** The next event of `type` (matching `predicate`); rejects after `timeoutMs`. */
	waitForEvent<T extends RpcClientEvent["type"]>(
		type: T,
		options: { timeoutMs?: number; predicate?: (event: Extract<RpcClientEvent, { type: T }>) => boolean } = {},
	): Promise<Extract<RpcClientEvent, { type: T }>> {
		const timeoutMs = options.timeoutMs ?? 60_000;
		return new Promise((resolve, reject) => {
			const timer = setTimeout(() => {
				off();
				reject(new Error(`Timed out after ${timeoutMs} ms waiting for ${type}`));
			}, timeoutMs);
			const off = this.onEvent((event) => {
				if (event.type !== type) return;
				const typed = event as Extract<RpcClientEvent, { type: T }>;
				if (options.predicate && !options.predicate(typed)) return;
				clearTimeout(timer);
				off();
				resolve(typed);
			});
		});
	}

	/** Resolves at the next `agent_settled` (retries, compaction and queued messages all done). */
	async waitForIdle(timeoutMs?: number): Promise<void> {
		await this.waitForEvent("agent_settled", { timeoutMs });
	}

	/** Every event until the next `agent_settled` (inclusive). */
	collectEvents(timeoutMs?: number): Promise<RpcClientEvent[]> {
		const events: RpcClientEvent[] = [];
		const off = this.onEvent((e) => events.push(e));
		return this.waitForIdle(timeoutMs).then(
			() => {
				off();
				return events;
			},
			(error) => {
				off();
				throw error;
			},
		);
	}

	/**
	 * Prompts and returns every event of the run, through `agent_settled`. A prompt an
	 * extension command took without starting a run ("handled") returns the events it caused.
	 */
	async promptAndWait(message: string, images?: ImageContent[], timeoutMs = 60_000): Promise<RpcClientEvent[]> {
		const events: RpcClientEvent[] = [];
		let settled = false;
		let onSettled = () => {};
		const whenSettled = new Promise<void>((resolve) => {
			onSettled = resolve;
		});
		// Listening before the prompt is sent: a fast run's events are not missed.
		const off = this.onEvent((event) => {
			if (settled) return;
			events.push(event);
			if (event.type === "agent_settled") {
				settled = true;
				onSettled();
			}
		});
		let timer: NodeJS.Timeout | undefined;
		try {
			if ((await this.prompt(message, images)) === "handled") return events;
			const timeout = new Promise<never>((_, reject) => {
				timer = setTimeout(
					() => reject(new Error(`Timed out after ${timeoutMs} ms waiting for agent_settled`)),
					timeoutMs,
				);
			});
			await Promise.race([whenSettled, timeout]);
			return events;
		} finally {
			off();
			clearTimeout(timer);
		}
	}

	// -- typed commands --------------------------------------------------------------------

	async prompt(
		message: string,
		images?: ImageContent[],
		streamingBehavior?: "steer" | "followUp",
	): Promise<PromptDisposition> {
		return (await this.call({ type: "prompt", message, images, streamingBehavior })).disposition;
	}
	async steer(message: string, images?: ImageContent[]): Promise<QueuedInputDisposition> {
		return (await this.call({ type: "steer", message, images })).disposition;
	}
	async followUp(message: string, images?: ImageContent[]): Promise<QueuedInputDisposition> {
		return (await this.call({ type: "follow_up", message, images })).disposition;
	}
	async abort(): Promise<void> {
		await this.call({ type: "abort" });
	}
	clearQueue(): Promise<{ steering: string[]; followUp: string[] }> {
		return this.call({ type: "clear_queue" });
	}
	newSession(parentSession?: string): Promise<{ cancelled: boolean }> {
		return this.call({ type: "new_session", parentSession });
	}
	getState(): Promise<RpcSessionState> {
		return this.call({ type: "get_state" });
	}
	setModel(provider: string, modelId: string): Promise<Model> {
		return this.call({ type: "set_model", provider, modelId });
	}
	cycleModel(): Promise<{ model: Model; thinkingLevel: ThinkingLevel; isScoped: boolean } | null> {
		return this.call({ type: "cycle_model" });
	}
	async getAvailableModels(): Promise<Model[]> {
		return (await this.call({ type: "get_available_models" })).models;
	}
	async setThinkingLevel(level: ThinkingLevel): Promise<void> {
		await this.call({ type: "set_thinking_level", level });
	}
	cycleThinkingLevel(): Promise<{ level: ThinkingLevel } | null> {
		return this.call({ type: "cycle_thinking_level" });
	}
	async getAvailableThinkingLevels(): Promise<ThinkingLevel[]> {
		return (await this.call({ type: "get_available_thinking_levels" })).levels;
	}
	async setSteeringMode(mode: QueueMode): Promise<void> {
		await this.call({ type: "set_steering_mode", mode });
	}
	async setFollowUpMode(mode: QueueMode): Promise<void> {
		await this.call({ type: "set_follow_up_mode", mode });
	}
	compact(customInstructions?: string): Promise<CompactionResult> {
		return this.call({ type: "compact", customInstructions });
	}
	async setAutoCompaction(enabled: boolean): Promise<void> {
		await this.call({ type: "set_auto_compaction", enabled });
	}
	async setAutoRetry(enabled: boolean): Promise<void> {
		await this.call({ type: "set_auto_retry", enabled });
	}
	async abortRetry(): Promise<void> {
		await this.call({ type: "abort_retry" });
	}
	bash(command: string, options: { excludeFromContext?: boolean } = {}): Promise<RpcBashResult> {
		return this.call({ type: "bash", command, ...options });
	}
	async abortBash(): Promise<void> {
		await this.call({ type: "abort_bash" });
	}
	getSessionStats(): Promise<RpcSessionStats> {
		return this.call({ type: "get_session_stats" });
	}
	exportHtml(outputPath?: string): Promise<{ path: string }> {
		return this.call({ type: "export_html", outputPath });
	}
	switchSession(sessionPath: string): Promise<{ cancelled: boolean }> {
		return this.call({ type: "switch_session", sessionPath });
	}
	fork(entryId: string): Promise<{ text: string; cancelled: boolean }> {
		return this.call({ type: "fork", entryId });
	}
	clone(): Promise<{ cancelled: boolean }> {
		return this.call({ type: "clone" });
	}
	async getForkMessages(): Promise<{ entryId: string; text: string }[]> {
		return (await this.call({ type: "get_fork_messages" })).messages;
	}
	getEntries(since?: string): Promise<{ entries: SessionEntry[]; leafId: string | null }> {
		return this.call({ type: "get_entries", since });
	}
	getTree(): Promise<{ tree: SessionTreeNode[]; leafId: string | null }> {
		return this.call({ type: "get_tree" });
	}
	async getLastAssistantText(): Promise<string | null> {
		return (await this.call({ type: "get_last_assistant_text" })).text;
	}
	async setSessionName(name: string): Promise<void> {
		await this.call({ type: "set_session_name", name });
	}
	async getMessages(): Promise<AgentMessage[]> {
		return (await this.call({ type: "get_messages" })).messages;
	}
	async getCommands(): Promise<RpcSlashCommand[]> {
		return (await this.call({ type: "get_commands" })).commands;
	}

	// -- internals ------------------------------------------------------------------------

	/** Sends and returns `data`, or rejects with the error of a failed response. */
	private async call<K extends RpcCommandType>(
		command: Extract<CommandInput, { type: K }>,
	): Promise<Exclude<RpcResponseData[K], undefined>> {
		// Fields left undefined are not sent.
		const clean = Object.fromEntries(Object.entries(command).filter(([, v]) => v !== undefined)) as CommandInput;
		const response = await this.send(clean);
		if (!response.success) throw new RpcError(response.error, response.command);
		return (response as { data?: unknown }).data as Exclude<RpcResponseData[K], undefined>;
	}

	private handleLine(line: string): void {
		if (!line) return;
		let record: { type?: unknown; id?: unknown };
		try {
			record = JSON.parse(line);
		} catch {
			this.stderr += `[rpc-client] unparsable stdout line: ${line}\n`;
			return;
		}
		if (record.type === "response") {
			const id = typeof record.id === "string" ? record.id : undefined;
			const pending = id === undefined ? undefined : this.pending.get(id);
			if (pending && id !== undefined) {
				this.pending.delete(id);
				clearTimeout(pending.timer);
				pending.resolve(record as RpcResponse);
			}
			return;
		}
		for (const listener of [...this.listeners]) listener(record as RpcClientEvent);
	}

	private rejectAll(error: Error): void {
		for (const [id, pending] of this.pending) {
			clearTimeout(pending.timer);
			pending.reject(error);
			this.pending.delete(id);
		}
	}
}
