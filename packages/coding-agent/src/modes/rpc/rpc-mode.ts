// `pi --mode rpc`: a long-lived child process driven by JSON lines.
//   stdin  — commands (and extension_ui_response records), strict LF framing;
//   stdout — responses, session events, extension_ui_request records; nothing else.
// Commands run concurrently (a `steer` must get through while a `prompt` runs),
// so clients correlate responses by `id`. Each handler makes its state change
// before its first await, so commands sent back to back still apply in order.
// The `prompt` response goes out when the prompt is accepted: before the
// first event of its run, never after it.
// Shutdown: end of stdin lets the current work (a run, a bash command)
// finish, dismisses open extension dialogs, then the process exits 0. A
// signal aborts the run first. A reader that goes away (stdout closed) aborts too.
import { type ImageContent, redact } from "@pi/ai";
import type { AgentSession } from "../../agent-session/agent-session.js";
import { type CommandContext, handlers } from "./commands.js";
import { RpcExtensionUI } from "./extension-ui.js";
import { attachJsonlLineReader } from "./jsonl.js";
import { type JsonlSink, JsonlWriter } from "./jsonl-writer.js";
import { parseRecord } from "./parse-command.js";
import type { RpcCommand, RpcOutputRecord, RpcResponse, RpcSlashCommand } from "./rpc-types.js";
import { guardStdout } from "./stdout-guard.js";
import { toJsonEvent } from "./wire-event.js";

export interface RpcModeOptions {
	/** Commands; default process.stdin. */
	input?: NodeJS.ReadableStream;
	/** Protocol output; default process.stdout, with every other stdout write redirected to stderr. */
	output?: JsonlSink;
	/** Diagnostics; default process.stderr. */
	stderr?: NodeJS.WritableStream;
	/** Commands runnable through `prompt` (templates, skills, extension commands) for `get_commands`. */
	getCommands?: () => RpcSlashCommand[];
	/** Receives the extension UI of this mode (for the extension bridge). */
	onExtensionUI?: (ui: RpcExtensionUI) => void;
	/** Aborts the current run and shuts down (signals); the mode resolves with `exitCode`. */
	signal?: AbortSignal;
	/** How a `prompt` command is submitted; default `session.prompt` (extensions: the bridge's input path). */
	submit?: (
		message: string,
		options: { images?: ImageContent[]; streamingBehavior?: "steer" | "followUp" },
	) => Promise<void>;
	/** Runs once the server exists, before stdin is read (extensions bind their UI and emit session_start). */
	beforeServe?: (io: { ui: RpcExtensionUI; emit(record: object): void }) => Promise<void>;
}

const BUSY_ERROR =
	"Agent is already processing. Specify streamingBehavior ('steer' or 'followUp') to queue the message.";

export class RpcServer {
	readonly ui: RpcExtensionUI;
	private readonly inflight = new Set<Promise<void>>();
	/** Acceptances of started prompts, written before the next session event. */
	private readonly pendingAcks = new Set<() => void>();
	private readonly unsubscribe: () => void;

	constructor(
		private readonly session: AgentSession,
		private readonly writer: JsonlWriter,
		private readonly options: Pick<RpcModeOptions, "stderr" | "getCommands" | "submit"> = {},
	) {
		this.ui = new RpcExtensionUI((request) => this.writer.write(request));
		// Returning the drain promise holds the session's next event back: back-pressure.
		this.unsubscribe = session.subscribe((event) => {
			// A prompt whose run is under way is "started" before its first event is written.
			if (session.isStreaming) this.flushAcks();
			return this.writer.write(toJsonEvent(event));
		});
	}

	/** Handles one stdin record. Never throws; every problem becomes an error response. */
	handleLine(line: string): void {
		const record = parseRecord(line);
		if (!record) return;
		if (record.kind === "error") {
			this.write({
				...(record.id !== undefined ? { id: record.id } : {}),
				type: "response",
				command: record.command,
				success: false,
				error: record.error,
			});
			return;
		}
		if (record.kind === "ui_response") {
			if (!this.ui.handleResponse(record.response)) {
				this.log(`Ignoring extension_ui_response for unknown or settled request ${record.response.id}`);
			}
			return;
		}
		this.dispatch(record.command);
	}

	/** Waits for every command in flight (including a running prompt) to finish. */
	async drain(): Promise<void> {
		while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
	}

	/** Stops: dismisses open dialogs, waits for work in flight, stops forwarding events. */
	async close(): Promise<void> {
		this.ui.close();
		await this.drain();
		this.flushAcks();
		this.unsubscribe();
		await this.writer.whenDrained();
	}

	/** Synchronous handlers answer at once, so their responses keep the order of the commands. */
	private dispatch(command: RpcCommand): void {
		if (command.type === "prompt") {
			this.track(this.prompt(command).catch((error: unknown) => this.fail(command, error)));
			return;
		}
		const ctx: CommandContext = {
			session: this.session,
			id: command.id,
			emit: (record) => void this.writer.write(record),
			getCommands: this.options.getCommands ?? (() => []),
		};
		const handler = handlers[command.type] as (c: RpcCommand, ctx: CommandContext) => unknown;
		let result: unknown;
		try {
			result = handler(command, ctx);
		} catch (error) {
			this.fail(command, error);
			return;
		}
		if (result instanceof Promise) {
			this.track(
				result.then(
					(data) => this.respond(command, data),
					(error: unknown) => this.fail(command, error),
				),
			);
		} else this.respond(command, result);
	}

	private async prompt(command: Extract<RpcCommand, { type: "prompt" }>): Promise<void> {
		const session = this.session;
		const images = command.images;
		if (session.isStreaming) {
			if (!command.streamingBehavior) throw new Error(BUSY_ERROR);
			await this.submit(command.message, { images, streamingBehavior: command.streamingBehavior });
			this.respond(command, { disposition: "queued" });
			return;
		}
		let answered = false;
		const ack = (disposition: "started" | "handled" = "started") => {
			if (answered) return;
			answered = true;
			this.pendingAcks.delete(ack);
			this.respond(command, { disposition });
		};
		this.pendingAcks.add(ack);
		const run = this.submit(command.message, { images });
		// A prompt refused up front (no model, no key, busy) rejects before this fires. A prompt
		// still in an extension command (or `input` handler) is not running yet: it is answered
		// when a run starts (its first event), or "handled" when it ends without one (as 1.6.0).
		setImmediate(() => {
			if (this.session.isStreaming) ack();
		});
		try {
			await run;
			// No event was written while it ran: nothing started (a run would have answered "started").
			ack("handled");
		} catch (error) {
			if (!answered) {
				answered = true;
				this.pendingAcks.delete(ack);
				this.fail(command, error);
			} else {
				// Accepted already: the failure is in the event stream; say it on stderr too.
				this.log(`prompt failed: ${error instanceof Error ? error.message : String(error)}`);
			}
		}
	}

	private submit(message: string, options: { images?: ImageContent[]; streamingBehavior?: "steer" | "followUp" }) {
		return this.options.submit
			? this.options.submit(message, options)
			: this.session.prompt(message, { ...options, source: "rpc" });
	}

	/** Writes one record on the protocol stream (extension errors). */
	emitRecord(record: object): void {
		this.write(record as RpcResponse);
	}

	private flushAcks(): void {
		for (const ack of [...this.pendingAcks]) ack();
	}

	private respond(command: RpcCommand, data: unknown): void {
		const response: Record<string, unknown> = command.id !== undefined ? { id: command.id } : {};
		Object.assign(response, { type: "response", command: command.type, success: true });
		if (data !== undefined) response.data = data;
		this.write(response as RpcResponse);
	}

	private fail(command: RpcCommand, error: unknown): void {
		this.write({
			...(command.id !== undefined ? { id: command.id } : {}),
			type: "response",
			command: command.type,
			success: false,
			error: redact(error instanceof Error ? error.message : String(error)),
		});
	}

	private write(record: RpcOutputRecord): void {
		// Responses are never held back: only the event stream waits for drain.
		void this.writer.write(record);
	}

	private track(work: Promise<void>): void {
		this.inflight.add(work);
		void work.finally(() => this.inflight.delete(work));
	}

	private log(text: string): void {
		(this.options.stderr ?? process.stderr).write(`${text}\n`);
	}
}

/**
 * Serves RPC on stdin/stdout until stdin ends (or `signal` aborts, or stdout
 * closes); returns the exit code. The session is not disposed here.
 */
export async function runRpcMode(session: AgentSession, options: RpcModeOptions = {}): Promise<number> {
	const guard = options.output ? undefined : guardStdout();
	const writer = new JsonlWriter(options.output ?? guard?.sink ?? process.stdout);
	const server = new RpcServer(session, writer, options);
	// Damaged lines found while opening the session: a client has no other way to learn of them.
	for (const warning of session.sessionManager.getLoadWarnings()) {
		server.emitRecord({ type: "session_load_warning", ...warning });
	}
	options.onExtensionUI?.(server.ui);
	await options.beforeServe?.({ ui: server.ui, emit: (record) => server.emitRecord(record) });
	const input = options.input ?? process.stdin;
	try {
		await new Promise<void>((resolve) => {
			let finished = false;
			const finish = () => {
				if (finished) return;
				finished = true;
				stopReading();
				input.off("error", finish);
				options.signal?.removeEventListener("abort", abortAndFinish);
				resolve();
			};
			function abortAndFinish() {
				stopReading();
				server.ui.close();
				session.abortBash();
				void session.abort().finally(finish);
			}
			const stopReading = attachJsonlLineReader(input, (line) => server.handleLine(line), finish);
			input.on("error", finish);
			writer.onClose(abortAndFinish);
			if (options.signal?.aborted) abortAndFinish();
			else options.signal?.addEventListener("abort", abortAndFinish, { once: true });
		});
		await server.close();
		return 0;
	} finally {
		guard?.restore();
	}
}
