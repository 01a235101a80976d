// pi.registerMcpServer in the BUILT `pi --mode rpc` (fake provider, real MCP
// servers on stdio): a server registered at load and one registered later
// from a command are both connected and callable, `/mcp` (an
// extension_ui_request notify) names the extension as their source, an
// unregistered server's tool is no longer declared, and with built-in MCP
// off a registration arrives as an extension_error record.
import { describe, expect, it } from "vitest";
import { textReply, toolReply, useRpcSandbox } from "../../rpc/support.js";
import { stdioEntry } from "./harness.js";
import { writeRegisteringExtension } from "./registered-servers.support.js";

type Rec = Record<string, unknown>;
const rpc = useRpcSandbox();

const notify = (match: (message: string) => boolean) => (r: Rec) =>
	r.type === "extension_ui_request" && r.method === "notify" && typeof r.message === "string" && match(r.message);

const declared = (i: number) =>
	((rpc.sb.fake.requests[i].body as { tools?: { function: { name: string } }[] }).tools ?? []).map(
		(t) => t.function.name,
	);
const toolResults = (i: number) =>
	JSON.stringify(
		(rpc.sb.fake.requests[i].body as { messages: { role: string; content: unknown }[] }).messages.filter(
			(m) => m.role === "tool",
		),
	);

describe("MCP servers registered by extensions (built CLI, rpc)", () => {
	it("registered at load and from a command: both connect and are callable; /mcp names the extension; unregister removes the tool", async () => {
		const ext = writeRegisteringExtension(rpc.sb.root, {
			prefix: "a",
			atLoad: { reg: stdioEntry("reg", { tools: 1 }, { exposure: "direct" }) },
			later: { late: stdioEntry("late", { tools: 2 }, { exposure: "direct" }) },
		});
		const pi = rpc.spawn(["--no-session", "-e", ext]);

		await pi.call({ type: "prompt", message: "/a-add late" });
		await pi.waitFor(
			notify((m) => m === "registered late"),
			30_000,
		);

		rpc.sb.fake.enqueue(
			toolReply("mcp__reg__tool_0", { text: "one" }),
			toolReply("mcp__late__tool_1", { text: "two" }),
			textReply("both called"),
		);
		await pi.promptAndSettle("call both", 60_000);
		expect(declared(0)).toEqual(expect.arrayContaining(["mcp__reg__tool_0", "mcp__late__tool_0", "mcp__late__tool_1"]));
		expect(toolResults(1)).toContain("reg/tool_0: one");
		expect(toolResults(2)).toContain("late/tool_1: two");

		await pi.call({ type: "prompt", message: "/mcp" });
		const status = await pi.waitFor(
			notify((m) => m.includes("✓ reg:") && m.includes("✓ late:")),
			30_000,
		);
		expect(status.message).toContain(`✓ reg: connected, 1 tool, exposure direct, extension (${ext})`);
		expect(status.message).toContain(`✓ late: connected, 2 tools, exposure direct, extension (${ext})`);

		await pi.call({ type: "prompt", message: "/a-remove late" });
		await pi.waitFor(
			notify((m) => m === "unregistered late"),
			30_000,
		);
		rpc.sb.fake.enqueue(textReply("after removal"));
		await pi.promptAndSettle("again", 60_000);
		expect(declared(3)).toContain("mcp__reg__tool_0");
		expect(declared(3).some((n) => n.startsWith("mcp__late"))).toBe(false);

		await pi.call({ type: "prompt", message: "/mcp" });
		const after = await pi.waitFor(
			notify((m) => m.includes("✓ reg:") && !m.includes("late")),
			30_000,
		);
		expect(after.message).not.toContain("late");
		expect(pi.records.some((r) => r.type === "extension_error")).toBe(false);
	}, 120_000);

	it("with built-in MCP off, a registration from a command is an extension_error record", async () => {
		const ext = writeRegisteringExtension(rpc.sb.root, {
			prefix: "a",
			later: { late: stdioEntry("late", { tools: 1 }) },
		});
		const pi = rpc.spawn(["--no-session", "--no-mcp", "-e", ext]);
		await pi.call({ type: "prompt", message: "/a-add late" });
		const error = await pi.waitFor((r) => r.type === "extension_error", 30_000);
		expect(error).toMatchObject({ extensionPath: ext, event: "register_mcp_server" });
		expect(error.error).toContain('MCP server "late" is registered, but no loaded extension connects MCP servers');
	}, 60_000);
});
