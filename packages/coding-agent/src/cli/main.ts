// The `pi` command. Parses arguments and answers --version/--help straight
// away; everything else (settings, providers, the agent runtime) is loaded
// with import() only when a run needs it, so start-up stays fast.

import { getAgentDir } from "../config/paths.js";
import { VERSION } from "../version.js";
import { type Diagnostic, parseArgs } from "./args.js";
import { type ExtensionFlagHelp, formatHelp } from "./help.js";
import { findSubcommand, runSubcommand } from "./subcommands.js";

/**
 * `process.cwd()` throws (ENOENT, "uv_cwd") once the directory the shell is in
 * was deleted; everything after start-up needs it. One clear message instead
 * of a stack trace.
 */
function deletedCwdError(): string | undefined {
	try {
		process.cwd();
		return undefined;
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code ?? "unknown error";
		const where = process.env.PWD ? ` (${process.env.PWD})` : "";
		return `Error: the current working directory${where} no longer exists or cannot be read (${code}); it was probably deleted or moved. cd to an existing directory and run pi again.\n`;
	}
}

export async function main(argv: string[]): Promise<number> {
	// `pi install …`, `pi auth …`: commands, never prompts (see subcommands.ts).
	const sub = findSubcommand(argv);
	const cwdError = argv.length === 1 && (argv[0] === "--version" || argv[0] === "-v") ? undefined : deletedCwdError();
	if (cwdError) {
		process.stderr.write(cwdError);
		return 1;
	}
	if (sub) {
		process.title = "pi";
		return runSubcommand(sub.name, sub.command, argv.slice(1), {
			stdin: process.stdin,
			stdout: process.stdout,
			stderr: process.stderr,
			env: process.env,
			cwd: process.cwd(),
		});
	}
	const args = parseArgs(argv);
	if (args.version) {
		process.stdout.write(`${VERSION}\n`);
		return 0;
	}
	if (args.help) {
		process.stdout.write(formatHelp(VERSION, await extensionFlagHelp(args)));
		return 0;
	}
	const errors = args.diagnostics.filter((d: Diagnostic) => d.type === "error");
	for (const d of args.diagnostics) process.stderr.write(`${d.type === "error" ? "Error" : "Warning"}: ${d.message}\n`);
	if (errors.length > 0) return 1;
	process.title = "pi";
	process.env.PI_CODING_AGENT = "true";
	// For the Node 20 code cache (compile-cache.ts): this run compiles a session's code, worth keeping.
	(globalThis as { __pi_full_run?: boolean }).__pi_full_run = true;
	const { runCli } = await import("./run.js");
	return runCli(args, undefined, argv);
}

/**
 * Flags registered by the extensions `--help` would load (the bundled ones,
 * global dir, settings, the user's installed packages, -e; never the
 * project's before trust), for the help text. Packages are only read where
 * they are installed: help installs nothing (offline).
 */
async function extensionFlagHelp(args: ReturnType<typeof parseArgs>): Promise<ExtensionFlagHelp[]> {
	const agentDir = getAgentDir();
	const [{ setupExtensions }, { BUILTIN_EXTENSIONS }, packageSetup] = await Promise.all([
		import("../runtime/extension-setup.js"),
		import("./builtin-extensions.js"),
		import("../packages/startup.js"),
	]);
	const { SettingsManager } = await import("../config/settings.js");
	const settings = SettingsManager.create({ cwd: process.cwd(), agentDir, loadProject: false });
	const split = packageSetup.splitExtensionArgs(args.extensions);
	const packages = await packageSetup.loadRunPackages({
		cwd: process.cwd(),
		agentDir,
		env: { ...process.env, PI_OFFLINE: "1" },
		scope: "user",
		entries: settings.getScopeSettings("global").packages,
		temporary: split.packages,
	});
	const ext = await setupExtensions({
		cwd: process.cwd(),
		agentDir,
		projectTrusted: false,
		globalSetting: settings.getScopeSettings("global").extensions,
		cliPaths: split.paths,
		noExtensions: args.noExtensions,
		builtins: BUILTIN_EXTENSIONS,
		packageExtensions: packages.packages.length > 0 ? packageSetup.packageExtensions(packages.packages) : undefined,
	});
	for (const e of ext.errors) process.stderr.write(`Error: ${e.message}\n`);
	return (ext.runner?.getFlags() ?? []).map((f) => ({
		name: f.name,
		description: f.description,
		takesValue: f.type === "string",
	}));
}
