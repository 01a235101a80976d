// The OSC 11 background query: parsing replies, light/dark, and the query
// itself against a scripted terminal (answers, DA1 only, silence, not a TTY)
// and a real one (tmux, which answers OSC 11 from its window-style).
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { PassThrough } from "node:stream";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import {
	appearanceFromColorFgBg,
	appearanceOf,
	parseBackgroundReply,
	parseOscColor,
	queryTerminalBackground,
} from "../src/terminal-background.js";

/** A terminal on the far side of two streams: sees what is written, answers per `reply`. */
function fakeTty(reply: (query: string) => string | undefined) {
	const input = Object.assign(new PassThrough(), {
		isTTY: true,
		isRaw: false,
		rawCalls: [] as boolean[],
		setRawMode(mode: boolean) {
			this.isRaw = mode;
			this.rawCalls.push(mode);
			return this;
		},
	});
	const written: string[] = [];
	const output = Object.assign(new PassThrough(), { isTTY: true });
	output.on("data", (chunk: Buffer) => {
		const text = chunk.toString("latin1");
		written.push(text);
		const answer = reply(text);
		// Answer in pieces, as a terminal over a pty may.
		if (answer) for (const part of [answer.slice(0, 5), answer.slice(5)]) setImmediate(() => input.write(part));
	});
	return { input, output, written };
}

/** What the input's next reader gets (the query leaves it paused). */
async function nextRead(input: PassThrough): Promise<string> {
	const next: string[] = [];
	input.on("data", (chunk: Buffer) => next.push(chunk.toString("latin1")));
	input.resume();
	await new Promise((resolve) => setImmediate(resolve));
	return next.join("");
}

describe("OSC 11 replies", () => {
	it("parses rgb: with 1–4 hex digits per channel and #rrggbb", () => {
		expect(parseOscColor("rgb:ffff/ffff/ffff")).toEqual({ r: 255, g: 255, b: 255 });
		expect(parseOscColor("rgb:1e1e/1e1e/2e2e")).toEqual({ r: 30, g: 30, b: 46 });
		expect(parseOscColor("rgb:f/0/8")).toEqual({ r: 255, g: 0, b: 136 });
		expect(parseOscColor("#f0f0f0")).toEqual({ r: 240, g: 240, b: 240 });
		expect(parseOscColor("rgb:zz/00/00")).toBeUndefined();
		expect(parseOscColor("white")).toBeUndefined();
		expect(parseBackgroundReply("\x1b]11;rgb:0000/0000/0000\x1b\\\x1b[?62;22c")).toEqual({ r: 0, g: 0, b: 0 });
		expect(parseBackgroundReply("\x1b[?62;22c")).toBeUndefined();
	});

	it("calls light backgrounds light and dark ones dark; COLORFGBG as the fallback", () => {
		expect(appearanceOf({ r: 255, g: 255, b: 255 })).toBe("light");
		expect(appearanceOf({ r: 253, g: 246, b: 227 })).toBe("light"); // solarized light
		expect(appearanceOf({ r: 0, g: 43, b: 54 })).toBe("dark"); // solarized dark
		expect(appearanceOf({ r: 30, g: 30, b: 46 })).toBe("dark");
		expect(appearanceFromColorFgBg({ COLORFGBG: "0;15" })).toBe("light");
		expect(appearanceFromColorFgBg({ COLORFGBG: "15;default;0" })).toBe("dark");
		expect(appearanceFromColorFgBg({ COLORFGBG: "garbage" })).toBeUndefined();
		expect(appearanceFromColorFgBg({})).toBeUndefined();
	});
});

describe("queryTerminalBackground", () => {
	it("sends OSC 11 then DA1 and reads the colour; raw mode is restored and input paused", async () => {
		const t = fakeTty((q) => (q.includes("\x1b]11;?") ? "\x1b]11;rgb:fafa/fafa/fafa\x07\x1b[?64;1;2c" : undefined));
		const r = await queryTerminalBackground(t, 5_000);
		expect(t.written.join("")).toBe("\x1b]11;?\x07\x1b[c");
		expect(r).toMatchObject({ outcome: "answered", rgb: { r: 250, g: 250, b: 250 } });
		expect(t.input.rawCalls).toEqual([true, false]);
		expect(t.input.isPaused()).toBe(true);
		expect(t.input.listenerCount("data")).toBe(0);
	});

	it("stops at the DA1 reply when the terminal ignores OSC 11 (no wait for the timer)", async () => {
		const t = fakeTty(() => "\x1b[?1;2c");
		// A timer far beyond the test's own timeout: only the DA1 reply can end this in time.
		const r = await queryTerminalBackground(t, 60_000);
		expect(r.outcome).toBe("unsupported");
		expect(r.rgb).toBeUndefined();
	});

	it("keys typed while it waits are left on the input for the next reader, in order", async () => {
		// The user types "hi" and Enter before the terminal's answer comes, "!" between its two parts.
		const t = fakeTty((q) => {
			if (!q.includes("\x1b]11;?")) return undefined;
			setImmediate(() => t.input.write("hi\r"));
			return "\x1b]11;rgb:0000/0000/0000\x07!\x1b[?64;1;2c";
		});
		const r = await queryTerminalBackground(t, 5_000);
		expect(r.outcome).toBe("answered");
		expect(await nextRead(t.input)).toBe("hi\r!");
	});

	it("a reply cut short by the timeout is not taken for typed keys", async () => {
		const t = fakeTty((q) => (q.includes("\x1b]11;?") ? "ab\x1b]11;rgb:00" : undefined));
		const r = await queryTerminalBackground(t, 50);
		expect(r.outcome).toBe("timeout");
		expect(await nextRead(t.input)).toBe("ab");
	});

	it("gives up after the timeout when the terminal answers nothing", async () => {
		const t = fakeTty(() => undefined);
		const r = await queryTerminalBackground(t, 50);
		expect(r.outcome).toBe("timeout");
		expect(t.input.rawCalls).toEqual([true, false]);
	});

	it("keeps raw mode on when it was on, and does nothing without a TTY on both ends", async () => {
		const t = fakeTty(() => "\x1b[?1;2c");
		t.input.isRaw = true;
		await queryTerminalBackground(t, 5_000);
		expect(t.input.rawCalls).toEqual([true]);
		const notTty = fakeTty(() => undefined);
		notTty.output.isTTY = false as true;
		expect(await queryTerminalBackground(notTty, 5_000)).toMatchObject({ outcome: "not-a-tty" });
		expect(notTty.written).toEqual([]);
	});
});

const hasTmux = spawnSync("tmux", ["-V"]).status === 0;
// One tmux server per run: starting a server on a socket whose previous server is still shutting down
// fails with "server exited unexpectedly".
const socketOf = (run: string) => `pi-tui-bg-${process.pid}-${run}`;
const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, "..", "..", "..");
const dir = mkdtempSync(join(tmpdir(), "pi-tui-bg-"));
afterAll(() => {
	if (hasTmux) for (const run of ["light", "plain"]) spawnSync("tmux", ["-L", socketOf(run), "kill-server"]);
	rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!hasTmux)("queryTerminalBackground in tmux", () => {
	it("reads the pane's background when tmux knows it, and ends on DA1 when it does not", async () => {
		const script = join(dir, "query.mts");
		writeFileSync(
			script,
			`import { writeFileSync } from "node:fs";
import { queryTerminalBackground } from ${JSON.stringify(join(here, "..", "src", "terminal-background.ts"))};
const r = await queryTerminalBackground({ input: process.stdin, output: process.stdout }, 20_000);
writeFileSync(process.argv[2], JSON.stringify(r));
process.exit(0);
`,
		);
		const run = async (style: string | undefined, out: string) => {
			const conf = join(dir, `${out}.conf`);
			writeFileSync(conf, style ? `set -g window-style '${style}'\n` : "");
			execFileSync("tmux", [
				"-L",
				socketOf(out),
				"-f",
				conf,
				"new-session",
				"-d",
				"-s",
				out,
				`cd ${repoRoot} && node --import tsx ${script} ${join(dir, out)}; sleep 30`,
			]);
			const end = Date.now() + 30_000;
			for (;;) {
				try {
					return JSON.parse(readFileSync(join(dir, out), "utf8"));
				} catch {
					if (Date.now() > end) throw new Error(`no answer from the query in tmux (${out})`);
					await new Promise((r) => setTimeout(r, 100));
				}
			}
		};
		expect(await run("bg=#f0f0f0", "light")).toMatchObject({ outcome: "answered", rgb: { r: 240, g: 240, b: 240 } });
		spawnSync("tmux", ["-L", socketOf("light"), "kill-server"]);
		expect(await run(undefined, "plain")).toMatchObject({ outcome: "unsupported" });
	}, 90_000);
});
