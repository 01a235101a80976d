// One live connection to one server, over the official SDK's Client. This
// module imports the SDK; it is itself imported lazily (on the first
// connection), so a session without MCP servers never loads the SDK.

import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
	ErrorCode,
	LoggingMessageNotificationSchema,
	McpError,
	ResourceListChangedNotificationSchema,
	type Tool,
	ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { ConfiguredServer } from "./config.js";
import type { McpCallToolResult } from "./interface.js";
import { GroupStdioTransport } from "./stdio-transport.js";
import { resolveValues } from "./values.js";

export type McpTool = Tool;

export interface ConnectionHooks {
	stderr(line: string): void;
	garbage(line: string, error: Error): void;
	log(level: string, logger: string | undefined, message: string): void;
	toolsChanged(): void;
	resourcesChanged(): void;
	/** The connection ended without our asking (crash, network loss). */
	closed(reason: string): void;
}

export interface OpenOptions {
	server: ConfiguredServer;
	hooks: ConnectionHooks;
	authProvider?: OAuthClientProvider;
	version: string;
}

/** Why a request failed, as a fact (not parsed from text). */
export type FailureKind = "needs-auth" | "timeout" | "closed" | "aborted" | "server-error" | "other";

export class McpFailure extends Error {
	constructor(
		message: string,
		readonly kind: FailureKind,
	) {
		super(message);
		this.name = "McpFailure";
	}
}

export function classify(error: unknown): FailureKind {
	if (error instanceof UnauthorizedError || (error as { kind?: unknown })?.kind === "needs-auth") return "needs-auth";
	if (error instanceof McpError) {
		if (error.code === ErrorCode.RequestTimeout) return "timeout";
		if (error.code === ErrorCode.ConnectionClosed) return "closed";
		return "server-error";
	}
	if (error instanceof Error && error.name === "AbortError") return "aborted";
	return "other";
}

export interface ListPage<T> {
	items: T[];
	nextCursor?: string;
}

export class Connection {
	private closing = false;

	private constructor(
		readonly client: Client,
		private readonly transport: Transport,
		private readonly timeoutMs: number,
	) {}

	static async open(o: OpenOptions): Promise<Connection> {
		const { server, hooks } = o;
		const config = server.config;
		let transport: Transport;
		if (config.type === "stdio") {
			const env = await resolveValues(config.env, `server "${server.name}" env`);
			transport = new GroupStdioTransport({
				command: config.command,
				args: config.args,
				env,
				cwd: config.cwd,
				onStderr: hooks.stderr,
				onGarbage: hooks.garbage,
			});
		} else {
			const headers = await resolveValues(config.headers, `server "${server.name}" header`);
			const hasAuthorization = Object.keys(headers).some((h) => h.toLowerCase() === "authorization");
			transport = new StreamableHTTPClientTransport(new URL(config.url), {
				requestInit: { headers },
				...(o.authProvider && !hasAuthorization ? { authProvider: o.authProvider } : {}),
				// pi's provider watches 403 step-up challenges through the transport's fetch (oauth.ts).
				...(o.authProvider && !hasAuthorization && "fetch" in o.authProvider
					? { fetch: (o.authProvider as { fetch: typeof fetch }).fetch }
					: {}),
			});
		}
		const client = new Client({ name: "pi", version: o.version }, { capabilities: {} });
		const connection = new Connection(client, transport, config.timeoutMs);
		client.setNotificationHandler(ToolListChangedNotificationSchema, async () => hooks.toolsChanged());
		client.setNotificationHandler(ResourceListChangedNotificationSchema, async () => hooks.resourcesChanged());
		client.setNotificationHandler(LoggingMessageNotificationSchema, async (n) => {
			const data = n.params.data;
			hooks.log(n.params.level, n.params.logger, typeof data === "string" ? data : JSON.stringify(data));
		});
		client.onclose = () => {
			if (!connection.closing) hooks.closed(connection.describeExit("the connection closed"));
		};
		client.onerror = (error) => {
			// Transport-level noise (a dropped SSE stream the SDK retries) is logged, not fatal.
			hooks.log("error", "transport", error.message);
		};
		try {
			await client.connect(transport, { timeout: config.timeoutMs });
		} catch (error) {
			connection.closing = true;
			await transport.close().catch(() => {});
			const kind = classify(error);
			const message =
				kind === "timeout"
					? `did not answer the initialize request within ${Math.round(config.timeoutMs / 1000)} s`
					: kind === "closed"
						? connection.describeExit("exited during start-up")
						: (error as Error).message;
			throw new McpFailure(message, kind);
		}
		return connection;
	}

	/** "exited with code 3", with the process's exit facts when there are any. */
	describeExit(fallback: string): string {
		const t = this.transport;
		if (t instanceof GroupStdioTransport && t.exit) {
			const how = t.exit.signal ? `was killed by ${t.exit.signal}` : `exited with code ${t.exit.code}`;
			return `the server process ${how}`;
		}
		return fallback;
	}

	get instructions(): string | undefined {
		return this.client.getInstructions();
	}

	get hasResources(): boolean {
		return this.client.getServerCapabilities()?.resources !== undefined;
	}

	get pid(): number | undefined {
		return this.transport instanceof GroupStdioTransport ? this.transport.pid : undefined;
	}

	async listTools(): Promise<McpTool[]> {
		const out: McpTool[] = [];
		let cursor: string | undefined;
		do {
			const page = await this.client.listTools(cursor ? { cursor } : undefined, { timeout: this.timeoutMs });
			out.push(...page.tools);
			cursor = page.nextCursor;
		} while (cursor);
		return out;
	}

	async callTool(
		name: string,
		args: Record<string, unknown>,
		signal: AbortSignal | undefined,
		onProgress?: (progress: number, total: number | undefined, message: string | undefined) => void,
	): Promise<McpCallToolResult> {
		const result = await this.client.callTool({ name, arguments: args }, undefined, {
			signal,
			timeout: this.timeoutMs,
			resetTimeoutOnProgress: true,
			...(onProgress ? { onprogress: (p) => onProgress(p.progress, p.total, p.message) } : {}),
		});
		return result as McpCallToolResult;
	}

	async listResources(cursor?: string): Promise<ListPage<Record<string, unknown>>> {
		const page = await this.client.listResources(cursor ? { cursor } : undefined, { timeout: this.timeoutMs });
		return { items: page.resources as Record<string, unknown>[], nextCursor: page.nextCursor };
	}

	async listResourceTemplates(cursor?: string): Promise<ListPage<Record<string, unknown>>> {
		const page = await this.client.listResourceTemplates(cursor ? { cursor } : undefined, {
			timeout: this.timeoutMs,
		});
		return { items: page.resourceTemplates as Record<string, unknown>[], nextCursor: page.nextCursor };
	}

	async readResource(uri: string, signal?: AbortSignal): Promise<Record<string, unknown>[]> {
		const r = await this.client.readResource({ uri }, { signal, timeout: this.timeoutMs });
		return r.contents as Record<string, unknown>[];
	}

	async close(): Promise<void> {
		this.closing = true;
		await this.client.close().catch(() => {});
	}
}
