// What to type to come back to the session just left, printed when the app
// exits (as 1.6.0 does): `pi --session <id>`, with `--session-dir` when the
// session lives outside the default directory.
import { existsSync } from "node:fs";
import type { SessionManager } from "../session/session-manager.js";

/** Single-quotes a shell word when it needs it. */
function shellWord(value: string): string {
	return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/** The command that reopens the session, or undefined when nothing was saved. */
export function formatResumeCommand(sessionManager: SessionManager, customSessionDir: boolean): string | undefined {
	if (!sessionManager.isPersisted()) return undefined;
	const file = sessionManager.getSessionFile();
	if (!file || !existsSync(file)) return undefined;
	const args = ["pi"];
	if (customSessionDir) args.push("--session-dir", shellWord(sessionManager.getSessionDir()));
	args.push("--session", shellWord(sessionManager.getSessionId()));
	return args.join(" ");
}

/** The two lines printed after the app's screen is gone; the command on its own line, easy to select. */
export function resumeHint(command: string): string {
	return `\x1b[2mTo resume this session:\x1b[22m\n${command}\n`;
}
