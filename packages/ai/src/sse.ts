/**
 * A Server-Sent Events parser (WHATWG event-stream rules) for response bodies
 * read in arbitrary byte pieces: UTF-8 sequences and CR/LF pairs may be split
 * anywhere. Used by adapters that read the raw body for speed; the parser
 * searches each character once with `indexOf` (also across pieces of one very
 * long line), no per-byte work in JavaScript.
 */
import { StringDecoder } from "node:string_decoder";

export interface SseEvent {
	/** The `event:` field, "" when absent (the spec's default type "message"). */
	event: string;
	/** `data:` lines joined with "\n". */
	data: string;
	id?: string;
}

export class SseParser {
	private readonly decoder = new Utf8Stream();
	/**
	 * Pieces of the unfinished last line. None holds a CR or LF, so a new piece
	 * is searched alone and the pieces are joined once, when the line ends:
	 * each character is scanned a constant number of times however long the line.
	 */
	private pending: string[] = [];
	private pendingLength = 0;
	private dataLines: string[] = [];
	private event = "";
	private id: string | undefined;
	private hasData = false;
	/** The previous piece ended in "\r": a leading "\n" now belongs to that line break. */
	private skipLeadingLF = false;
	/** Next ":" at or after the current line's start in the buffer being parsed; -1 when none is left. */
	private colon = -1;

	/** Feeds raw bytes; returns the events completed by them. */
	pushBytes(bytes: Uint8Array): SseEvent[] {
		return this.pushText(this.decoder.decode(bytes));
	}

	/** Feeds decoded text; returns the events completed by it. */
	pushText(text: string): SseEvent[] {
		const out: SseEvent[] = [];
		let chunk = text;
		if (this.skipLeadingLF && chunk !== "") {
			this.skipLeadingLF = false;
			if (chunk.startsWith("\n")) chunk = chunk.slice(1);
		}
		if (chunk === "") return out;
		let cr = chunk.indexOf("\r");
		let lf = chunk.indexOf("\n");
		if (cr < 0 && lf < 0) {
			this.pending.push(chunk);
			this.pendingLength += chunk.length;
			return out;
		}
		const offset = this.pendingLength;
		const buffer = offset === 0 ? chunk : this.pending.join("") + chunk;
		if (cr >= 0) cr += offset;
		if (lf >= 0) lf += offset;
		this.pending = [];
		this.pendingLength = 0;
		this.colon = -2; // not searched yet in this buffer
		let start = 0;
		const length = buffer.length;
		// cr/lf always hold the next CR/LF at or after `start` (or -1): each is searched forward only.
		while (start < length) {
			if (cr >= 0 && cr < start) cr = buffer.indexOf("\r", start);
			if (lf >= 0 && lf < start) lf = buffer.indexOf("\n", start);
			let end: number;
			let next: number;
			if (cr >= 0 && (lf < 0 || cr < lf)) {
				end = cr;
				if (cr + 1 < length) next = buffer.charCodeAt(cr + 1) === 10 /* LF */ ? cr + 2 : cr + 1;
				else {
					next = cr + 1;
					this.skipLeadingLF = true;
				}
			} else if (lf >= 0) {
				end = lf;
				next = lf + 1;
			} else break;
			this.line(buffer, start, end, out);
			start = next;
		}
		if (start < length) {
			const rest = buffer.slice(start);
			this.pending.push(rest);
			this.pendingLength = rest.length;
		}
		return out;
	}

	/** The body ended: an event without its closing blank line is dropped, per the spec. */
	end(): SseEvent[] {
		const tail = this.decoder.end();
		const out = tail === "" ? [] : this.pushText(tail);
		this.pending = [];
		this.pendingLength = 0;
		this.reset();
		return out;
	}

	private line(buffer: string, start: number, end: number, out: SseEvent[]): void {
		if (start === end) {
			if (this.hasData) {
				const event: SseEvent = { event: this.event, data: this.dataLines.join("\n") };
				if (this.id !== undefined) event.id = this.id;
				out.push(event);
			}
			this.reset();
			return;
		}
		if (buffer.charCodeAt(start) === 58 /* ":" comment */) return;
		// Searched forward only, like CR/LF: lines without a colon must not rescan the rest each time.
		if (this.colon !== -1 && this.colon < start) this.colon = buffer.indexOf(":", start);
		const colon = this.colon;
		let field: string;
		let value: string;
		if (colon < 0 || colon > end) {
			field = buffer.slice(start, end);
			value = "";
		} else {
			field = buffer.slice(start, colon);
			const valueStart = buffer.charCodeAt(colon + 1) === 32 /* space */ ? colon + 2 : colon + 1;
			value = valueStart >= end ? "" : buffer.slice(valueStart, end);
		}
		if (field === "data") {
			this.dataLines.push(value);
			this.hasData = true;
		} else if (field === "event") this.event = value;
		else if (field === "id") this.id = value;
		// "retry" and unknown fields are ignored.
	}

	private reset(): void {
		this.dataLines = [];
		this.hasData = false;
		this.event = "";
	}
}

/**
 * UTF-8 bytes to text across pieces, as `new TextDecoder("utf-8").decode(bytes, { stream: true })`
 * (a leading BOM dropped, malformed bytes as U+FFFD, a sequence split between pieces decoded whole)
 * without its cost: Node decodes a streaming TextDecoder through an ICU converter it opens per
 * decoder (one per response here); node:string_decoder keeps the cut-off bytes of a character
 * for the next piece with Node's own UTF-8 decoder.
 */
export class Utf8Stream {
	private decoder = new StringDecoder("utf8");
	private started = false;

	decode(bytes: Uint8Array): string {
		return this.text(this.decoder.write(bytes));
	}

	/** The stream ended: bytes of an unfinished character become U+FFFD. */
	end(): string {
		const text = this.text(this.decoder.end());
		this.decoder = new StringDecoder("utf8");
		this.started = false;
		return text;
	}

	private text(text: string): string {
		if (this.started || text === "") return text;
		this.started = true;
		return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
	}
}

/** Iterates the events of a byte stream (e.g. a fetch `Response.body`). */
export async function* iterateSse(body: AsyncIterable<Uint8Array>): AsyncGenerator<SseEvent> {
	const parser = new SseParser();
	for await (const bytes of body) {
		for (const event of parser.pushBytes(bytes)) yield event;
	}
	for (const event of parser.end()) yield event;
}
