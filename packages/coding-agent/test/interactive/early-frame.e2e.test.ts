// The early frame in the BUILT CLI, in tmux (issue 25, cli/early-frame.ts): a start in a folder whose
// last start drew its first frame under the same conditions shows that frame before the CLI's bundle is
// read, and the app then takes the screen over without drawing its rows again; a record that no longer
// matches is corrected by the app; changed conditions, a resumed session or PI_FRAME_CACHE=off show
// none; output before the app (an error) erases the frame first and leaves the terminal as it was.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { storedFrameSum } from "../../src/cli/early-frame.js";
import { textReply } from "../cli/support.js";
import { orderProbe } from "../support/order-probe.js";
import { hasTmux, READY, type TmuxPi, useTmuxApp } from "../support/tmux-app.js";

const app = useTmuxApp("the early frame");

/** "frame" for each write that shows the footer's model, "bundle" for the first read of the CLI's bundle. */
function probe(): { env: NodeJS.ProcessEnv; events: () => string[] } {
	const order = orderProbe(app.sb.root, { reads: { "cli-main.cjs": "bundle" }, writes: { "fake-model": "frame" } });
	const env = { NODE_OPTIONS: order.nodeOptions, PI_COMPILE_CACHE: cacheDir(), OPENAI_API_KEY: "sk-test-7f3a" };
	return { env, events: order.take };
}

const cacheDir = () => join(app.sb.root, "code-cache");
const records = () => (existsSync(cacheDir()) ? readdirSync(cacheDir()).filter((f) => /^frame-.*\.json$/.test(f)) : []);
const args = ["--no-session", "--model", "fake/fake-model"];

/** Starts the app and waits for its footer. */
async function once(env: NodeJS.ProcessEnv, extraArgs = args): Promise<{ pi: TmuxPi; screen: string }> {
	const pi = await app.ready({ env, args: extraArgs });
	return { pi, screen: pi.screen() };
}

/** Waits until the app has started its TUI (it sets the pane's title then) and drawn its first frame. */
async function appStarted(pi: TmuxPi): Promise<void> {
	const title = () =>
		execFileSync("tmux", ["-L", pi.socket, "display-message", "-p", "-t", "0", "#{pane_title}"], {
			encoding: "utf8",
		});
	for (const deadline = Date.now() + 20_000; !title().startsWith("pi - "); ) {
		if (Date.now() > deadline) throw new Error(`the app did not start: ${title()}`);
		await new Promise((r) => setTimeout(r, 25));
	}
	await new Promise((r) => setTimeout(r, 200));
}

/** Waits until the app kept its first frame (written once the frame is drawn). */
async function recorded(): Promise<void> {
	for (const deadline = Date.now() + 5_000; records().length === 0; ) {
		if (Date.now() > deadline) throw new Error("no frame record after 5 s");
		await new Promise((r) => setTimeout(r, 25));
	}
}

/** A first start that draws and records its frame, then quits; the probe's events so far are dropped. */
async function firstStart(extraArgs = args) {
	const { env, events } = probe();
	const first = await once(env, extraArgs);
	await recorded();
	first.pi.kill();
	events();
	return { env, events, screen: first.screen };
}

/** Changes the folder's record in place (its key stays; its checksum follows the change). */
function editRecord(edit: (stored: { bytes: string; record: { lines: unknown[] } }) => void): void {
	const file = join(cacheDir(), records()[0]);
	const stored = JSON.parse(readFileSync(file, "utf8"));
	edit(stored);
	stored.sum = storedFrameSum(stored.bytes, stored.cursorRow, stored.record);
	writeFileSync(file, JSON.stringify(stored));
}

describe.skipIf(!hasTmux)("the early frame (tmux, built app)", () => {
	it("shows the folder's last first frame before the bundle is read; the app does not draw its rows again", async () => {
		const { env, events } = probe();
		const first = await once(env);
		// The record is kept once the first frame is drawn.
		await recorded();
		first.pi.kill();
		expect(records()).toHaveLength(1);
		expect(events()).toEqual(["bundle", "frame"]);
		// The key holds the environment's values; the record keeps only its digest.
		expect(readFileSync(join(cacheDir(), records()[0]), "utf8")).not.toContain("sk-test-7f3a");

		const second = await once(env);
		expect(second.screen).toBe(first.screen);
		await appStarted(second.pi);
		// The app took the screen over: its first render wrote no row with the footer (the early frame's
		// write is the only one).
		expect(events()).toEqual(["frame", "bundle"]);
		second.pi.kill();

		// Typed as soon as the frame shows (the app may still be loading): the keys reach the app.
		const third = await once(env);
		app.sb.fake.enqueue(textReply("answered"));
		third.pi.type("hello");
		third.pi.keys("Enter");
		const screen = await third.pi.waitFor(/^\s+answered$/m, 20_000);
		expect(screen).toContain("hello");
		expect(app.sb.fake.requests).toHaveLength(1);
		third.pi.kill();
	});

	it("a record that no longer matches what the app draws is corrected by the app", async () => {
		const { env, events, screen: firstScreen } = await firstStart();
		// Same key, other contents: the banner's version line reads STALE.
		editRecord((stored) => {
			stored.bytes = stored.bytes.replace("v0.", "STALE v0.");
			stored.record.lines = stored.record.lines.map((l) => String(l).replace("v0.", "STALE v0."));
		});
		const pi = app.start({ env, args });
		// The stale frame shows first (the footer is the same), then the app draws the version line again.
		const screen = await pi.waitFor((s) => READY.test(s) && !s.includes("STALE"), 20_000);
		expect(screen).toBe(firstScreen);
		expect(events()[0]).toBe("frame");
	});

	it("a record whose frame is not a frame is erased by the app, which draws its own", async () => {
		const { env, events, screen: firstScreen } = await firstStart();
		editRecord((stored) => {
			stored.record.lines = stored.record.lines.map((_, i) => i);
		});
		const second = await once(env);
		await appStarted(second.pi);
		expect(second.pi.screen()).toBe(firstScreen);
		// Painted early, erased, then drawn by the app: two writes showing the footer.
		expect(events()).toEqual(["frame", "bundle", "frame"]);
	});

	it("shows nothing early when the conditions changed, for a resumed session, or with PI_FRAME_CACHE=off", async () => {
		const { env, events } = await firstStart();

		// The settings changed: the key differs, the app draws the first frame itself (and records it).
		writeFileSync(join(app.sb.agentDir, "settings.json"), JSON.stringify({ quietStartup: true }));
		(await once(env)).pi.kill();
		expect(events().slice(0, 2)).toEqual(["bundle", "frame"]);

		// PI_FRAME_CACHE=off: neither painted nor recorded.
		rmSync(cacheDir(), { recursive: true, force: true });
		const off = { ...env, PI_FRAME_CACHE: "off" };
		(await once(off)).pi.kill();
		(await once(off)).pi.kill();
		expect(events().slice(0, 2)).toEqual(["bundle", "frame"]);
		expect(records()).toHaveLength(0);

		// A resumed session (-c) is never recorded: its transcript is not in the key.
		const resumeArgs = ["-c", "--model", "fake/fake-model"];
		(await once(env, resumeArgs)).pi.kill();
		(await once(env, resumeArgs)).pi.kill();
		expect(records()).toHaveLength(0);
	});

	it("output before the app erases the frame first, and the terminal is left in cooked mode", async () => {
		writeFileSync(join(app.sb.cwd, "note.txt"), "a note");
		const withFile = [...args, "@note.txt"];
		const { env, events } = await firstStart(withFile);
		// The same start, but the file is gone: the CLI stops with an error after the early frame showed.
		rmSync(join(app.sb.cwd, "note.txt"));
		const pi = app.start({
			env,
			args: withFile,
			// icanon and echo on again: what the shell had before pi started.
			afterExit: [`stty -a | tr ' ;' '\\n\\n' | grep -x -e '-\\?icanon' -e '-\\?echo' | tr '\\n' ' '; echo '[stty]'`],
		});
		const screen = await pi.waitFor("[stty]", 20_000);
		expect(events()[0]).toBe("frame");
		expect(screen).toContain("File not found");
		expect(screen).toContain("[pi exited 1]");
		// The frame was erased before the error was written.
		expect(screen).not.toContain("fake-model");
		expect(screen).not.toMatch(/pi v\d/);
		expect(screen).toMatch(/(^|\s)icanon echo \[stty\]/m);
	});

	it("a warning before the app erases the frame; the app then draws its whole frame, not a diff against it", async () => {
		// An unknown thinking level is a warning on stderr, then the app starts.
		const withWarning = [...args, "--thinking", "bogus"];
		const { env, events, screen: firstScreen } = await firstStart(withWarning);
		const pi = app.start({ env, args: withWarning });
		await pi.waitFor(READY, 20_000);
		await appStarted(pi);
		const screen = pi.screen();
		expect(screen).toMatch(/pi v\d/);
		expect(screen).toContain("bogus");
		expect(screen.split("\n").length).toBe(firstScreen.split("\n").length);
		expect(events()).toEqual(["frame", "bundle", "frame"]);
		// The app's editor works where it is drawn.
		pi.type("typed here");
		const typed = await pi.waitFor("typed here");
		const rows = typed.split("\n");
		expect(rows.findIndex((r) => r.includes("typed here"))).toBe(rows.findIndex((r) => READY.test(r)) - 3);
	});

	it("a trust prompt before the app erases the frame and gets the terminal as the shell left it", async () => {
		// A project prompt template needs the folder's trust; "Trust once" asks again at the next start.
		mkdirSync(join(app.sb.cwd, ".pi", "prompts"), { recursive: true });
		writeFileSync(join(app.sb.cwd, ".pi", "prompts", "review.md"), "Review it\n");
		const { env, events } = probe();
		for (let start = 0; start < 2; start++) {
			const pi = app.start({ env, args });
			await pi.waitFor("Trust this folder?", 20_000);
			pi.keys("Enter");
			await pi.waitFor(READY, 20_000);
			await recorded();
			await appStarted(pi);
			pi.kill();
		}
		const seen = events();
		// The second start painted the record of the first, then the prompt erased it.
		expect(seen.filter((e) => e === "frame").length).toBeGreaterThanOrEqual(3);
		const pi = app.start({ env, args });
		await pi.waitFor("Trust this folder?", 20_000);
		expect(pi.screen()).not.toContain("fake-model");
		// Keys move the prompt's list (raw mode of its own): Down then Enter is "Trust always".
		pi.keys("Down");
		pi.keys("Enter");
		await pi.waitFor(READY, 20_000);
		expect(JSON.stringify(JSON.parse(readFileSync(join(app.sb.agentDir, "trust.json"), "utf8")))).toContain("true");
	});

	it("a signal between the frame and the app erases the frame and shows the cursor again", async () => {
		const hold = join(app.sb.root, "hold");
		const pidFile = join(app.sb.root, "pid");
		// Holds the start for 2 s when the bundle is first read, while `hold` exists (so the recording starts run at speed).
		const holder = join(app.sb.root, "hold-probe.cjs");
		writeFileSync(
			holder,
			[
				`const fs = require("node:fs");`,
				`if (process.argv[1]?.endsWith("cli.js")) fs.writeFileSync(${JSON.stringify(pidFile)}, String(process.pid));`,
				`const real = fs.openSync;`,
				`let held = false;`,
				`fs.openSync = function (path, ...rest) {`,
				`	if (!held && String(path).endsWith("cli-main.cjs") && fs.existsSync(${JSON.stringify(hold)})) {`,
				`		held = true;`,
				`		Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2000);`,
				`	}`,
				`	return real.call(this, path, ...rest);`,
				`};`,
			].join("\n"),
		);
		const env = { NODE_OPTIONS: `--require ${holder}`, PI_COMPILE_CACHE: cacheDir() };
		const first = await once(env);
		await recorded();
		first.pi.kill();
		writeFileSync(hold, "");
		const pi = app.start({ env, args });
		await pi.waitFor(READY, 20_000);
		// Caught, not deadly, while the frame is up: handled once the start reaches the event loop — the
		// frame erased if still up, then the app's own SIGTERM handling (a clean quit) if it is listening.
		execFileSync("kill", ["-TERM", readFileSync(pidFile, "utf8")]);
		const screen = await pi.waitFor("[pi exited", 20_000);
		expect(screen).toMatch(/\[pi exited (0|143)\]/);
		const cursor = execFileSync("tmux", ["-L", pi.socket, "display-message", "-p", "-t", "0", "#{cursor_flag}"], {
			encoding: "utf8",
		});
		expect(cursor.trim()).toBe("1");
	});
});
