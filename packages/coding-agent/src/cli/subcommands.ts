// `pi <command> …`: words that, as the FIRST argument, name a command instead
// of starting a prompt. They are recognised before prompt parsing so that
// `pi install foo` is never sent to a model.
//
// Registering a real implementation is one line: give the entry a `load` that
// imports its module lazily (so `pi --version` stays fast), e.g.
//   auth: { ..., load: () => import("./commands/auth.js").then((m) => m.runAuthCommand) },
// Until then the command says it is not available and exits non-zero.

export interface SubcommandIo {
	stdin: NodeJS.ReadStream;
	stdout: NodeJS.WritableStream;
	stderr: NodeJS.WritableStream;
	env: NodeJS.ProcessEnv;
	cwd: string;
}

/** Runs a command with the arguments after its name; resolves to the exit code. */
export type SubcommandRun = (argv: readonly string[], io: SubcommandIo) => Promise<number>;

export interface Subcommand {
	/** Usage line shown in `pi --help`. */
	usage: string;
	summary: string;
	/** Lazily loads the implementation; absent while the command is not built yet. */
	load?: () => Promise<SubcommandRun>;
	/** Another name for the same entry (`uninstall` → `remove`). */
	aliasOf?: string;
}

const SUBCOMMANDS: Record<string, Subcommand> = {
	install: {
		usage: "pi install <source> [-l]",
		summary: "Install a package and add it to settings",
		load: () => import("./commands/packages.js").then((m) => m.packageCommand("install")),
	},
	remove: {
		usage: "pi remove <source> [-l]",
		summary: "Remove a package and its settings entry",
		load: () => import("./commands/packages.js").then((m) => m.packageCommand("remove")),
	},
	uninstall: { usage: "pi uninstall <source> [-l]", summary: "Same as remove", aliasOf: "remove" },
	update: {
		usage: "pi update [--extensions] [source]",
		summary: "Update packages",
		load: () => import("./commands/packages.js").then((m) => m.packageCommand("update")),
	},
	list: {
		usage: "pi list",
		summary: "List installed packages",
		load: () => import("./commands/packages.js").then((m) => m.packageCommand("list")),
	},
	config: {
		usage: "pi config [-l]",
		summary: "Choose which package resources load",
		load: () => import("./commands/config.js").then((m) => m.runConfigCommand),
	},
	mcp: {
		usage: "pi mcp <add|list|get|remove|login|logout>",
		summary: "Manage MCP servers",
		load: () => import("./commands/mcp.js").then((m) => m.runMcpCommand),
	},
	auth: {
		usage: "pi auth <command>",
		summary: "Log in or out of providers, check credentials",
		load: () => import("./commands/auth.js").then((m) => m.runAuthCommand),
	},
	models: {
		usage: "pi models pull <url> [name]",
		summary: "Download a GGUF model for local use (local/<name>)",
		load: () => import("./commands/models.js").then((m) => m.runModelsCommand),
	},
	fleet: {
		usage: "pi fleet <worker|submit|status|tail|steer|abort|export>",
		summary: "Run agents across machines (BullMQ + Redis, PostgreSQL sessions)",
		load: () => import("./commands/fleet.js").then((m) => m.runFleetCommand),
	},
};

export const SUBCOMMAND_NAMES: readonly string[] = Object.keys(SUBCOMMANDS);

/** The command named by the first argument, if any; flags and messages never match. */
export function findSubcommand(argv: readonly string[]): { name: string; command: Subcommand } | undefined {
	const first = argv[0];
	if (first === undefined || !Object.hasOwn(SUBCOMMANDS, first)) return undefined;
	const own = SUBCOMMANDS[first];
	const target = own.aliasOf ? SUBCOMMANDS[own.aliasOf] : own;
	return { name: first, command: { ...own, load: target.load } };
}

/** Usage lines for `pi --help` (aliases included). */
export function subcommandHelp(): [string, string][] {
	return Object.values(SUBCOMMANDS).map((c) => [c.usage, c.summary]);
}

export async function runSubcommand(
	name: string,
	command: Subcommand,
	argv: readonly string[],
	io: SubcommandIo,
): Promise<number> {
	if (!command.load) {
		io.stderr.write(`Error: \`pi ${name}\` is not available in this build yet.\n`);
		return 1;
	}
	const run = await command.load();
	return run(argv, io);
}
