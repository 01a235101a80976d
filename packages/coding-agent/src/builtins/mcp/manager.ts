// Every configured server of one session: connects them in the background,
// registers their tools as `mcp__<server>__<tool>` through the public
// extension API, follows tool-list changes, reports failures by server name,
// reconnects with backoff after a crash, and lets callers wait (bounded) for
// servers that are still connecting. The SDK is reached only through
// connection.ts, imported on the first connection.
import type { ExtensionAPI, ToolAnnotations } from "../../extensions/types.js";
import type { ConfiguredServer, Exposure } from "./config.js";
import { serverKey } from "./config.js";
import type { Connection, ConnectionHooks, McpTool } from "./connection.js";
import {
	MCP_EVENTS,
	type McpServerStateEvent,
	type McpServerStateName,
	type McpToolsChangedEvent,
} from "./interface.js";
import type { McpLog } from "./log.js";
import { exposureOf, namespaceOf, toolNames } from "./names.js";
import { toToolResult } from "./tool-result.js";

/** Reconnect delays after an unexpected close; past the last one, the next call tries again. */
export const RECONNECT_DELAYS_MS = [1000, 2000, 4000, 8000, 16000, 30000];
const STDERR_TAIL = 20;

type ConnectionModule = typeof import("./connection.js");
let connectionModule: Promise<ConnectionModule> | undefined;
const loadConnection = () => {
	connectionModule ??= import("./connection.js");
	return connectionModule;
};

export interface ManagerOptions {
	pi: ExtensionAPI;
	log: McpLog;
	version: string;
	/** A message for the user (naming the server); where it shows depends on the mode. */
	report: (message: string, level: "info" | "warning" | "error") => void;
	/** OAuth for an HTTP server (stored tokens, refresh); undefined for stdio servers. */
	authProvider?: (
		server: ConfiguredServer,
	) => Promise<import("@modelcontextprotocol/sdk/client/auth.js").OAuthClientProvider | undefined>;
	autoEnableCodemode: boolean;
	/** After a server connected and its tools are registered. */
	onConnected?: (entry: ServerEntry) => void;
}

export class ServerEntry {
	state: McpServerStateName = "closed";
	error: string | undefined;
	connection: Connection | undefined;
	tools: McpTool[] = [];
	/** Registered name → server tool, for tools currently registered (not hidden). */
	registered = new Map<string, { tool: McpTool; exposure: Exposure }>();
	instructions: string | undefined;
	hasResources = false;
	stderrTail: string[] = [];
	attempts = 0;
	reconnectTimer: NodeJS.Timeout | undefined;
	/** Settles when the current connection attempt ends (either way). */
	settled: Promise<void> = Promise.resolve();
	garbageReported = false;
	failureReported = false;
	/** The error of the last failed attempt, kept while a retry is connecting; cleared on success. */
	lastError: string | undefined;
	/** Taken out of the session (unregistered): no attempt of it connects again. */
	removed = false;
	constructor(public configured: ConfiguredServer) {}
	get name(): string {
		return this.configured.name;
	}
}

export class McpManager {
	readonly servers = new Map<string, ServerEntry>();
	private closed = false;

	constructor(private readonly o: ManagerOptions) {}

	setServers(servers: ConfiguredServer[]): void {
		for (const s of servers) this.servers.set(s.name, new ServerEntry(s));
	}

	find(name: string): ServerEntry | undefined {
		const direct = this.servers.get(name);
		if (direct) return direct;
		const bare = name.startsWith("mcp__") ? name.slice(5) : name;
		for (const e of this.servers.values()) {
			if (serverKey(e.name) === serverKey(bare) || namespaceOf(e.name) === namespaceOf(bare)) return e;
		}
		return undefined;
	}

	/** Starts every enabled server; returns at once. */
	startAll(): void {
		for (const entry of this.servers.values()) this.start(entry);
	}

	private start(entry: ServerEntry): void {
		if (!entry.configured.config.enabled) {
			this.setState(entry, "disabled");
			return;
		}
		void this.connect(entry);
	}

	/** A server added during the session (an extension registered it): starts connecting at once. */
	addServer(server: ConfiguredServer): ServerEntry {
		const entry = new ServerEntry(server);
		this.servers.set(server.name, entry);
		this.start(entry);
		return entry;
	}

	/**
	 * A server removed during the session (its extension unregistered it): the
	 * connection closes, its tools are withdrawn, and calls of them fail naming
	 * the server.
	 */
	async removeServer(name: string): Promise<void> {
		const entry = this.servers.get(name);
		if (!entry) return;
		this.servers.delete(name);
		entry.removed = true;
		clearTimeout(entry.reconnectTimer);
		entry.reconnectTimer = undefined;
		const c = entry.connection;
		entry.connection = undefined;
		this.setState(entry, "closed");
		if (entry.registered.size > 0) {
			entry.tools = [];
			this.registerTools(entry);
		}
		await c?.close();
	}

	private setState(entry: ServerEntry, state: McpServerStateName, error?: string): void {
		entry.state = state;
		entry.error = error;
		const event: McpServerStateEvent = { server: entry.name, state, ...(error ? { error } : {}) };
		this.o.pi.events.emit(MCP_EVENTS.serverState, event);
	}

	private hooks(entry: ServerEntry): ConnectionHooks {
		const log = this.o.log;
		return {
			stderr: (line) => {
				entry.stderrTail.push(line);
				if (entry.stderrTail.length > STDERR_TAIL) entry.stderrTail.shift();
				log.write(entry.name, "stderr", undefined, line);
			},
			garbage: (line, error) => {
				log.write(
					entry.name,
					"error",
					"protocol",
					`invalid message: ${error.message.split("\n")[0]}: ${line.slice(0, 200)}`,
				);
				if (!entry.garbageReported) {
					entry.garbageReported = true;
					this.o.report(
						`MCP server "${entry.name}" sent output that is not JSON-RPC (${line.slice(0, 80) || error.message}); see ${log.path}`,
						"warning",
					);
				}
			},
			log: (level, logger, message) => log.write(entry.name, level, logger, message),
			toolsChanged: () => void this.refreshTools(entry),
			resourcesChanged: () => {},
			closed: (reason) => this.onUnexpectedClose(entry, reason),
		};
	}

	/** One connection attempt (a previous connection is closed first). */
	connect(entry: ServerEntry): Promise<void> {
		if (this.closed || entry.removed) return Promise.resolve();
		clearTimeout(entry.reconnectTimer);
		entry.reconnectTimer = undefined;
		// Synchronously "connecting", so waiters that look right after this call see it.
		this.setState(entry, "connecting");
		const previous = entry.connection;
		entry.connection = undefined;
		const attempt = (async () => {
			await previous?.close();
			entry.stderrTail = [];
			try {
				const { Connection } = await loadConnection();
				const authProvider =
					entry.configured.config.type === "http" ? await this.o.authProvider?.(entry.configured) : undefined;
				const connection = await Connection.open({
					server: entry.configured,
					hooks: this.hooks(entry),
					authProvider,
					version: this.o.version,
				});
				if (this.closed || entry.removed) {
					await connection.close();
					return;
				}
				entry.connection = connection;
				entry.instructions = connection.instructions;
				entry.hasResources = connection.hasResources;
				entry.tools = await connection.listTools();
				// Unregistered while listing: removeServer closed the connection already.
				if (entry.removed) return;
				entry.attempts = 0;
				entry.garbageReported = false;
				entry.failureReported = false;
				entry.lastError = undefined;
				this.setState(entry, "connected");
				this.registerTools(entry);
				this.o.onConnected?.(entry);
			} catch (error) {
				if (entry.removed) return;
				const { classify } = await loadConnection();
				const kind = (error as { kind?: string }).kind ?? classify(error);
				if (kind === "needs-auth") {
					this.setState(entry, "needs-auth", "needs sign-in");
					this.o.report(
						`MCP server "${entry.name}" needs sign-in: run /mcp login ${entry.name} or pi mcp login ${entry.name}`,
						"warning",
					);
					return;
				}
				const message = this.withStderr(entry, (error as Error).message);
				entry.lastError = message;
				this.setState(entry, "failed", message);
				// Reported once per outage: the backoff attempts that follow fail quietly (/mcp shows the latest error).
				if (!entry.failureReported) this.o.report(`MCP server "${entry.name}" failed to connect: ${message}`, "error");
				entry.failureReported = true;
				this.scheduleReconnect(entry);
			}
		})();
		entry.settled = attempt;
		return attempt;
	}

	private withStderr(entry: ServerEntry, message: string): string {
		const tail = entry.stderrTail.slice(-3).join(" | ");
		return tail ? `${message} (stderr: ${tail})` : message;
	}

	private onUnexpectedClose(entry: ServerEntry, reason: string): void {
		if (this.closed || entry.state !== "connected") return;
		entry.connection = undefined;
		const message = this.withStderr(entry, reason);
		entry.lastError = message;
		this.setState(entry, "failed", message);
		this.o.report(`MCP server "${entry.name}" disconnected: ${message}; reconnecting`, "warning");
		this.scheduleReconnect(entry);
	}

	private scheduleReconnect(entry: ServerEntry): void {
		if (this.closed || entry.removed || entry.attempts >= RECONNECT_DELAYS_MS.length) return;
		const delay = RECONNECT_DELAYS_MS[entry.attempts];
		entry.attempts++;
		entry.reconnectTimer = setTimeout(() => void this.connect(entry), delay);
		entry.reconnectTimer.unref();
	}

	/** Re-reads a server's tools after a list-change notice. */
	private async refreshTools(entry: ServerEntry): Promise<void> {
		const connection = entry.connection;
		if (!connection) return;
		try {
			entry.tools = await connection.listTools();
			this.registerTools(entry);
		} catch (error) {
			const { classify } = await loadConnection();
			if (classify(error) === "needs-auth") {
				this.needsSignInAgain(entry, "tools/list");
				return;
			}
			this.o.log.write(entry.name, "error", "tools", `could not re-list tools: ${(error as Error).message}`);
		}
	}

	/** Registers the server's current tools; tools that disappeared are withdrawn (re-registered hidden). */
	private registerTools(entry: ServerEntry): void {
		const { pi } = this.o;
		const config = entry.configured.config;
		const names = toolNames(
			entry.name,
			entry.tools.map((t) => t.name),
		);
		const namespace = {
			name: namespaceOf(entry.name),
			aliases: [entry.name],
			...(this.describe(entry) ? { description: this.describe(entry) } : {}),
			...(entry.instructions ? { instructions: entry.instructions } : {}),
		};
		const before = new Set(entry.registered.keys());
		entry.registered.clear();
		for (const tool of entry.tools) {
			const name = names.get(tool.name) as string;
			const exposure = exposureOf(tool.name, config.exposure, config.toolExposure);
			before.delete(name);
			if (exposure !== "hidden") entry.registered.set(name, { tool, exposure });
			pi.registerTool({
				name,
				label: `${entry.name}: ${tool.title ?? tool.annotations?.title ?? tool.name}`,
				description: tool.description ?? `${tool.name} (MCP server ${entry.name})`,
				parameters: (tool.inputSchema ?? { type: "object" }) as never,
				exposure,
				namespace,
				...(tool.annotations ? { annotations: pickAnnotations(tool.annotations) } : {}),
				execute: (_id, params, signal) =>
					this.callTool(entry.name, tool.name, params as Record<string, unknown>, signal),
			});
		}
		for (const gone of before) {
			pi.registerTool({
				name: gone,
				label: gone,
				description: `Withdrawn by MCP server ${entry.name}`,
				parameters: { type: "object" } as never,
				exposure: "hidden",
				execute: async () => {
					throw new Error(`${gone} is no longer offered by MCP server "${entry.name}"`);
				},
			});
		}
		const event: McpToolsChangedEvent = { server: entry.name, tools: [...entry.registered.keys()] };
		pi.events.emit(MCP_EVENTS.toolsChanged, event);
		this.activateOrchestrators(entry);
	}

	/** Turns on codemode / tool_search for servers that need them (only tools of that name that declare reachesTools). */
	private activateOrchestrators(entry: ServerEntry): void {
		if (!this.o.autoEnableCodemode) return;
		const exposures = new Set([...entry.registered.values()].map((r) => r.exposure));
		const want: string[] = [];
		if (exposures.has("codemode")) want.push("codemode");
		if (exposures.has("deferred")) want.push("tool_search");
		if (want.length === 0) return;
		const { pi } = this.o;
		const all = pi.getAllTools();
		const active = pi.getActiveTools();
		const add = want.filter((n) => !active.includes(n) && all.some((t) => t.name === n && t.reachesTools));
		if (add.length > 0) pi.setActiveTools([...active, ...add]);
	}

	describe(entry: ServerEntry): string | undefined {
		return (
			entry.configured.config.description ??
			entry.instructions
				?.split("\n")
				.find((l) => l.trim() !== "")
				?.trim()
		);
	}

	/** Calls a server tool; a server that is connecting is waited for, a failed one is tried again once. */
	async callTool(server: string, tool: string, args: Record<string, unknown>, signal: AbortSignal | undefined) {
		const entry = this.servers.get(server);
		if (!entry) throw new Error(`MCP server "${server}" is not configured`);
		const result = await this.request(entry, `tools/call ${tool}`, (c) => c.callTool(tool, args, signal));
		return toToolResult(entry.name, tool, result);
	}

	/**
	 * One request of any kind (tools/call, resources/list, resources/read, …)
	 * on a ready connection. Tokens that stopped being enough mid-session
	 * (expired and not refreshable, or a 403 step-up asking for more scope)
	 * put the server in "needs sign-in" whatever the request was.
	 */
	async request<T>(entry: ServerEntry, what: string, run: (connection: Connection) => Promise<T>): Promise<T> {
		const connection = await this.ready(entry);
		try {
			return await run(connection);
		} catch (error) {
			const { classify } = await loadConnection();
			if (classify(error) === "needs-auth") throw this.needsSignInAgain(entry, what);
			throw new Error(await this.callFailure(entry, what, error));
		}
	}

	private needsSignInAgain(entry: ServerEntry, what: string): Error {
		this.setState(entry, "needs-auth", "needs sign-in");
		const how = `run /mcp login ${entry.name} or pi mcp login ${entry.name}`;
		this.o.report(`MCP server "${entry.name}" needs sign-in again: ${how}`, "warning");
		return new Error(`MCP server "${entry.name}" needs sign-in again for ${what}: ${how}`);
	}

	/** A usable connection, or an error naming the server and why. */
	async ready(entry: ServerEntry): Promise<Connection> {
		if (entry.state === "disabled") throw new Error(`MCP server "${entry.name}" is disabled`);
		if (entry.state === "connecting") await entry.settled;
		else if (!entry.connection && entry.state !== "needs-auth") {
			// A dropped or failed server gets one fresh attempt on the next call.
			await this.connect(entry);
		}
		if (entry.state === "needs-auth") {
			throw new Error(
				`MCP server "${entry.name}" needs sign-in: run /mcp login ${entry.name} or pi mcp login ${entry.name}`,
			);
		}
		if (!entry.connection)
			throw new Error(`MCP server "${entry.name}" is not connected: ${entry.error ?? "unknown error"}`);
		return entry.connection;
	}

	private async callFailure(entry: ServerEntry, what: string, error: unknown): Promise<string> {
		const { classify } = await loadConnection();
		const kind = classify(error);
		const seconds = Math.round(entry.configured.config.timeoutMs / 1000);
		if (kind === "timeout") return `MCP server "${entry.name}" did not answer ${what} within ${seconds} s`;
		if (kind === "closed") {
			// The close handler has the exit facts; give it a tick to record them.
			await new Promise((r) => setImmediate(r));
			return `MCP server "${entry.name}" closed the connection during ${what}: ${entry.error ?? "connection closed"}`;
		}
		if (kind === "aborted") return `${what} on MCP server "${entry.name}" was aborted`;
		return `MCP server "${entry.name}" failed ${what}: ${(error as Error).message}`;
	}

	/** Waits until the named servers (all when "all") have settled, at most each server's timeout; returns those not ready. */
	async waitFor(names: string[] | "all", maxMs?: number): Promise<ServerEntry[]> {
		const entries =
			names === "all" ? [...this.servers.values()] : names.map((n) => this.find(n)).filter((e) => e !== undefined);
		const pending = entries.filter((e) => e.state === "connecting");
		await Promise.all(
			pending.map((e) => {
				const limit = maxMs ?? e.configured.config.timeoutMs;
				let timer: NodeJS.Timeout | undefined;
				return Promise.race([
					e.settled,
					new Promise<void>((r) => {
						timer = setTimeout(r, limit);
						timer.unref();
					}),
				]).finally(() => clearTimeout(timer));
			}),
		);
		return pending.filter((e) => e.state !== "connected");
	}

	/** Servers a call may reach by the words of its input (`mcp__<server>` or the bare name inside a word). */
	serversNamedBy(words: readonly string[]): string[] {
		const out: string[] = [];
		for (const e of this.servers.values()) {
			const keys = [namespaceOf(e.name), e.name, serverKey(e.name)];
			if (words.some((w) => keys.some((k) => w.includes(k)))) out.push(e.name);
		}
		return out;
	}

	async reconnect(name: string): Promise<ServerEntry | undefined> {
		const entry = this.find(name);
		if (!entry) return undefined;
		entry.attempts = 0;
		await this.connect(entry);
		return entry;
	}

	/** After `entry.configured.config.exposure`/`toolExposure` changed: registers the tools again under it. */
	reexpose(entry: ServerEntry): void {
		if (entry.state === "connected") this.registerTools(entry);
	}

	/** Stops a server for this session: its connection closes and its tools are withdrawn. */
	async disable(entry: ServerEntry): Promise<void> {
		entry.configured.config.enabled = false;
		clearTimeout(entry.reconnectTimer);
		const c = entry.connection;
		entry.connection = undefined;
		this.setState(entry, "disabled");
		if (entry.registered.size > 0) {
			entry.tools = [];
			this.registerTools(entry);
		}
		await c?.close();
	}

	async enable(entry: ServerEntry): Promise<void> {
		entry.configured.config.enabled = true;
		entry.attempts = 0;
		await this.connect(entry);
	}

	async closeAll(): Promise<void> {
		this.closed = true;
		await Promise.all(
			[...this.servers.values()].map(async (e) => {
				clearTimeout(e.reconnectTimer);
				const c = e.connection;
				e.connection = undefined;
				e.state = "closed";
				await c?.close();
			}),
		);
	}
}

function pickAnnotations(a: Record<string, unknown>): ToolAnnotations {
	const out: ToolAnnotations = {};
	for (const k of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const) {
		if (typeof a[k] === "boolean") out[k] = a[k] as boolean;
	}
	return out;
}
