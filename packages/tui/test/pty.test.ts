/**
 * End to end in a real terminal: tmux runs a small app on ProcessTerminal;
 * keys go in with `send-keys`, the screen comes back with `capture-pane`.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, "..", "..", "..");
const hasTmux = spawnSync("tmux", ["-V"]).status === 0;
const socket = `pi-tui-test-${process.pid}`;
const tmux = (...args: string[]) => execFileSync("tmux", ["-L", socket, ...args], { encoding: "utf8" });

async function waitFor(predicate: (screen: string) => boolean, timeoutMs = 15_000): Promise<string> {
	const end = Date.now() + timeoutMs;
	let screen = "";
	while (Date.now() < end) {
		screen = tmux("capture-pane", "-p", "-t", "app");
		if (predicate(screen)) return screen;
		await new Promise((r) => setTimeout(r, 50));
	}
	throw new Error(`timed out; screen was:\n${screen}`);
}

afterAll(() => {
	if (hasTmux) spawnSync("tmux", ["-L", socket, "kill-server"]);
});

describe.skipIf(!hasTmux)("ProcessTerminal in tmux", () => {
	it("renders, edits, submits, and restores the terminal on exit", async () => {
		const app = join(here, "fixtures", "pty-app.ts");
		tmux(
			"new-session",
			"-d",
			"-s",
			"app",
			"-x",
			"50",
			"-y",
			"12",
			`cd ${repoRoot} && node --import tsx ${app}; echo "exit=$?"; sleep 30`,
		);
		await waitFor((s) => s.includes("pty demo ready"));
		tmux("send-keys", "-t", "app", "-l", "hello wörld 日本");
		await waitFor((s) => s.includes("hello wörld 日本"));
		tmux("send-keys", "-t", "app", "C-a");
		tmux("send-keys", "-t", "app", "-l", ">");
		tmux("send-keys", "-t", "app", "Enter");
		const screen = await waitFor((s) => s.includes("you said: >hello wörld 日本"));
		const lines = screen.split("\n");
		expect(lines[0]).toBe("pty demo ready");
		expect(lines[1]).toBe("you said: >hello wörld 日本");
		expect(lines[2]).toBe("─".repeat(50));
		tmux("send-keys", "-t", "app", "C-c");
		const after = await waitFor((s) => s.includes("exit=0"));
		expect(after).toContain("bye");
	}, 60_000);
});
