// Drives the BUILT `pi` interactive app inside tmux: a private tmux server
// per test (`tmux -L <unique name>`), keys sent with send-keys, the screen
// read with capture-pane. Build first: `npm run build`.
import { execFileSync, spawnSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI } from "../cli/support.js";

export const hasTmux = spawnSync("tmux", ["-V"], { stdio: "ignore" }).status === 0;

let counter = 0;

export interface TmuxPi {
	socket: string;
	/** The visible pane (lines joined with \n, trailing spaces trimmed). */
	screen(): string;
	/** The visible pane with its SGR colour sequences (capture-pane -e). */
	screenWithColors(): string;
	/** Waits until the pane matches; throws with the last screen on timeout. */
	waitFor(match: string | RegExp | ((screen: string) => boolean), timeoutMs?: number): Promise<string>;
	/** tmux key names ("Enter", "Escape", "C-c", "M-Enter") or literal text via `type`. */
	keys(...keys: string[]): void;
	type(text: string): void;
	resize(columns: number, rows: number): void;
	/** Whether the pi process has exited (the pane shows the marker line). */
	exited(): boolean;
	/** Ends the tmux server (and pi in it); a second call does nothing. */
	kill(): void;
}

function shellQuote(s: string): string {
	return `'${s.replace(/'/g, "'\\''")}'`;
}

export function startPi(options: {
	cwd: string;
	env: NodeJS.ProcessEnv;
	args?: string[];
	columns?: number;
	rows?: number;
	/** tmux configuration lines for the private server (e.g. `set -g window-style bg=#f0f0f0`). */
	tmuxConf?: string;
	/** Shell commands the pane runs after pi's exit marker (e.g. a `read` of what pi left on the terminal's input). */
	afterExit?: string[];
}): TmuxPi {
	const socket = `pi-test-${process.pid}-${++counter}`;
	const tmux = (...args: string[]) =>
		execFileSync("tmux", ["-L", socket, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
	const envArgs = Object.entries(options.env)
		.filter(([, v]) => v !== undefined)
		.map(([k, v]) => `${k}=${shellQuote(String(v))}`)
		.join(" ");
	const piCmd = [process.execPath, CLI, ...(options.args ?? [])].map(shellQuote).join(" ");
	// The marker line tells tests the process ended; the pane stays for inspection.
	const cmd = [
		`env -i ${envArgs} TERM=xterm-256color ${piCmd}`,
		`echo "[pi exited $?]"`,
		...(options.afterExit ?? []),
		"sleep 60",
	].join("; ");
	let conf = "/dev/null";
	if (options.tmuxConf !== undefined) {
		conf = join(tmpdir(), `${socket}.conf`);
		writeFileSync(conf, `${options.tmuxConf}\n`);
	}
	tmux(
		"-f",
		conf,
		"new-session",
		"-d",
		"-x",
		String(options.columns ?? 100),
		"-y",
		String(options.rows ?? 30),
		"-c",
		options.cwd,
		cmd,
	);
	let killed = false;
	const screen = () =>
		tmux("capture-pane", "-p", "-t", "0")
			.split("\n")
			.map((l) => l.replace(/\s+$/, ""))
			.join("\n")
			.replace(/\n+$/, "");
	return {
		socket,
		screen,
		screenWithColors: () => tmux("capture-pane", "-e", "-p", "-t", "0"),
		async waitFor(match, timeoutMs = 10_000) {
			const test =
				typeof match === "function"
					? match
					: typeof match === "string"
						? (s: string) => s.includes(match)
						: (s: string) => match.test(s);
			const deadline = Date.now() + timeoutMs;
			const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
			let last = "";
			// A frame can be captured while tmux is still applying a large redraw (its upper half new, its lower half
			// old), so a match is returned only once a second capture shows the same screen. A screen that keeps
			// changing (a spinner, a clock) is returned after a second of matching; one that passed is returned as seen.
			let matchingSince: number | undefined;
			for (;;) {
				last = screen();
				if (test(last)) {
					matchingSince ??= Date.now();
					await pause(30);
					const again = screen();
					if (again === last || (test(again) && Date.now() - matchingSince > 1_000)) return again;
					// The matching screen was already gone: it was real, return it as before.
					if (!test(again)) return last;
				} else {
					matchingSince = undefined;
					if (Date.now() > deadline) throw new Error(`timed out waiting for ${String(match)}; screen:\n${last}`);
					await pause(40);
				}
			}
		},
		keys(...keys) {
			tmux("send-keys", "-t", "0", ...keys);
		},
		type(text) {
			tmux("send-keys", "-t", "0", "-l", text);
		},
		resize(columns, rows) {
			tmux("resize-window", "-t", "0", "-x", String(columns), "-y", String(rows));
		},
		exited() {
			return /\[pi exited \d+\]/.test(screen());
		},
		kill() {
			if (killed) return;
			killed = true;
			try {
				tmux("kill-server");
			} catch {
				// already gone
			}
			if (conf !== "/dev/null") rmSync(conf, { force: true });
			// tmux leaves the socket file behind; one per test would pile up in /tmp.
			rmSync(join(process.env.TMUX_TMPDIR ?? "/tmp", `tmux-${process.getuid?.() ?? 0}`, socket), { force: true });
		},
	};
}
