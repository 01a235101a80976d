// Values in auth.json / models.json that name a secret rather than hold it:
// `!command` runs in a shell (10 s timeout, trimmed stdout, cached for the
// process), a name of a set environment variable reads it, anything else is
// the literal value. Errors never include the value or the command's output.
import { exec } from "node:child_process";

export class ConfigValueError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "ConfigValueError";
	}
}

export interface ResolveOptions {
	env?: NodeJS.ProcessEnv;
	/** Shell for `!command` values; default: the platform shell (`/bin/sh`). */
	shell?: string;
	timeoutMs?: number;
	/** Names the value in error messages, e.g. `the key for "anthropic" in auth.json`. */
	label?: string;
}

const commandCache = new Map<string, Promise<string>>();
/** Outputs of commands that have finished, for the synchronous peekConfigValue. */
const settledCommands = new Map<string, string>();

/** Forgets cached `!command` results (tests). */
export function clearConfigValueCache(): void {
	commandCache.clear();
	settledCommands.clear();
}

/** True for values resolved by running a command. */
export function isCommandValue(value: string): boolean {
	return value.startsWith("!");
}

/** Resolves a config value as described above. Throws ConfigValueError when a command fails. */
export async function resolveConfigValue(value: string, options: ResolveOptions = {}): Promise<string> {
	if (isCommandValue(value)) {
		const command = value.slice(1).trim();
		let pending = commandCache.get(command);
		if (!pending) {
			pending = runCommand(command, options);
			commandCache.set(command, pending);
			pending.then(
				(out) => settledCommands.set(command, out),
				// A failed command may succeed later (e.g. after unlocking a vault).
				() => commandCache.delete(command),
			);
		}
		return pending;
	}
	return plainValue(value, options.env);
}

function plainValue(value: string, env: NodeJS.ProcessEnv = process.env): string {
	const fromEnv = /^[A-Za-z_][A-Za-z0-9_]*$/.test(value) ? env[value] : undefined;
	return fromEnv !== undefined && fromEnv !== "" ? fromEnv : value;
}

/**
 * The value without running anything: literal or environment as
 * resolveConfigValue gives it, a `!command` only once it has run in this
 * process (undefined before). For synchronous readers such as model filters.
 */
export function peekConfigValue(value: string, env?: NodeJS.ProcessEnv): string | undefined {
	return isCommandValue(value) ? settledCommands.get(value.slice(1).trim()) : plainValue(value, env);
}

/** Synchronous check whether a value could resolve without running anything (commands count as yes). */
export function hasConfigValue(value: string | undefined): boolean {
	return typeof value === "string" && value.trim() !== "";
}

function runCommand(command: string, options: ResolveOptions): Promise<string> {
	const label = options.label ?? "a configured value";
	const timeout = options.timeoutMs ?? 10_000;
	return new Promise((resolve, reject) => {
		exec(
			command,
			{ shell: options.shell, timeout, env: options.env ?? process.env, maxBuffer: 1024 * 1024, windowsHide: true },
			(error, stdout) => {
				if (error) {
					const killed = (error as { killed?: boolean }).killed;
					const code = (error as { code?: unknown }).code;
					const why = killed ? `timed out after ${timeout} ms` : `exited with code ${String(code ?? "unknown")}`;
					reject(new ConfigValueError(`The command for ${label} failed: it ${why}.`));
					return;
				}
				const out = String(stdout).trim();
				if (out === "") reject(new ConfigValueError(`The command for ${label} printed nothing.`));
				else resolve(out);
			},
		);
	});
}
