// Asking the terminal for its background colour (OSC 11), so a "follow the
// terminal" theme can pick light or dark. The query is followed by a Primary
// Device Attributes request (DA1, `ESC [ c`), which every terminal answers:
// its reply ends the wait at once on terminals that ignore OSC 11, and a
// timer bounds the wait on anything that answers neither. Only for a real
// TTY on both ends (raw mode is needed to read the reply), and before the TUI
// starts reading input.

export interface Rgb {
	r: number;
	g: number;
	b: number;
}

export type Appearance = "light" | "dark";

/** Default bound on the wait for the terminal's reply (ms). */
export const BACKGROUND_QUERY_TIMEOUT_MS = 200;

const QUERY = "\x1b]11;?\x07\x1b[c";
// OSC 11 reply: ESC ] 11 ; <colour> (BEL | ESC \)
const OSC11_REPLY = /\x1b\]11;([^\x07\x1b]*)(?:\x07|\x1b\\)/;
// DA1 reply: ESC [ ? <params> c
const DA1_REPLY = /\x1b\[\?[\d;]*c/;
// The start of either reply at the end of what was read, its rest not yet there.
const PARTIAL_REPLY = /\x1b(?:\](?:1(?:1(?:;[^\x07\x1b]*)?)?)?|\[(?:\?[\d;]*)?)?$/;

function channel(hex: string): number | undefined {
	if (!/^[0-9a-f]{1,4}$/i.test(hex)) return undefined;
	const max = 16 ** hex.length - 1;
	return Math.round((Number.parseInt(hex, 16) / max) * 255);
}

/** The colour in an OSC 11 reply value: `rgb:RRRR/GGGG/BBBB` (1–4 hex digits each) or `#rrggbb`. */
export function parseOscColor(value: string): Rgb | undefined {
	const v = value.trim();
	if (/^#[0-9a-f]{6}$/i.test(v)) {
		return {
			r: Number.parseInt(v.slice(1, 3), 16),
			g: Number.parseInt(v.slice(3, 5), 16),
			b: Number.parseInt(v.slice(5, 7), 16),
		};
	}
	const parts = v.replace(/^rgba?:/i, "").split("/");
	if (parts.length < 3) return undefined;
	const [r, g, b] = parts.map(channel);
	return r === undefined || g === undefined || b === undefined ? undefined : { r, g, b };
}

/** The background colour in terminal output holding an OSC 11 reply, if any. */
export function parseBackgroundReply(data: string): Rgb | undefined {
	const m = OSC11_REPLY.exec(data);
	return m ? parseOscColor(m[1]) : undefined;
}

/** Light when the colour's relative luminance (sRGB, WCAG) is above the middle. */
export function appearanceOf(rgb: Rgb): Appearance {
	const lin = (c: number) => {
		const s = c / 255;
		return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
	};
	const luminance = 0.2126 * lin(rgb.r) + 0.7152 * lin(rgb.g) + 0.0722 * lin(rgb.b);
	// 0.179 is where black and white text have equal contrast on the colour.
	return luminance > 0.179 ? "light" : "dark";
}

/** Light per COLORFGBG ("fg;bg", bg 7 or 15 is light); undefined when unset or unknown. */
export function appearanceFromColorFgBg(env: NodeJS.ProcessEnv): Appearance | undefined {
	const parts = env.COLORFGBG?.split(";");
	if (!parts || parts.length < 2) return undefined;
	const bg = Number(parts[parts.length - 1]);
	if (!Number.isInteger(bg)) return undefined;
	return bg === 7 || bg === 15 ? "light" : "dark";
}

export interface BackgroundQueryStreams {
	input: NodeJS.ReadableStream & {
		isTTY?: boolean;
		setRawMode?(mode: boolean): unknown;
		isRaw?: boolean;
		unshift?(chunk: Buffer): void;
	};
	output: NodeJS.WritableStream & { isTTY?: boolean };
}

export interface BackgroundQueryResult {
	/** The colour the terminal reported; undefined when it did not answer OSC 11. */
	rgb?: Rgb;
	/** Why nothing was learned, when nothing was. */
	outcome: "answered" | "unsupported" | "timeout" | "not-a-tty";
	elapsedMs: number;
}

/**
 * Asks the terminal for its background. Resolves within `timeoutMs` (plus a
 * tick) whatever the terminal does; leaves the input paused and in the raw
 * mode it found.
 */
export function queryTerminalBackground(
	streams: BackgroundQueryStreams,
	timeoutMs = BACKGROUND_QUERY_TIMEOUT_MS,
): Promise<BackgroundQueryResult> {
	const { input, output } = streams;
	const started = Date.now();
	if (!input.isTTY || !output.isTTY || typeof input.setRawMode !== "function") {
		return Promise.resolve({ outcome: "not-a-tty", elapsedMs: 0 });
	}
	const wasRaw = input.isRaw === true;
	return new Promise((resolve) => {
		let buffer = "";
		let done = false;
		const finish = (outcome: BackgroundQueryResult["outcome"]) => {
			if (done) return;
			done = true;
			clearTimeout(timer);
			input.off("data", onData);
			input.pause();
			// Keys typed while waiting (ahead of a frame already on the screen, or over a slow link) are
			// not the terminal's: they go back to the input for whoever reads it next.
			// A reply cut short by the timer (its end still on the way) is not typed either.
			const typed = buffer.replace(OSC11_REPLY, "").replace(DA1_REPLY, "").replace(PARTIAL_REPLY, "");
			if (typed.length > 0) input.unshift?.(Buffer.from(typed, "latin1"));
			if (!wasRaw) input.setRawMode?.(false);
			const rgb = parseBackgroundReply(buffer);
			resolve({ rgb, outcome: rgb ? "answered" : outcome, elapsedMs: Date.now() - started });
		};
		const onData = (chunk: Buffer | string) => {
			buffer += typeof chunk === "string" ? chunk : chunk.toString("latin1");
			// DA1 comes after the OSC 11 reply (terminals answer in order): the end of the exchange.
			if (DA1_REPLY.test(buffer)) finish("unsupported");
		};
		const timer = setTimeout(() => finish("timeout"), timeoutMs);
		input.setRawMode?.(true);
		input.on("data", onData);
		input.resume();
		output.write(QUERY);
	});
}

// Terminals with DEC mode 2031 (contour, kitty, ghostty, recent foot/iTerm2…)
// report `ESC [ ? 997 ; 1 n` (dark) or `; 2 n` (light) whenever their colour
// scheme changes, so a theme that follows the terminal can follow it live.
export const COLOR_SCHEME_NOTIFY_ON = "\x1b[?2031h";
export const COLOR_SCHEME_NOTIFY_OFF = "\x1b[?2031l";
const COLOR_SCHEME_REPORT = /^(?:\x1b\[\?997;([12])n)+$/;

/** The appearance in a colour-scheme report (the last one when several arrive together); undefined for other input. */
export function parseColorSchemeReport(data: string): Appearance | undefined {
	const m = COLOR_SCHEME_REPORT.exec(data);
	if (!m) return undefined;
	return m[1] === "2" ? "light" : "dark";
}
