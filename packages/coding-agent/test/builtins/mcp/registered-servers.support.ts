// An extension (written to a sandbox at test time) that registers MCP
// servers with pi.registerMcpServer: some while it loads, others from its
// commands `/<prefix>-add <name>`, `/<prefix>-remove <name>` and
// `/<prefix>-list`. Command failures are thrown, so they surface as the
// extension errors pi reports.
import { writeFileSync } from "node:fs";
import { join } from "node:path";

export interface RegisteringExtension {
	/** Command prefix (two extensions in one run need different ones). */
	prefix: string;
	/** Registered by the factory, in order. */
	atLoad?: Record<string, unknown>;
	/** Registered by `/<prefix>-add <name>`. */
	later?: Record<string, unknown>;
	/** Also registers `/mcp` (replaces the built-in MCP support). */
	ownsMcpCommand?: boolean;
	/** Handles mcp_servers_change: each change is notified as `servers changed: a,b`. */
	watchesChanges?: boolean;
}

export function writeRegisteringExtension(dir: string, spec: RegisteringExtension): string {
	const file = join(dir, `${spec.prefix}-ext.ts`);
	writeFileSync(
		file,
		`// test extension: registers MCP servers
const SPEC = ${JSON.stringify(spec)};
export default function (pi: any) {
	for (const [name, config] of Object.entries(SPEC.atLoad ?? {})) pi.registerMcpServer(name, config);
	pi.registerCommand(SPEC.prefix + "-add", {
		description: "register an MCP server",
		handler: async (args: string, ctx: any) => {
			const name = args.trim();
			pi.registerMcpServer(name, SPEC.later?.[name] ?? { command: "never-used" });
			ctx.ui.notify("registered " + name, "info");
		},
	});
	pi.registerCommand(SPEC.prefix + "-remove", {
		description: "unregister an MCP server",
		handler: async (args: string, ctx: any) => {
			pi.unregisterMcpServer(args.trim());
			ctx.ui.notify("unregistered " + args.trim(), "info");
		},
	});
	pi.registerCommand(SPEC.prefix + "-list", {
		description: "list registered MCP servers",
		handler: async (_args: string, ctx: any) => {
			const list = pi.getMcpServers().map((s: any) => s.name + " by " + s.extensionPath + " " + JSON.stringify(s.config));
			ctx.ui.notify("registered servers: " + list.join("; "), "info");
		},
	});
	if (SPEC.ownsMcpCommand) {
		pi.registerCommand("mcp", {
			description: "the replacement MCP command",
			handler: async (_args: string, ctx: any) => ctx.ui.notify("replacement mcp command", "info"),
		});
	}
	if (SPEC.watchesChanges) {
		pi.on("mcp_servers_change", (event: any, ctx: any) => {
			ctx.ui.notify("servers changed: " + event.servers.map((s: any) => s.name).join(","), "info");
		});
	}
}
`,
	);
	return file;
}

/** A bash command that prints "gone" once the process in `pidFile` has ended (at most 30 s), else "still-running". */
export function waitGoneCommand(pidFile: string): string {
	return [
		`pid=$(cat ${pidFile})`,
		"for i in $(seq 1 300); do",
		'if [ ! -e /proc/$pid ] || grep -q ") Z " /proc/$pid/stat; then echo gone; exit 0; fi',
		"sleep 0.1",
		"done",
		"echo still-running",
	].join("\n");
}
