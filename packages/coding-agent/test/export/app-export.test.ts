// /export, /import and /share inside the whole app (headless terminal, real
// AgentSession with a scripted stream). /share runs against a fake `gh`
// put first on PATH: logged in, logged out, and absent.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { VirtualTerminal } from "../../../tui/test/helpers/virtual-terminal.js";
import { InteractiveMode } from "../../src/modes/interactive/interactive-mode.js";
import { plainTheme } from "../../src/modes/interactive/theme-fallback.js";
import { SessionManager } from "../../src/session/session-manager.js";
import { makeSession } from "../agent-session/support.js";
import { waitForScreen } from "../support/screen.js";
import { ANSWER, richSession, writeSessionFile } from "./fixtures.js";

let mode: InteractiveMode | undefined;
const dirs: string[] = [];
const savedPath = process.env.PATH;
afterEach(async () => {
	process.env.PATH = savedPath;
	await mode?.shutdown();
	mode = undefined;
	for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function setup() {
	const root = mkdtempSync(join(tmpdir(), "pi-export-app-"));
	dirs.push(root);
	const agentDir = join(root, "agent");
	const sessionDir = join(root, "sessions");
	const cwd = join(root, "work");
	mkdirSync(agentDir, { recursive: true });
	mkdirSync(cwd, { recursive: true });
	const sessionManager = SessionManager.create(cwd, sessionDir);
	const s = await makeSession({ sessionManager });
	const term = new VirtualTerminal(160, 40);
	mode = new InteractiveMode({
		session: s.session,
		cwd,
		agentDir,
		sessionDir,
		version: "9.9.9",
		terminal: term,
		theme: plainTheme,
	});
	void mode.run();
	const screen = async () => (await term.screen()).join("\n");
	const waitFor = (pred: (s: string) => boolean, ms = 5000) => waitForScreen(screen, pred, ms);
	const type = async (text: string) => term.typeRaw(text);
	const send = async (text: string, reply: string) => {
		s.fake.enqueue({ text: reply });
		await type(`${text}\r`);
		await waitFor((x) => x.includes(reply));
		await s.session.agent.waitForIdle?.();
	};
	await waitFor((x) => x.includes("test-model"));
	return { ...s, root, cwd, agentDir, sessionDir, screen, waitFor, type, send };
}

/** A fake `gh` first on PATH; records its arguments. */
function fakeGh(root: string, loggedIn: boolean): string {
	const bin = join(root, "bin");
	mkdirSync(bin, { recursive: true });
	const log = join(root, "gh.log");
	writeFileSync(
		join(bin, "gh"),
		`#!/bin/sh
echo "$@" >> "${log}"
if [ "$1" = auth ]; then ${loggedIn ? "exit 0" : 'echo "You are not logged into any GitHub hosts." >&2; exit 1'}; fi
if [ "$1" = gist ]; then cp "$5" "${root}/uploaded.html"; echo "- Creating gist session.html" >&2; echo "https://gist.github.com/someone/0123abcd"; exit 0; fi
exit 2
`,
	);
	chmodSync(join(bin, "gh"), 0o755);
	process.env.PATH = `${bin}:${savedPath}`;
	return log;
}

describe("/export, /import and /share in the app", () => {
	it("/export writes HTML by default name or path, JSONL for .jsonl, and names a bad path", async () => {
		const app = await setup();
		await app.send("export me please", "exported answer");
		await app.type("/export\r");
		const file = app.session.sessionFile as string;
		const expected = join(
			app.cwd,
			`pi-session-${file
				.split("/")
				.pop()
				?.replace(/\.jsonl$/, "")}.html`,
		);
		await app.waitFor((x) => x.includes("Session exported to:"));
		expect(readFileSync(expected, "utf8")).toContain("exported answer");
		await app.type("/export out/copy.jsonl\r");
		await app.waitFor((x) => x.includes("Export failed: Cannot write") && x.includes("does not exist"));
		mkdirSync(join(app.cwd, "out"));
		await app.type("/export out/copy.jsonl\r");
		await app.waitFor((x) => x.includes(`Session exported to: ${join(app.cwd, "out/copy.jsonl")}`));
		const lines = readFileSync(join(app.cwd, "out/copy.jsonl"), "utf8").trim().split("\n");
		expect(JSON.parse(lines[0])).toMatchObject({ type: "session", id: app.session.sessionId });
		expect(lines.length).toBe(app.sessionManager.getEntries().length + 1);
	});

	it("/import validates, asks, copies into the session dir keeping id and cwd, and switches to it", async () => {
		const app = await setup();
		const src = join(app.root, "elsewhere", "2026-11-30T10-00-00-000Z_0190f000.jsonl");
		mkdirSync(join(app.root, "elsewhere"));
		writeSessionFile(src);
		writeFileSync(join(app.root, "bad.jsonl"), "garbage\n");
		await app.type(`/import ${join(app.root, "bad.jsonl")}\r`);
		await app.waitFor((x) => x.includes("Import failed:") && x.includes("is not a pi session file"));
		await app.type(`/import ${join(app.root, "missing.jsonl")}\r`);
		await app.waitFor((x) => x.includes(`Import failed: File not found: ${join(app.root, "missing.jsonl")}`));
		// It asks before replacing the open session; Esc (and "No") cancel without copying anything.
		const before = app.session.sessionFile;
		await app.type(`/import ${src}\r`);
		await app.waitFor((x) => x.includes(`Import session: Replace current session with ${src}?`));
		await app.type("\x1b");
		await app.waitFor((x) => x.includes("Import cancelled"));
		await app.type(`/import ${src}\r`);
		await app.waitFor((x) => x.includes("Replace current session with") && x.includes("No"));
		await app.type("\x1b[B\r"); // down to "No", enter
		await app.waitFor((x) => x.split("Import cancelled").length === 3);
		expect(app.session.sessionFile).toBe(before);
		expect(existsSync(join(app.sessionDir, "2026-11-30T10-00-00-000Z_0190f000.jsonl"))).toBe(false);
		await app.type(`/import ${src}\r`);
		await app.waitFor((x) => x.includes("Replace current session with"));
		await app.type("\r");
		await app.waitFor((x) => x.includes(`Session imported from: ${src}`));
		const copy = join(app.sessionDir, "2026-11-30T10-00-00-000Z_0190f000.jsonl");
		expect(app.session.sessionFile).toBe(copy);
		expect(readFileSync(copy, "utf8")).toBe(readFileSync(src, "utf8"));
		expect(app.session.sessionId).toBe(richSession().header.id);
		expect(app.sessionManager.getCwd()).toBe("/home/user/project");
		await app.waitFor(
			(x) => x.includes(ANSWER.slice(0, 30)) && x.includes("This session was started in /home/user/project"),
		);
		// A second import of the same name does not overwrite the first copy.
		await app.type(`/import ${src}\r`);
		await app.waitFor((x) => x.includes("Replace current session with"));
		await app.type("\r");
		await app.waitFor((x) => x.includes("Session imported from:") && existsSync(copy.replace(/\.jsonl$/, "-1.jsonl")));
	});

	it("/share uploads the page as a gist with gh, and says what to do without it", async () => {
		const app = await setup();
		await app.send("share this", "shared answer");
		const log = fakeGh(app.root, true);
		await app.type("/share\r");
		await app.waitFor((x) => x.includes("Shared as a private gist: https://gist.github.com/someone/0123abcd"));
		const calls = readFileSync(log, "utf8");
		expect(calls).toContain("auth status");
		expect(calls).toMatch(/^gist create --desc pi session \S+session\.html$/m);
		expect(calls).not.toContain("--public");
		expect(readFileSync(join(app.root, "uploaded.html"), "utf8")).toContain("shared answer");
		fakeGh(app.root, false);
		await app.type("/share\r");
		await app.waitFor((x) => x.includes("gh is not logged in: run `gh auth login`"));
		process.env.PATH = join(app.root, "no-such-bin");
		await app.type("/share\r");
		await app.waitFor((x) => x.includes("Sharing needs the GitHub CLI"));
	});
});
