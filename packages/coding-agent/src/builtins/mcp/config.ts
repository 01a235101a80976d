// mcp.json: reading, validating and merging the user file
// (`<agentDir>/mcp.json`) and the project file (`.pi/mcp.json`, only when the
// project is trusted). The format is the one other MCP clients use
// (`mcpServers`), with pi's keys (`exposure`, `toolExposure`, `description`,
// `timeout`, `enabled`, `oauth`). An invalid entry is reported and skipped;
// it never stops the other servers.
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { documentListsCallback } from "./oauth-client.js";

export type Exposure = "codemode" | "deferred" | "direct" | "hidden";
export const EXPOSURES: readonly Exposure[] = ["codemode", "deferred", "direct", "hidden"];

export interface OAuthSettings {
	clientId?: string;
	clientSecret?: string;
	callbackPort?: number;
	callbackUrl?: string;
	clientName?: string;
	clientRegistration?: "auto" | "dcr" | "cimd";
	scope?: string;
	authServerMetadataUrl?: string;
}

interface CommonConfig {
	/** Per-request timeout, milliseconds. */
	timeoutMs: number;
	enabled: boolean;
	exposure: Exposure;
	toolExposure: Record<string, Exposure>;
	description?: string;
}

export interface StdioServerConfig extends CommonConfig {
	type: "stdio";
	command: string;
	args: string[];
	/** Values may still hold `${VAR}` / `!command` (resolved at connect time). */
	env: Record<string, string>;
	cwd?: string;
}

export interface HttpServerConfig extends CommonConfig {
	type: "http";
	url: string;
	headers: Record<string, string>;
	oauth?: OAuthSettings;
}

export type ServerConfig = StdioServerConfig | HttpServerConfig;

export type ConfigSource = "user" | "project" | "extension";

export interface ConfiguredServer {
	name: string;
	config: ServerConfig;
	source: ConfigSource;
	/** The file the entry came from (or the extension path). */
	file: string;
	/** A project entry that only overrides enabled/exposure of a user-level server. */
	projectOverride?: boolean;
}

export interface McpConfig {
	servers: ConfiguredServer[];
	/** Problems, each naming the file and the server. */
	errors: string[];
	autoEnableCodemode: boolean;
}

const NAME = /^[A-Za-z0-9_-]+$/;
/** Names that differ only in `-` and `_` are the same server. */
export const serverKey = (name: string) => name.replace(/-/g, "_");

export function userConfigPath(agentDir: string): string {
	return join(agentDir, "mcp.json");
}
export function projectConfigPath(cwd: string): string {
	return join(cwd, ".pi", "mcp.json");
}

const expandHome = (p: string) => (p === "~" ? homedir() : p.startsWith("~/") ? join(homedir(), p.slice(2)) : p);

function isRecord(v: unknown): v is Record<string, unknown> {
	return typeof v === "object" && v !== null && !Array.isArray(v);
}

function stringMap(v: unknown, what: string): Record<string, string> {
	if (v === undefined) return {};
	if (!isRecord(v) || !Object.values(v).every((x) => typeof x === "string")) {
		throw new Error(`"${what}" must be an object of strings`);
	}
	return { ...(v as Record<string, string>) };
}

function parseExposure(v: unknown, what: string): Exposure | undefined {
	if (v === undefined) return undefined;
	if (v === "codemode-deferred") return "codemode";
	if (typeof v === "string" && (EXPOSURES as readonly string[]).includes(v)) return v as Exposure;
	throw new Error(`"${what}" must be one of ${EXPOSURES.join(", ")} (got ${JSON.stringify(v)})`);
}

function parseToolExposure(v: unknown): Record<string, Exposure> {
	if (v === undefined) return {};
	if (!isRecord(v)) throw new Error(`"toolExposure" must be an object`);
	const out: Record<string, Exposure> = {};
	for (const [k, x] of Object.entries(v)) out[k] = parseExposure(x, `toolExposure.${k}`) as Exposure;
	return out;
}

function parseOAuth(v: unknown): OAuthSettings | undefined {
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
		const u = new URL(callbackUrl);
		if (u.protocol !== "http:" || !["localhost", "127.0.0.1", "[::1]"].includes(u.hostname)) {
			throw new Error(`"oauth.callbackUrl" must use http on localhost, 127.0.0.1 or [::1]`);
		}
	}
	if (reg === "cimd") {
		if (v.clientId !== undefined || v.clientName !== undefined) {
			throw new Error(`"oauth.clientRegistration" "cimd" cannot be combined with clientId or clientName`);
		}
		if (callbackUrl !== undefined && !documentListsCallback(callbackUrl)) {
			throw new Error(
				`"oauth.clientRegistration" "cimd" needs a callbackUrl on localhost or 127.0.0.1 with the path /callback`,
			);
		}
	}
	return {
		clientId: str("clientId"),
		clientSecret: str("clientSecret"),
		callbackPort: port as number | undefined,
		callbackUrl,
		clientName: str("clientName"),
		clientRegistration: reg as OAuthSettings["clientRegistration"],
		scope: str("scope"),
		authServerMetadataUrl: str("authServerMetadataUrl"),
	};
}

/** One `mcpServers` entry → a validated config; throws with the reason. */
export function parseServerEntry(raw: unknown, cwd: string): ServerConfig {
	if (!isRecord(raw)) throw new Error("the entry must be an object");
	const type = raw.type;
	if (type === "sse") throw new Error(`the SSE transport is not supported; use the server's streamable HTTP endpoint`);
	if (type !== undefined && type !== "stdio" && type !== "http" && type !== "streamable-http") {
		throw new Error(`"type" must be stdio, http or streamable-http (got ${JSON.stringify(type)})`);
	}
	const timeout = raw.timeout;
	if (timeout !== undefined && (typeof timeout !== "number" || !(timeout > 0))) {
		throw new Error(`"timeout" must be a positive number of seconds`);
	}
	if (raw.enabled !== undefined && typeof raw.enabled !== "boolean") throw new Error(`"enabled" must be true or false`);
	if (raw.description !== undefined && typeof raw.description !== "string")
		throw new Error(`"description" must be a string`);
	const common: CommonConfig = {
		timeoutMs: (typeof timeout === "number" ? timeout : 60) * 1000,
		enabled: raw.enabled !== false,
		exposure: parseExposure(raw.exposure, "exposure") ?? "codemode",
		toolExposure: parseToolExposure(raw.toolExposure),
		...(typeof raw.description === "string" ? { description: raw.description } : {}),
	};
	const isHttp = type === "http" || type === "streamable-http" || (type === undefined && raw.url !== undefined);
	if (isHttp) {
		if (typeof raw.url !== "string") throw new Error(`"url" must be a string`);
		const url = new URL(raw.url);
		if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`"url" must be http(s)`);
		return {
			...common,
			type: "http",
			url: raw.url,
			headers: stringMap(raw.headers, "headers"),
			...(raw.oauth !== undefined ? { oauth: parseOAuth(raw.oauth) } : {}),
		};
	}
	if (typeof raw.command !== "string" || raw.command.trim() === "") {
		throw new Error(`needs "command" (a stdio server) or "url" (an HTTP server)`);
	}
	if (raw.args !== undefined && (!Array.isArray(raw.args) || !raw.args.every((a) => typeof a === "string"))) {
		throw new Error(`"args" must be an array of strings`);
	}
	if (raw.cwd !== undefined && typeof raw.cwd !== "string") throw new Error(`"cwd" must be a string`);
	const dir = typeof raw.cwd === "string" ? expandHome(raw.cwd) : undefined;
	return {
		...common,
		type: "stdio",
		command: expandHome(raw.command),
		args: ((raw.args as string[] | undefined) ?? []).map(expandHome),
		env: stringMap(raw.env, "env"),
		...(dir !== undefined ? { cwd: isAbsolute(dir) ? dir : resolve(cwd, dir) } : {}),
	};
}

interface ReadFile {
	entries: [string, unknown][];
	autoEnableCodemode?: boolean;
	errors: string[];
	/** The parsed document (for edits that keep other content). */
}

function readConfigFile(file: string): ReadFile {
	if (!existsSync(file)) return { entries: [], errors: [] };
	let doc: unknown;
	try {
		doc = JSON.parse(readFileSync(file, "utf8"));
	} catch (error) {
		return { entries: [], errors: [`${file}: not valid JSON: ${(error as Error).message}`] };
	}
	if (!isRecord(doc)) return { entries: [], errors: [`${file}: must hold a JSON object`] };
	const servers = doc.mcpServers ?? {};
	if (!isRecord(servers)) return { entries: [], errors: [`${file}: "mcpServers" must be an object`] };
	return {
		entries: Object.entries(servers),
		...(typeof doc.autoEnableCodemode === "boolean" ? { autoEnableCodemode: doc.autoEnableCodemode } : {}),
		errors: [],
	};
}

const isOverrideOnly = (raw: unknown) =>
	isRecord(raw) && raw.command === undefined && raw.url === undefined && raw.type === undefined;

/** Reads both files; a project entry replaces the user entry of the same name (or overrides its exposure/enabled). */
export function loadMcpConfig(o: { agentDir: string; cwd: string; projectTrusted: boolean }): McpConfig {
	const errors: string[] = [];
	const byKey = new Map<string, ConfiguredServer>();
	let autoEnableCodemode = true;
	const files: [string, ConfigSource][] = [[userConfigPath(o.agentDir), "user"]];
	if (o.projectTrusted) files.push([projectConfigPath(o.cwd), "project"]);
	for (const [file, source] of files) {
		const read = readConfigFile(file);
		errors.push(...read.errors);
		if (read.autoEnableCodemode !== undefined) autoEnableCodemode = read.autoEnableCodemode;
		const seen = new Map<string, string>();
		for (const [name, raw] of read.entries) {
			const where = `${file}: server "${name}"`;
			if (!NAME.test(name)) {
				errors.push(`${where}: names may contain only letters, digits, "_" and "-"`);
				continue;
			}
			const key = serverKey(name);
			const twin = seen.get(key);
			if (twin !== undefined) {
				errors.push(`${where}: same server as "${twin}" (names differing only in "-" and "_" are the same)`);
				continue;
			}
			seen.set(key, name);
			const base = byKey.get(key);
			try {
				if (source === "project" && base && isOverrideOnly(raw)) {
					const r = raw as Record<string, unknown>;
					const config = { ...base.config };
					if (r.enabled !== undefined) {
						if (typeof r.enabled !== "boolean") throw new Error(`"enabled" must be true or false`);
						config.enabled = r.enabled;
					}
					config.exposure = parseExposure(r.exposure, "exposure") ?? config.exposure;
					if (r.toolExposure !== undefined) config.toolExposure = parseToolExposure(r.toolExposure);
					byKey.set(key, { ...base, config, source, file, projectOverride: true });
					continue;
				}
				byKey.set(key, { name, config: parseServerEntry(raw, o.cwd), source, file });
			} catch (error) {
				errors.push(`${where}: ${(error as Error).message}`);
			}
		}
	}
	return { servers: [...byKey.values()], errors, autoEnableCodemode };
}
