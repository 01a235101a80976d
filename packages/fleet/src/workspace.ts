// Workspace snapshots in git: a commit of every git-visible file (tracked and
// untracked-but-not-ignored) made through a private index, so the user's index
// and branches are untouched, kept alive by `refs/pi-fleet/<session>`. Restoring
// writes the snapshot's files back and removes git-visible files it did not
// have. Ignored files and a directory that is not a git work tree are outside.
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

const identity = {
	GIT_AUTHOR_NAME: "pi fleet",
	GIT_AUTHOR_EMAIL: "pi-fleet@localhost",
	GIT_COMMITTER_NAME: "pi fleet",
	GIT_COMMITTER_EMAIL: "pi-fleet@localhost",
};

async function git(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<string> {
	const { stdout } = await run("git", args, {
		cwd,
		env: { ...process.env, ...identity, ...env },
		maxBuffer: 64 * 1024 * 1024,
	});
	return stdout.trim();
}

/** The work tree's top directory, or undefined when `cwd` is not in a git work tree (or git is missing). */
export async function workTreeOf(cwd: string): Promise<string | undefined> {
	try {
		return (await git(cwd, ["rev-parse", "--show-toplevel"])) || undefined;
	} catch {
		return undefined;
	}
}

async function withPrivateIndex<T>(fn: (env: NodeJS.ProcessEnv) => Promise<T>): Promise<T> {
	const index = join(tmpdir(), `pi-fleet-index-${randomUUID()}`);
	try {
		return await fn({ GIT_INDEX_FILE: index });
	} finally {
		rmSync(index, { force: true });
	}
}

/** Commits the git-visible state of `cwd`'s work tree; returns the commit id (undefined outside git). */
export async function snapshotWorkspace(cwd: string, sessionId: string): Promise<string | undefined> {
	const top = await workTreeOf(cwd);
	if (!top) return undefined;
	return withPrivateIndex(async (env) => {
		await git(top, ["add", "-A", "."], env);
		const tree = await git(top, ["write-tree"], env);
		const commit = await git(top, ["commit-tree", tree, "-m", `pi fleet snapshot of session ${sessionId}`], env);
		await git(top, ["update-ref", `refs/pi-fleet/${sessionId}`, commit]);
		return commit;
	});
}

/** Makes the git-visible files of `cwd`'s work tree exactly those of `commit`. */
export async function restoreWorkspace(cwd: string, commit: string): Promise<void> {
	const top = await workTreeOf(cwd);
	if (!top) throw new Error(`Cannot restore the workspace: ${cwd} is not in a git work tree`);
	await withPrivateIndex(async (env) => {
		await git(top, ["read-tree", commit], env);
		// Files the snapshot did not have (and git does not ignore) were made after it.
		const extra = await git(top, ["ls-files", "-z", "--others", "--exclude-standard"], env);
		for (const rel of extra.split("\0").filter(Boolean)) rmSync(join(top, rel), { force: true });
		await git(top, ["checkout-index", "-a", "-f"], env);
	});
}
