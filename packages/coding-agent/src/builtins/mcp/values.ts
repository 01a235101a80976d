// `env` and `headers` values: `${NAME}` takes an environment variable; a
// value that starts with `!` is a shell command whose output (trimmed) is the
// value. Resolved when a server connects, never written anywhere.
import { execFile } from "node:child_process";

const COMMAND_TIMEOUT_MS = 30_000;

function runCommand(command: string, what: string): Promise<string> {
	return new Promise((resolveValue, reject) => {
		execFile(
			process.env.SHELL && process.platform !== "win32" ? process.env.SHELL : "/bin/sh",
			["-c", command],
			{ timeout: COMMAND_TIMEOUT_MS, maxBuffer: 1024 * 1024 },
			(error, stdout) => {
				if (error) reject(new Error(`the command for ${what} failed: ${error.message.split("\n")[0]}`));
				else resolveValue(stdout.trim());
			},
		);
	});
}

export async function resolveValue(value: string, what: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
	if (value.startsWith("!")) return runCommand(value.slice(1), what);
	return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => env[name] ?? "");
}

export async function resolveValues(
	values: Record<string, string>,
	what: string,
	env: NodeJS.ProcessEnv = process.env,
): Promise<Record<string, string>> {
	const out: Record<string, string> = {};
	for (const [k, v] of Object.entries(values)) out[k] = await resolveValue(v, `${what} ${k}`, env);
	return out;
}
