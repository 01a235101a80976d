/**
 * The terminal the TUI draws on: the real process TTY or an in-memory one.
 */
import { appendFileSync, writeSync } from "node:fs";
import { setKittyProtocolActive } from "./keys.js";
import { StdinBuffer } from "./stdin-buffer.js";

export interface Terminal {
	/**
	 * Begin receiving input chunks (one key or one paste each) and resize notices. `onLost` is
	 * called once when the terminal goes away (a closed window or dropped ssh: EIO/EPIPE on its
	 * input or output); nothing is drawn after that.
	 */
	start(onInput: (data: string) => void, onResize: () => void, onLost?: (error: Error) => void): void;
	stop(): void;
	/** Read and discard input for a while (stray key releases) before exiting. */
	drainInput?(maxMs?: number, idleMs?: number): Promise<void>;
	write(data: string): void;
	readonly columns: number;
	readonly rows: number;
	readonly kittyProtocolActive?: boolean;
	moveBy(lines: number): void;
	hideCursor(): void;
	showCursor(): void;
	clearLine(): void;
	clearFromCursor(): void;
	clearScreen(): void;
	setTitle?(title: string): void;
	setProgress?(active: boolean): void;
}

/** Shared escape sequences for the cursor-movement helpers. */
export const ansi = {
	moveBy(lines: number): string {
		if (lines > 0) return `\x1b[${lines}B`;
		if (lines < 0) return `\x1b[${-lines}A`;
		return "";
	},
	hideCursor: "\x1b[?25l",
	showCursor: "\x1b[?25h",
	clearLine: "\x1b[K",
	clearFromCursor: "\x1b[J",
	clearScreen: "\x1b[2J\x1b[H",
};

/**
 * The cursor and clearing helpers every terminal implements the same way:
 * each writes its escape sequence through the subclass's `write`.
 */
export abstract class AnsiTerminal {
	abstract write(data: string): void;

	moveBy(lines: number): void {
		this.write(ansi.moveBy(lines));
	}

	hideCursor(): void {
		this.write(ansi.hideCursor);
	}

	showCursor(): void {
		this.write(ansi.showCursor);
	}

	clearLine(): void {
		this.write(ansi.clearLine);
	}

	clearFromCursor(): void {
		this.write(ansi.clearFromCursor);
	}

	clearScreen(): void {
		this.write(ansi.clearScreen);
	}
}

const BRACKETED_PASTE_ON = "\x1b[?2004h";
const BRACKETED_PASTE_OFF = "\x1b[?2004l";
const KITTY_QUERY = "\x1b[?u";
/** Disambiguate keys, report event types, report alternate keys. */
const KITTY_PUSH = "\x1b[>7u";
const KITTY_POP = "\x1b[<u";
const MODIFY_OTHER_KEYS_ON = "\x1b[>4;2m";
const MODIFY_OTHER_KEYS_OFF = "\x1b[>4;0m";
const KITTY_REPLY = /^\x1b\[\?(\d+)u$/;

/** The failure of each process stream that failed (a terminal gone: EIO, EPIPE), kept for the process's life. */
const lostStreams = new WeakMap<object, Error>();
/** Who to tell when a stream fails (the started terminals drawing on it). */
const lossListeners = new Map<object, Set<(error: Error) => void>>();

/**
 * Listens for the failure of one of the process's terminal streams, once per stream and for
 * the process's life: a write made just before a stop fails after it (the error is emitted on a
 * later tick), and a stream's `error` with no listener ends the process ("Unhandled 'error'
 * event"). A failed stream is remembered, so later writes are skipped.
 */
function watchStream(stream: NodeJS.EventEmitter): void {
	if (lossListeners.has(stream)) return;
	lossListeners.set(stream, new Set());
	stream.on("error", (error: Error) => {
		if (lostStreams.has(stream)) return;
		lostStreams.set(stream, error);
		for (const listener of [...(lossListeners.get(stream) ?? [])]) listener(error);
	});
}

export interface ProcessTerminalOptions {
	stdin?: NodeJS.ReadStream;
	stdout?: NodeJS.WriteStream;
	/** Ms to wait for the Kitty keyboard protocol reply (default 150). */
	kittyQueryTimeoutMs?: number;
}

/** The process's own TTY: raw mode, bracketed paste, Kitty keyboard protocol. */
export class ProcessTerminal extends AnsiTerminal implements Terminal {
	private readonly stdin: NodeJS.ReadStream;
	private readonly stdout: NodeJS.WriteStream;
	private readonly kittyTimeoutMs: number;
	private wasRaw = false;
	private kittyActive = false;
	private modifyOtherKeys = false;
	private buffer: StdinBuffer | undefined;
	private dataHandler: ((chunk: Buffer | string) => void) | undefined;
	private resizeHandler: (() => void) | undefined;
	private kittyTimer: NodeJS.Timeout | undefined;
	private progressTimer: NodeJS.Timeout | undefined;
	private readonly writeLog = process.env.PI_TUI_WRITE_LOG;
	private lostHandler: ((error: Error) => void) | undefined;

	constructor(options: ProcessTerminalOptions = {}) {
		super();
		this.stdin = options.stdin ?? process.stdin;
		this.stdout = options.stdout ?? process.stdout;
		this.kittyTimeoutMs = options.kittyQueryTimeoutMs ?? 150;
	}

	get kittyProtocolActive(): boolean {
		return this.kittyActive;
	}

	/** Restores the terminal if the process exits without calling stop() (e.g. a crash). */
	private readonly exitHandler = () => {
		let out = `${BRACKETED_PASTE_OFF}\x1b[?25h`;
		if (this.kittyActive) out += KITTY_POP;
		if (this.modifyOtherKeys) out += MODIFY_OTHER_KEYS_OFF;
		try {
			const fd = (this.stdout as { fd?: number }).fd;
			if (typeof fd === "number") writeSync(fd, out);
			else this.stdout.write(out);
			this.stdin.setRawMode?.(this.wasRaw);
		} catch {
			// The terminal may already be gone.
		}
	};

	/** The error that ended the terminal (its input or output failed), if it is gone. */
	get lost(): Error | undefined {
		return lostStreams.get(this.stdout) ?? lostStreams.get(this.stdin);
	}

	start(onInput: (data: string) => void, onResize: () => void, onLost?: (error: Error) => void): void {
		process.on("exit", this.exitHandler);
		watchStream(this.stdout);
		watchStream(this.stdin);
		let told = false;
		this.lostHandler = (error) => {
			if (told) return;
			told = true;
			onLost?.(error);
		};
		lossListeners.get(this.stdout)?.add(this.lostHandler);
		lossListeners.get(this.stdin)?.add(this.lostHandler);
		this.wasRaw = this.stdin.isRaw ?? false;
		this.stdin.setRawMode?.(true);
		this.stdin.resume();
		const buffer = new StdinBuffer();
		this.buffer = buffer;
		buffer.on("data", (seq) => {
			const reply = KITTY_REPLY.exec(seq);
			if (reply && !this.kittyActive) {
				// The terminal answered the query: it speaks the Kitty protocol.
				this.kittyActive = true;
				setKittyProtocolActive(true);
				if (this.kittyTimer) clearTimeout(this.kittyTimer);
				this.write(KITTY_PUSH);
				return;
			}
			if (reply) return;
			onInput(seq);
		});
		buffer.on("paste", (content) => onInput(`\x1b[200~${content}\x1b[201~`));
		this.dataHandler = (chunk) => buffer.process(chunk);
		this.stdin.on("data", this.dataHandler);
		this.resizeHandler = onResize;
		this.stdout.on("resize", onResize);
		this.write(BRACKETED_PASTE_ON + KITTY_QUERY);
		this.kittyTimer = setTimeout(() => {
			this.kittyTimer = undefined;
			// tmux forwards modified keys as CSI u only with modifyOtherKeys.
			if (!this.kittyActive && process.env.TMUX) {
				this.modifyOtherKeys = true;
				this.write(MODIFY_OTHER_KEYS_ON);
			}
		}, this.kittyTimeoutMs);
		this.kittyTimer.unref?.();
	}

	async drainInput(maxMs = 1000, idleMs = 50): Promise<void> {
		if (this.dataHandler) this.stdin.off("data", this.dataHandler);
		const drained = new Promise<void>((resolve) => {
			const end = Date.now() + maxMs;
			let idle: NodeJS.Timeout | undefined;
			const finish = () => {
				this.stdin.off("data", onData);
				if (idle) clearTimeout(idle);
				clearTimeout(hard);
				resolve();
			};
			const onData = () => {
				if (idle) clearTimeout(idle);
				idle = setTimeout(finish, Math.min(idleMs, Math.max(0, end - Date.now())));
			};
			const hard = setTimeout(finish, maxMs);
			idle = setTimeout(finish, idleMs);
			this.stdin.on("data", onData);
		});
		await drained;
	}

	stop(): void {
		process.off("exit", this.exitHandler);
		if (this.kittyTimer) clearTimeout(this.kittyTimer);
		this.kittyTimer = undefined;
		this.setProgress(false);
		let out = BRACKETED_PASTE_OFF;
		if (this.kittyActive) out += KITTY_POP;
		if (this.modifyOtherKeys) out += MODIFY_OTHER_KEYS_OFF;
		this.write(out);
		this.kittyActive = false;
		this.modifyOtherKeys = false;
		setKittyProtocolActive(false);
		if (this.dataHandler) this.stdin.off("data", this.dataHandler);
		if (this.resizeHandler) this.stdout.off("resize", this.resizeHandler);
		this.dataHandler = undefined;
		this.resizeHandler = undefined;
		this.buffer?.destroy();
		this.buffer = undefined;
		if (this.lostHandler) {
			lossListeners.get(this.stdout)?.delete(this.lostHandler);
			lossListeners.get(this.stdin)?.delete(this.lostHandler);
			this.lostHandler = undefined;
		}
		if (!lostStreams.has(this.stdin)) this.stdin.setRawMode?.(this.wasRaw);
		this.stdin.pause();
	}

	write(data: string): void {
		// A terminal that is gone takes nothing more (each write would fail again).
		if (lostStreams.has(this.stdout)) return;
		this.stdout.write(data);
		if (this.writeLog) {
			try {
				appendFileSync(this.writeLog, data);
			} catch {
				// Debug logging must never break rendering.
			}
		}
	}

	get columns(): number {
		return this.stdout.columns || 80;
	}

	get rows(): number {
		return this.stdout.rows || 24;
	}

	setTitle(title: string): void {
		this.write(`\x1b]0;${title.replace(/[\x00-\x1f\x7f]/g, "")}\x07`);
	}

	/** Indeterminate progress indicator (OSC 9;4), refreshed while active. */
	setProgress(active: boolean): void {
		if (this.progressTimer) clearInterval(this.progressTimer);
		this.progressTimer = undefined;
		if (active) {
			this.write("\x1b]9;4;3\x07");
			this.progressTimer = setInterval(() => this.write("\x1b]9;4;3\x07"), 10_000);
			this.progressTimer.unref?.();
		} else this.write("\x1b]9;4;0\x07");
	}
}

/**
 * A terminal that keeps what is written in memory: for tests, benchmarks and
 * off-screen rendering. Input and resizes are driven by the caller.
 */
export class MemoryTerminal extends AnsiTerminal implements Terminal {
	columns: number;
	rows: number;
	/** Everything written since the last `takeOutput()`. */
	output = "";
	/** Total bytes (UTF-8) written. */
	bytesWritten = 0;
	/** Whether to keep the text of writes (off for byte counting only). */
	keepOutput = true;
	private onInput: ((data: string) => void) | undefined;
	private onResize: (() => void) | undefined;

	constructor(columns = 80, rows = 24) {
		super();
		this.columns = columns;
		this.rows = rows;
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
		this.bytesWritten += Buffer.byteLength(data);
		if (this.keepOutput) this.output += data;
	}

	/** Return and clear the captured output. */
	takeOutput(): string {
		const out = this.output;
		this.output = "";
		return out;
	}

	/** Deliver an input chunk as if the user typed it. */
	sendInput(data: string): void {
		this.onInput?.(data);
	}

	resize(columns: number, rows: number): void {
		this.columns = columns;
		this.rows = rows;
		this.onResize?.();
	}
}
