// builtin:mcp — the MCP client as an extension. Written only against the
// public extension API. Start-up never waits for a server: session_start
// reads the config and starts every connection in the background; a prompt
// waits (at most PROMPT_WAIT_MS) only for servers with `direct` tools, which
// must be declared in its request; calls of tools that may reach MCP tools
// (`reachesTools`) wait for the servers they name.
import {
	canOpenBrowser,
	type ExtensionAPI,
	type ExtensionContext,
	getAgentDir,
	openBrowser,
	parsePastedAuthorization,
} from "../../extensions/types.js";
import { type ConfiguredServer, loadMcpConfig, type McpConfig, parseServerEntry, serverKey } from "./config.js";
import { MCP_EVENTS, MCP_TOOL_PREFIX } from "./interface.js";
import { McpLog } from "./log.js";
import { McpManager, type ServerEntry } from "./manager.js";
import { McpServersPrompt, mcpServersSection } from "./prompt-section.js";
import { registerResourceTools, resourceExposure } from "./resources.js";
import { formatStatus } from "./status.js";

/** How long the first prompt waits for servers with direct tools. */
export const PROMPT_WAIT_MS = 10_000;

function hasDirectTools(s: ConfiguredServer): boolean {
	return s.config.exposure === "direct" || Object.values(s.config.toolExposure).includes("direct");
}

/**
 * Servers extensions registered with pi.registerMcpServer(), except those an
 * mcp.json entry of the same name overrides (listed in `overridden` for /mcp).
 */
function registeredServers(pi: ExtensionAPI, config: McpConfig, cwd: string) {
	const servers: { server: ConfiguredServer; key: string }[] = [];
	const overridden: string[] = [];
	for (const r of pi.getMcpServers()) {
		const file = config.servers.find((s) => serverKey(s.name) === serverKey(r.name));
		if (file) {
			overridden.push(`"${r.name}" registered by ${r.extensionPath} is overridden by "${file.name}" in ${file.file}`);
			continue;
		}
		try {
			const server = {
				name: r.name,
				config: parseServerEntry(r.config, cwd),
				source: "extension" as const,
				file: r.extensionPath,
			};
			servers.push({ server, key: JSON.stringify(r.config) });
		} catch (error) {
			// The API validated it with the same rules; kept as a report rather than a crash.
			config.errors.push(`${r.extensionPath}: server "${r.name}": ${(error as Error).message}`);
		}
	}
	return { servers, overridden };
}

export default function mcpExtension(pi: ExtensionAPI): void {
	let manager: McpManager | undefined;
	let config: McpConfig = { servers: [], errors: [], autoEnableCodemode: true };
	let ui: ExtensionContext["ui"] | undefined;
	let resourcesRegistered: string | undefined;
	/** Set at session_start; registrations changed before it are read there. */
	let session: { cwd: string; agentDir: string } | undefined;
	/** Registered servers in the manager → the registration's config as JSON (a changed one reconnects). */
	const registeredKeys = new Map<string, string>();
	/** "x registered by … is overridden by … in mcp.json" lines for /mcp. */
	let overridden: string[] = [];

	const report = (message: string, level: "info" | "warning" | "error") => ui?.notify(message, level);

	let serversPrompt = new McpServersPrompt();

	const createManager = (agentDir: string): McpManager => {
		const m = new McpManager({
			pi,
			log: new McpLog(agentDir),
			version: pi.apiVersion,
			report,
			autoEnableCodemode: config.autoEnableCodemode,
			authProvider: async (server) => {
				const { createStoredAuthProvider } = await import("./oauth.js");
				return createStoredAuthProvider(agentDir, server);
			},
			onConnected: (entry) => {
				if (!entry.hasResources) return;
				// (Re-)register when the widest exposure among resource servers changes.
				const exposure = resourceExposure(m);
				if (resourcesRegistered === exposure) return;
				resourcesRegistered = exposure;
				registerResourceTools(pi, m, exposure);
			},
		});
		return m;
	};

	/**
	 * Brings the manager's extension-registered servers in line with
	 * pi.getMcpServers(): unregistered ones (and re-registered ones with a new
	 * config) are closed and their tools withdrawn; new ones start connecting.
	 */
	const syncRegistered = async () => {
		if (!session) return;
		const { servers, overridden: over } = registeredServers(pi, config, session.cwd);
		overridden = over;
		const next = new Map(servers.map((s) => [s.server.name, s]));
		const gone = [...registeredKeys].filter(([name, key]) => next.get(name)?.key !== key).map(([name]) => name);
		for (const name of gone) registeredKeys.delete(name);
		const added = servers.filter((s) => !registeredKeys.has(s.server.name));
		for (const s of added) registeredKeys.set(s.server.name, s.key);
		if (added.length > 0) manager ??= createManager(session.agentDir);
		const m = manager;
		if (!m) return;
		const closing = gone.map((name) => m.removeServer(name));
		for (const s of added) m.addServer(s.server);
		await Promise.all(closing);
	};

	pi.on("session_start", (_event, ctx) => {
		serversPrompt = new McpServersPrompt();
		ui = ctx.ui;
		const agentDir = getAgentDir();
		session = { cwd: ctx.cwd, agentDir };
		config = loadMcpConfig({ agentDir, cwd: ctx.cwd, projectTrusted: ctx.isProjectTrusted() });
		for (const e of config.errors) report(`MCP config: ${e}`, "warning");
		if (config.servers.length > 0) {
			manager = createManager(agentDir);
			manager.setServers(config.servers);
			manager.startAll();
		}
		return syncRegistered();
	});

	// Later registrations connect (or close) right away, as a third-party MCP extension would do it.
	pi.on("mcp_servers_change", () => syncRegistered());

	pi.on("session_shutdown", async () => {
		session = undefined;
		registeredKeys.clear();
		await manager?.closeAll();
		manager = undefined;
	});

	// A prompt waits (bounded) for servers whose tools must be declared in its request; it
	// returns the names of those it went without (`skip`: servers not to wait for again).
	const waitForDirectServers = async (skip: ReadonlySet<string> = new Set()): Promise<Set<string>> => {
		const m = manager;
		if (!m) return new Set();
		const direct = [...m.servers.values()].filter(
			(e) => e.state === "connecting" && hasDirectTools(e.configured) && !skip.has(e.name),
		);
		if (direct.length === 0) return new Set();
		const late = await m.waitFor(
			direct.map((e) => e.name),
			PROMPT_WAIT_MS,
		);
		for (const e of late) {
			report(
				`MCP server "${e.name}" was not ready after ${PROMPT_WAIT_MS / 1000} s; this prompt goes without its tools`,
				"warning",
			);
		}
		return new Set(late.map((e) => e.name));
	};
	// Servers the typed prompt already waited for and went without: its run (before_agent_start,
	// right after) does not wait for them a second time.
	let wentWithout = new Set<string>();

	// At the input stage, before the session records the prompt's system prompt, so the
	// direct tools are in its tool list too. Queued input (steer/follow-up) does not wait.
	pi.on("input", async (event) => {
		if (!event.streamingBehavior) wentWithout = await waitForDirectServers();
		return { action: "continue" };
	});

	// Runs started without typed input (an extension's message) wait here; then the
	// mcp_servers section (system prompt at the first prompt, a message when it changed).
	pi.on("before_agent_start", async (event) => {
		const m = manager;
		if (!m) return;
		const skip = wentWithout;
		wentWithout = new Set();
		await waitForDirectServers(skip);
		const section = mcpServersSection([...m.servers.values()], (e) => m.describe(e));
		return serversPrompt.next(event.systemPrompt, section);
	});

	// Calls that may reach MCP tools wait for the servers they name.
	pi.on("tool_call", async (event) => {
		const m = manager;
		if (!m) return;
		if (event.toolName.startsWith(MCP_TOOL_PREFIX)) {
			const server = event.toolName.slice(MCP_TOOL_PREFIX.length).split("__")[0];
			await m.waitFor([server]);
			return;
		}
		if (event.toolName === "list_mcp_resources" || event.toolName === "list_mcp_resource_templates") return;
		const info = pi.getAllTools().find((t) => t.name === event.toolName);
		if (!info?.reachesTools) return;
		let reach: "all" | string[];
		try {
			reach = info.reachesTools(event.input as Record<string, unknown>);
		} catch {
			reach = "all";
		}
		await m.waitFor(reach === "all" ? "all" : m.serversNamedBy(reach));
	});

	// In the app the sign-in page opens in the browser where there is one, and the
	// address the browser ended on can be pasted when it cannot reach the loopback.
	const signIn = async (ctx: ExtensionContext, entry: ServerEntry) => {
		const { login } = await import("./oauth.js");
		const app = ctx.mode === "tui" && ctx.hasUI;
		await login(getAgentDir(), entry.configured, {
			notify: (message) => ctx.ui.notify(message, "info"),
			...(app
				? {
						openUrl: (url: string) => canOpenBrowser() && openBrowser(url),
						pastedRedirect: (signal: AbortSignal) =>
							ctx.ui.input(
								`Signing in to "${entry.name}" — or paste the address your browser ended on (Esc cancels)`,
								"http://127.0.0.1:…/callback?code=…",
								{ signal },
							),
						parsePasted: parsePastedAuthorization,
					}
				: {}),
		});
		await manager?.reconnect(entry.name);
		ctx.ui.notify(formatStatus([entry], []), entry.state === "connected" ? "info" : "error");
	};
	const signOut = async (ctx: ExtensionContext, entry: ServerEntry) => {
		const { logout } = await import("./oauth.js");
		await logout(getAgentDir(), entry.configured);
		ctx.ui.notify(`Signed out of MCP server "${entry.name}"`, "info");
	};

	pi.registerCommand("mcp", {
		description: "MCP servers: status; /mcp tools|reconnect|login|logout <server>",
		getArgumentCompletions: (prefix) =>
			["tools", "reconnect", "login", "logout"]
				.filter((w) => w.startsWith(prefix))
				.map((w) => ({ value: w, label: w })),
		handler: async (args, ctx) => {
			const [action, name] = args.trim().split(/\s+/);
			const m = manager;
			if (!action && ctx.mode === "tui") {
				// The menu draws with @pi/tui (~210 KB with marked): loaded only when shown, not by every -p run.
				const { showMcpMenu } = await import("./menu.js");
				await showMcpMenu(ctx, {
					manager: m,
					configErrors: config.errors,
					overridden,
					login: (entry) => signIn(ctx, entry),
					logout: (entry) => signOut(ctx, entry),
					onChange: (listener) => {
						const offs = [MCP_EVENTS.serverState, MCP_EVENTS.toolsChanged].map((channel) =>
							pi.events.on(channel, () => listener()),
						);
						return () => {
							for (const off of offs) off();
						};
					},
				});
				return;
			}
			if (!action) {
				// Give servers that are still connecting a moment, so the status says how they ended.
				await m?.waitFor("all", PROMPT_WAIT_MS);
				ctx.ui.notify(formatStatus([...(m?.servers.values() ?? [])], config.errors, false, overridden), "info");
				return;
			}
			const entry = name ? m?.find(name) : undefined;
			if (!entry || !m) {
				ctx.ui.notify(name ? `No MCP server named "${name}"` : `Usage: /mcp ${action} <server>`, "error");
				return;
			}
			if (action === "tools") {
				await m.waitFor([entry.name]);
				ctx.ui.notify(formatStatus([entry], [], true), "info");
			} else if (action === "reconnect") {
				await m.reconnect(entry.name);
				ctx.ui.notify(formatStatus([entry], []), entry.state === "connected" ? "info" : "error");
			} else if (action === "login" || action === "logout") {
				try {
					await (action === "login" ? signIn(ctx, entry) : signOut(ctx, entry));
				} catch (error) {
					ctx.ui.notify(`MCP ${action} for "${entry.name}" failed: ${(error as Error).message}`, "error");
				}
			} else ctx.ui.notify(`Unknown /mcp action "${action}" (tools, reconnect, login, logout)`, "error");
		},
	});
}
