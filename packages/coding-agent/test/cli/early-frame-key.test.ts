// The early frame's key (cli/early-frame-key.ts frameKey): it changes with whatever the app's first frame
// is drawn from — arguments, folder, terminal size, environment, pi's and the project's files, the
// context files above the folder, the git branch — and not with what pi writes while it runs or with
// the terminal's own ids.
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FrameKeyInput, frameAllowed, frameKey } from "../../src/cli/early-frame-key.js";

let root: string;
let input: FrameKeyInput;

beforeEach(() => {
	root = mkdtempSync(join(tmpdir(), "pi-frame-key-"));
	const agentDir = join(root, "agent");
	const cwd = join(root, "work", "project");
	mkdirSync(agentDir, { recursive: true });
	mkdirSync(cwd, { recursive: true });
	writeFileSync(join(agentDir, "settings.json"), "{}");
	input = {
		buildId: "build-1",
		argv: ["--model", "fake/fake-model"],
		cwd,
		columns: 120,
		rows: 40,
		env: { PI_CODING_AGENT_DIR: agentDir, TERM: "xterm-256color", TMUX: "/tmp/tmux-0/a,100,0", TMUX_PANE: "%1" },
	};
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const agentDir = () => String(input.env.PI_CODING_AGENT_DIR);
/** Each change made by `steps` gives a key unlike the one before it. */
const eachChangesTheKey = (...steps: (() => void)[]) => {
	let key = frameKey(input);
	for (const step of steps) {
		step();
		const next = frameKey(input);
		expect(next).not.toBe(key);
		key = next;
	}
};
/** Sets a file's times apart from its last ones (a write within the same ms would keep them). */
const touch = (path: string, content: string, at: number) => {
	writeFileSync(path, content);
	utimesSync(path, at, at);
};

describe("the early frame's key", () => {
	it("is the same for the same start", () => {
		expect(frameKey(input)).toBe(frameKey({ ...input, env: { ...input.env } }));
	});

	it("changes with the arguments, the folder, the terminal's size and the pi build", () => {
		const key = frameKey(input);
		expect(frameKey({ ...input, argv: ["--model", "fake/other"] })).not.toBe(key);
		expect(frameKey({ ...input, columns: 100 })).not.toBe(key);
		expect(frameKey({ ...input, rows: 30 })).not.toBe(key);
		expect(frameKey({ ...input, buildId: "build-2" })).not.toBe(key);
		const other = join(root, "work", "other");
		mkdirSync(other);
		expect(frameKey({ ...input, cwd: other })).not.toBe(key);
	});

	it("changes with the environment, but not with the terminal's or multiplexer's ids", () => {
		const key = frameKey(input);
		expect(frameKey({ ...input, env: { ...input.env, OPENAI_API_KEY: "sk-1" } })).not.toBe(key);
		expect(frameKey({ ...input, env: { ...input.env, TERM: "screen" } })).not.toBe(key);
		expect(frameKey({ ...input, env: { ...input.env, TMUX: "/tmp/tmux-0/b,200,0", TMUX_PANE: "%7" } })).toBe(key);
		// Whether tmux is there is drawn (key handling), so its presence counts.
		const { TMUX: _, ...outside } = input.env;
		expect(frameKey({ ...input, env: outside })).not.toBe(key);
	});

	it("changes when pi's settings, models or keybindings change, or an extension is added", () => {
		const dir = agentDir();
		eachChangesTheKey(
			() => touch(join(dir, "settings.json"), '{"quietStartup":true}', 1_000),
			() => touch(join(dir, "models.json"), "{}", 2_000),
			() => touch(join(dir, "keybindings.json"), "{}", 3_000),
			() => mkdirSync(join(dir, "extensions")),
			() => writeFileSync(join(dir, "extensions", "hello.ts"), "export default () => {}"),
		);
	});

	it("does not change with what pi writes while it runs: sessions, checkpoints, caches", () => {
		const dir = agentDir();
		mkdirSync(join(dir, "sessions"));
		const key = frameKey(input);
		writeFileSync(join(dir, "sessions", "s.jsonl"), "{}\n");
		mkdirSync(join(dir, "sessions", "--work--"));
		expect(frameKey(input)).toBe(key);
	});

	it("changes with the project's .pi folder, context files in the folder or above it, and the git branch", () => {
		mkdirSync(join(root, "work", ".git"));
		eachChangesTheKey(
			() => mkdirSync(join(input.cwd, ".pi")),
			() => writeFileSync(join(input.cwd, ".pi", "settings.json"), "{}"),
			() => writeFileSync(join(root, "work", "AGENTS.md"), "# rules"),
			() => writeFileSync(join(input.cwd, "CLAUDE.md"), "# more"),
			() => writeFileSync(join(root, "work", ".git", "HEAD"), "ref: refs/heads/main\n"),
			() => writeFileSync(join(root, "work", ".git", "HEAD"), "ref: refs/heads/feature\n"),
		);
	});

	it("ignores per-window and per-login ids: ssh agent, VS Code, WezTerm, Alacritty, D-Bus", () => {
		const key = frameKey(input);
		const more = {
			SSH_AUTH_SOCK: "/tmp/ssh-1/agent.1",
			VSCODE_GIT_IPC_HANDLE: "/run/vscode-git-1.sock",
			WEZTERM_PANE: "3",
			ALACRITTY_WINDOW_ID: "9",
			DBUS_SESSION_BUS_ADDRESS: "unix:path=/run/user/0/bus",
		};
		const other = {
			SSH_AUTH_SOCK: "/tmp/ssh-2/agent.2",
			VSCODE_GIT_IPC_HANDLE: "/run/vscode-git-2.sock",
			WEZTERM_PANE: "4",
			ALACRITTY_WINDOW_ID: "1",
			DBUS_SESSION_BUS_ADDRESS: "unix:path=/run/user/0/bus2",
		};
		const withMore = frameKey({ ...input, env: { ...input.env, ...more } });
		expect(withMore).not.toBe(key);
		expect(frameKey({ ...input, env: { ...input.env, ...other } })).toBe(withMore);
	});
});

describe("which starts may show a recorded frame", () => {
	const allowed = (argv: string[] = input.argv as string[]) => frameAllowed(argv, input.cwd, input.env);

	it("a new session with nothing but pi's own code before the app", () => {
		expect(allowed()).toBe(true);
		expect(allowed(["--model", "fake/fake-model", "a prompt"])).toBe(true);
	});

	it("not one that opens a session, or loads an extension from the arguments", () => {
		for (const argv of [
			["-c"],
			["--continue"],
			["-r"],
			["--resume"],
			["--session", "x"],
			["--session=x"],
			["--fork", "x"],
		])
			expect(allowed(argv)).toBe(false);
		for (const argv of [["-e", "./ext.ts"], ["--extension", "./ext.ts"], ["--extension=./ext.ts"]])
			expect(allowed(argv)).toBe(false);
		// After "--" they are a prompt's words.
		expect(allowed(["--", "-c"])).toBe(true);
	});

	it("not when extensions, MCP servers or packages are configured, for the user or the project", () => {
		const dirs = [agentDir(), join(input.cwd, ".pi")];
		for (const dir of dirs) {
			mkdirSync(join(dir, "extensions"), { recursive: true });
			expect(allowed()).toBe(true); // an empty folder loads nothing
			writeFileSync(join(dir, "extensions", "x.ts"), "export default () => {}");
			expect(allowed()).toBe(false);
			rmSync(join(dir, "extensions"), { recursive: true });
			writeFileSync(join(dir, "mcp.json"), "{}");
			expect(allowed()).toBe(false);
			rmSync(join(dir, "mcp.json"));
			writeFileSync(join(dir, "settings.json"), JSON.stringify({ packages: ["npm:some-pkg"] }));
			expect(allowed()).toBe(false);
			writeFileSync(join(dir, "settings.json"), JSON.stringify({ extensions: ["./x.ts"] }));
			expect(allowed()).toBe(false);
			writeFileSync(join(dir, "settings.json"), "{ not json");
			expect(allowed()).toBe(false);
			writeFileSync(join(dir, "settings.json"), JSON.stringify({ packages: [], quietStartup: true }));
			expect(allowed()).toBe(true);
		}
	});
});
