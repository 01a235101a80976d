// builtin:mcp in the BUILT pi (print mode, fake provider): servers from
// mcp.json connect in the background, direct tools are declared and called,
// a prompt waits a bounded time for a direct server and says so, start-up
// never waits for other servers, --no-mcp / -builtin:mcp / --tools /
// --exclude-tools, project config only when trusted, /mcp status.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { body, textReply, toolReply, useCliSandbox } from "../../cli/support.js";
import { alive, stdioEntry, until } from "./harness.js";

const MODEL = ["--model", "fake/fake-model"];
const sb = useCliSandbox();

function writeMcp(servers: Record<string, unknown>, dir = sb.agentDir): void {
	mkdirSync(dir, { recursive: true });
	writeFileSync(join(dir, "mcp.json"), JSON.stringify({ mcpServers: servers }));
}
const declared = (i: number) => (body(sb.fake, i).tools ?? []).map((t) => t.function.name);

describe("builtin:mcp in the built CLI", () => {
	it("declares direct tools in the first request, calls one, and the result reaches the model", async () => {
		writeMcp({ d: stdioEntry("d", { tools: 2 }, { exposure: "direct" }) });
		sb.fake.enqueue(toolReply("mcp__d__tool_1", { text: "ping" }), textReply("done"));
		const r = await sb.run(["-p", ...MODEL, "use the tool"]);
		expect(r.stderr).toBe("");
		expect(r.stdout).toBe("done\n");
		expect(declared(0)).toEqual(expect.arrayContaining(["mcp__d__tool_0", "mcp__d__tool_1"]));
		// The system prompt of that first request lists them among the available tools too.
		const firstSystem = String(body(sb.fake, 0).messages[0]?.content);
		expect(firstSystem).toMatch(/Available tools:[\s\S]*- mcp__d__tool_0:[\s\S]*- mcp__d__tool_1:/);
		const tool = body(sb.fake, 1).messages.find((m) => m.role === "tool");
		expect(JSON.stringify(tool?.content)).toContain("d/tool_1: ping");
	});

	it("start-up does not wait for servers without direct tools; their processes are stopped at exit", async () => {
		const pidFile = join(sb.root, "mute.pid");
		writeMcp({
			mute: stdioEntry("mute", { hangInit: true, pidFile }),
			other: stdioEntry("other", { hangInit: true }),
			third: stdioEntry("third", { tools: 3 }),
		});
		// The model's first step waits (through bash) until the hanging server runs, so its kill at exit is observable.
		sb.fake.enqueue(
			toolReply("bash", { command: `while [ ! -s ${pidFile} ]; do sleep 0.1; done; echo started` }),
			textReply("quick"),
		);
		const r = await sb.run(["-p", ...MODEL, "hi"]);
		expect(r.stdout).toBe("quick\n");
		// The hanging servers were still connecting when the answer came (their 60 s timeout never passed).
		expect(r.stderr).not.toMatch(/failed to connect/);
		const pid = Number(readFileSync(pidFile, "utf8"));
		await until(() => !alive(pid), "the server to be stopped");
	});

	it("a prompt waits at most 10 s for a direct server that never answers, then goes without it and says so", async () => {
		writeMcp({ slow: stdioEntry("slow", { hangInit: true }, { exposure: "direct" }) });
		sb.fake.enqueue(textReply("went ahead"));
		const t0 = Date.now();
		const r = await sb.run(["-p", ...MODEL, "hi"]);
		const elapsed = Date.now() - t0;
		expect(r.stdout).toBe("went ahead\n");
		// Once: the run that follows the typed prompt does not wait for the same server again (it waited 20 s).
		expect(
			r.stderr.split('MCP server "slow" was not ready after 10 s; this prompt goes without its tools'),
		).toHaveLength(2);
		expect(elapsed).toBeGreaterThanOrEqual(10_000);
		expect(elapsed).toBeLessThan(20_000);
		expect(declared(0).some((n) => n.startsWith("mcp__"))).toBe(false);
	}, 40_000);

	it("--no-mcp and -builtin:mcp leave MCP out", async () => {
		writeMcp({ d: stdioEntry("d", { tools: 1 }, { exposure: "direct" }) });
		sb.fake.enqueue(textReply("a"), textReply("b"));
		await sb.run(["-p", ...MODEL, "--no-mcp", "hi"]);
		expect(declared(0).some((n) => n.startsWith("mcp__"))).toBe(false);
		writeFileSync(join(sb.agentDir, "settings.json"), JSON.stringify({ extensions: ["-builtin:mcp"] }));
		await sb.run(["-p", ...MODEL, "hi"]);
		expect(declared(1).some((n) => n.startsWith("mcp__"))).toBe(false);
	});

	it("--tools with an mcp__ pattern keeps only matching MCP tools; --exclude-tools removes them", async () => {
		writeMcp({ d: stdioEntry("d", { tools: 3 }, { exposure: "direct" }) });
		sb.fake.enqueue(textReply("a"), textReply("b"), textReply("c"));
		await sb.run(["-p", ...MODEL, "--tools", "read,mcp__d__tool_1", "hi"]);
		expect(declared(0).sort()).toEqual(["mcp__d__tool_1", "read"]);
		await sb.run(["-p", ...MODEL, "--exclude-tools", "mcp__*", "hi"]);
		expect(declared(1).some((n) => n.startsWith("mcp__"))).toBe(false);
		await sb.run(["-p", ...MODEL, "--tools", "read,bash", "hi"]);
		expect(declared(2).sort()).toEqual(["bash", "read"]);
	}, 60_000);

	it("reads .pi/mcp.json only in a trusted project; a project entry replaces the user entry", async () => {
		writeMcp({ d: stdioEntry("user-d", { tools: 1 }, { exposure: "direct" }) });
		writeMcp({ d: stdioEntry("proj-d", { tools: 2 }, { exposure: "direct" }) }, join(sb.cwd, ".pi"));
		sb.fake.enqueue(toolReply("mcp__d__tool_0", { text: "x" }), textReply("a"));
		await sb.run(["-p", ...MODEL, "--no-approve", "hi"]);
		expect(declared(0).filter((n) => n.startsWith("mcp__"))).toEqual(["mcp__d__tool_0"]);
		expect(JSON.stringify(body(sb.fake, 1).messages)).toContain("user-d/tool_0: x");
		sb.fake.enqueue(toolReply("mcp__d__tool_0", { text: "y" }), textReply("b"));
		await sb.run(["-p", ...MODEL, "--approve", "hi"]);
		expect(
			declared(2)
				.filter((n) => n.startsWith("mcp__"))
				.sort(),
		).toEqual(["mcp__d__tool_0", "mcp__d__tool_1"]);
		expect(JSON.stringify(body(sb.fake, 3).messages)).toContain("proj-d/tool_0: y");
	}, 60_000);

	it("mcp_servers in the system prompt: codemode/deferred servers with their description, not direct ones; the section unchanged on the next prompt", async () => {
		writeMcp({
			docs: stdioEntry("docs", { hangInit: true }, { description: "Search and read the product documentation" }),
			tracker: stdioEntry("tracker", { hangInit: true }, { exposure: "deferred", description: "Issue tracker" }),
			d: stdioEntry("d", { tools: 1 }, { exposure: "direct", description: "never listed" }),
		});
		sb.fake.enqueue(textReply("one"), textReply("two"));
		const r = await sb.run(["-p", ...MODEL, "first", "second"]);
		expect(r.stdout).toContain("two");
		const system = (i: number) => String(body(sb.fake, i).messages[0]?.content);
		expect(body(sb.fake, 0).messages[0]?.role).toBe("system");
		expect(system(0)).toContain("<mcp_servers>");
		expect(system(0)).toContain("- mcp__docs (codemode): Search and read the product documentation");
		expect(system(0)).toContain("- mcp__tracker (tool_search): Issue tracker");
		expect(system(0)).not.toContain("mcp__d ");
		// The section and the whole prompt stay byte for byte: the direct tools were listed from the first request.
		const section = (i: number) => system(i).match(/<mcp_servers>[\s\S]*<\/mcp_servers>/)?.[0];
		expect(section(1)).toBe(section(0));
		expect(system(1)).toBe(system(0));
	});

	it("json mode: MCP notices go to stderr, stdout stays JSON lines", async () => {
		writeMcp({ good: stdioEntry("good", { tools: 1 }), "bad name!": { command: "x" } });
		sb.fake.enqueue(textReply("ok"));
		const r = await sb.run(["--mode", "json", ...MODEL, "hi"]);
		expect(r.code).toBe(0);
		expect(r.stderr).toMatch(/MCP config: .*server "bad name!": names may contain only letters/);
		for (const line of r.stdout.trim().split("\n")) expect(() => JSON.parse(line)).not.toThrow();
	});

	it("/mcp prints each server's state, tool count and errors", async () => {
		writeMcp({
			good: stdioEntry("good", { tools: 4 }),
			bad: stdioEntry("bad", { exitAtStart: true }),
			"bad name!": { command: "x" },
		});
		const r = await sb.run(["-p", ...MODEL, "/mcp"]);
		// Between its backoff retries the failed server is "reconnecting", still marked ✗ and still with its error.
		expect(r.stderr).toMatch(/✗ bad: (failed|reconnecting), exposure codemode, user/);
		expect(r.stderr).toMatch(/exited with code 7/);
		expect(r.stderr).toMatch(/✓ good: connected, 4 tools, exposure codemode, user/);
		expect(r.stderr).toMatch(/server "bad name!": names may contain only letters/);
		expect(sb.fake.requests).toHaveLength(0);
	});
});
