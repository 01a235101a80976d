/**
 * A Terminal backed by the @xterm/headless emulator: the TUI's real bytes go
 * in, and tests read back the screen and scrollback as the user would see them.
 */
import xterm from "@xterm/headless";
import { eastAsianWidth } from "get-east-asian-width";
import { StdinBuffer } from "../../src/stdin-buffer.js";
import { AnsiTerminal, type Terminal } from "../../src/terminal.js";

const { Terminal: XTerm } = xterm;

type XTermInstance = InstanceType<typeof XTerm>;

/**
 * Unicode widths as current terminals apply them (xterm's built-in table is
 * Unicode 6, where emoji are one column). Joining follows grapheme rules for
 * combining marks, ZWJ sequences, variation selectors, skin tones and flags.
 * Value layout is xterm's: (state << 3) | (width << 1) | shouldJoin.
 */
const ZW = /^[\p{Mn}\p{Me}\p{Cf}]$/u;
const PICTO = /^\p{Extended_Pictographic}$/u;
function modernProvider() {
	const prop = (state: number, width: number, join: boolean) => (state << 3) | (width << 1) | (join ? 1 : 0);
	const STATE_ZWJ = 1;
	const STATE_RI = 2;
	const STATE_PICTO = 3;
	return {
		version: "modern",
		wcwidth(cp: number): 0 | 1 | 2 {
			const ch = String.fromCodePoint(cp);
			if (ZW.test(ch) || (cp >= 0xfe00 && cp <= 0xfe0f)) return 0;
			return eastAsianWidth(cp) as 1 | 2;
		},
		charProperties(cp: number, preceding: number): number {
			const prevState = preceding >> 3;
			const prevWidth = (preceding >> 1) & 3;
			const ch = String.fromCodePoint(cp);
			if (cp === 0x200d) return prop(STATE_ZWJ, prevWidth, true);
			if (prevState === STATE_ZWJ && PICTO.test(ch)) return prop(STATE_PICTO, 2, true);
			if (cp === 0xfe0f) return prop(STATE_PICTO, prevState === STATE_PICTO ? 2 : prevWidth, true);
			if (cp >= 0x1f3fb && cp <= 0x1f3ff && prevState === STATE_PICTO) return prop(STATE_PICTO, 2, true);
			if (cp === 0x20e3) return prop(0, 2, true);
			if (ZW.test(ch) || (cp >= 0xfe00 && cp <= 0xfe0e)) return prop(prevState, prevWidth, true);
			if (cp >= 0x1f1e6 && cp <= 0x1f1ff) {
				if (prevState === STATE_RI) return prop(0, 2, true);
				return prop(STATE_RI, 1, false);
			}
			const w = eastAsianWidth(cp);
			return prop(PICTO.test(ch) ? STATE_PICTO : 0, w, false);
		},
	};
}

export class VirtualTerminal extends AnsiTerminal implements Terminal {
	readonly xterm: XTermInstance;
	private onInput: ((data: string) => void) | undefined;
	private onResize: (() => void) | undefined;
	private readonly buffer = new StdinBuffer({ timeout: 5 });
	private pending: Promise<void> = Promise.resolve();
	/** Every chunk written, for byte counting. */
	readonly writes: string[] = [];

	constructor(columns = 40, rows = 10, scrollback = 1000) {
		super();
		this.xterm = new XTerm({ cols: columns, rows, scrollback, allowProposedApi: true });
		this.xterm.unicode.register(modernProvider());
		this.xterm.unicode.activeVersion = "modern";
		this.buffer.on("data", (d) => this.onInput?.(d));
		this.buffer.on("paste", (p) => this.onInput?.(`\x1b[200~${p}\x1b[201~`));
	}

	get columns(): number {
		return this.xterm.cols;
	}
	get rows(): number {
		return this.xterm.rows;
	}

	start(onInput: (data: string) => void, onResize: () => void): void {
		this.onInput = onInput;
		this.onResize = onResize;
	}
	stop(): void {
		this.onInput = undefined;
		this.onResize = undefined;
	}

	write(data: string): void {
		this.writes.push(data);
		this.pending = this.pending.then(() => new Promise<void>((r) => this.xterm.write(data, r)));
	}

	/** Wait until xterm has parsed everything written so far. */
	flush(): Promise<void> {
		return this.pending;
	}

	/** Raw bytes as a terminal would send them (split into keys by StdinBuffer). */
	typeRaw(data: string): void {
		this.buffer.process(data);
	}

	resize(columns: number, rows: number): void {
		this.xterm.resize(columns, rows);
		this.onResize?.();
	}

	/** The visible screen, right-trimmed. */
	async screen(): Promise<string[]> {
		await this.flush();
		const buf = this.xterm.buffer.active;
		const out: string[] = [];
		for (let y = 0; y < this.xterm.rows; y++) out.push(buf.getLine(buf.viewportY + y)?.translateToString(true) ?? "");
		return out;
	}

	/** Scrollback plus screen, right-trimmed, without trailing empty rows. */
	async allLines(): Promise<string[]> {
		await this.flush();
		const buf = this.xterm.buffer.active;
		const out: string[] = [];
		for (let y = 0; y < buf.length; y++) out.push(buf.getLine(y)?.translateToString(true) ?? "");
		while (out.length > 0 && out[out.length - 1] === "") out.pop();
		return out;
	}

	/** Cursor position on the screen. */
	async cursor(): Promise<{ x: number; y: number }> {
		await this.flush();
		return { x: this.xterm.buffer.active.cursorX, y: this.xterm.buffer.active.cursorY };
	}

	/** Whether any row of the buffer wrapped (a line wider than the terminal). */
	async anyWrapped(): Promise<boolean> {
		await this.flush();
		const buf = this.xterm.buffer.active;
		for (let y = 0; y < buf.length; y++) if (buf.getLine(y)?.isWrapped) return true;
		return false;
	}

	takeWrites(): string {
		const s = this.writes.join("");
		this.writes.length = 0;
		return s;
	}
}
