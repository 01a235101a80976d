// MCP servers registered by extensions (`pi.registerMcpServer`): the config
// shape (an `mcpServers` entry of mcp.json), its validation, and the registry
// of one runtime. The core only validates and keeps registrations; whichever
// extension handles `mcp_servers_change` (the bundled `builtin:mcp`, or one
// that replaced it) connects them. Validation here is the one the bundled MCP
// extension applies to mcp.json entries too, so a registration is refused
// for exactly what a file entry would be refused for.

export type McpExposure = "codemode" | "deferred" | "direct" | "hidden";
export const MCP_EXPOSURES: readonly McpExposure[] = ["codemode", "deferred", "direct", "hidden"];

/** OAuth client settings of an HTTP server (for servers without dynamic client registration, or to pin one). */
export interface McpOAuthConfig {
	clientId?: string;
	/** May reference environment variables (`${NAME}`) or commands (`!cmd`). */
	clientSecret?: string;
	callbackPort?: number;
	/** http on localhost, 127.0.0.1 or [::1]. */
	callbackUrl?: string;
	/** `client_name` sent with dynamic client registration. */
	clientName?: string;
	clientRegistration?: "auto" | "dcr" | "cimd";
	scope?: string;
	authServerMetadataUrl?: string;
}

interface McpServerConfigBase {
	/** Default `codemode` (`codemode-deferred` is read as `codemode`). */
	exposure?: McpExposure;
	/** Exposure per server tool name or `*` pattern; an exact name wins, then the first matching pattern. */
	toolExposure?: Record<string, McpExposure>;
	/** What the server offers, in a sentence (system prompt, tool search, codemode's namespaces). */
	description?: string;
	/** Default true. */
	enabled?: boolean;
	/** Per-request timeout in seconds. Default 60. */
	timeout?: number;
}

export interface McpStdioServerConfig extends McpServerConfigBase {
	type?: "stdio";
	command: string;
	args?: string[];
	/** Values may reference environment variables (`${NAME}`) or commands (`!cmd`). */
	env?: Record<string, string>;
	/** Relative paths resolve against the session's working directory. */
	cwd?: string;
}

export interface McpHttpServerConfig extends McpServerConfigBase {
	type?: "http" | "streamable-http";
	url: string;
	/** Values may reference environment variables (`${NAME}`) or commands (`!cmd`). */
	headers?: Record<string, string>;
	oauth?: McpOAuthConfig;
}

/** One `mcpServers` entry of mcp.json, as `pi.registerMcpServer()` takes it. */
export type McpServerConfig = McpStdioServerConfig | McpHttpServerConfig;

/** A server an extension registered with `pi.registerMcpServer()`. */
export interface RegisteredMcpServer {
	name: string;
	/** The validated config (a copy; exposure aliases resolved). */
	config: McpServerConfig;
	/** Path of the extension that registered it. */
	extensionPath: string;
}

const SERVER_NAME = /^[A-Za-z0-9_-]+$/;

/** Server names: letters, digits, `_` and `-`. */
export function isValidMcpServerName(name: unknown): name is string {
	return typeof name === "string" && SERVER_NAME.test(name);
}

/** Names that differ only in `-` and `_` share a tool namespace (`mcp__<name>`), so they are the same server. */
export const mcpServerKey = (name: string): string => name.replace(/-/g, "_");

/** Whether pi's client metadata documents list the redirect URI of `callbackUrl` (`/callback` on localhost or 127.0.0.1). */
export function isClientMetadataDocumentCallback(callbackUrl: string | undefined): boolean {
	if (callbackUrl === undefined) return true;
	const url = new URL(callbackUrl);
	return (url.hostname === "127.0.0.1" || url.hostname === "localhost") && url.pathname === "/callback";
}

function isRecord(v: unknown): v is Record<string, unknown> {
	return typeof v === "object" && v !== null && !Array.isArray(v);
}

function stringMap(v: unknown, what: string): Record<string, string> | undefined {
	if (v === undefined) return undefined;
	if (!isRecord(v) || !Object.values(v).every((x) => typeof x === "string")) {
		throw new Error(`"${what}" must be an object of strings`);
	}
	return { ...(v as Record<string, string>) };
}

/** An exposure value; `codemode-deferred` is read as `codemode`. Throws naming `what`. */
export function checkMcpExposure(v: unknown, what: string): McpExposure | undefined {
	if (v === undefined) return undefined;
	if (v === "codemode-deferred") return "codemode";
	if (typeof v === "string" && (MCP_EXPOSURES as readonly string[]).includes(v)) return v as McpExposure;
	throw new Error(`"${what}" must be one of ${MCP_EXPOSURES.join(", ")} (got ${JSON.stringify(v)})`);
}

export function checkMcpToolExposure(v: unknown): Record<string, McpExposure> | undefined {
	if (v === undefined) return undefined;
	if (!isRecord(v)) throw new Error(`"toolExposure" must be an object`);
	const out: Record<string, McpExposure> = {};
	for (const [k, x] of Object.entries(v)) out[k] = checkMcpExposure(x, `toolExposure.${k}`) as McpExposure;
	return out;
}

function checkOAuth(v: unknown): McpOAuthConfig | undefined {
	if (v === undefined) return undefined;
	if (!isRecord(v)) throw new Error(`"oauth" must be an object`);
	const str = (k: string) => {
		if (v[k] !== undefined && typeof v[k] !== "string") throw new Error(`"oauth.${k}" must be a string`);
		return v[k] as string | undefined;
	};
	const port = v.callbackPort;
	if (port !== undefined && (typeof port !== "number" || !Number.isInteger(port) || port < 0 || port > 65535)) {
		throw new Error(`"oauth.callbackPort" must be a port number`);
	}
	const reg = v.clientRegistration;
	if (reg !== undefined && reg !== "auto" && reg !== "dcr" && reg !== "cimd") {
		throw new Error(`"oauth.clientRegistration" must be auto, dcr or cimd`);
	}
	const callbackUrl = str("callbackUrl");
	if (callbackUrl !== undefined) {
		let u: URL;
		try {
			u = new URL(callbackUrl);
		} catch {
			throw new Error(`"oauth.callbackUrl" is not a URL (${JSON.stringify(callbackUrl)})`);
		}
		if (u.protocol !== "http:" || !["localhost", "127.0.0.1", "[::1]"].includes(u.hostname)) {
			throw new Error(`"oauth.callbackUrl" must use http on localhost, 127.0.0.1 or [::1]`);
		}
	}
	if (reg === "cimd") {
		if (v.clientId !== undefined || v.clientName !== undefined) {
			throw new Error(`"oauth.clientRegistration" "cimd" cannot be combined with clientId or clientName`);
		}
		if (!isClientMetadataDocumentCallback(callbackUrl)) {
			throw new Error(
				`"oauth.clientRegistration" "cimd" needs a callbackUrl on localhost or 127.0.0.1 with the path /callback`,
			);
		}
	}
	const out: McpOAuthConfig = {};
	for (const k of ["clientId", "clientSecret", "clientName", "scope", "authServerMetadataUrl"] as const) {
		const s = str(k);
		if (s !== undefined) out[k] = s;
	}
	if (port !== undefined) out.callbackPort = port as number;
	if (callbackUrl !== undefined) out.callbackUrl = callbackUrl;
	if (reg !== undefined) out.clientRegistration = reg as McpOAuthConfig["clientRegistration"];
	return out;
}

/**
 * One `mcpServers` entry → a validated copy in the same shape (exposure
 * aliases resolved, unknown keys left out). Throws an Error whose message
 * names the field and what is wrong with it.
 */
export function checkMcpServerConfig(raw: unknown): McpServerConfig {
	if (!isRecord(raw)) throw new Error("the entry must be an object");
	const type = raw.type;
	if (type === "sse") throw new Error(`the SSE transport is not supported; use the server's streamable HTTP endpoint`);
	if (type !== undefined && type !== "stdio" && type !== "http" && type !== "streamable-http") {
		throw new Error(`"type" must be stdio, http or streamable-http (got ${JSON.stringify(type)})`);
	}
	const timeout = raw.timeout;
	if (timeout !== undefined && (typeof timeout !== "number" || !(timeout > 0) || !Number.isFinite(timeout))) {
		throw new Error(`"timeout" must be a positive number of seconds`);
	}
	if (raw.enabled !== undefined && typeof raw.enabled !== "boolean") throw new Error(`"enabled" must be true or false`);
	if (raw.description !== undefined && typeof raw.description !== "string")
		throw new Error(`"description" must be a string`);
	const base: McpServerConfigBase = {};
	const exposure = checkMcpExposure(raw.exposure, "exposure");
	if (exposure !== undefined) base.exposure = exposure;
	const toolExposure = checkMcpToolExposure(raw.toolExposure);
	if (toolExposure !== undefined) base.toolExposure = toolExposure;
	if (typeof raw.description === "string") base.description = raw.description;
	if (typeof raw.enabled === "boolean") base.enabled = raw.enabled;
	if (typeof timeout === "number") base.timeout = timeout;

	const isHttp = type === "http" || type === "streamable-http" || (type === undefined && raw.url !== undefined);
	if (isHttp) {
		if (typeof raw.url !== "string") throw new Error(`"url" must be a string`);
		let url: URL;
		try {
			url = new URL(raw.url);
		} catch {
			throw new Error(`"url" is not a URL (${JSON.stringify(raw.url)})`);
		}
		if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`"url" must be http(s)`);
		const headers = stringMap(raw.headers, "headers");
		const oauth = checkOAuth(raw.oauth);
		return {
			...(type === "http" || type === "streamable-http" ? { type } : {}),
			url: raw.url,
			...(headers ? { headers } : {}),
			...(oauth ? { oauth } : {}),
			...base,
		};
	}
	if (typeof raw.command !== "string" || raw.command.trim() === "") {
		throw new Error(`needs "command" (a stdio server) or "url" (an HTTP server)`);
	}
	if (raw.args !== undefined && (!Array.isArray(raw.args) || !raw.args.every((a) => typeof a === "string"))) {
		throw new Error(`"args" must be an array of strings`);
	}
	if (raw.cwd !== undefined && typeof raw.cwd !== "string") throw new Error(`"cwd" must be a string`);
	const env = stringMap(raw.env, "env");
	return {
		...(type === "stdio" ? { type } : {}),
		command: raw.command,
		...(raw.args !== undefined ? { args: [...(raw.args as string[])] } : {}),
		...(env ? { env } : {}),
		...(typeof raw.cwd === "string" ? { cwd: raw.cwd } : {}),
		...base,
	};
}

/**
 * The servers the extensions of one runtime registered, in registration
 * order. Ownership is checked by the caller (`pi.registerMcpServer`); the
 * change listener (set when the runner binds to a session) turns every
 * change after that into `mcp_servers_change`.
 */
export class McpServerRegistry {
	private readonly servers = new Map<string, RegisteredMcpServer>();
	private changeListener: (() => void) | undefined;

	/** Adds or replaces a server. */
	register(server: RegisteredMcpServer): void {
		this.servers.set(server.name, server);
		this.changeListener?.();
	}

	/** Removes a server `extensionPath` registered; other extensions' servers are left alone. */
	unregister(name: string, extensionPath: string): boolean {
		if (this.servers.get(name)?.extensionPath !== extensionPath) return false;
		this.servers.delete(name);
		this.changeListener?.();
		return true;
	}

	get(name: string): RegisteredMcpServer | undefined {
		const s = this.servers.get(name);
		return s ? copy(s) : undefined;
	}

	/** Copies, so a caller cannot change a registration behind the registry's back. */
	list(): RegisteredMcpServer[] {
		return [...this.servers.values()].map(copy);
	}

	setChangeListener(listener: (() => void) | undefined): void {
		this.changeListener = listener;
	}
}

const copy = (s: RegisteredMcpServer): RegisteredMcpServer => ({ ...s, config: structuredClone(s.config) });
