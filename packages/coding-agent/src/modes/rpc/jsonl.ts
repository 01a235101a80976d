// Strict JSONL framing for RPC: one JSON value per record, LF the only
// separator. Node's readline is not used on purpose: it also splits on
// U+2028/U+2029 (and lone CR), which are valid inside JSON strings.
import { StringDecoder } from "node:string_decoder";

/**
 * One record: the JSON text plus LF. JSON.stringify escapes lone surrogates
 * (`\udXXX`) and never emits a raw LF, so every string round-trips.
 */
export function serializeJsonLine(value: unknown): string {
	return `${JSON.stringify(value)}\n`;
}

/** Splits a UTF-8 byte stream into records at LF; one trailing CR is stripped (CRLF input). */
export class JsonlSplitter {
	private readonly decoder = new StringDecoder("utf8");
	private buffer = "";

	constructor(private readonly onLine: (line: string) => void) {}

	push(chunk: Buffer | string): void {
		this.buffer += typeof chunk === "string" ? chunk : this.decoder.write(chunk);
		let start = 0;
		let newline = this.buffer.indexOf("\n", start);
		while (newline !== -1) {
			this.emit(this.buffer.slice(start, newline));
			start = newline + 1;
			newline = this.buffer.indexOf("\n", start);
		}
		this.buffer = start === 0 ? this.buffer : this.buffer.slice(start);
	}

	/** End of input: a last record without LF still counts. */
	end(): void {
		this.buffer += this.decoder.end();
		if (this.buffer.length > 0) this.emit(this.buffer);
		this.buffer = "";
	}

	private emit(line: string): void {
		this.onLine(line.endsWith("\r") ? line.slice(0, -1) : line);
	}
}

/** Reads records from a stream until it ends; returns a function that stops reading. */
export function attachJsonlLineReader(
	stream: NodeJS.ReadableStream,
	onLine: (line: string) => void,
	onEnd?: () => void,
): () => void {
	const splitter = new JsonlSplitter(onLine);
	const onData = (chunk: Buffer | string) => splitter.push(chunk);
	const finish = () => {
		detach();
		splitter.end();
		onEnd?.();
	};
	const detach = () => {
		stream.off("data", onData);
		stream.off("end", finish);
		stream.off("close", finish);
	};
	stream.on("data", onData);
	stream.on("end", finish);
	stream.on("close", finish);
	return detach;
}
