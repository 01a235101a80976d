// A real local git repository for the git-checkpoint example's tests, and
// what `git stash create` left in it: stash commits are written to the object
// store without any ref (no `git stash list` entry), so they are found as
// unreachable commits.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";

export function git(cwd: string, args: string[]): string {
	return execFileSync("git", args, {
		cwd,
		encoding: "utf8",
		// The machine's git config must not change what the test sees.
		env: { PATH: process.env.PATH, HOME: cwd, GIT_CONFIG_NOSYSTEM: "1" },
	});
}

/** `git init` in `cwd` with one commit holding `files`. */
export function initRepo(cwd: string, files: Record<string, string>): void {
	git(cwd, ["init", "-q", "-b", "main"]);
	git(cwd, ["config", "user.name", "Test"]);
	git(cwd, ["config", "user.email", "test@example.invalid"]);
	for (const [name, content] of Object.entries(files)) writeFileSync(join(cwd, name), content);
	git(cwd, ["add", "."]);
	git(cwd, ["commit", "-q", "-m", "initial"]);
}

/** Commits `git stash create` made ("WIP on …"), each with `file`'s content in it, sorted by that content. */
export function stashCommits(cwd: string, file: string): { sha: string; subject: string; content: string }[] {
	const unreachable = git(cwd, ["fsck", "--unreachable", "--no-reflogs"])
		.split("\n")
		.map((line) => /^unreachable commit ([0-9a-f]+)$/.exec(line)?.[1])
		.filter((sha): sha is string => sha !== undefined);
	return unreachable
		.map((sha) => ({
			sha,
			subject: git(cwd, ["log", "-1", "--format=%s", sha]).trim(),
			content: git(cwd, ["show", `${sha}:${file}`]),
		}))
		.filter((c) => c.subject.startsWith("WIP on "))
		.sort((a, b) => a.content.localeCompare(b.content));
}
