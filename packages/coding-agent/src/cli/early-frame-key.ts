// The early frame's key (early-frame.ts): the conditions an app start's first frame is drawn under, and
// whether a start may show a recorded frame at all (nothing but pi's own code runs before the app).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { getAgentDir, PROJECT_CONFIG_DIR } from "../config/paths.js";
import { readGitBranch } from "../modes/interactive/git-branch.js";

/** Bumped when what the key holds, or the stored record's form, changes. */
export const FRAME_RECORD_VERSION = 2;
/** Arguments that open an existing session: its transcript is part of the first frame. */
const SESSION_ARGS = new Set(["-c", "--continue", "-r", "--resume", "--session", "--fork"]);
/** Arguments that load extensions before the app. */
const EXTENSION_ARGS = new Set(["-e", "--extension"]);
/**
 * Variables whose values differ between terminals, windows, shells, logins or multiplexer servers without
 * changing what pi draws: only whether they are set counts (pi tells tmux apart by TMUX being set).
 */
const VOLATILE_ENV = new Set([
	"_",
	"OLDPWD",
	"SHLVL",
	"TMUX",
	"TMUX_PANE",
	"STY",
	"WINDOWID",
	"TERM_SESSION_ID",
	"ITERM_SESSION_ID",
	"WT_SESSION",
	"KITTY_WINDOW_ID",
	"WEZTERM_PANE",
	"ALACRITTY_WINDOW_ID",
	"GNOME_TERMINAL_SCREEN",
	"VSCODE_GIT_IPC_HANDLE",
	"VSCODE_IPC_HOOK_CLI",
	"SSH_CLIENT",
	"SSH_CONNECTION",
	"SSH_AUTH_SOCK",
	"XDG_SESSION_ID",
	"DBUS_SESSION_BUS_ADDRESS",
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

/**
 * The conditions a first frame was drawn under, as one string. It holds the environment's values (API
 * keys among them): it is compared in memory and only its digest is stored.
 */
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
		FRAME_RECORD_VERSION,
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

function hasEntries(dir: string): boolean {
	try {
		return readdirSync(dir).length > 0;
	} catch {
		return false;
	}
}

/** A settings file that lists packages or extensions (or cannot be read as JSON: assume it does). */
function settingsLoadCode(file: string): boolean {
	let text: string;
	try {
		text = readFileSync(file, "utf8");
	} catch {
		return false;
	}
	try {
		const s = JSON.parse(text) as { packages?: unknown; extensions?: unknown };
		const listed = (v: unknown) => Array.isArray(v) && v.length > 0;
		return listed(s.packages) || listed(s.extensions);
	} catch {
		return true;
	}
}

/**
 * Whether this start may show a recorded frame: a new session (`-c`, `-r`, `--session`, `--fork` open
 * one, whose transcript the key does not cover), and nothing but pi's own code before the app — no
 * extension (`-e`, the extension folders, settings' `extensions`), package or MCP server. Such code may
 * write to the terminal by means no write guard sees (a child process's inherited output), which would
 * leave the frame on the screen other than the app believes.
 */
export function frameAllowed(argv: readonly string[], cwd: string, env: NodeJS.ProcessEnv): boolean {
	for (const arg of argv) {
		if (arg === "--") break;
		if (SESSION_ARGS.has(arg) || EXTENSION_ARGS.has(arg)) return false;
		if (arg.startsWith("--session=") || arg.startsWith("--fork=") || arg.startsWith("--extension=")) return false;
	}
	const agentDir = getAgentDir(env);
	const project = join(cwd, PROJECT_CONFIG_DIR);
	for (const dir of [agentDir, project]) {
		if (hasEntries(join(dir, "extensions"))) return false;
		if (statSync(join(dir, "mcp.json"), { throwIfNoEntry: false })) return false;
		if (settingsLoadCode(join(dir, "settings.json"))) return false;
	}
	return true;
}
