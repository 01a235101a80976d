/**
 * Splits raw stdin reads into whole key sequences.
 *
 * A read may hold several keys ("ab\r"), or only part of an escape sequence
 * (the terminal or an SSH link split "\x1b[1;5C" across reads). Complete
 * sequences are emitted as `data` events one at a time; an incomplete tail is
 * held until the rest arrives or a short timeout passes (which is how a lone
 * Escape press is told from the start of a sequence). Bracketed pastes
 * (`ESC[200~ … ESC[201~`) are collected whole and emitted as `paste`.
 */
import { EventEmitter } from "node:events";
import { StringDecoder } from "node:string_decoder";
import { graphemes } from "./utils/width.js";

export interface StdinBufferOptions {
	/** How long to wait for the rest of an escape sequence (ms, default 10). */
	timeout?: number;
}

export type StdinBufferEventMap = {
	data: [string];
	paste: [string];
};

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";

/**
 * Length of the complete sequence at the start of `s`, or -1 when more input
 * is needed to know. `s` starts with ESC.
 */
function escapeSequenceLength(s: string): number {
	if (s.length === 1) return -1;
	const c = s[1];
	if (c === "[") {
		if (s.length === 2) return -1;
		// X10 mouse: ESC [ M followed by three raw bytes.
		if (s[2] === "M" && s.length >= 3) return s.length >= 6 ? 6 : -1;
		for (let i = 2; i < s.length; i++) {
			const code = s.charCodeAt(i);
			if (code >= 0x40 && code <= 0x7e) return i + 1;
			if (code < 0x20 || code > 0x3f) {
				if (code >= 0x20 && code <= 0x2f) continue;
				return i; // malformed: end before the stray byte
			}
		}
		return -1;
	}
	if (c === "O") {
		for (let i = 2; i < s.length; i++) {
			const code = s.charCodeAt(i);
			if ((code >= 0x30 && code <= 0x39) || code === 0x3b) continue;
			return i + 1;
		}
		return -1;
	}
	if (c === "]" || c === "P" || c === "_" || c === "^" || c === "X") {
		for (let i = 2; i < s.length; i++) {
			if (s[i] === "\x07") return i + 1;
			if (s[i] === "\x1b" && i + 1 < s.length) {
				if (s[i + 1] === "\\") return i + 2;
			} else if (s[i] === "\x1b") return -1;
		}
		return -1;
	}
	if (c === "\x1b") {
		// ESC ESC [ … is Alt plus a sequence; a doubled lone ESC is two Escape presses.
		if (s.length === 2) return 1;
		if (s[2] === "[" || s[2] === "O") {
			const inner = escapeSequenceLength(s.slice(1));
			return inner === -1 ? -1 : inner + 1;
		}
		return 1;
	}
	// ESC + one character: the legacy Alt prefix.
	const cp = s.codePointAt(1) ?? 0;
	return cp > 0xffff ? 3 : 2;
}

export class StdinBuffer extends EventEmitter<StdinBufferEventMap> {
	private buffer = "";
	private timer: NodeJS.Timeout | undefined;
	private readonly timeoutMs: number;
	private pasteMode = false;
	private pasteBuffer = "";
	private readonly decoder = new StringDecoder("utf8");

	constructor(options: StdinBufferOptions = {}) {
		super();
		this.timeoutMs = options.timeout ?? 10;
	}

	/** Feed one read from stdin. */
	process(data: string | Buffer): void {
		const text = typeof data === "string" ? data : this.decoder.write(data);
		if (this.timer) {
			clearTimeout(this.timer);
			this.timer = undefined;
		}
		this.buffer += text;
		this.drain();
		if (this.buffer.length > 0 && !this.pasteMode) {
			this.timer = setTimeout(() => {
				this.timer = undefined;
				for (const seq of this.flush()) this.emit("data", seq);
			}, this.timeoutMs);
		}
	}

	private drain(): void {
		while (this.buffer.length > 0) {
			if (this.pasteMode) {
				const end = this.buffer.indexOf(PASTE_END);
				if (end === -1) {
					// Keep a possible partial end marker in the buffer.
					const keep = partialSuffix(this.buffer, PASTE_END);
					this.pasteBuffer += this.buffer.slice(0, this.buffer.length - keep);
					this.buffer = this.buffer.slice(this.buffer.length - keep);
					return;
				}
				this.pasteBuffer += this.buffer.slice(0, end);
				this.buffer = this.buffer.slice(end + PASTE_END.length);
				this.pasteMode = false;
				const content = this.pasteBuffer;
				this.pasteBuffer = "";
				this.emit("paste", content);
				continue;
			}
			if (this.buffer.charCodeAt(0) === 0x1b) {
				if (this.buffer.startsWith(PASTE_START)) {
					this.buffer = this.buffer.slice(PASTE_START.length);
					this.pasteMode = true;
					continue;
				}
				if (PASTE_START.startsWith(this.buffer)) return; // maybe a split paste marker
				const len = escapeSequenceLength(this.buffer);
				if (len === -1) return;
				this.emit("data", this.buffer.slice(0, len));
				this.buffer = this.buffer.slice(len);
				continue;
			}
			// Plain text: emit one grapheme (or control character) at a time.
			let end = this.buffer.indexOf("\x1b");
			if (end === -1) end = this.buffer.length;
			const run = this.buffer.slice(0, end);
			this.buffer = this.buffer.slice(end);
			// One key per grapheme cluster (graphemes() leaves the segmenter, whose first use builds ICU's
			// tables, to text that needs it). CR is a cluster boundary on both sides except in CR LF, which is
			// two keys: split there first, so a plain Enter does not count as text that needs the segmenter.
			const lines = run.split("\r");
			for (let k = 0; k < lines.length; k++) {
				if (k > 0) this.emit("data", "\r");
				for (const g of graphemes(lines[k])) this.emit("data", g);
			}
		}
	}

	/** Give up waiting: return whatever is buffered as sequences and clear it. */
	flush(): string[] {
		if (this.timer) {
			clearTimeout(this.timer);
			this.timer = undefined;
		}
		if (this.buffer.length === 0) return [];
		const out: string[] = [];
		const rest = this.buffer;
		this.buffer = "";
		// An incomplete sequence is emitted as is; a lone ESC becomes Escape.
		if (rest.length > 1 && rest.charCodeAt(0) === 0x1b && rest.charCodeAt(1) === 0x1b) {
			out.push("\x1b");
			out.push(rest.slice(1));
		} else out.push(rest);
		return out;
	}

	/** Drop buffered input and any paste in progress. */
	clear(): void {
		if (this.timer) clearTimeout(this.timer);
		this.timer = undefined;
		this.buffer = "";
		this.pasteBuffer = "";
		this.pasteMode = false;
	}

	getBuffer(): string {
		return this.buffer;
	}

	destroy(): void {
		this.clear();
		this.removeAllListeners();
	}
}

/** Length of the longest suffix of `s` that is a proper prefix of `marker`. */
function partialSuffix(s: string, marker: string): number {
	for (let n = Math.min(marker.length - 1, s.length); n > 0; n--) {
		if (s.endsWith(marker.slice(0, n))) return n;
	}
	return 0;
}
