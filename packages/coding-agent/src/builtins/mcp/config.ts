// mcp.json: reading, validating and merging the user file
// (`<agentDir>/mcp.json`) and the project file (`.pi/mcp.json`, only when the
// project is trusted). The format is the one other MCP clients use
// (`mcpServers`), with pi's keys (`exposure`, `toolExposure`, `description`,
// `timeout`, `enabled`, `oauth`). An invalid entry is reported and skipped;
// it never stops the other servers.
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import {
	checkMcpExposure,
	checkMcpServerConfig,
	checkMcpToolExposure,
	isValidMcpServerName,
	MCP_EXPOSURES,
	type McpExposure,
	type McpOAuthConfig,
	mcpServerKey,
} from "../../extensions/types.js";

export type Exposure = McpExposure;
export const EXPOSURES: readonly Exposure[] = MCP_EXPOSURES;

export type OAuthSettings = McpOAuthConfig;

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

/** Names that differ only in `-` and `_` are the same server. */
export const serverKey = mcpServerKey;

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

/**
 * One `mcpServers` entry → a validated config; throws with the reason. The
 * checks are the extension API's (`checkMcpServerConfig`, the same ones
 * `pi.registerMcpServer` applies); this adds the defaults and resolves paths.
 */
export function parseServerEntry(raw: unknown, cwd: string): ServerConfig {
	const c = checkMcpServerConfig(raw);
	const common: CommonConfig = {
		timeoutMs: (c.timeout ?? 60) * 1000,
		enabled: c.enabled !== false,
		exposure: c.exposure ?? "codemode",
		toolExposure: c.toolExposure ?? {},
		...(c.description !== undefined ? { description: c.description } : {}),
	};
	if ("url" in c) {
		return {
			...common,
			type: "http",
			url: c.url,
			headers: c.headers ?? {},
			...(c.oauth !== undefined ? { oauth: c.oauth } : {}),
		};
	}
	const dir = c.cwd !== undefined ? expandHome(c.cwd) : undefined;
	return {
		...common,
		type: "stdio",
		command: expandHome(c.command),
		args: (c.args ?? []).map(expandHome),
		env: c.env ?? {},
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
			if (!isValidMcpServerName(name)) {
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
					config.exposure = checkMcpExposure(r.exposure, "exposure") ?? config.exposure;
					if (r.toolExposure !== undefined) config.toolExposure = checkMcpToolExposure(r.toolExposure) ?? {};
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
