// While RPC mode runs, stdout carries protocol records only. Anything else
// that writes to process.stdout (console.log in a dependency or extension)
// is sent to stderr; the protocol writer keeps the original write function.
import type { JsonlSink } from "./jsonl-writer.js";

export interface StdoutGuard {
	/** Writes to the real stdout. */
	sink: JsonlSink;
	/** Puts process.stdout.write back. */
	restore(): void;
}

export function guardStdout(
	stdout: NodeJS.WriteStream = process.stdout,
	stderr: NodeJS.WriteStream = process.stderr,
): StdoutGuard {
	const original = stdout.write;
	const realWrite = original.bind(stdout) as (text: string) => boolean;
	const redirected = ((chunk: unknown, ...rest: unknown[]) =>
		(stderr.write as (...args: unknown[]) => boolean)(chunk, ...rest)) as typeof stdout.write;
	stdout.write = redirected;
	return {
		sink: {
			write: (text) => realWrite(text),
			on: (event, listener) => stdout.on(event, listener),
		},
		restore() {
			if (stdout.write === redirected) stdout.write = original;
		},
	};
}
