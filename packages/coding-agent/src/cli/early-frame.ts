// The early frame: an app start in a folder whose last start drew its first frame under the same
// conditions puts that frame on the screen here, from dist/cli.js, before the CLI's bundle loads; the
// app's TUI then takes the screen over as its previous frame (@pi/tui screen-record.ts) and writes only
// what differs, nothing when the frame is the same. The conditions are the run's key (early-frame-key.ts):
// pi's build, the arguments, the folder, the terminal's size, the environment, and the stamps of the
// files the first frame is drawn from. Something the key misses shows until the app draws and is then
// redrawn. Only for starts where nothing but pi's own code runs before the app (frameAllowed).
//
// Between the paint and the app: the terminal is in raw mode (keys typed ahead wait for the app, not
// echoed onto the frame); anything else written to stdout or stderr first erases the frame, as do an
// exit and SIGINT/SIGTERM/SIGHUP (which then have their usual effect). The records live in the code cache's private
// directory (compile-cache.ts), one per folder. PI_FRAME_CACHE=off turns all of it off.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isatty } from "node:tty";
import type { EarlyFrame } from "./early-frame-handoff.js";
import { FRAME_RECORD_VERSION, frameAllowed, frameKey } from "./early-frame-key.js";

/** Larger frames are not kept (a first frame is a banner, an editor and a footer). */
const MAX_RECORD_BYTES = 256 * 1024;
const RECORD_MAX_AGE_MS = 30 * 24 * 3600 * 1000;
const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** FNV-1a of the folder: one record file per folder. */
function folderHash(cwd: string): string {
	let h = 0x811c9dc5;
	for (let i = 0; i < cwd.length; i++) h = Math.imul(h ^ cwd.charCodeAt(i), 0x01000193);
	return (h >>> 0).toString(16).padStart(8, "0");
}

interface StoredFrame {
	v: number;
	/** sha256 of the key (the key holds environment values). */
	key: string;
	/** What the app's TUI drew (a ScreenRecord; the app checks it before adopting it). */
	record: unknown;
	/** The bytes that draw it on a fresh screen, and the content row the cursor then rests on. */
	bytes: string;
	cursorRow: number;
	/** sha256 tying bytes, cursorRow and record together: a record whose parts disagree is none. */
	sum: string;
}

/** The checksum a stored record carries over its three parts. */
export const storedFrameSum = (bytes: string, cursorRow: number, record: unknown) =>
	sha256(`${bytes}\n${cursorRow}\n${JSON.stringify(record)}`);

function readStored(file: string, keyDigest: string): StoredFrame | undefined {
	try {
		const s = JSON.parse(readFileSync(file, "utf8")) as Partial<StoredFrame>;
		const ok =
			s.v === FRAME_RECORD_VERSION &&
			s.key === keyDigest &&
			typeof s.bytes === "string" &&
			Number.isInteger(s.cursorRow) &&
			(s.cursorRow as number) >= 0 &&
			s.sum === storedFrameSum(s.bytes, s.cursorRow as number, s.record);
		return ok ? (s as StoredFrame) : undefined;
	} catch {
		return undefined;
	}
}

/** Records of folders not started in for a month go (one file per folder would pile up otherwise). */
function pruneRecords(dir: string): void {
	const before = Date.now() - RECORD_MAX_AGE_MS;
	try {
		for (const name of readdirSync(dir)) {
			if (!name.startsWith("frame-") || !name.endsWith(".json")) continue;
			const path = join(dir, name);
			const st = statSync(path, { throwIfNoEntry: false });
			if (st && st.mtimeMs < before) rmSync(path, { force: true });
		}
	} catch {
		// A record left behind costs a few KB.
	}
}

// Escape sequences (CSI, OSC, DCS/APC/PM/SOS strings, two-byte ESC): a write made only of them shows
// nothing (the OSC 11 query, a title).
const ESCAPES = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[P^_X][^\x1b]*\x1b\\|\x1b[@-Z\\-_]/g;

function shows(chunk: unknown): boolean {
	const text = typeof chunk === "string" ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk).toString() : "";
	return text.replace(ESCAPES, "").length > 0;
}

type WriteFn = NodeJS.WriteStream["write"];

/**
 * For an app start (the caller checked the kind of run): paints the frame recorded under this start's
 * key, if any, and leaves the hand-off for the app (early-frame-handoff.ts) either way. `dir` is the
 * code cache's directory, already checked private.
 */
export function paintEarlyFrame(argv: readonly string[], buildId: string, dir: string, env = process.env): void {
	if (/^(0|off|false|no)$/i.test(env.PI_FRAME_CACHE?.trim() ?? "")) return;
	if (!isatty(0) || !isatty(1)) return;
	const cwd = process.cwd();
	if (!frameAllowed(argv, cwd, env)) return;
	const out = process.stdout;
	const keyDigest = sha256(frameKey({ buildId, argv, cwd, columns: out.columns || 80, rows: out.rows || 24, env }));
	const file = join(dir, `frame-${folderHash(cwd)}.json`);
	const stored = readStored(file, keyDigest);
	const handoff: EarlyFrame = {
		adopt: () => undefined,
		release: () => {},
		save: (record, bytes, cursorRow) => {
			if (bytes.length > MAX_RECORD_BYTES) return;
			if (stored && stored.bytes === bytes) return;
			const data: StoredFrame = {
				v: FRAME_RECORD_VERSION,
				key: keyDigest,
				record,
				bytes,
				cursorRow,
				sum: storedFrameSum(bytes, cursorRow, record),
			};
			const tmp = `${file}.${process.pid}.tmp`;
			try {
				writeFileSync(tmp, JSON.stringify(data), { mode: 0o600 });
				renameSync(tmp, file);
			} catch {
				rmSync(tmp, { force: true });
			}
			pruneRecords(dir);
		},
	};
	(globalThis as { __pi_early_frame?: EarlyFrame }).__pi_early_frame = handoff;
	if (!stored) return;

	// Raw before the frame shows: the terminal must not echo keys typed ahead onto it.
	const stdin = process.stdin;
	const wasRaw = stdin.isRaw;
	try {
		stdin.setRawMode(true);
	} catch {
		return; // no raw mode, no early frame
	}
	out.write(stored.bytes);
	let state: "painted" | "adopted" | "released" = "painted";

	const streams = [process.stdout, process.stderr];
	const own = streams.map((s) => Object.getOwnPropertyDescriptor(s, "write"));
	const onExit = () => release();
	// Kept after the app takes over (removing the last listener of a signal drops one already caught but
	// not yet handled): the first one erases the frame if it is still up, then has its usual effect — the
	// app's own listeners, or the default when there are none.
	const onSignal = (signal: NodeJS.Signals) => {
		release();
		process.off(signal, onSignal);
		if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
	};
	const unguard = () => {
		streams.forEach((s, i) => {
			const d = own[i];
			if (d) Object.defineProperty(s, "write", d);
			else delete (s as { write?: WriteFn }).write;
		});
		process.off("exit", onExit);
	};
	const release = () => {
		if (state !== "painted") return;
		state = "released";
		unguard();
		const up = stored.cursorRow > 0 ? `\x1b[${stored.cursorRow}A` : "";
		out.write(`${up}\r\x1b[J\x1b[?25h`);
		stdin.setRawMode(wasRaw);
	};
	process.on("exit", onExit);
	for (const signal of SIGNALS) process.on(signal, onSignal);
	for (const stream of streams) {
		const write = stream.write;
		(stream as { write: WriteFn }).write = function (this: NodeJS.WriteStream, ...args: Parameters<WriteFn>) {
			if (shows(args[0])) release();
			return (write as (...a: unknown[]) => boolean).apply(this, args);
		} as WriteFn;
	}
	handoff.release = release;
	handoff.adopt = <T>(check: (record: unknown) => T | undefined): T | undefined => {
		if (state !== "painted") return undefined;
		const record = check(stored.record);
		if (record === undefined) {
			release();
			return undefined;
		}
		state = "adopted";
		unguard();
		// The terminal's own mode again for the instant before the app's terminal takes raw mode, so
		// that the app saves (and puts back when it ends or suspends) the mode the shell had.
		stdin.setRawMode(wasRaw);
		return record;
	};
}
