// One driver for the tmux end-to-end tests of the BUILT app: a fresh sandbox
// (temporary home + fake provider) per test, the app started in it and killed
// after the test, the ready wait, and the selector helper. A test file calls
// `useTmuxApp(...)` once at top level; it registers the vitest hooks.
import { afterEach, beforeAll, beforeEach } from "vitest";
import { assertBuilt, createSandbox, type Sandbox } from "../cli/support.js";
import { hasTmux, startPi, type TmuxPi } from "./tmux.js";

export { hasTmux, type TmuxPi } from "./tmux.js";

/** The footer shows the model once the app is up and idle. */
export const READY = /fake-model\s*$/m;

export interface StartOptions {
	args?: string[];
	columns?: number;
	rows?: number;
	/** Merged over the sandbox's environment. */
	env?: NodeJS.ProcessEnv;
	/** Defaults to the sandbox's work folder. */
	cwd?: string;
	tmuxConf?: string;
	/** Shell commands the pane runs after pi's exit marker (tmux.ts `startPi`). */
	afterExit?: string[];
}

export interface TmuxApp {
	/** This test's sandbox (fresh for every test). */
	readonly sb: Sandbox;
	/** Starts the built pi in tmux; every app started is killed after the test. */
	start(options?: StartOptions): TmuxPi;
	/** `start`, then waits until the app is ready (READY, or `until`). */
	ready(options?: StartOptions & { until?: string | RegExp; timeoutMs?: number }): Promise<TmuxPi>;
}

/**
 * Registers the hooks of a tmux e2e file. `what` names the tests in the
 * message printed when tmux is missing (the tests skip; CI installs tmux).
 * `setup` runs after each fresh sandbox is created; `teardown` before it closes.
 */
export function useTmuxApp(
	what: string,
	hooks: { setup?: (sb: Sandbox) => void | Promise<void>; teardown?: () => void | Promise<void> } = {},
): TmuxApp {
	let sandbox: Sandbox | undefined;
	const running: TmuxPi[] = [];
	beforeAll(() => {
		if (!hasTmux) console.warn(`tmux not found: skipping ${what} (CI installs it)`);
		else assertBuilt();
	});
	beforeEach(async () => {
		sandbox = await createSandbox();
		await hooks.setup?.(sandbox);
	});
	afterEach(async () => {
		for (const p of running.splice(0)) p.kill();
		await hooks.teardown?.();
		await sandbox?.close();
		sandbox = undefined;
	});
	const app: TmuxApp = {
		get sb() {
			if (!sandbox) throw new Error("the sandbox exists only inside a test");
			return sandbox;
		},
		start(options = {}) {
			const sb = app.sb;
			const p = startPi({
				cwd: options.cwd ?? sb.cwd,
				env: { ...sb.env, ...options.env },
				args: options.args,
				columns: options.columns,
				rows: options.rows,
				tmuxConf: options.tmuxConf,
				afterExit: options.afterExit,
			});
			running.push(p);
			return p;
		},
		async ready(options = {}) {
			const p = app.start(options);
			await p.waitFor(options.until ?? READY, options.timeoutMs ?? 20_000);
			return p;
		},
	};
	return app;
}

/** Types `text`, presses Enter and, given `until`, waits for it on the screen. */
export async function submit(p: TmuxPi, text: string, until?: string | RegExp, timeoutMs = 20_000): Promise<string> {
	p.type(text);
	p.keys("Enter");
	return until === undefined ? p.screen() : p.waitFor(until, timeoutMs);
}

/** Moves a selector down to the row containing `text` (rows are picked with Down, not typed) and presses Enter. */
export async function choose(p: TmuxPi, text: string, maxRows = 12): Promise<void> {
	for (let i = 0; i < maxRows; i++) {
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

/** Waits `ms` (lets the app take a key before the next one). */
export const settle = (ms = 200) => new Promise((r) => setTimeout(r, ms));
