// Shared set-up for the checkpoint tests: a real folder with files of every
// kind (text, binary, executable, nested), a fingerprint of a folder that
// includes content and the executable bit, and an in-process session with
// builtin:checkpoints whose UI answers dialogs from a script.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
	chmodSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	statSync,
	writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { afterEach, beforeEach } from "vitest";
import { ExtensionBridge } from "../../../src/agent-session/extension-bridge.js";
import { createNoUIContext } from "../../../src/extensions/no-ui.js";
import type { ExtensionUIContext } from "../../../src/extensions/types.js";
import { SessionManager } from "../../../src/session/session-manager.js";
import { makeSession } from "../../agent-session/support.js";
import { inMemoryExtensions } from "../../extensions/helpers.js";

/** path → "<exec bit> <sha256>" for every file under `dir` (`.git` left out); symlinks by target. */
export function fingerprint(dir: string): Record<string, string> {
	const out: Record<string, string> = {};
	const walk = (d: string) => {
		for (const name of readdirSync(d).sort()) {
			if (name === ".git") continue;
			const p = join(d, name);
			const st = statSync(p);
			if (st.isDirectory()) {
				walk(p);
				if (readdirSync(p).length === 0) out[`${relative(dir, p)}/`] = "empty dir";
			} else {
				const exec = st.mode & 0o100 ? "x" : "-";
				out[relative(dir, p)] = `${exec} ${createHash("sha256").update(readFileSync(p)).digest("hex").slice(0, 16)}`;
			}
		}
	};
	walk(dir);
	return out;
}

/** A project folder with text, binary, executable and nested files. */
export function makeProject(root = mkdtempSync(join(tmpdir(), "pi-cp-"))): string {
	return fillProject(join(root, "project"));
}

/** Fills `cwd` with the test files (see makeProject). */
export function fillProject(cwd: string): string {
	mkdirSync(join(cwd, "src", "deep"), { recursive: true });
	writeFileSync(join(cwd, "a.txt"), "one\n");
	writeFileSync(join(cwd, "b.txt"), "bee\n");
	writeFileSync(join(cwd, "run.sh"), "#!/bin/sh\necho hi\n");
	chmodSync(join(cwd, "run.sh"), 0o755);
	writeFileSync(join(cwd, "img.bin"), Buffer.from([0, 1, 2, 255, 254, 0, 10, 13]));
	writeFileSync(join(cwd, "src", "deep", "mod.ts"), "export const x = 1;\n");
	return cwd;
}

export type DialogAnswer = (
	method: "select" | "confirm",
	title: string,
	options: string[],
) => string | boolean | undefined;

/** A UI that answers dialogs with `answer` and records every dialog and notice. */
export function scriptedUI(answer: DialogAnswer) {
	const dialogs: { method: string; title: string; options: string[] }[] = [];
	const notices: { message: string; type?: string }[] = [];
	const ui: ExtensionUIContext = {
		...createNoUIContext((message, type) => void notices.push({ message, type })),
		select: async (title, options) => {
			dialogs.push({ method: "select", title, options });
			const a = answer("select", title, options);
			return typeof a === "string" ? a : undefined;
		},
		confirm: async (title, message) => {
			dialogs.push({ method: "confirm", title: `${title}\n${message}`, options: [] });
			return answer("confirm", `${title}\n${message}`, []) === true;
		},
	};
	return { ui, dialogs, notices };
}

/** A session in `cwd` with the real write/edit/bash tools and the given extensions, UI scripted. */
export async function sessionIn(
	cwd: string,
	factories: Parameters<typeof inMemoryExtensions>[0],
	answer: DialogAnswer = () => undefined,
) {
	const made = await makeSession({
		cwd,
		sessionManager: SessionManager.create(cwd, join(dirname(cwd), "sessions")),
		customTools: [],
		tools: ["read", "write", "edit", "bash"],
	});
	const { runner, errors } = inMemoryExtensions(factories);
	const scripted = scriptedUI(answer);
	const bridge = new ExtensionBridge({
		session: made.session,
		runner,
		mode: "rpc",
		ui: scripted.ui,
		hasUI: true,
		projectTrusted: true,
	});
	await bridge.start();
	return { ...made, runner, bridge, errors, ...scripted };
}

/** The git a test's wrapper on PATH hands each command to. */
export const realGit = execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim();

/**
 * Puts a `git` first on PATH (`<root>/bin/git`, before `basePath`) that logs each command's name — its
 * first argument past the `-c` / `--option` / `name=value` ones — to `<root>/git.log`, then runs the real
 * git. The caller puts PATH back. Returns the log's reader and a way to empty it.
 */
export function loggingGitOnPath(
	root: string,
	basePath: string | undefined,
): { commands: () => string[]; clear: () => void } {
	const bin = join(root, "bin");
	const log = join(root, "git.log");
	mkdirSync(bin, { recursive: true });
	writeFileSync(
		join(bin, "git"),
		`#!/bin/sh\nfor a in "$@"; do case "$a" in -c|--*|*=*) ;; *) echo "$a" >> ${log}; break;; esac; done\nexec ${realGit} "$@"\n`,
	);
	chmodSync(join(bin, "git"), 0o755);
	process.env.PATH = `${bin}:${basePath}`;
	return {
		commands: () => (existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : []),
		clear: () => rmSync(log, { force: true }),
	};
}

/** A test's project folder (see `projectPerTest`): set before each test. */
export interface ProjectPerTest {
	/** The test's own folder: the project, pi's agent folder (`agent/`) and anything else the test makes. */
	root: string;
	/** The project: a folder with files of every kind (`makeProject`). */
	cwd: string;
	/** PATH as it was before any test put a `git` of its own first. */
	readonly basePath: string | undefined;
}

/**
 * Before each test of the file: a new folder with a project in it, and PI_CODING_AGENT_DIR pointed
 * inside it; after each: both variables and PATH put back, the folder removed.
 */
export function projectPerTest(prefix: string): ProjectPerTest {
	const saved = { agentDir: process.env.PI_CODING_AGENT_DIR, path: process.env.PATH };
	const env: ProjectPerTest = { root: "", cwd: "", basePath: saved.path };
	beforeEach(() => {
		env.root = mkdtempSync(join(tmpdir(), prefix));
		env.cwd = makeProject(env.root);
		process.env.PI_CODING_AGENT_DIR = join(env.root, "agent");
	});
	afterEach(() => {
		if (saved.agentDir === undefined) delete process.env.PI_CODING_AGENT_DIR;
		else process.env.PI_CODING_AGENT_DIR = saved.agentDir;
		process.env.PATH = saved.path;
		rmSync(env.root, { recursive: true, force: true });
	});
	return env;
}
