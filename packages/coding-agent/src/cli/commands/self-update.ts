// `pi update` for pi itself. The newest version is asked of the npm registry
// the user's npm is configured for (no other server: pi has no release site
// and no update check at start-up), once it is clear how pi could be
// updated at all, which is, in this order:
//   1. PI_SELF_UPDATE_COMMAND (split on whitespace) or the user settings'
//      `selfUpdateCommand` (an argv array) runs, with {packageName},
//      {version} and {installSpec} filled in;
//   2. a global install by npm, pnpm, yarn or bun (recognised by where this
//      CLI's files are) is updated by that package manager;
//   3. anything else (a source checkout, a copy) is named, with what to do
//      (and the registry is not asked).
// Nothing runs when the installed version is the newest, unless --force.
import { realpathSync } from "node:fs";
import { sep } from "node:path";
import { exec, failureSummary } from "../../packages/exec.js";
import type { CommandIo } from "./io.js";

export const PACKAGE_NAME = "@pi/coding-agent";

export interface SelfUpdateOptions {
	version: string;
	force: boolean;
	/** The user settings' npmCommand (e.g. ["pnpm"]); default ["npm"]. */
	npmCommand?: readonly string[];
	/** The user settings' selfUpdateCommand. */
	settingsCommand?: unknown;
	/** Where this CLI runs from (process.argv[1]). */
	scriptPath?: string;
}

export type InstallMethod = "npm" | "pnpm" | "yarn" | "bun";

/** How a CLI at `path` was installed, judged by the directories package managers install global packages into. */
export function detectInstallMethod(path: string): InstallMethod | undefined {
	const p = path.split(sep).join("/");
	const pkg = `/node_modules/${PACKAGE_NAME}/`;
	if (!p.includes(pkg)) return undefined;
	if (/\/\.bun\/install\/global\//.test(p)) return "bun";
	if (/\/pnpm\/global\/|\/\.pnpm\//.test(p)) return "pnpm";
	if (/\/yarn\/global\/|\/\.config\/yarn\/global\//.test(p)) return "yarn";
	// npm's global prefix: <prefix>/lib/node_modules (Unix) or <prefix>/node_modules (Windows).
	if (/\/lib\/node_modules\/@pi\/coding-agent\//.test(p) || process.platform === "win32") return "npm";
	return undefined;
}

function installCommand(method: InstallMethod, spec: string): string[] {
	switch (method) {
		case "npm":
			return ["npm", "install", "-g", spec];
		case "pnpm":
			return ["pnpm", "add", "-g", spec];
		case "yarn":
			return ["yarn", "global", "add", spec];
		case "bun":
			return ["bun", "add", "-g", spec];
	}
}

/** The configured command, if any: the environment variable wins over the setting. */
export function configuredCommand(env: NodeJS.ProcessEnv, setting: unknown): string[] | undefined {
	const fromEnv = env.PI_SELF_UPDATE_COMMAND?.trim();
	if (fromEnv) return fromEnv.split(/\s+/);
	if (Array.isArray(setting) && setting.length > 0 && setting.every((a) => typeof a === "string")) {
		return setting as string[];
	}
	return undefined;
}

function fill(argv: readonly string[], version: string): string[] {
	const spec = `${PACKAGE_NAME}@${version}`;
	return argv.map((a) =>
		a.replaceAll("{packageName}", PACKAGE_NAME).replaceAll("{version}", version).replaceAll("{installSpec}", spec),
	);
}

/** Runs a command with the terminal attached (its progress is the user's to see); resolves to its exit code. */
async function runVisible(argv: readonly string[], io: CommandIo): Promise<number> {
	const { spawn } = await import("node:child_process");
	return new Promise((resolve) => {
		const child = spawn(argv[0], argv.slice(1), { env: io.env, cwd: io.cwd, stdio: ["ignore", "pipe", "pipe"] });
		child.stdout.on("data", (d) => io.stdout.write(d));
		child.stderr.on("data", (d) => io.stderr.write(d));
		child.on("error", (error) => {
			io.stderr.write(`Error: could not run ${argv[0]}: ${error.message}\n`);
			resolve(127);
		});
		child.on("close", (code) => resolve(code ?? 1));
	});
}

function newer(a: string, b: string): boolean {
	const parse = (v: string) =>
		v
			.split(/[.+-]/)
			.slice(0, 3)
			.map((n) => Number.parseInt(n, 10) || 0);
	const [x, y] = [parse(a), parse(b)];
	for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] > y[i];
	return false;
}

/** Resolves to the exit code. */
export async function selfUpdate(o: SelfUpdateOptions, io: CommandIo): Promise<number> {
	if (io.env.PI_OFFLINE === "1" || io.env.PI_OFFLINE === "true") {
		io.stdout.write("Skipped updating pi (offline mode).\n");
		return 0;
	}
	// How first: when pi cannot update itself there is no point asking the registry.
	const custom = configuredCommand(io.env, o.settingsCommand);
	let method: InstallMethod | undefined;
	if (!custom) {
		let where = o.scriptPath ?? "";
		try {
			where = realpathSync(where);
		} catch {
			// Keep the path as given.
		}
		method = detectInstallMethod(where);
		if (!method) {
			io.stderr.write(
				`Error: pi ${o.version} runs from ${where || "an unknown place"}, which is not a global npm, pnpm, yarn or bun install, ` +
					`so pi cannot update itself. Update it the way it was installed (a source checkout: git pull && npm run build), ` +
					"or set PI_SELF_UPDATE_COMMAND or the selfUpdateCommand setting.\n",
			);
			return 1;
		}
	}
	const [npmBin, ...npmPre] = o.npmCommand && o.npmCommand.length > 0 ? o.npmCommand : ["npm"];
	const view = await exec(npmBin, [...npmPre, "view", `${PACKAGE_NAME}@latest`, "version", "--json"], {
		env: io.env,
		cwd: io.cwd,
		timeoutMs: 120_000,
	});
	let latest: string | undefined;
	try {
		const v = JSON.parse(view.stdout) as unknown;
		latest = typeof v === "string" ? v : undefined;
	} catch {
		latest = undefined;
	}
	if (view.code !== 0 || !latest) {
		io.stderr.write(
			`Error: could not find the newest version of ${PACKAGE_NAME} in the npm registry: ${failureSummary(view)}\n`,
		);
		return 1;
	}
	if (!o.force && !newer(latest, o.version)) {
		io.stdout.write(`pi ${o.version} is up to date (the registry's newest is ${latest}).\n`);
		return 0;
	}
	const argv = custom ? fill(custom, latest) : installCommand(method as InstallMethod, `${PACKAGE_NAME}@${latest}`);
	io.stdout.write(`Updating pi ${o.version} → ${latest}: ${argv.join(" ")}\n`);
	const code = await runVisible(argv, io);
	if (code !== 0) {
		io.stderr.write(`Error: ${argv.join(" ")} failed (exit ${code}).\n`);
		return 1;
	}
	io.stdout.write(`Updated pi from ${o.version} to ${latest}.\n`);
	return 0;
}
