// `/mcp` in the BUILT interactive app (tmux): the servers in a selector with
// the failing one first, a server's tools and details, reconnect, exposure
// and disable saved to mcp.json (other keys kept), enable again; signing in
// opens the browser and takes a pasted redirect address.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type OAuthFixture, startOAuthFixture } from "../../support/mcp/oauth.js";
import { choose, hasTmux, READY, settle, submit, useTmuxApp } from "../../support/tmux-app.js";
import { stdioEntry } from "./harness.js";

let oauth: OAuthFixture | undefined;

const app = useTmuxApp("the interactive /mcp test", {
	async teardown() {
		await oauth?.close();
		oauth = undefined;
	},
});

const mcpFile = () => join(app.sb.agentDir, "mcp.json");
const readMcp = () =>
	JSON.parse(readFileSync(mcpFile(), "utf8")) as { mcpServers: Record<string, Record<string, unknown>> };

describe.skipIf(!hasTmux)("/mcp in the interactive app (tmux)", () => {
	it("lists servers (failed first), shows tools, reconnects, saves exposure and disable to mcp.json", async () => {
		mkdirSync(app.sb.agentDir, { recursive: true });
		writeFileSync(
			mcpFile(),
			JSON.stringify({
				mcpServers: {
					good: { ...stdioEntry("good", { tools: 3 }), description: "kept as written" },
					bad: stdioEntry("bad", { exitAtStart: true }),
				},
			}),
		);
		const p = app.start({ rows: 40, columns: 140 });
		await p.waitFor(READY);
		const list = await submit(p, "/mcp", /✓ good: connected, 3 tools/, 20_000);
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

	it("the /mcp list updates while open: a server connects, another fails and comes back on its own", async () => {
		const gate = join(app.sb.root, "slow-may-start");
		const back = join(app.sb.root, "flaky-may-start");
		mkdirSync(app.sb.agentDir, { recursive: true });
		writeFileSync(
			mcpFile(),
			JSON.stringify({
				mcpServers: {
					slow: stdioEntry("slow", { tools: 2, waitForFile: gate }),
					flaky: stdioEntry("flaky", { tools: 1, exitUnlessFile: back }),
				},
			}),
		);
		const p = app.start({ rows: 30, columns: 160 });
		await p.waitFor(READY);
		// Open at once: slow is still connecting, flaky failed (and is retrying).
		const first = await submit(p, "/mcp", /✗ flaky: (failed|reconnecting)/, 20_000);
		expect(first).toMatch(/… slow: connecting/);
		// Highlight slow, then let it start: its row turns connected while the list stays open, and stays highlighted.
		// (The highlight follows a server by name as rows re-sort, so move it with the keys until it is on slow.)
		for (let i = 0; i < 4 && !/^\s*(→|>|❯|›).*slow: connecting/m.test(p.screen()); i++) {
			p.keys("Down");
			await settle(150);
		}
		expect(p.screen()).toMatch(/^\s*(→|>|❯|›).*slow: connecting/m);
		writeFileSync(gate, "");
		const connected = await p.waitFor(/✓ slow: connected, 2 tools/, 20_000);
		expect(connected).toMatch(/^\s*(→|>|❯|›).*slow: connected/m);
		expect(connected).toContain("MCP servers");
		// flaky comes back with the next backoff attempt, again without a key press.
		writeFileSync(back, "");
		const both = await p.waitFor(/✓ flaky: connected, 1 tool\b/, 30_000);
		expect(both).toMatch(/✓ slow: connected, 2 tools/);
		expect(both).toMatch(/^\s*(→|>|❯|›).*slow: connected/m);
		// Still the list: Enter opens the highlighted server.
		p.keys("Enter");
		await p.waitFor('MCP server "slow"');
	}, 90_000);

	it("sign-in opens the browser and takes the pasted address when the loopback is not reached; Esc cancels", async () => {
		oauth = await startOAuthFixture();
		mkdirSync(app.sb.agentDir, { recursive: true });
		writeFileSync(mcpFile(), JSON.stringify({ mcpServers: { secure: { url: oauth.url, exposure: "direct" } } }));
		// The "browser": an xdg-open on PATH that only records the address (it never reaches the loopback).
		const bin = join(app.sb.root, "bin");
		const opened = join(app.sb.root, "opened.txt");
		mkdirSync(bin, { recursive: true });
		writeFileSync(join(bin, "xdg-open"), `#!/bin/sh\nprintf '%s\\n' "$1" >> '${opened}'\n`);
		chmodSync(join(bin, "xdg-open"), 0o755);
		const p = await app.ready({ env: { DISPLAY: ":99", PATH: `${bin}:${app.sb.env.PATH}` }, columns: 200, rows: 50 });
		await submit(p, "/mcp login secure", "paste the address your browser ended on");
		await p.waitFor('Opened the sign-in page for MCP server "secure"');
		for (let i = 0; i < 100 && !existsSync(opened); i++) await settle(100);
		const authUrl = readFileSync(opened, "utf8").trim();
		expect(authUrl).toMatch(/\/authorize\?/);
		// The user approves in the browser; it ends on the callback address, which pi never sees.
		const approved = await fetch(authUrl, { redirect: "manual" });
		const landing = approved.headers.get("location") ?? "";
		expect(landing).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback\?code=/);
		await submit(p, landing, /✓ secure: connected, 2 tools/, 30_000);
		expect(readFileSync(join(app.sb.agentDir, "mcp-auth.json"), "utf8")).toContain([...oauth.tokens][0]);

		// Signed out, signing in again and pressing Esc in the paste prompt cancels it.
		await submit(p, "/mcp logout secure", 'Signed out of MCP server "secure"');
		await submit(p, "/mcp login secure", "paste the address your browser ended on");
		p.keys("Escape");
		await p.waitFor('MCP login for "secure" failed: sign-in cancelled');
	}, 120_000);

	it("in a trusted project a user-level server is disabled and enabled for this project only (an override in .pi/mcp.json)", async () => {
		mkdirSync(app.sb.agentDir, { recursive: true });
		writeFileSync(mcpFile(), JSON.stringify({ mcpServers: { good: stdioEntry("good", { tools: 1 }) } }));
		writeFileSync(join(app.sb.agentDir, "trust.json"), JSON.stringify({ [app.sb.cwd]: true }));
		const projectFile = join(app.sb.cwd, ".pi", "mcp.json");
		const p = app.start({ rows: 40, columns: 160 });
		await p.waitFor(READY);
		await submit(p, "/mcp", /✓ good: connected, 1 tools?/, 20_000);
		await choose(p, "✓ good: connected");
		await choose(p, "Disable in this project");
		await p.waitFor(/"good" disabled in this project/);
		expect(JSON.parse(readFileSync(projectFile, "utf8"))).toEqual({ mcpServers: { good: { enabled: false } } });
		expect(readMcp().mcpServers.good.enabled).toBeUndefined();
		// The override is what the next start reads: the server stays off here.
		p.kill();
		const again = app.start({ rows: 40, columns: 160 });
		await again.waitFor(READY);
		await submit(again, "/mcp", /good: disabled/, 20_000);
		await choose(again, "good: disabled");
		await choose(again, "Enable in this project");
		await again.waitFor(/"good" enabled in this project/);
		expect(JSON.parse(readFileSync(projectFile, "utf8"))).toEqual({ mcpServers: { good: {} } });
		expect(readMcp().mcpServers.good.enabled).toBeUndefined();
	}, 90_000);
});
