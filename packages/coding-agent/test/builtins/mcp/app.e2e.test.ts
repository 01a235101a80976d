// `/mcp` in the BUILT interactive app (tmux): the servers in a selector with
// the failing one first, a server's tools and details, reconnect, exposure
// and disable saved to mcp.json (other keys kept), enable again; signing in
// opens the browser and takes a pasted redirect address.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { assertBuilt, createSandbox, type Sandbox } from "../../cli/support.js";
import { hasTmux, startPi, type TmuxPi } from "../../interactive/tmux.js";
import { type OAuthFixture, startOAuthFixture } from "../../support/mcp/oauth.js";
import { stdioEntry } from "./harness.js";

const READY = /fake-model\s*$/m;
let sb: Sandbox;
let pi: TmuxPi | undefined;
let oauth: OAuthFixture | undefined;

beforeAll(() => {
	if (!hasTmux) console.warn("tmux not found: skipping the interactive /mcp test (CI installs it)");
	else assertBuilt();
});
beforeEach(async () => {
	sb = await createSandbox();
});
afterEach(async () => {
	pi?.kill();
	pi = undefined;
	await oauth?.close();
	oauth = undefined;
	await sb.close();
});

const mcpFile = () => join(sb.agentDir, "mcp.json");
const readMcp = () =>
	JSON.parse(readFileSync(mcpFile(), "utf8")) as { mcpServers: Record<string, Record<string, unknown>> };

/** Moves the selector to the row containing `text` (rows are picked with Down, not typed). */
async function choose(p: TmuxPi, text: string): Promise<void> {
	for (let i = 0; i < 12; i++) {
		const row = p
			.screen()
			.split("\n")
			.find((l) => l.includes(text));
		if (row && /^\s*(→|>|❯|›)/.test(row)) {
			p.keys("Enter");
			return;
		}
		p.keys("Down");
		await new Promise((r) => setTimeout(r, 150));
	}
	throw new Error(`no selectable row "${text}" in:\n${p.screen()}`);
}

describe.skipIf(!hasTmux)("/mcp in the interactive app (tmux)", () => {
	it("lists servers (failed first), shows tools, reconnects, saves exposure and disable to mcp.json", async () => {
		mkdirSync(sb.agentDir, { recursive: true });
		writeFileSync(
			mcpFile(),
			JSON.stringify({
				mcpServers: {
					good: { ...stdioEntry("good", { tools: 3 }), description: "kept as written" },
					bad: stdioEntry("bad", { exitAtStart: true }),
				},
			}),
		);
		const p = startPi({ cwd: sb.cwd, env: sb.env, rows: 40, columns: 140 });
		pi = p;
		await p.waitFor(READY);
		p.type("/mcp");
		p.keys("Enter");
		const list = await p.waitFor(/✓ good: connected, 3 tools/, 20_000);
		const lines = list.split("\n");
		// A failed server retries with backoff; between attempts it is "reconnecting": either way it comes first.
		const bad = lines.findIndex((l) => /✗ bad: (failed|reconnecting)/.test(l));
		const good = lines.findIndex((l) => /✓ good: connected/.test(l));
		expect(bad).toBeGreaterThan(-1);
		expect(bad).toBeLessThan(good);

		await choose(p, "✓ good: connected");
		await p.waitFor("Tools and details");
		await choose(p, "Tools and details");
		const tools = await p.waitFor("mcp__good__tool_2");
		expect(tools).toContain("mcp__good__tool_0");
		expect(tools).toMatch(/command: .*stdio-server\.mjs/);

		await choose(p, "Exposure: codemode");
		await p.waitFor("direct");
		await choose(p, "direct");
		await p.waitFor(/exposure direct \(saved to/);
		expect(readMcp().mcpServers.good.exposure).toBe("direct");
		expect(readMcp().mcpServers.good.description).toBe("kept as written");

		await choose(p, "Disable");
		await p.waitFor(/"good" disabled/);
		expect(readMcp().mcpServers.good.enabled).toBe(false);
		await choose(p, "Enable");
		await p.waitFor(/✓ good: connected, 3 tools, exposure direct/, 20_000);
		expect(readMcp().mcpServers.good.enabled).toBeUndefined();

		await choose(p, "← Back");
		await p.waitFor("MCP servers");
		await choose(p, " bad: ");
		await choose(p, "Reconnect");
		await p.waitFor(/exited with code 7/, 20_000);
		expect(p.exited()).toBe(false);
	}, 90_000);

	it("sign-in opens the browser and takes the pasted address when the loopback is not reached; Esc cancels", async () => {
		oauth = await startOAuthFixture();
		mkdirSync(sb.agentDir, { recursive: true });
		writeFileSync(mcpFile(), JSON.stringify({ mcpServers: { secure: { url: oauth.url, exposure: "direct" } } }));
		// The "browser": an xdg-open on PATH that only records the address (it never reaches the loopback).
		const bin = join(sb.root, "bin");
		const opened = join(sb.root, "opened.txt");
		mkdirSync(bin, { recursive: true });
		writeFileSync(join(bin, "xdg-open"), `#!/bin/sh\nprintf '%s\\n' "$1" >> '${opened}'\n`);
		chmodSync(join(bin, "xdg-open"), 0o755);
		const p = startPi({
			cwd: sb.cwd,
			env: { ...sb.env, DISPLAY: ":99", PATH: `${bin}:${sb.env.PATH}` },
			columns: 200,
			rows: 50,
		});
		pi = p;
		await p.waitFor(READY);
		p.type("/mcp login secure");
		p.keys("Enter");
		await p.waitFor("paste the address your browser ended on");
		await p.waitFor('Opened the sign-in page for MCP server "secure"');
		for (let i = 0; i < 100 && !existsSync(opened); i++) await new Promise((r) => setTimeout(r, 100));
		const authUrl = readFileSync(opened, "utf8").trim();
		expect(authUrl).toMatch(/\/authorize\?/);
		// The user approves in the browser; it ends on the callback address, which pi never sees.
		const approved = await fetch(authUrl, { redirect: "manual" });
		const landing = approved.headers.get("location") ?? "";
		expect(landing).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback\?code=/);
		p.type(landing);
		p.keys("Enter");
		await p.waitFor(/✓ secure: connected, 2 tools/, 30_000);
		expect(readFileSync(join(sb.agentDir, "mcp-auth.json"), "utf8")).toContain([...oauth.tokens][0]);

		// Signed out, signing in again and pressing Esc in the paste prompt cancels it.
		p.type("/mcp logout secure");
		p.keys("Enter");
		await p.waitFor('Signed out of MCP server "secure"');
		p.type("/mcp login secure");
		p.keys("Enter");
		await p.waitFor("paste the address your browser ended on");
		p.keys("Escape");
		await p.waitFor('MCP login for "secure" failed: sign-in cancelled');
	}, 120_000);

	it("in a trusted project a user-level server is disabled and enabled for this project only (an override in .pi/mcp.json)", async () => {
		mkdirSync(sb.agentDir, { recursive: true });
		writeFileSync(mcpFile(), JSON.stringify({ mcpServers: { good: stdioEntry("good", { tools: 1 }) } }));
		writeFileSync(join(sb.agentDir, "trust.json"), JSON.stringify({ [sb.cwd]: true }));
		const projectFile = join(sb.cwd, ".pi", "mcp.json");
		const p = startPi({ cwd: sb.cwd, env: sb.env, rows: 40, columns: 160 });
		pi = p;
		await p.waitFor(READY);
		p.type("/mcp");
		p.keys("Enter");
		await p.waitFor(/✓ good: connected, 1 tools?/, 20_000);
		await choose(p, "✓ good: connected");
		await choose(p, "Disable in this project");
		await p.waitFor(/"good" disabled in this project/);
		expect(JSON.parse(readFileSync(projectFile, "utf8"))).toEqual({ mcpServers: { good: { enabled: false } } });
		expect(readMcp().mcpServers.good.enabled).toBeUndefined();
		// The override is what the next start reads: the server stays off here.
		pi.kill();
		const again = startPi({ cwd: sb.cwd, env: sb.env, rows: 40, columns: 160 });
		pi = again;
		await again.waitFor(READY);
		again.type("/mcp");
		again.keys("Enter");
		await again.waitFor(/good: disabled/, 20_000);
		await choose(again, "good: disabled");
		await choose(again, "Enable in this project");
		await again.waitFor(/"good" enabled in this project/);
		expect(JSON.parse(readFileSync(projectFile, "utf8"))).toEqual({ mcpServers: { good: {} } });
		expect(readMcp().mcpServers.good.enabled).toBeUndefined();
	}, 90_000);
});
