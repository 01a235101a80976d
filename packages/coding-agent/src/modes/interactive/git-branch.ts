// The current git branch for the footer, read from .git/HEAD (no git
// process at start-up). Worktrees and submodules have a `.git` file that
// points at the real git dir.
import { readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

function gitDir(start: string): string | undefined {
	let dir = resolve(start);
	for (;;) {
		const candidate = join(dir, ".git");
		try {
			const st = statSync(candidate);
			if (st.isDirectory()) return candidate;
			if (st.isFile()) {
				const m = /^gitdir:\s*(.+)\s*$/m.exec(readFileSync(candidate, "utf8"));
				if (m) return resolve(dir, m[1]);
			}
		} catch {
			// not here; look in the parent
		}
		const parent = dirname(dir);
		if (parent === dir) return undefined;
		dir = parent;
	}
}

/** Branch name, a short commit id when detached, or undefined outside a repository. */
export function readGitBranch(cwd: string): string | undefined {
	const dir = gitDir(cwd);
	if (!dir) return undefined;
	try {
		const head = readFileSync(join(dir, "HEAD"), "utf8").trim();
		const ref = /^ref:\s*refs\/heads\/(.+)$/.exec(head);
		if (ref) return ref[1];
		return /^[0-9a-f]{7,}$/.test(head) ? head.slice(0, 7) : undefined;
	} catch {
		return undefined;
	}
}
