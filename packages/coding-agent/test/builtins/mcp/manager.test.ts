// builtin:mcp's manager against real MCP servers written with the official
// SDK (stdio child processes and streamable HTTP on 127.0.0.1): tool names
// and exposure, calls, a server that crashes mid-call, one that never
// answers, one that sends garbage, tool-list changes, resources, logging,
// long output, and stopping the whole process group.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { registerResourceTools } from "../../../src/builtins/mcp/resources.js";
import { startHttpFixture } from "../../support/mcp/http.js";
import { alive, configured, createHarness, type Harness, run, stdioEntry, until } from "./harness.js";

let h: Harness | undefined;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
	await h?.close();
	h = undefined;
	for (const c of cleanups.splice(0)) await c();
});

describe("McpManager over real SDK servers", () => {
	it("registers 50 stdio tools as mcp__<server>__<tool> with namespace, annotations and the default exposure", async () => {
		h = createHarness([configured("big", stdioEntry("big", { tools: 50, instructions: "Big server.\nMore." }))]);
		h.manager.startAll();
		await h.manager.waitFor("all");
		const names = [...h.tools.keys()].filter((n) => n.startsWith("mcp__big__"));
		expect(names).toHaveLength(50);
		expect(names).toContain("mcp__big__tool_49");
		const t = h.tools.get("mcp__big__tool_7");
		expect(t?.exposure).toBe("codemode");
		expect(t?.namespace).toEqual({
			name: "mcp__big",
			aliases: ["big"],
			description: "Big server.",
			instructions: "Big server.\nMore.",
		});
		expect(t?.annotations).toEqual({ readOnlyHint: true });
		const result = await run(h, "mcp__big__tool_7", { text: "hi" });
		expect(result.content).toEqual([{ type: "text", text: "big/tool_7: hi" }]);
		expect((result.details as { result: { structuredContent: unknown } }).result.structuredContent).toEqual({
			echoed: "hi",
		});
		expect(h.events.some((e) => e.channel === "mcp:tools_changed")).toBe(true);
	});

	it("sanitises names, hashes collisions, applies toolExposure (exact, then first pattern) and reports isError results", async () => {
		h = createHarness([
			configured(
				"my-srv",
				stdioEntry(
					"my-srv",
					{ extraTools: [{ name: "a.b" }, { name: "a-b" }, { name: "get one" }, { name: "delete_all" }] },
					{ exposure: "deferred", toolExposure: { "get one": "direct", "get*": "hidden", "delete_*": "hidden" } },
				),
			),
		]);
		h.manager.startAll();
		await h.manager.waitFor("all");
		const names = [...h.tools.keys()].sort();
		const hashed = names.filter((n) => n.startsWith("mcp__my_srv__a_b_"));
		expect(hashed).toHaveLength(2);
		expect(hashed.every((n) => /^mcp__my_srv__a_b_[0-9a-f]{8}$/.test(n))).toBe(true);
		expect(h.tools.get("mcp__my_srv__get_one")?.exposure).toBe("direct");
		expect(h.tools.get("mcp__my_srv__delete_all")?.exposure).toBe("hidden");
		expect(h.tools.get(hashed[0])?.exposure).toBe("deferred");
		const failed = await run(h, "mcp__my_srv__get_one", { text: "fail" });
		expect(failed.isError).toBe(true);
		expect(failed.content).toEqual([{ type: "text", text: "the tool failed" }]);
	});

	it("connects to a streamable HTTP server on loopback (a header from an env variable) and calls its tools", async () => {
		const http = await startHttpFixture({
			server: { name: "web", tools: 2 },
			verifyToken: (auth) => auth === "Bearer from-env",
		});
		cleanups.push(() => http.close());
		process.env.PI_MCP_TEST_TOKEN = "from-env";
		const fromEnv = ["Bearer $", "{PI_MCP_TEST_TOKEN}"].join(""); // mcp.json's own variable syntax
		h = createHarness([configured("web", { url: http.url, headers: { Authorization: fromEnv } })]);
		h.manager.startAll();
		await h.manager.waitFor("all");
		expect(h.manager.servers.get("web")?.state).toBe("connected");
		const result = await run(h, "mcp__web__tool_1", { text: "over http" });
		expect(result.content).toEqual([{ type: "text", text: "web/tool_1: over http" }]);
		expect(http.requests.length).toBeGreaterThan(2);
	});

	it("a server that crashes mid-call: the call fails naming the server and exit code, then it reconnects", async () => {
		h = createHarness([configured("crashy", stdioEntry("crashy", { tools: 1, crash: true }))]);
		h.manager.startAll();
		await h.manager.waitFor("all");
		await expect(run(h, "mcp__crashy__crash")).rejects.toThrow(
			/MCP server "crashy" closed the connection during tools\/call crash: the server process exited with code 3/,
		);
		expect(
			h.reports.some((r) =>
				/MCP server "crashy" disconnected: .*exited with code 3.*crashing on purpose/.test(r.message),
			),
		).toBe(true);
		// Backoff reconnect (first after 1 s), then the server works again.
		await until(() => h?.manager.servers.get("crashy")?.state === "connected", "the reconnect");
		const again = await run(h, "mcp__crashy__tool_0", { text: "back" });
		expect(again.content).toEqual([{ type: "text", text: "crashy/tool_0: back" }]);
	});

	it("a server that never answers: a call times out naming the server; an abort ends it at once", async () => {
		h = createHarness([configured("stuck", stdioEntry("stuck", { hang: true }, { timeout: 4 }))]);
		h.manager.startAll();
		await h.manager.waitFor("all");
		await expect(run(h, "mcp__stuck__hang")).rejects.toThrow(
			'MCP server "stuck" did not answer tools/call hang within 4 s',
		);
		const controller = new AbortController();
		const pending = run(h, "mcp__stuck__hang", {}, controller.signal);
		controller.abort();
		await expect(pending).rejects.toThrow(/aborted/);
	});

	it("a server that never answers initialize fails after its timeout without blocking start-up", async () => {
		h = createHarness([
			configured("mute", stdioEntry("mute", { hangInit: true }, { timeout: 1 })),
			configured("ok", stdioEntry("ok", { tools: 1 })),
		]);
		h.manager.startAll();
		expect(h.manager.servers.get("mute")?.state).toBe("connecting");
		const late = await h.manager.waitFor("all");
		expect(late.map((e) => e.name)).toEqual(["mute"]);
		// waitFor gives up at the server's timeout; the attempt itself ends by its own initialize timeout.
		await h.manager.servers.get("mute")?.settled;
		expect(h.manager.servers.get("mute")?.error).toMatch(/did not answer the initialize request within 1 s/);
		expect(h.manager.servers.get("ok")?.state).toBe("connected");
		expect(h.reports.some((r) => r.message.startsWith('MCP server "mute" failed to connect'))).toBe(true);
	});

	it("a server that exits at start is reported with its exit code and stderr", async () => {
		h = createHarness([configured("dead", stdioEntry("dead", { exitAtStart: true }))]);
		h.manager.startAll();
		await h.manager.waitFor("all");
		const e = h.manager.servers.get("dead");
		expect(e?.state).toBe("failed");
		expect(e?.error).toMatch(/exited with code 7/);
		expect(e?.error).toMatch(/refusing to start/);
		// The backoff retries (1 s, then 2 s) fail too, but the outage is reported once.
		await until(() => (e?.attempts ?? 0) >= 2 && e?.state === "failed", "two reconnect attempts");
		const reported = h.reports.filter((r) => r.message.startsWith('MCP server "dead" failed to connect'));
		expect(reported).toHaveLength(1);
	});

	it("garbage on stdout is reported with the server's name and the server keeps working", async () => {
		h = createHarness([configured("noisy", stdioEntry("noisy", { tools: 1, garbage: true }))]);
		h.manager.startAll();
		await h.manager.waitFor("all");
		expect(h.reports.some((r) => r.message.includes('MCP server "noisy" sent output that is not JSON-RPC'))).toBe(true);
		const result = await run(h, "mcp__noisy__tool_0", { text: "still" });
		expect(result.content).toEqual([{ type: "text", text: "noisy/tool_0: still" }]);
	});

	it("a tool-list change registers new tools and withdraws removed ones (re-registered hidden)", async () => {
		h = createHarness([configured("live", stdioEntry("live", { tools: 2, mutate: true }))]);
		h.manager.startAll();
		await h.manager.waitFor("all");
		expect(h.tools.has("mcp__live__late_tool")).toBe(false);
		await run(h, "mcp__live__add_tool");
		await until(() => h?.tools.has("mcp__live__late_tool") === true, "late_tool");
		expect(h.tools.get("mcp__live__tool_0")?.exposure).toBe("hidden");
		expect(h.tools.get("mcp__live__tool_1")?.exposure).toBe("codemode");
	});

	it("long text keeps its start and end around a marker, with the full text in a file", async () => {
		h = createHarness([configured("wide", stdioEntry("wide", { big: true }))]);
		h.manager.startAll();
		await h.manager.waitFor("all");
		const result = await run(h, "mcp__wide__big");
		const text = (result.content[0] as { text: string }).text;
		expect(text.length).toBeLessThan(21_000);
		expect(text).toMatch(/…\d+ chars truncated…/);
		const path = (result.details as { fullOutputPath: string }).fullOutputPath;
		expect(readFileSync(path, "utf8")).toContain("MIDDLE");
	});

	it("server log messages and stderr go to mcp.log", async () => {
		h = createHarness([configured("chatty", stdioEntry("chatty", { log: true, stderr: "hello on stderr" }))]);
		h.manager.startAll();
		await h.manager.waitFor("all");
		await run(h, "mcp__chatty__log");
		const log = join(h.agentDir, "mcp.log");
		await until(
			() => existsSync(log) && readFileSync(log, "utf8").includes("hello from the server log"),
			"the log line",
		);
		const text = readFileSync(log, "utf8");
		expect(text).toMatch(/\[chatty\] warning fixture: hello from the server log/);
		expect(text).toMatch(/\[chatty\] stderr: hello on stderr/);
	});

	it("closing stops the server's whole process group", async () => {
		const pidFile = join(require("node:os").tmpdir(), `pi-mcp-pid-${process.pid}-${Date.now()}`);
		h = createHarness([configured("g", stdioEntry("g", { tools: 1, pidFile }))]);
		h.manager.startAll();
		await h.manager.waitFor("all");
		const pid = Number(readFileSync(pidFile, "utf8"));
		expect(alive(pid)).toBe(true);
		await h.manager.closeAll();
		await until(() => !alive(pid), "the server to exit");
	});

	it("resource tools list (every page, apps left out), list templates and read text, images and binaries", async () => {
		h = createHarness([configured("docs", stdioEntry("docs", { resources: true }))]);
		h.manager.startAll();
		await h.manager.waitFor("all");
		registerResourceTools(
			{ registerTool: (t: never) => h?.tools.set((t as { name: string }).name, t) } as never,
			h.manager,
			"direct",
		);
		const all = JSON.parse(((await run(h, "list_mcp_resources")).content[0] as { text: string }).text);
		expect(all.resources.map((r: { uri: string }) => r.uri)).toEqual([
			"file:///notes.txt",
			"file:///pixel.png",
			"file:///data.bin",
		]);
		expect(all.resources[0].server).toBe("docs");
		const page = JSON.parse(
			((await run(h, "list_mcp_resources", { server: "docs" })).content[0] as { text: string }).text,
		);
		expect(page.nextCursor).toBe("page2");
		const templates = JSON.parse(((await run(h, "list_mcp_resource_templates")).content[0] as { text: string }).text);
		expect(templates.resourceTemplates[0].uriTemplate).toBe("file:///logs/{day}.txt");
		const note = await run(h, "read_mcp_resource", { server: "docs", uri: "file:///notes.txt" });
		expect(note.content).toEqual([{ type: "text", text: "remember the milk" }]);
		expect(note.details).toMatchObject({ kind: "mcp_resource_read", server: "docs", uri: "file:///notes.txt" });
		const img = await run(h, "read_mcp_resource", { server: "docs", uri: "file:///pixel.png" });
		expect(img.content[0]).toMatchObject({ type: "image", mimeType: "image/png" });
		const bin = await run(h, "read_mcp_resource", { server: "docs", uri: "file:///data.bin" });
		const saved = /saved to (\S+)\]/.exec((bin.content[0] as { text: string }).text)?.[1] as string;
		expect([...readFileSync(saved)]).toEqual([0, 1, 2, 3]);
	});
});
