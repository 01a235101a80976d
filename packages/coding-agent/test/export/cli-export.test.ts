// `pi --export` with the BUILT cli: default name, ids, and every bad input
// ends with a clear error naming the path and no file left behind.
import { spawnSync } from "node:child_process";
import {
	chmodSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { writeFileAtomically } from "../../src/export/write.js";
import { assertBuilt, CLI } from "../cli/support.js";
import { ANSWER, writeSessionFile } from "./fixtures.js";

const NAME = "2026-11-30T10-00-00-000Z_0190f000-0000-7000-8000-00000000beef.jsonl";
let dir: string;
let agentDir: string;

function pi(args: string[], env: NodeJS.ProcessEnv = {}) {
	const r = spawnSync(process.execPath, [CLI, ...args], {
		cwd: dir,
		env: { PATH: process.env.PATH, HOME: dir, PI_CODING_AGENT_DIR: agentDir, ...env },
		encoding: "utf8",
	});
	return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const htmlFiles = (d: string) => readdirSync(d).filter((f) => f.endsWith(".html") || f.endsWith(".tmp"));

beforeAll(assertBuilt);
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "pi-export-cli-"));
	agentDir = join(dir, "agent");
	mkdirSync(agentDir);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("pi --export", () => {
	it("writes pi-session-<file name>.html in the current directory and prints its path", () => {
		writeSessionFile(join(dir, NAME));
		const r = pi(["--export", NAME]);
		const out = join(dir, `pi-session-${NAME.replace(/\.jsonl$/, "")}.html`);
		expect(r).toMatchObject({ code: 0, stderr: "" });
		expect(r.stdout).toBe(`Exported to: ${out}\n`);
		const html = readFileSync(out, "utf8");
		expect(html.startsWith("<!doctype html>")).toBe(true);
		expect(html).toContain(ANSWER);
	});

	it("takes an explicit output path and a session id (prefix) from the sessions dir", () => {
		const sessions = join(agentDir, "sessions", "--some-project--");
		mkdirSync(sessions, { recursive: true });
		writeSessionFile(join(sessions, NAME));
		const r = pi(["--export", "0190f000-0000-7000-8000-00000000be", "out.html"]);
		expect(r.stderr).toBe("");
		expect(r.stdout).toBe(`Exported to: ${join(dir, "out.html")}\n`);
		expect(readFileSync(join(dir, "out.html"), "utf8")).toContain(ANSWER);
	});

	it("a missing session file: error naming it, exit 1, nothing written", () => {
		const r = pi(["--export", "missing.jsonl"]);
		expect(r.code).toBe(1);
		expect(r.stderr).toBe(`Error: File not found: ${join(dir, "missing.jsonl")}\n`);
		expect(htmlFiles(dir)).toEqual([]);
	});

	it("an unknown id: error, exit 1", () => {
		const r = pi(["--export", "deadbeef"]);
		expect(r.code).toBe(1);
		expect(r.stderr).toContain("deadbeef");
	});

	it("a corrupt file (no session header), an empty file, a directory: errors naming the path", () => {
		writeFileSync(join(dir, "bad.jsonl"), "this is not json\n{also not}\n");
		writeFileSync(join(dir, "empty.jsonl"), "");
		mkdirSync(join(dir, "d.jsonl"));
		const bad = pi(["--export", "bad.jsonl"]);
		expect(bad.code).toBe(1);
		expect(bad.stderr).toContain(`${join(dir, "bad.jsonl")} is not a pi session file`);
		const empty = pi(["--export", "empty.jsonl"]);
		expect(empty.code).toBe(1);
		expect(empty.stderr).toContain(`${join(dir, "empty.jsonl")} is empty`);
		const d = pi(["--export", "d.jsonl"]);
		expect(d.code).toBe(1);
		expect(d.stderr).toContain(`${join(dir, "d.jsonl")} is a directory`);
		expect(htmlFiles(dir)).toEqual([]);
	});

	it("damaged lines are skipped with a warning naming file and line; the rest exports", () => {
		writeSessionFile(join(dir, NAME));
		const text = readFileSync(join(dir, NAME), "utf8").split("\n");
		text.splice(3, 0, '{"type":"message","id":"torn","parentId":');
		writeFileSync(join(dir, NAME), text.join("\n"));
		const r = pi(["--export", NAME, "x.html"]);
		expect(r.code).toBe(0);
		expect(r.stderr).toMatch(new RegExp(`Warning: ${join(dir, NAME).replace(/[.]/g, "\\.")}:4: `));
		expect(readFileSync(join(dir, "x.html"), "utf8")).toContain(ANSWER);
	});

	it("an output directory that does not exist: error naming it, nothing written", () => {
		writeSessionFile(join(dir, NAME));
		const r = pi(["--export", NAME, "nope/out.html"]);
		expect(r.code).toBe(1);
		expect(r.stderr).toBe(
			`Error: Cannot write ${join(dir, "nope/out.html")}: directory ${join(dir, "nope")} does not exist\n`,
		);
		expect(htmlFiles(dir)).toEqual([]);
	});

	it("an output directory without write permission: error naming the path, no temp file left", () => {
		writeSessionFile(join(dir, NAME));
		let target: string;
		if (process.getuid?.() === 0) {
			// root ignores mode bits; /sys is read-only in containers and for root outside them.
			target = "/sys/pi-export-test.html";
		} else {
			mkdirSync(join(dir, "ro"));
			chmodSync(join(dir, "ro"), 0o500);
			target = join(dir, "ro", "out.html");
		}
		const r = pi(["--export", NAME, target]);
		expect(r.code).toBe(1);
		expect(r.stderr).toMatch(new RegExp(`^Error: Cannot write ${target.replace(/[.]/g, "\\.")}: `));
		expect(existsSync(target)).toBe(false);
		if (!target.startsWith("/sys")) expect(readdirSync(join(dir, "ro"))).toEqual([]);
	});
});

describe("writeFileAtomically", () => {
	it("a failure while writing leaves the old file untouched and no temp file", () => {
		const target = join(dir, "page.html");
		writeFileSync(target, "old page");
		expect(() =>
			writeFileAtomically(target, (sink) => {
				sink("x".repeat(3 << 20)); // past the flush threshold: bytes hit the temp file
				throw new Error("renderer failed");
			}),
		).toThrow(`Cannot write ${target}: renderer failed`);
		expect(readFileSync(target, "utf8")).toBe("old page");
		expect(readdirSync(dir).sort()).toEqual(["agent", "page.html"]);
	});
});
