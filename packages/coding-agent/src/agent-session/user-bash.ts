// Commands the user runs directly (`!cmd` in the editor, RPC `bash`), not the
// model's bash tool. The output is recorded as a `bashExecution` message, which
// reaches the model as a user message with the next prompt. A result that
// arrives while a run is active waits until the run is over: inserting it
// mid-turn would split an assistant tool call from its result.
import type { Agent } from "@pi/agent-core";
import type { BashExecutionMessage } from "../messages.js";
import type { SessionManager } from "../session/session-manager.js";
import { type BashResult, executeBash } from "../tools/bash.js";
import type { BashOperations } from "../tools/bash-process.js";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES } from "../tools/shared/truncate.js";

export interface UserBashOptions {
	/** Called with output text as it arrives. */
	onChunk?: (text: string) => void;
	/** Stored and shown, but never sent to the model (`!!cmd`). */
	excludeFromContext?: boolean;
	/** Run through this backend instead of the local shell (a `user_bash` handler's). */
	operations?: BashOperations;
}

/** A result a `user_bash` handler produced without running anything here. */
export type ProvidedBashResult = Pick<BashResult, "output" | "exitCode" | "cancelled" | "truncated"> &
	Partial<Pick<BashResult, "fullOutputPath">>;

export interface UserBashHost {
	agent: Agent;
	sessionManager: SessionManager;
	cwd: string;
	shellPath?: string;
	/** Whether a run is active (results are then held back until it ends). */
	isStreaming(): boolean;
}

/** The truncation facts of a handler's output, as far as they can be told from the text. */
function describeProvided(text: string, truncated: boolean): BashResult["truncation"] {
	const lines = text === "" ? 0 : text.split("\n").length;
	const bytes = Buffer.byteLength(text);
	return {
		content: text,
		truncated,
		truncatedBy: null,
		totalLines: lines,
		totalBytes: bytes,
		outputLines: lines,
		outputBytes: bytes,
		lastLinePartial: false,
		firstLineExceedsLimit: false,
		maxLines: DEFAULT_MAX_LINES,
		maxBytes: DEFAULT_MAX_BYTES,
	};
}

export class UserBash {
	private controller: AbortController | undefined;
	private pending: BashExecutionMessage[] = [];

	constructor(private readonly host: UserBashHost) {}

	get isRunning(): boolean {
		return this.controller !== undefined;
	}

	/** Runs one command (one at a time); the result is recorded in the session. */
	async run(command: string, options: UserBashOptions = {}): Promise<BashResult> {
		if (this.controller) throw new Error("A bash command is already running. Abort it first (abort_bash).");
		const controller = new AbortController();
		this.controller = controller;
		let result: BashResult;
		try {
			result = await executeBash(command, {
				cwd: this.host.cwd,
				signal: controller.signal,
				onChunk: options.onChunk,
				shellPath: this.host.shellPath,
				operations: options.operations,
			});
		} finally {
			this.controller = undefined;
		}
		this.store(command, result, options);
		return result;
	}

	/** Records a result a handler produced (nothing runs); returned in the shape `run` returns. */
	record(command: string, provided: ProvidedBashResult, options: UserBashOptions = {}): BashResult {
		const result: BashResult = {
			output: String(provided.output ?? ""),
			exitCode: provided.exitCode ?? null,
			cancelled: Boolean(provided.cancelled),
			timedOut: false,
			truncated: Boolean(provided.truncated),
			truncation: describeProvided(String(provided.output ?? ""), Boolean(provided.truncated)),
			...(provided.fullOutputPath ? { fullOutputPath: provided.fullOutputPath } : {}),
		};
		this.store(command, result, options);
		return result;
	}

	private store(command: string, result: BashResult, options: UserBashOptions): void {
		const message: BashExecutionMessage = {
			role: "bashExecution",
			command,
			output: result.output,
			exitCode: result.exitCode ?? undefined,
			cancelled: result.cancelled,
			truncated: result.truncated,
			timestamp: Date.now(),
		};
		if (result.fullOutputPath) message.fullOutputPath = result.fullOutputPath;
		if (options.excludeFromContext) message.excludeFromContext = true;
		this.pending.push(message);
		if (!this.host.isStreaming()) this.flush();
	}

	abort(): void {
		this.controller?.abort();
	}

	/** Records results held back during a run; call when no run is active. */
	flush(): void {
		const messages = this.pending;
		this.pending = [];
		for (const message of messages) {
			this.host.sessionManager.appendMessage(message);
			this.host.agent.appendMessage(message);
		}
	}
}
