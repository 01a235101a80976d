// Runs git against the shadow store: GIT_DIR is the store, GIT_WORK_TREE the
// project, and nothing from the caller's environment or the user's repository
// config can redirect it (GIT_* variables are dropped; hooks, fsmonitor,
// autocrlf and auto-gc are off). Failures come back as values: a missing git
// binary is `missing: true`, so the extension can turn itself off once.
import { spawn } from "node:child_process";

export interface GitResult {
	code: number;
	stdout: Buffer;
	stderr: string;
	/** The git binary could not be started (not installed, not on PATH). */
	missing: boolean;
}

export interface GitTarget {
	gitDir: string;
	workTree: string;
	/** When it answers true, no new git command starts against this store (pi is exiting). */
	stopped?: () => boolean;
}

const CONFIG = [
	"core.autocrlf=false",
	"core.safecrlf=false",
	"core.filemode=true",
	"core.symlinks=true",
	"core.quotepath=false",
	"core.fsmonitor=false",
	"core.untrackedCache=true",
	"core.hooksPath=/dev/null",
	"core.bigFileThreshold=16m",
	"gc.auto=0",
	"maintenance.auto=false",
	"advice.detachedHead=false",
];

export function gitEnv(target: GitTarget | undefined): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("GIT_")) env[k] = v;
	env.GIT_CONFIG_NOSYSTEM = "1";
	env.GIT_TERMINAL_PROMPT = "0";
	env.GIT_AUTHOR_NAME = env.GIT_COMMITTER_NAME = "pi checkpoints";
	env.GIT_AUTHOR_EMAIL = env.GIT_COMMITTER_EMAIL = "checkpoints@pi.invalid";
	env.LC_ALL = "C";
	if (target) {
		env.GIT_DIR = target.gitDir;
		env.GIT_WORK_TREE = target.workTree;
	}
	return env;
}

/** git's argv for `args`: pi's fixed config first, pathspecs literal (check-ignore refuses that flag). */
export function gitArgv(args: string[], literal = true): string[] {
	return [...CONFIG.flatMap((c) => ["-c", c]), ...(literal ? ["--literal-pathspecs"] : []), ...args];
}

/** One git command; `input` goes to stdin. Never throws. */
export function git(target: GitTarget | undefined, args: string[], input?: string | Buffer): Promise<GitResult> {
	const argv = gitArgv(args);
	if (target?.stopped?.()) {
		return Promise.resolve({
			code: -1,
			stdout: Buffer.alloc(0),
			stderr: "the checkpoint store is shut down",
			missing: false,
		});
	}
	return new Promise((resolve) => {
		let child: ReturnType<typeof spawn>;
		try {
			child = spawn("git", argv, {
				cwd: target?.workTree,
				env: gitEnv(target),
				stdio: ["pipe", "pipe", "pipe"],
			});
		} catch (error) {
			resolve({ code: -1, stdout: Buffer.alloc(0), stderr: String(error), missing: true });
			return;
		}
		const out: Buffer[] = [];
		const err: Buffer[] = [];
		let missing = false;
		child.stdout?.on("data", (d: Buffer) => out.push(d));
		child.stderr?.on("data", (d: Buffer) => err.push(d));
		child.on("error", (e: NodeJS.ErrnoException) => {
			if (e.code === "ENOENT") missing = true;
			err.push(Buffer.from(String(e.message)));
		});
		child.stdin?.on("error", () => {});
		child.on("close", (code) => {
			resolve({
				code: code ?? -1,
				stdout: Buffer.concat(out),
				stderr: Buffer.concat(err).toString("utf8").trim(),
				missing,
			});
		});
		if (input !== undefined) child.stdin?.end(input);
		else child.stdin?.end();
	});
}

/** Like `git`, but a non-zero exit becomes an Error naming the command and git's message. */
export async function gitOk(target: GitTarget | undefined, args: string[], input?: string | Buffer): Promise<Buffer> {
	const r = await git(target, args, input);
	if (r.missing) throw new GitMissingError();
	if (r.code !== 0) throw new Error(`git ${args[0]} failed (${r.code}): ${r.stderr || "no message"}`);
	return r.stdout;
}

export class GitMissingError extends Error {
	constructor() {
		super("git is not installed or not on PATH");
		this.name = "GitMissingError";
	}
}

/** NUL-separated output → strings (the last, empty piece dropped). */
export function splitNul(buf: Buffer): string[] {
	const s = buf.toString("utf8");
	const parts = s.split("\0");
	if (parts[parts.length - 1] === "") parts.pop();
	return parts;
}
