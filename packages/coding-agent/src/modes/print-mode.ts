// Print mode (`-p`): run the prompts, then write the final assistant text to
// stdout. JSON mode (`--mode json`): the session header, then every session
// event as one JSON line. Both exit non-zero, with the error on stderr, when
// the last run ends in an error or is aborted. JSON lines use the same wire
// form as rpc mode (docs/json.md).
import type { ImageContent } from "@pi/ai";
import type { AgentSession } from "../agent-session/agent-session.js";
import { toJsonEvent } from "./rpc/wire-event.js";

export interface PrintModeOptions {
	format: "text" | "json";
	initial?: { text: string; images: ImageContent[] };
	rest: string[];
	stdout?: NodeJS.WritableStream;
	stderr?: NodeJS.WritableStream;
	/**
	 * How a prompt is submitted; default `session.prompt`. With extensions this
	 * is the bridge's input path (extension commands, the `input` event), so
	 * `pi -p "/cmd" "next prompt"` runs the command, then the prompt.
	 */
	submit?: (text: string, images?: ImageContent[]) => Promise<void>;
}

/** Returns the process exit code. */
export async function runPrintMode(session: AgentSession, options: PrintModeOptions): Promise<number> {
	const stdout = guardedOutput(options.stdout ?? process.stdout);
	const stderr = guardedOutput(options.stderr ?? process.stderr);
	let unsubscribe: (() => void) | undefined;
	if (options.format === "json") {
		stdout.write(`${JSON.stringify(session.sessionManager.getHeader())}\n`);
		// Damaged lines found while opening the session (also on stderr), for readers of stdout only.
		for (const warning of session.sessionManager.getLoadWarnings()) {
			stdout.write(`${JSON.stringify({ type: "session_load_warning", ...warning })}\n`);
		}
		// Delta-only `message_update` lines (the wire form rpc writes too): a
		// snapshot per update would make output quadratic in the answer's length.
		unsubscribe = session.subscribe((event) => {
			stdout.write(`${JSON.stringify(toJsonEvent(event))}\n`);
		});
	}
	try {
		const submit = options.submit ?? ((text: string, images?: ImageContent[]) => session.prompt(text, { images }));
		if (options.initial) await submit(options.initial.text, options.initial.images);
		for (const message of options.rest) await submit(message);
	} catch (error) {
		stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
		return 1;
	} finally {
		unsubscribe?.();
	}

	const last = session.messages.at(-1);
	if (last?.role === "assistant") {
		if (last.stopReason === "error" || last.stopReason === "aborted") {
			// Recovery's own verdict (overflow recovery failed, retry delay over the cap) explains more than the raw error.
			stderr.write(`${session.recovery.settledError || last.errorMessage || `Request ${last.stopReason}`}\n`);
			return 1;
		}
		if (options.format === "text") {
			for (const block of last.content) if (block.type === "text") stdout.write(`${block.text}\n`);
			// 1.x: a cut-off answer is printed, but the caller must not take it for a complete one.
			if (last.stopReason === "length") {
				stderr.write("Response was truncated: the model reached its output token limit.\n");
				return 1;
			}
		}
	}
	return 0;
}

/**
 * A reader that goes away (`pi --mode json … | head -1`) makes the next write
 * fail with EPIPE, emitted as an `error` event that would end the process in
 * the middle of the run, before the answer reaches the session file. The run
 * goes on without output instead: the session stays whole, and the exit code
 * is the run's own.
 */
function guardedOutput(stream: NodeJS.WritableStream): { write(text: string): void } {
	let gone = false;
	stream.on("error", () => {
		gone = true;
	});
	return {
		write(text: string) {
			if (gone) return;
			try {
				stream.write(text);
			} catch {
				gone = true;
			}
		},
	};
}
