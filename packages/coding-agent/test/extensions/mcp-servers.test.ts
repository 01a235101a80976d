// pi.registerMcpServer / unregisterMcpServer / getMcpServers over in-memory
// extensions: validation (name, config) with messages naming the extension
// and the field, ownership, replacement, copies, mcp_servers_change once
// bound, and the report when no extension connects registered servers.
import { describe, expect, it } from "vitest";
import { McpServersWatch } from "../../src/extensions/mcp-watch.js";
import type { ExtensionAPI, McpServersChangeEvent } from "../../src/extensions/types.js";
import { inMemoryExtensions } from "./helpers.js";

const stdio = { command: "node", args: ["server.js"] };

function capture(factories: Record<string, (pi: ExtensionAPI) => void>) {
	const apis = new Map<string, ExtensionAPI>();
	const setup = inMemoryExtensions(
		Object.fromEntries(
			Object.entries(factories).map(([path, f]) => [
				path,
				(pi: ExtensionAPI) => {
					apis.set(path, pi);
					f(pi);
				},
			]),
		),
	);
	return { ...setup, api: (path: string) => apis.get(path) as ExtensionAPI };
}

describe("pi.registerMcpServer", () => {
	it("keeps a validated copy: aliases resolved, unknown keys left out, later changes to the caller's object ignored", () => {
		const config: Record<string, unknown> = {
			...stdio,
			exposure: "codemode-deferred",
			toolExposure: { "write_*": "hidden" },
			timeout: 5,
			notAKey: 1,
		};
		const { api } = capture({ "a.ts": (pi) => pi.registerMcpServer("db", config as never) });
		config.command = "changed";
		const [server] = api("a.ts").getMcpServers();
		expect(server).toEqual({
			name: "db",
			extensionPath: "a.ts",
			config: {
				command: "node",
				args: ["server.js"],
				exposure: "codemode",
				toolExposure: { "write_*": "hidden" },
				timeout: 5,
			},
		});
		// A copy: changing what getMcpServers returned changes nothing.
		(server.config as { command: string }).command = "mutated";
		expect(api("a.ts").getMcpServers()[0].config).toMatchObject({ command: "node" });
	});

	it.each([
		[
			"a name with a space",
			"my server",
			stdio,
			/pi\.registerMcpServer\("my server"\) in a\.ts: the name must be letters, digits/,
		],
		["an empty name", "", stdio, /the name must be letters/],
		["no command or url", "x", { args: [] }, /invalid config: needs "command" \(a stdio server\) or "url"/],
		["a bad url", "x", { url: "not a url" }, /invalid config: "url" is not a URL/],
		["an ftp url", "x", { url: "ftp://example.com" }, /"url" must be http\(s\)/],
		["sse", "x", { type: "sse", url: "https://x" }, /the SSE transport is not supported/],
		[
			"a bad exposure",
			"x",
			{ ...stdio, exposure: "all" },
			/"exposure" must be one of codemode, deferred, direct, hidden \(got "all"\)/,
		],
		["a bad tool exposure", "x", { ...stdio, toolExposure: { t: 1 } }, /"toolExposure\.t" must be one of/],
		["env of numbers", "x", { ...stdio, env: { A: 1 } }, /"env" must be an object of strings/],
		["args not strings", "x", { command: "a", args: [1] }, /"args" must be an array of strings/],
		["a zero timeout", "x", { ...stdio, timeout: 0 }, /"timeout" must be a positive number of seconds/],
		["enabled as a string", "x", { ...stdio, enabled: "yes" }, /"enabled" must be true or false/],
		[
			"oauth callback off loopback",
			"x",
			{ url: "https://x", oauth: { callbackUrl: "http://example.com/cb" } },
			/"oauth\.callbackUrl" must use http on localhost/,
		],
		["not an object", "x", "node server.js", /invalid config: the entry must be an object/],
	])("refuses %s", (_what, name, config, message) => {
		const { api } = capture({ "a.ts": () => {} });
		expect(() => api("a.ts").registerMcpServer(name, config as never)).toThrow(message);
		expect(api("a.ts").getMcpServers()).toEqual([]);
	});

	it("a name is one extension's: another's registration (or a name differing only in - and _) throws; its own replaces", () => {
		const { api } = capture({ "a.ts": () => {}, "b.ts": () => {} });
		api("a.ts").registerMcpServer("team-db", stdio);
		expect(() => api("b.ts").registerMcpServer("team-db", stdio)).toThrow(
			'pi.registerMcpServer("team-db") in b.ts: MCP server "team-db" is already registered by a.ts',
		);
		expect(() => api("b.ts").registerMcpServer("team_db", stdio)).toThrow(
			'conflicts with MCP server "team-db" registered by a.ts',
		);
		api("a.ts").registerMcpServer("team-db", { url: "https://db.example.com/mcp" });
		expect(api("b.ts").getMcpServers()).toEqual([
			{ name: "team-db", extensionPath: "a.ts", config: { url: "https://db.example.com/mcp" } },
		]);
		// b cannot remove a's server; a can.
		api("b.ts").unregisterMcpServer("team-db");
		expect(api("a.ts").getMcpServers()).toHaveLength(1);
		api("a.ts").unregisterMcpServer("team-db");
		expect(api("a.ts").getMcpServers()).toEqual([]);
	});

	it("after the session binds, each change is an mcp_servers_change with every server; during loading none is", async () => {
		const events: McpServersChangeEvent[] = [];
		const { runner, api, errors } = capture({
			"mcp.ts": (pi) => pi.on("mcp_servers_change", (e) => void events.push(e)),
			"a.ts": (pi) => pi.registerMcpServer("early", stdio),
		});
		expect(events).toEqual([]);
		const watch = new McpServersWatch(runner);
		watch.start();
		api("a.ts").registerMcpServer("late", { url: "https://late.example.com" });
		api("a.ts").unregisterMcpServer("early");
		api("a.ts").unregisterMcpServer("never-registered");
		await new Promise((r) => setImmediate(r));
		expect(events.map((e) => e.servers.map((s) => s.name))).toEqual([["early", "late"], ["late"]]);
		watch.reportUnhandled();
		expect(errors).toEqual([]);
	});

	it("with no mcp_servers_change handler each registration is reported once as an error of its extension", () => {
		const { runner, api, errors } = capture({ "a.ts": (pi) => pi.registerMcpServer("early", stdio) });
		const watch = new McpServersWatch(runner);
		watch.start();
		watch.reportUnhandled();
		api("a.ts").registerMcpServer("late", stdio);
		watch.reportUnhandled();
		expect(errors.map((e) => [e.extensionPath, e.event, e.error])).toEqual([
			[
				"a.ts",
				"register_mcp_server",
				expect.stringContaining('MCP server "early" is registered, but no loaded extension connects MCP servers'),
			],
			["a.ts", "register_mcp_server", expect.stringContaining('MCP server "late" is registered')],
		]);
	});

	it("a shut-down instance's pi throws instead of registering", () => {
		const { runtime, api } = capture({ "a.ts": () => {} });
		runtime.invalidate("This extension instance was shut down.");
		expect(() => api("a.ts").registerMcpServer("x", stdio)).toThrow("This extension instance was shut down.");
		expect(() => api("a.ts").getMcpServers()).toThrow("shut down");
	});
});
