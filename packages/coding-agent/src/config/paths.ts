// Where Pi keeps its files. Everything takes the environment as a parameter so
// tests and the SDK can point Pi elsewhere without touching process.env.
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";

export const ENV_AGENT_DIR = "PI_CODING_AGENT_DIR";
export const ENV_SESSION_DIR = "PI_CODING_AGENT_SESSION_DIR";
/** Name of the per-project config directory (`<cwd>/.pi`). */
export const PROJECT_CONFIG_DIR = ".pi";

/** Expands a leading `~` (alone or followed by a separator) to the home directory. */
export function expandHome(path: string, home: string = homedir()): string {
	if (path === "~") return home;
	if (path.startsWith("~/") || path.startsWith("~\\")) return join(home, path.slice(2));
	return path;
}

/** Resolves a user-supplied path: `~` expanded, relative paths against `base`. */
export function resolveUserPath(path: string, base: string): string {
	const expanded = expandHome(path);
	return isAbsolute(expanded) ? expanded : resolve(base, expanded);
}

/** The global config dir: `$PI_CODING_AGENT_DIR`, else `~/.pi/agent`. */
export function getAgentDir(env: NodeJS.ProcessEnv = process.env): string {
	const fromEnv = env[ENV_AGENT_DIR];
	if (fromEnv && fromEnv.trim() !== "") return resolveUserPath(fromEnv.trim(), process.cwd());
	return join(homedir(), ".pi", "agent");
}

/** File locations inside the global config dir. */
export interface AgentPaths {
	agentDir: string;
	settings: string;
	auth: string;
	models: string;
	sessions: string;
	systemPrompt: string;
	appendSystemPrompt: string;
}

export function agentPaths(agentDir: string): AgentPaths {
	return {
		agentDir,
		settings: join(agentDir, "settings.json"),
		auth: join(agentDir, "auth.json"),
		models: join(agentDir, "models.json"),
		sessions: join(agentDir, "sessions"),
		systemPrompt: join(agentDir, "SYSTEM.md"),
		appendSystemPrompt: join(agentDir, "APPEND_SYSTEM.md"),
	};
}

/** File locations inside a project's `.pi` dir. */
export interface ProjectPaths {
	configDir: string;
	settings: string;
	systemPrompt: string;
	appendSystemPrompt: string;
}

export function projectPaths(cwd: string): ProjectPaths {
	const configDir = join(cwd, PROJECT_CONFIG_DIR);
	return {
		configDir,
		settings: join(configDir, "settings.json"),
		systemPrompt: join(configDir, "SYSTEM.md"),
		appendSystemPrompt: join(configDir, "APPEND_SYSTEM.md"),
	};
}

export interface SessionDirSources {
	/** `--session-dir` */
	cli?: string;
	/** `sessionDir` from the merged settings. */
	settings?: string;
	cwd: string;
	env?: NodeJS.ProcessEnv;
}

/**
 * The explicitly configured session dir, by precedence `--session-dir` >
 * `$PI_CODING_AGENT_SESSION_DIR` > settings `sessionDir`; undefined when none
 * is set (the session store then uses its per-cwd default under the agent dir).
 */
export function resolveSessionDir(sources: SessionDirSources): string | undefined {
	const env = sources.env ?? process.env;
	const candidates = [sources.cli, env[ENV_SESSION_DIR], sources.settings];
	for (const value of candidates) {
		if (value && value.trim() !== "") return resolveUserPath(value.trim(), sources.cwd);
	}
	return undefined;
}
