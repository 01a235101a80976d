// Where session files live: <agentDir>/sessions/--<encoded cwd>--/<timestamp>_<id>.jsonl
import { homedir } from "node:os";
import { join, resolve } from "node:path";

/** `/home/u/proj` → `--home-u-proj--`: strip one leading separator, map `/ \ :` to `-`. */
export function encodeCwd(cwd: string): string {
	return `--${resolve(cwd)
		.replace(/^[/\\]/, "")
		.replace(/[/\\:]/g, "-")}--`;
}

/** Agent dir used when the caller gives none: `$PI_CODING_AGENT_DIR` or `~/.pi/agent`. */
export function defaultAgentDir(): string {
	const fromEnv = process.env.PI_CODING_AGENT_DIR;
	return fromEnv ? resolve(fromEnv) : join(homedir(), ".pi", "agent");
}

export function getSessionsRoot(agentDir: string = defaultAgentDir()): string {
	return join(resolve(agentDir), "sessions");
}

/** The per-project session directory (not created here). */
export function getDefaultSessionDir(cwd: string, agentDir?: string): string {
	return join(getSessionsRoot(agentDir), encodeCwd(cwd));
}

/** `2026-11-29T19:55:48.624Z` + id → `2026-11-29T19-55-48-624Z_<id>.jsonl` */
export function sessionFileName(isoTimestamp: string, sessionId: string): string {
	return `${isoTimestamp.replace(/[:.]/g, "-")}_${sessionId}.jsonl`;
}

/** The session id encoded in a file name, or undefined when the name is not ours. */
export function sessionIdFromFileName(fileName: string): string | undefined {
	if (!fileName.endsWith(".jsonl")) return undefined;
	const underscore = fileName.indexOf("_");
	if (underscore < 0) return undefined;
	return fileName.slice(underscore + 1, -".jsonl".length) || undefined;
}
