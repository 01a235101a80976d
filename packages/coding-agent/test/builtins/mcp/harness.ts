// A McpManager over real fixture servers, with a recording stand-in for the
// parts of `pi` the manager uses (registerTool, events, tool lists).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { type ConfiguredServer, parseServerEntry } from "../../../src/builtins/mcp/config.js";
import { McpLog } from "../../../src/builtins/mcp/log.js";
import { McpManager } from "../../../src/builtins/mcp/manager.js";
import { createStoredAuthProvider } from "../../../src/builtins/mcp/oauth.js";
import type { AnyToolDefinition, ExtensionAPI } from "../../../src/extensions/types.js";

export const STDIO_SERVER = resolve(__dirname, "../../support/mcp/stdio-server.mjs");

export function stdioEntry(name: string, options: Record<string, unknown>, extra: Record<string, unknown> = {}) {
	return { command: process.execPath, args: [STDIO_SERVER, JSON.stringify({ name, ...options })], ...extra };
}

export function configured(name: string, raw: Record<string, unknown>): ConfiguredServer {
	return { name, config: parseServerEntry(raw, process.cwd()), source: "user", file: "test" };
}

export interface Harness {
	manager: McpManager;
	tools: Map<string, AnyToolDefinition>;
	active: string[];
	reports: { message: string; level: string }[];
	events: { channel: string; data: unknown }[];
	agentDir: string;
	close(): Promise<void>;
}

export function createHarness(
	servers: ConfiguredServer[],
	o: {
		autoEnableCodemode?: boolean /** OAuth through stored tokens in the harness's agent dir. */;
		oauth?: boolean;
	} = {},
): Harness {
	const agentDir = mkdtempSync(join(tmpdir(), "pi-mcp-"));
	const tools = new Map<string, AnyToolDefinition>();
	const active: string[] = [];
	const reports: Harness["reports"] = [];
	const events: Harness["events"] = [];
	const pi = {
		registerTool(tool: AnyToolDefinition) {
			tools.set(tool.name, tool);
		},
		events: { emit: (channel: string, data: unknown) => events.push({ channel, data }), on: () => () => {} },
		getAllTools: () =>
			[...tools.values()].map((t) => ({
				name: t.name,
				exposure: t.exposure ?? "direct",
				reachesTools: t.reachesTools,
			})),
		getActiveTools: () => [...active],
		setActiveTools: (names: string[]) => {
			active.splice(0, active.length, ...names);
		},
	} as unknown as ExtensionAPI;
	const manager = new McpManager({
		pi,
		log: new McpLog(agentDir),
		version: "test",
		report: (message, level) => reports.push({ message, level }),
		autoEnableCodemode: o.autoEnableCodemode ?? true,
		...(o.oauth ? { authProvider: (server) => createStoredAuthProvider(agentDir, server) } : {}),
	});
	manager.setServers(servers);
	return {
		manager,
		tools,
		active,
		reports,
		events,
		agentDir,
		async close() {
			await manager.closeAll();
			rmSync(agentDir, { recursive: true, force: true });
		},
	};
}

export async function until(check: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
	const start = Date.now();
	while (!check()) {
		if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
		await new Promise((r) => setTimeout(r, 20));
	}
}

/** Runs a registered tool as the agent would. */
export function run(h: Harness, name: string, args: Record<string, unknown> = {}, signal?: AbortSignal) {
	const tool = h.tools.get(name);
	if (!tool) throw new Error(`no tool ${name}; have ${[...h.tools.keys()].join(", ")}`);
	return tool.execute("call-1", args, signal, undefined, {} as never);
}

/** Whether a process runs (a zombie waiting to be reaped counts as gone). */
export function alive(pid: number): boolean {
	try {
		process.kill(pid, 0);
	} catch {
		return false;
	}
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
		return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
	} catch {
		return true;
	}
}
