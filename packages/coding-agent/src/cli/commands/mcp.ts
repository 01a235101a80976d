// `pi mcp add|list|get|remove|login|logout`: MCP servers from a shell,
// without a session (agents can run these through bash). Always the built-in
// implementation (builtins/mcp); extensions are not loaded. `add`/`remove`
// edit `~/.pi/agent/mcp.json` (or `.pi/mcp.json` with -l) keeping every other
// key; `list`/`get` connect for real and exit 1 when something is wrong.
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { openBrowser } from "../../auth/open-browser.js";
import {
	type ConfiguredServer,
	EXPOSURES,
	loadMcpConfig,
	parseServerEntry,
	projectConfigPath,
	serverKey,
	userConfigPath,
} from "../../builtins/mcp/config.js";
import { McpLog } from "../../builtins/mcp/log.js";
import { McpManager } from "../../builtins/mcp/manager.js";
import { formatStatus } from "../../builtins/mcp/status.js";
import { getAgentDir } from "../../config/paths.js";
import { readSavedProjectTrust } from "../../config/project-trust.js";
import { VERSION } from "../../version.js";
import type { CommandIo } from "./io.js";

const USAGE = `Usage:
  pi mcp add <server> [options] -- <command> [args...]
  pi mcp add <server> [options] --url <url>
  pi mcp list [--json]
  pi mcp get <server> [--json]
  pi mcp remove <server> [-l]
  pi mcp login <server> [-l] [--timeout <seconds>] [--no-browser]
  pi mcp logout <server> [-l]

Options for add:
  -l, --local                       Write the project's .pi/mcp.json instead of ~/.pi/agent/mcp.json
  --env KEY=VALUE                   Environment for a stdio server (repeatable)
  --cwd <dir>                       Working directory of a stdio server
  --header KEY=VALUE                HTTP header (repeatable)
  --bearer-token-env-var <NAME>     Send Authorization: Bearer \${NAME}
  --oauth-client-id <id>            Registered OAuth client
  --oauth-client-secret <secret>    Its secret (may be \${VAR} or !command)
  --oauth-callback-port <port>      Loopback port of the redirect URI
  --oauth-client-name <name>        Name sent when registering a client
  --oauth-client-registration <m>   auto, dcr or cimd
  --exposure <mode>                 codemode, deferred, direct or hidden
  --description <text>              What the server offers, in a sentence

add and remove do not connect; run \`pi mcp list\` to check a server.
Project .pi/mcp.json files are read only for trusted projects.
`;

class UsageError extends Error {}

interface Parsed {
	positional: string[];
	command: string[];
	local: boolean;
	json: boolean;
	noBrowser: boolean;
	env: string[];
	headers: string[];
	values: Map<string, string>;
}

const VALUE_FLAGS = new Set([
	"--cwd",
	"--url",
	"--bearer-token-env-var",
	"--oauth-client-id",
	"--oauth-client-secret",
	"--oauth-callback-port",
	"--oauth-client-name",
	"--oauth-client-registration",
	"--exposure",
	"--description",
	"--timeout",
]);

function parse(argv: readonly string[]): Parsed {
	const p: Parsed = {
		positional: [],
		command: [],
		local: false,
		json: false,
		noBrowser: false,
		env: [],
		headers: [],
		values: new Map(),
	};
	for (let i = 0; i < argv.length; i++) {
		const a = argv[i];
		const next = () => {
			const v = argv[++i];
			if (v === undefined) throw new UsageError(`${a} needs a value`);
			return v;
		};
		if (a === "--") {
			p.command = argv.slice(i + 1);
			break;
		}
		if (a === "-l" || a === "--local") p.local = true;
		else if (a === "--json") p.json = true;
		else if (a === "--no-browser") p.noBrowser = true;
		else if (a === "--env") p.env.push(next());
		else if (a === "--header") p.headers.push(next());
		else if (VALUE_FLAGS.has(a)) p.values.set(a, next());
		else if (a === "-h" || a === "--help") p.positional.unshift("help");
		else if (a.startsWith("-")) throw new UsageError(`Unknown option: ${a}`);
		else p.positional.push(a);
	}
	return p;
}

function pairs(list: string[], what: string): Record<string, string> | undefined {
	if (list.length === 0) return undefined;
	const out: Record<string, string> = {};
	for (const item of list) {
		const eq = item.indexOf("=");
		if (eq <= 0) throw new UsageError(`${what} needs KEY=VALUE (got "${item}")`);
		out[item.slice(0, eq)] = item.slice(eq + 1);
	}
	return out;
}

function readDoc(file: string): Record<string, unknown> {
	if (!existsSync(file)) return {};
	const doc = JSON.parse(readFileSync(file, "utf8")) as unknown;
	if (typeof doc !== "object" || doc === null || Array.isArray(doc)) throw new Error(`${file} must hold a JSON object`);
	return doc as Record<string, unknown>;
}

function writeDoc(file: string, doc: Record<string, unknown>): void {
	mkdirSync(dirname(file), { recursive: true });
	const tmp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
	// mcp.json may hold header values and env: keep it private like other credentials.
	writeFileSync(tmp, `${JSON.stringify(doc, null, 2)}\n`, { mode: 0o600 });
	renameSync(tmp, file);
}

function entryFor(p: Parsed): Record<string, unknown> {
	const v = (k: string) => p.values.get(k);
	const entry: Record<string, unknown> = {};
	const url = v("--url");
	if (url && p.command.length > 0) throw new UsageError("give either --url or -- <command>, not both");
	if (url) {
		entry.url = url;
		const headers = pairs(p.headers, "--header") ?? {};
		const bearer = v("--bearer-token-env-var");
		if (bearer) headers.Authorization = `Bearer \${${bearer}}`;
		if (Object.keys(headers).length > 0) entry.headers = headers;
		const oauth: Record<string, unknown> = {};
		if (v("--oauth-client-id")) oauth.clientId = v("--oauth-client-id");
		if (v("--oauth-client-secret")) oauth.clientSecret = v("--oauth-client-secret");
		if (v("--oauth-callback-port")) oauth.callbackPort = Number(v("--oauth-callback-port"));
		if (v("--oauth-client-name")) oauth.clientName = v("--oauth-client-name");
		if (v("--oauth-client-registration")) oauth.clientRegistration = v("--oauth-client-registration");
		if (Object.keys(oauth).length > 0) entry.oauth = oauth;
	} else if (p.command.length > 0) {
		entry.command = p.command[0];
		if (p.command.length > 1) entry.args = p.command.slice(1);
		const env = pairs(p.env, "--env");
		if (env) entry.env = env;
		if (v("--cwd")) entry.cwd = v("--cwd");
	} else throw new UsageError("add needs -- <command> [args...] or --url <url>");
	const exposure = v("--exposure");
	if (exposure !== undefined) {
		if (!(EXPOSURES as readonly string[]).includes(exposure)) {
			throw new UsageError(`--exposure must be one of ${EXPOSURES.join(", ")}`);
		}
		entry.exposure = exposure;
	}
	if (v("--description")) entry.description = v("--description");
	return entry;
}

interface Context {
	io: CommandIo;
	agentDir: string;
	trusted: boolean;
}

function out(io: CommandIo, text: string): void {
	io.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
}

function findConfigured(ctx: Context, name: string, local: boolean): ConfiguredServer | undefined {
	const config = loadMcpConfig({ agentDir: ctx.agentDir, cwd: ctx.io.cwd, projectTrusted: ctx.trusted || local });
	const found = config.servers.find((s) => serverKey(s.name) === serverKey(name));
	if (local && found?.source !== "project") return undefined;
	return found;
}

/** Connects the given servers (bounded by their timeouts) and returns the manager, for list/get. */
async function connectAll(ctx: Context, servers: ConfiguredServer[]): Promise<McpManager> {
	const manager = new McpManager({
		pi: {
			registerTool: () => {},
			events: { emit: () => {}, on: () => () => {} },
			getAllTools: () => [],
			getActiveTools: () => [],
			setActiveTools: () => {},
		} as never,
		log: new McpLog(ctx.agentDir),
		version: VERSION,
		report: () => {},
		autoEnableCodemode: false,
		authProvider: async (server) => {
			const { createStoredAuthProvider } = await import("../../builtins/mcp/oauth.js");
			return createStoredAuthProvider(ctx.agentDir, server);
		},
	});
	manager.setServers(servers);
	manager.startAll();
	await manager.waitFor("all");
	await Promise.all([...manager.servers.values()].map((e) => e.settled));
	return manager;
}

function toJson(manager: McpManager, errors: string[]) {
	return {
		servers: [...manager.servers.values()].map((e) => ({
			name: e.name,
			source: e.configured.source,
			file: e.configured.file,
			type: e.configured.config.type,
			enabled: e.configured.config.enabled,
			exposure: e.configured.config.exposure,
			state: e.state,
			...(e.error ? { error: e.error } : {}),
			tools: [...e.registered].map(([name, r]) => ({ name, tool: r.tool.name, exposure: r.exposure })),
		})),
		errors,
	};
}

async function run(p: Parsed, ctx: Context): Promise<number> {
	const [action, name] = p.positional;
	const { io } = ctx;
	const file = p.local ? projectConfigPath(io.cwd) : userConfigPath(ctx.agentDir);
	switch (action) {
		case "add": {
			if (!name) throw new UsageError("add needs a server name");
			if (!/^[A-Za-z0-9_-]+$/.test(name))
				throw new UsageError(`server names may contain only letters, digits, "_" and "-"`);
			const entry = entryFor(p);
			parseServerEntry(entry, io.cwd); // refuse what the loader would refuse
			const doc = readDoc(file);
			const servers = { ...((doc.mcpServers as Record<string, unknown> | undefined) ?? {}) };
			for (const existing of Object.keys(servers)) {
				if (existing !== name && serverKey(existing) === serverKey(name)) delete servers[existing];
			}
			const replaced = Object.hasOwn(servers, name);
			servers[name] = entry;
			writeDoc(file, { ...doc, mcpServers: servers });
			out(io, `${replaced ? "Replaced" : "Added"} MCP server "${name}" in ${file}`);
			return 0;
		}
		case "remove": {
			if (!name) throw new UsageError("remove needs a server name");
			const doc = readDoc(file);
			const servers = { ...((doc.mcpServers as Record<string, unknown> | undefined) ?? {}) };
			const key = Object.keys(servers).find((k) => serverKey(k) === serverKey(name));
			if (!key) {
				io.stderr.write(`No MCP server "${name}" in ${file}\n`);
				return 1;
			}
			delete servers[key];
			writeDoc(file, { ...doc, mcpServers: servers });
			out(io, `Removed MCP server "${key}" from ${file} (stored sign-ins are kept; pi mcp logout removes them)`);
			return 0;
		}
		case "list":
		case "get": {
			const config = loadMcpConfig({ agentDir: ctx.agentDir, cwd: io.cwd, projectTrusted: ctx.trusted });
			let servers = config.servers;
			if (action === "get") {
				if (!name) throw new UsageError("get needs a server name");
				servers = servers.filter((s) => serverKey(s.name) === serverKey(name));
				if (servers.length === 0) {
					io.stderr.write(`No MCP server named "${name}"\n`);
					return 1;
				}
			}
			const manager = await connectAll(ctx, servers);
			try {
				const entries = [...manager.servers.values()];
				const errors = action === "list" ? config.errors : [];
				if (p.json) out(io, JSON.stringify(toJson(manager, errors), null, 2));
				else out(io, formatStatus(entries, errors, true));
				const bad = errors.length > 0 || entries.some((e) => e.configured.config.enabled && e.state !== "connected");
				return bad ? 1 : 0;
			} finally {
				await manager.closeAll();
			}
		}
		case "login":
		case "logout": {
			if (!name) throw new UsageError(`${action} needs a server name`);
			const server = findConfigured(ctx, name, p.local);
			if (!server) {
				io.stderr.write(`No MCP server named "${name}"${p.local ? " in .pi/mcp.json" : ""}\n`);
				return 1;
			}
			const { login, logout } = await import("../../builtins/mcp/oauth.js");
			if (action === "logout") {
				const had = await logout(ctx.agentDir, server);
				out(io, had ? `Signed out of MCP server "${server.name}"` : `No stored sign-in for "${server.name}"`);
				return 0;
			}
			const seconds = p.values.get("--timeout");
			await login(ctx.agentDir, server, {
				notify: (message) => out(io, message),
				openUrl: p.noBrowser ? undefined : (url) => openBrowser(url, io.env),
				...(seconds ? { timeoutMs: Number(seconds) * 1000 } : {}),
			});
			out(io, `Signed in to MCP server "${server.name}"`);
			return 0;
		}
		default:
			io.stdout.write(USAGE);
			return action === undefined || action === "help" ? 0 : 1;
	}
}

export async function runMcpCommand(argv: readonly string[], io: CommandIo): Promise<number> {
	try {
		const p = parse(argv);
		const agentDir = getAgentDir(io.env);
		const trusted = readSavedProjectTrust(agentDir, io.cwd) === true;
		return await run(p, { io, agentDir, trusted });
	} catch (error) {
		if (error instanceof UsageError) {
			io.stderr.write(`Error: ${error.message}\n\n${USAGE}`);
			return 1;
		}
		io.stderr.write(`Error: ${error instanceof Error ? error.message : String(error)}\n`);
		return 1;
	}
}
