// pi.registerMcpServer / unregisterMcpServer / getMcpServers and
// mcp_servers_change in the BUILT pi (print and json mode, fake provider,
// real MCP servers on stdio): a server registered while the extension loads
// is connected by builtin:mcp and its tool is called by the model; one
// registered later from a command connects right away; unregistering closes
// the server and its tool is gone; bad names/configs and another extension's
// name throw with clear messages; mcp.json wins over a registration and /mcp
// says so; with built-in MCP off or replaced each registration is an
// extension error.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { body, textReply, toolReply, useCliSandbox } from "../../cli/support.js";
import { alive, stdioEntry } from "./harness.js";
import { waitGoneCommand, writeRegisteringExtension } from "./registered-servers.support.js";

const MODEL = ["--model", "fake/fake-model"];
const sb = useCliSandbox();

const declared = (i: number) => (body(sb.fake, i).tools ?? []).map((t) => t.function.name);
const toolMessages = (i: number) =>
	JSON.stringify(body(sb.fake, i).messages.filter((m) => m.role === "tool" || m.role === "toolResult"));

describe("MCP servers registered by extensions (built CLI, print/json)", () => {
	it("a server registered at load connects at session start; the model calls its tool; /mcp names the extension; nothing is saved", async () => {
		const ext = writeRegisteringExtension(sb.root, {
			prefix: "a",
			atLoad: { reg: stdioEntry("reg", { tools: 2 }, { exposure: "direct", description: "registered in code" }) },
		});
		sb.fake.enqueue(toolReply("mcp__reg__tool_1", { text: "ping" }), textReply("done"));
		const r = await sb.run(["-p", ...MODEL, "-e", ext, "use the tool", "/mcp", "/a-list"]);
		expect(r.code).toBe(0);
		expect(r.stdout).toBe("done\n");
		expect(declared(0)).toEqual(expect.arrayContaining(["mcp__reg__tool_0", "mcp__reg__tool_1"]));
		expect(toolMessages(1)).toContain("reg/tool_1: ping");
		// /mcp: the extension is the source.
		expect(r.stderr).toContain(`✓ reg: connected, 2 tools, exposure direct, extension (${ext})`);
		// getMcpServers: the validated copy, with the registering extension.
		expect(r.stderr).toMatch(
			new RegExp(`registered servers: reg by ${ext.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} \\{"command":`),
		);
		expect(r.stderr).not.toMatch(/Extension error/);
		// Registrations are not saved anywhere.
		expect(existsSync(join(sb.agentDir, "mcp.json"))).toBe(false);
		expect(existsSync(join(sb.cwd, ".pi", "mcp.json"))).toBe(false);
	}, 60_000);

	it("registered from a command: connects right away and is callable; unregistered: the server ends and its tool is gone", async () => {
		const pidFile = join(sb.root, "late.pid");
		const ext = writeRegisteringExtension(sb.root, {
			prefix: "a",
			later: { late: stdioEntry("late", { tools: 1, pidFile }, { exposure: "direct" }) },
		});
		sb.fake.enqueue(
			// "first": the late server's tool is declared and called.
			toolReply("mcp__late__tool_0", { text: "hello" }),
			textReply("first done"),
			// "second" (after /a-remove late): the server process ends; the tool is no longer declared or callable.
			toolReply("bash", { command: waitGoneCommand(pidFile) }),
			toolReply("mcp__late__tool_0", { text: "again" }),
			textReply("second done"),
		);
		const r = await sb.run(["-p", ...MODEL, "-e", ext, "/a-add late", "first", "/a-remove late", "second"]);
		expect(r.code).toBe(0);
		expect(r.stdout).toContain("second done");
		expect(r.stderr).toContain("registered late");
		expect(r.stderr).toContain("unregistered late");
		expect(declared(0)).toContain("mcp__late__tool_0");
		expect(toolMessages(1)).toContain("late/tool_0: hello");
		// After unregistering: not declared, the process has ended, and a call is an error for the model.
		expect(declared(2).some((n) => n.startsWith("mcp__late"))).toBe(false);
		expect(toolMessages(3)).toContain("gone");
		const lastTool = body(sb.fake, 4)
			.messages.filter((m) => m.role === "tool")
			.at(-1);
		expect(lastTool?.content).toBe("Tool mcp__late__tool_0 not found");
		const pid = Number(readFileSync(pidFile, "utf8"));
		expect(alive(pid)).toBe(false);
	}, 90_000);

	it("an invalid config or name is a load error naming the extension and the field", async () => {
		const badConfig = writeRegisteringExtension(sb.root, {
			prefix: "a",
			atLoad: { jira: { url: "https://example.com/mcp", exposure: "everywhere" } },
		});
		let r = await sb.run(["-p", ...MODEL, "-e", badConfig, "hi"]);
		expect(r.code).toBe(1);
		expect(r.stderr).toContain(`pi.registerMcpServer("jira") in ${badConfig}: invalid config:`);
		expect(r.stderr).toContain(`"exposure" must be one of codemode, deferred, direct, hidden (got "everywhere")`);
		const badName = writeRegisteringExtension(sb.root, { prefix: "b", atLoad: { "my server": { command: "x" } } });
		r = await sb.run(["-p", ...MODEL, "-e", badName, "hi"]);
		expect(r.code).toBe(1);
		expect(r.stderr).toContain(`pi.registerMcpServer("my server") in ${badName}: the name must be letters`);
		const noCommand = writeRegisteringExtension(sb.root, { prefix: "c", atLoad: { x: { args: ["--stdio"] } } });
		r = await sb.run(["-p", ...MODEL, "-e", noCommand, "hi"]);
		expect(r.code).toBe(1);
		expect(r.stderr).toContain('needs "command" (a stdio server) or "url" (an HTTP server)');
		expect(sb.fake.requests).toHaveLength(0);
	}, 60_000);

	it("a name another extension registered throws; the same extension registering again replaces its server", async () => {
		const first = writeRegisteringExtension(sb.root, {
			prefix: "a",
			atLoad: {
				shared: stdioEntry("first-shared", { tools: 1 }, { exposure: "direct" }),
				"team-db": stdioEntry("team-db", { tools: 1 }, { enabled: false }),
			},
			later: { shared: stdioEntry("replaced-shared", { tools: 2 }, { exposure: "direct" }) },
		});
		const second = writeRegisteringExtension(sb.root, {
			prefix: "b",
			later: { shared: stdioEntry("second-shared", { tools: 1 }), team_db: { command: "x" } },
		});
		sb.fake.enqueue(toolReply("mcp__shared__tool_1", { text: "v2" }), textReply("ok"));
		const r = await sb.run([
			"-p",
			...MODEL,
			"-e",
			first,
			"-e",
			second,
			"/b-add shared",
			"/b-add team_db",
			"/a-add shared",
			"go",
			"/mcp",
		]);
		expect(r.code).toBe(0);
		expect(r.stderr).toContain(
			`pi.registerMcpServer("shared") in ${second}: MCP server "shared" is already registered by ${first}`,
		);
		expect(r.stderr).toContain(
			`pi.registerMcpServer("team_db") in ${second}: conflicts with MCP server "team-db" registered by ${first}`,
		);
		expect(r.stderr).toContain("registered shared");
		// The replacement (two tools) is what the model sees and calls.
		expect(declared(0)).toEqual(expect.arrayContaining(["mcp__shared__tool_0", "mcp__shared__tool_1"]));
		expect(toolMessages(1)).toContain("replaced-shared/tool_1: v2");
		expect(r.stderr).toContain(`✓ shared: connected, 2 tools, exposure direct, extension (${first})`);
		expect(r.stderr).toContain(`- team-db: disabled, exposure codemode, extension (${first})`);
		expect(r.stderr).not.toContain("registered team_db");
		expect(r.stderr).not.toContain("second-shared");
	}, 60_000);

	it("an mcp.json server of the same name takes precedence and /mcp lists the overridden registration", async () => {
		const mcpFile = join(sb.agentDir, "mcp.json");
		writeFileSync(
			mcpFile,
			JSON.stringify({ mcpServers: { jira: stdioEntry("file-jira", { tools: 1 }, { exposure: "direct" }) } }),
		);
		const ext = writeRegisteringExtension(sb.root, {
			prefix: "a",
			atLoad: { jira: stdioEntry("ext-jira", { tools: 3 }, { exposure: "direct" }) },
		});
		sb.fake.enqueue(toolReply("mcp__jira__tool_0", { text: "x" }), textReply("ok"));
		const r = await sb.run(["-p", ...MODEL, "-e", ext, "go", "/mcp"]);
		expect(r.code).toBe(0);
		expect(
			declared(0)
				.filter((n) => n.startsWith("mcp__"))
				.sort(),
		).toEqual(["mcp__jira__tool_0"]);
		expect(toolMessages(1)).toContain("file-jira/tool_0: x");
		expect(r.stderr).toContain(`✓ jira: connected, 1 tool, exposure direct, user (${mcpFile})`);
		expect(r.stderr).toContain(`overridden: "jira" registered by ${ext} is overridden by "jira" in ${mcpFile}`);
	}, 60_000);

	it("with built-in MCP off (--no-mcp) each registration is an extension error (print: stderr; json: extension_error)", async () => {
		const ext = writeRegisteringExtension(sb.root, {
			prefix: "a",
			atLoad: { reg: stdioEntry("reg", { tools: 1 }, { exposure: "direct" }) },
			later: { late: stdioEntry("late", { tools: 1 }) },
		});
		sb.fake.enqueue(textReply("one"), textReply("two"));
		const message = (name: string) =>
			`MCP server "${name}" is registered, but no loaded extension connects MCP servers`;
		const r = await sb.run(["-p", ...MODEL, "--no-mcp", "-e", ext, "/a-add late", "hi"]);
		expect(r.code).toBe(0);
		expect(r.stdout).toBe("one\n");
		expect(r.stderr).toContain(`Extension error (${ext}, register_mcp_server): ${message("reg")}`);
		expect(r.stderr).toContain(`Extension error (${ext}, register_mcp_server): ${message("late")}`);
		expect(declared(0).some((n) => n.startsWith("mcp__"))).toBe(false);

		const j = await sb.run(["--mode", "json", ...MODEL, "--no-mcp", "-e", ext, "hi"]);
		expect(j.code).toBe(0);
		const records = j.stdout
			.trim()
			.split("\n")
			.map((l) => JSON.parse(l) as Record<string, unknown>);
		const errors = records.filter((rec) => rec.type === "extension_error");
		expect(errors).toEqual([
			expect.objectContaining({
				extensionPath: ext,
				event: "register_mcp_server",
				error: expect.stringContaining(message("reg")),
			}),
		]);
	}, 60_000);

	it("an extension that registers /mcp replaces the built-in MCP support: mcp.json is not read, registrations are errors", async () => {
		writeFileSync(
			join(sb.agentDir, "mcp.json"),
			JSON.stringify({ mcpServers: { d: stdioEntry("d", { tools: 1 }, { exposure: "direct" }) } }),
		);
		const replacement = writeRegisteringExtension(sb.root, { prefix: "r", ownsMcpCommand: true });
		const registering = writeRegisteringExtension(sb.root, {
			prefix: "a",
			atLoad: { reg: stdioEntry("reg", { tools: 1 }, { exposure: "direct" }) },
		});
		sb.fake.enqueue(textReply("ok"));
		const r = await sb.run(["-p", ...MODEL, "-e", replacement, "-e", registering, "hi", "/mcp"]);
		expect(r.code).toBe(0);
		expect(r.stderr).toContain("replacement mcp command");
		expect(r.stderr).not.toMatch(/\/mcp:1|registered by both/);
		expect(r.stderr).toContain(`Extension error (${registering}, register_mcp_server): MCP server "reg" is registered`);
		expect(declared(0).some((n) => n.startsWith("mcp__"))).toBe(false);
	}, 60_000);

	it("another extension handling mcp_servers_change sees later registrations and counts as their connector", async () => {
		const watcher = writeRegisteringExtension(sb.root, { prefix: "w", watchesChanges: true });
		const ext = writeRegisteringExtension(sb.root, {
			prefix: "a",
			later: { late: stdioEntry("late", { tools: 1 }) },
		});
		const r = await sb.run(["-p", ...MODEL, "--no-mcp", "-e", watcher, "-e", ext, "/a-add late", "/a-remove late"]);
		expect(r.code).toBe(0);
		expect(r.stderr).toContain("servers changed: late\n");
		expect(r.stderr).toContain("servers changed: \n");
		expect(r.stderr).not.toMatch(/Extension error/);
	}, 60_000);
});
