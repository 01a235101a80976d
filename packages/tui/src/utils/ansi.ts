/**
 * ANSI escape sequence scanning and SGR / OSC 8 state tracking.
 *
 * Width math, slicing and wrapping all walk a line once, skipping escape
 * sequences and remembering the style that is active, so that a cut line can
 * re-open the style on its next piece and close it cleanly at its end.
 */

const ESC = 0x1b;
const BEL = 0x07;

/**
 * Length of the escape sequence starting at `pos`, or 0 when `str[pos]` does
 * not start one. Handles CSI, OSC (BEL or ST terminated), APC/DCS/PM/SOS
 * (string sequences) and two-byte escapes. An unterminated string sequence
 * runs to the end of the input.
 */
export function escapeLength(str: string, pos: number): number {
	if (str.charCodeAt(pos) !== ESC) return 0;
	const next = str.charCodeAt(pos + 1);
	if (Number.isNaN(next)) return 1;
	if (next === 0x5b /* [ */) {
		let i = pos + 2;
		while (i < str.length) {
			const c = str.charCodeAt(i);
			if (c >= 0x40 && c <= 0x7e) return i - pos + 1;
			if (c < 0x20 || c > 0x3f) {
				// Not a parameter or intermediate byte: a malformed CSI ends here.
				if (!(c >= 0x20 && c <= 0x2f)) return i - pos;
			}
			i++;
		}
		return str.length - pos;
	}
	if (next === 0x5d /* ] */ || next === 0x5f /* _ */ || next === 0x50 /* P */ || next === 0x5e || next === 0x58) {
		let i = pos + 2;
		while (i < str.length) {
			const c = str.charCodeAt(i);
			if (c === BEL) return i - pos + 1;
			if (c === ESC && str.charCodeAt(i + 1) === 0x5c /* \ */) return i - pos + 2;
			i++;
		}
		return str.length - pos;
	}
	return 2;
}

const ANSI_GLOBAL = /\x1b(?:\[[0-?]*[ -/]*[@-~]|[\]_P^X][\s\S]*?(?:\x07|\x1b\\|$)|[\s\S]?)/g;

/** Remove every escape sequence from a string. */
export function stripAnsi(str: string): string {
	if (str.indexOf("\x1b") === -1) return str;
	return str.replace(ANSI_GLOBAL, "");
}

/** True when the escape sequence is an SGR (`CSI … m`). */
export function isSgr(seq: string): boolean {
	return seq.length >= 3 && seq.charCodeAt(1) === 0x5b && seq.charCodeAt(seq.length - 1) === 0x6d;
}

/** True when the escape sequence is an OSC 8 hyperlink open or close. */
export function isOsc8(seq: string): boolean {
	return seq.startsWith("\x1b]8;");
}

/** `ESC ] 8 ; ; ST` — closes an open hyperlink. */
export const OSC8_CLOSE = "\x1b]8;;\x1b\\";
/** Full SGR reset. */
export const SGR_RESET = "\x1b[0m";

/**
 * The SGR attributes and hyperlink active at some point of a line.
 * Attributes are kept as their parameter strings so that 256-colour and
 * true-colour values round-trip unchanged.
 */
export class AnsiState {
	bold = false;
	dim = false;
	italic = false;
	underline: string | null = null;
	blink = false;
	inverse = false;
	hidden = false;
	strike = false;
	overline = false;
	fg: string | null = null;
	bg: string | null = null;
	underlineColor: string | null = null;
	/** The OSC 8 sequence that opened the active link, or null. */
	link: string | null = null;

	clone(): AnsiState {
		const s = new AnsiState();
		s.copyFrom(this);
		return s;
	}

	copyFrom(o: AnsiState): void {
		this.bold = o.bold;
		this.dim = o.dim;
		this.italic = o.italic;
		this.underline = o.underline;
		this.blink = o.blink;
		this.inverse = o.inverse;
		this.hidden = o.hidden;
		this.strike = o.strike;
		this.overline = o.overline;
		this.fg = o.fg;
		this.bg = o.bg;
		this.underlineColor = o.underlineColor;
		this.link = o.link;
	}

	reset(): void {
		this.bold = this.dim = this.italic = this.blink = this.inverse = this.hidden = this.strike = this.overline = false;
		this.underline = this.fg = this.bg = this.underlineColor = null;
	}

	/** True when no attribute is set (a hyperlink does not count). */
	isPlain(): boolean {
		return (
			!this.bold &&
			!this.dim &&
			!this.italic &&
			this.underline === null &&
			!this.blink &&
			!this.inverse &&
			!this.hidden &&
			!this.strike &&
			!this.overline &&
			this.fg === null &&
			this.bg === null &&
			this.underlineColor === null
		);
	}

	/** Apply one escape sequence; anything other than SGR / OSC 8 is ignored. */
	apply(seq: string): void {
		if (isSgr(seq)) this.applySgr(seq.slice(2, -1));
		else if (isOsc8(seq)) {
			// ESC ] 8 ; params ; uri ST — an empty uri closes the link.
			const body = seq.replace(/(\x07|\x1b\\)$/, "");
			const uriStart = body.indexOf(";", 4);
			const uri = uriStart === -1 ? "" : body.slice(uriStart + 1);
			this.link = uri === "" ? null : seq;
		}
	}

	private applySgr(params: string): void {
		if (params === "") {
			this.reset();
			return;
		}
		const parts = params.split(";");
		for (let i = 0; i < parts.length; i++) {
			const p = parts[i];
			const colon = p.indexOf(":");
			const code = Number.parseInt(colon === -1 ? p : p.slice(0, colon), 10) || 0;
			switch (code) {
				case 0:
					this.reset();
					break;
				case 1:
					this.bold = true;
					break;
				case 2:
					this.dim = true;
					break;
				case 3:
					this.italic = true;
					break;
				case 4:
					this.underline = p === "4:0" ? null : p;
					break;
				case 5:
				case 6:
					this.blink = true;
					break;
				case 7:
					this.inverse = true;
					break;
				case 8:
					this.hidden = true;
					break;
				case 9:
					this.strike = true;
					break;
				case 21:
					this.underline = "21";
					break;
				case 22:
					this.bold = this.dim = false;
					break;
				case 23:
					this.italic = false;
					break;
				case 24:
					this.underline = null;
					break;
				case 25:
					this.blink = false;
					break;
				case 27:
					this.inverse = false;
					break;
				case 28:
					this.hidden = false;
					break;
				case 29:
					this.strike = false;
					break;
				case 39:
					this.fg = null;
					break;
				case 49:
					this.bg = null;
					break;
				case 53:
					this.overline = true;
					break;
				case 55:
					this.overline = false;
					break;
				case 59:
					this.underlineColor = null;
					break;
				case 38:
				case 48:
				case 58: {
					let value: string;
					if (colon !== -1) value = p;
					else if (parts[i + 1] === "5") {
						value = `${code};5;${parts[i + 2] ?? 0}`;
						i += 2;
					} else if (parts[i + 1] === "2") {
						value = `${code};2;${parts[i + 2] ?? 0};${parts[i + 3] ?? 0};${parts[i + 4] ?? 0}`;
						i += 4;
					} else break;
					if (code === 38) this.fg = value;
					else if (code === 48) this.bg = value;
					else this.underlineColor = value;
					break;
				}
				default:
					if ((code >= 30 && code <= 37) || (code >= 90 && code <= 97)) this.fg = String(code);
					else if ((code >= 40 && code <= 47) || (code >= 100 && code <= 107)) this.bg = String(code);
			}
		}
	}

	/** Sequence that re-creates this state from a plain terminal. */
	open(): string {
		let out = "";
		if (!this.isPlain()) {
			const codes: string[] = [];
			if (this.bold) codes.push("1");
			if (this.dim) codes.push("2");
			if (this.italic) codes.push("3");
			if (this.underline !== null) codes.push(this.underline);
			if (this.blink) codes.push("5");
			if (this.inverse) codes.push("7");
			if (this.hidden) codes.push("8");
			if (this.strike) codes.push("9");
			if (this.overline) codes.push("53");
			if (this.fg !== null) codes.push(this.fg);
			if (this.bg !== null) codes.push(this.bg);
			if (this.underlineColor !== null) codes.push(this.underlineColor);
			out = `\x1b[${codes.join(";")}m`;
		}
		if (this.link !== null) out += this.link;
		return out;
	}

	/**
	 * Sequence that switches off exactly the active attributes, so a style the
	 * caller wraps around the whole line (e.g. a background) survives.
	 */
	close(): string {
		let out = "";
		if (!this.isPlain()) {
			const codes: string[] = [];
			if (this.bold || this.dim) codes.push("22");
			if (this.italic) codes.push("23");
			if (this.underline !== null) codes.push("24");
			if (this.blink) codes.push("25");
			if (this.inverse) codes.push("27");
			if (this.hidden) codes.push("28");
			if (this.strike) codes.push("29");
			if (this.overline) codes.push("55");
			if (this.fg !== null) codes.push("39");
			if (this.bg !== null) codes.push("49");
			if (this.underlineColor !== null) codes.push("59");
			out = `\x1b[${codes.join(";")}m`;
		}
		if (this.link !== null) out += OSC8_CLOSE;
		return out;
	}
}
