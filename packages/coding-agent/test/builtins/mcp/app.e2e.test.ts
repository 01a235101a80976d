// `/mcp` in the BUILT interactive app (tmux): the servers in a selector with
// the failing one first, a server's tools and details, reconnect, exposure
// and disable saved to mcp.json (other keys kept), enable again.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { assertBuilt, createSandbox, type Sandbox } from "../../cli/support.js";
import { hasTmux, startPi, type TmuxPi } from "../../interactive/tmux.js";
import { stdioEntry } from "./harness.js";

const READY = /fake-model\s*$/m;
let sb: Sandbox;
let pi: TmuxPi | undefined;

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
});
