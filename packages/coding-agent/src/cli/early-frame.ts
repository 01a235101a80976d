// The early frame: an app start in a folder whose last start drew its first frame under the same
// conditions puts that frame on the screen here, from dist/cli.js, before the CLI's bundle loads
// (~30 ms of a warm start on the benches' machine): the app's TUI then takes the screen over as its
// previous frame (@pi/tui screen-record.ts) and writes only what differs, nothing when the frame is the
// same. The conditions are the run's key (frameKey): pi's build, the arguments, the folder, the
// terminal's size, the environment, and the stamps of the files the first frame is drawn from.
// Something the key misses shows for those ms and is then redrawn by the app. Output of anything
// else before the app takes the screen (an error, a prompt) first erases the frame.
//
// Only for a new session in the app (no -c/-r/--session/--fork: a resumed transcript is not in the
// key) on a terminal at both ends; PI_FRAME_CACHE=off turns it off. The records live in the code
// cache's private directory (compile-cache.ts), one per folder.
import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { isatty } from "node:tty";
import { getAgentDir, PROJECT_CONFIG_DIR } from "../config/paths.js";
import { readGitBranch } from "../modes/interactive/git-branch.js";
import type { EarlyFrame } from "./early-frame-handoff.js";

const RECORD_VERSION = 1;
/** Larger frames are not kept (a first frame is a banner, an editor and a footer). */
const MAX_RECORD_BYTES = 256 * 1024;
const RECORD_MAX_AGE_MS = 30 * 24 * 3600 * 1000;
/** Arguments that open an existing session: its transcript is part of the first frame. */
const SESSION_ARGS = new Set(["-c", "--continue", "-r", "--resume", "--session", "--fork"]);
/**
 * Variables whose values differ between terminals, shells or multiplexer servers without changing what
 * pi draws: only whether they are set counts (pi tells tmux apart by TMUX being set).
 */
const VOLATILE_ENV = new Set([
	"_",
	"TMUX",
	"STY",
	"OLDPWD",
	"SHLVL",
	"TMUX_PANE",
	"WINDOWID",
	"TERM_SESSION_ID",
	"ITERM_SESSION_ID",
	"WT_SESSION",
	"KITTY_WINDOW_ID",
	"SSH_CLIENT",
	"SSH_CONNECTION",
]);
/** What pi writes into its folder while it runs; none of it is drawn in the first frame. */
const VOLATILE_AGENT_ENTRIES = new Set(["sessions", "checkpoints", "cache", "pending-writes", "bin", "mcp.log"]);
const CONTEXT_FILES = ["AGENTS.md", "CLAUDE.md"];

function stamp(path: string): string {
	const st = statSync(path, { throwIfNoEntry: false });
	return st ? `${st.mtimeMs}/${st.size}/${st.ino}` : "-";
}

/** Stamps of a folder's entries (and of the folder: entries added or removed), minus `skip`. */
function folderStamps(dir: string, skip?: ReadonlySet<string>): string {
	let names: string[];
	try {
		names = readdirSync(dir).sort();
	} catch {
		return "-";
	}
	let out = stamp(dir);
	for (const name of names) if (!skip?.has(name)) out += `|${name}=${stamp(join(dir, name))}`;
	return out;
}

export interface FrameKeyInput {
	buildId: string;
	argv: readonly string[];
	cwd: string;
	columns: number;
	rows: number;
	env: NodeJS.ProcessEnv;
}

/** The conditions a first frame was drawn under, as one string. */
export function frameKey(input: FrameKeyInput): string {
	const { env, cwd } = input;
	const vars = Object.keys(env)
		.sort()
		.map((k) => (VOLATILE_ENV.has(k) ? k : `${k}=${env[k]}`));
	const agentDir = getAgentDir(env);
	const ancestors: string[] = [];
	for (let dir = cwd; ; dir = dirname(dir)) {
		for (const name of CONTEXT_FILES) ancestors.push(stamp(join(dir, name)));
		if (dirname(dir) === dir) break;
	}
	return JSON.stringify([
		RECORD_VERSION,
		input.buildId,
		input.argv,
		cwd,
		input.columns,
		input.rows,
		vars,
		folderStamps(agentDir, VOLATILE_AGENT_ENTRIES),
		folderStamps(join(cwd, PROJECT_CONFIG_DIR)),
		// Skills found there are listed in the banner.
		folderStamps(join(homedir(), ".agents", "skills")),
		folderStamps(join(cwd, ".agents", "skills")),
		ancestors,
		readGitBranch(cwd) ?? "-",
	]);
}

/** FNV-1a of the folder: one record file per folder. */
function folderHash(cwd: string): string {
	let h = 0x811c9dc5;
	for (let i = 0; i < cwd.length; i++) h = Math.imul(h ^ cwd.charCodeAt(i), 0x01000193);
	return (h >>> 0).toString(16).padStart(8, "0");
}

interface StoredFrame {
	v: number;
	key: string;
	bytes: string;
	/** Content row the cursor rests on after `bytes` (erasing starts there). */
	cursorRow: number;
	record: unknown;
}

function readStored(file: string, key: string): StoredFrame | undefined {
	try {
		const stored = JSON.parse(readFileSync(file, "utf8")) as Partial<StoredFrame>;
		const ok =
			stored.v === RECORD_VERSION &&
			stored.key === key &&
			typeof stored.bytes === "string" &&
			Number.isInteger(stored.cursorRow) &&
			(stored.cursorRow as number) >= 0 &&
			typeof stored.record === "object" &&
			stored.record !== null;
		return ok ? (stored as StoredFrame) : undefined;
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
	for (const arg of argv) {
		if (arg === "--") break;
		if (SESSION_ARGS.has(arg) || arg.startsWith("--session=") || arg.startsWith("--fork=")) return;
	}
	const out = process.stdout;
	const cwd = process.cwd();
	const key = frameKey({ buildId, argv, cwd, columns: out.columns || 80, rows: out.rows || 24, env });
	const file = join(dir, `frame-${folderHash(cwd)}.json`);
	const stored = readStored(file, key);
	const handoff: EarlyFrame = {
		record: undefined,
		adopt: () => {},
		release: () => {},
		save: (record, bytes, cursorRow) => {
			if (bytes.length > MAX_RECORD_BYTES) return;
			if (stored && stored.bytes === bytes) return;
			const data: StoredFrame = { v: RECORD_VERSION, key, bytes, cursorRow, record };
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
	try {
		stdin.setRawMode(true);
	} catch {
		return; // no raw mode, no early frame
	}
	out.write(stored.bytes);
	const streams = [process.stdout, process.stderr];
	const own = streams.map((s) => Object.getOwnPropertyDescriptor(s, "write"));
	let state: "painted" | "adopted" | "released" = "painted";
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
		stdin.setRawMode(false);
	};
	const onExit = () => release();
	process.on("exit", onExit);
	for (const stream of streams) {
		const write = stream.write;
		(stream as { write: WriteFn }).write = function (this: NodeJS.WriteStream, ...args: Parameters<WriteFn>) {
			if (shows(args[0])) release();
			return (write as (...a: unknown[]) => boolean).apply(this, args);
		} as WriteFn;
	}
	handoff.record = stored.record;
	handoff.release = release;
	handoff.adopt = () => {
		if (state !== "painted") return;
		state = "adopted";
		unguard();
		// Cooked again for the instant before the app's terminal takes raw mode, so that it restores
		// cooked mode when it ends.
		stdin.setRawMode(false);
	};
}
