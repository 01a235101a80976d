/**
 * The two find engines. Pattern semantics follow fd's `--glob`: matched
 * against the entry's name, or — when the pattern contains "/" — against the
 * full path with a `**` prefix. Directories are listed with a trailing "/".
 * Both return every match sorted in walk order; the caller applies the limit.
 */
import { spawn } from "node:child_process";
import { picomatch } from "../../lazy-cjs.js";
import { onDisk } from "../shared/paths.js";
import { findGitRoot, loadRootStack } from "./ignore-rules.js";
import type { FindQuery } from "./types.js";
import { pathSortKey, walk } from "./walk.js";

export function fullPathPattern(pattern: string): string | undefined {
	if (!pattern.includes("/")) return undefined;
	return pattern.startsWith("/") || pattern.startsWith("**/") ? pattern : `**/${pattern}`;
}

function sortEntries(paths: string[]): string[] {
	const keyed = paths.map((p) => ({ p, k: pathSortKey(p.endsWith("/") ? p.slice(0, -1) : p) }));
	keyed.sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0));
	return keyed.map((e) => e.p);
}

export async function findJs(query: FindQuery): Promise<string[]> {
	const full = fullPathPattern(query.pattern);
	// The compiled regex directly: much cheaper per entry than picomatch's matcher wrapper.
	const re = picomatch().makeRe(full ?? query.pattern, { dot: true });
	const isMatch = (s: string) => re.test(s);
	const { stack } = await loadRootStack(query.root);
	const root = query.root.endsWith("/") ? query.root.slice(0, -1) : query.root;
	const out: string[] = [];
	let sliceStart = performance.now();
	for (const e of walk(onDisk(query.root), { rootStack: stack, signal: query.signal })) {
		if (performance.now() - sliceStart > 20) {
			// Let the event loop breathe (UI, abort) during long walks.
			await new Promise<void>((resolve) => setImmediate(resolve));
			query.signal?.throwIfAborted();
			sliceStart = performance.now();
		}
		const name = e.rel.slice(e.rel.lastIndexOf("/") + 1);
		const subject = full ? `${root}/${e.rel}` : name;
		if (isMatch(subject)) out.push(e.kind === "dir" ? `${e.rel}/` : e.rel);
	}
	return out; // Already in walk order.
}

export async function fdArgs(query: FindQuery, noRequireGit: boolean): Promise<string[] | undefined> {
	const inGit = (await findGitRoot(query.root)) !== undefined;
	// Without --no-require-git, fd ignores .gitignore outside a repository: it cannot give our semantics.
	if (!inGit && !noRequireGit) return undefined;
	const args = ["--glob", "--color=never", "--hidden", "--exclude", ".git"];
	if (noRequireGit) args.push("--no-require-git");
	if (!inGit) args.push("--no-ignore-parent");
	const full = fullPathPattern(query.pattern);
	if (full) args.push("--full-path");
	args.push("--", full ?? query.pattern, ".");
	return args;
}

export function findFdRun(fd: string, args: string[], query: FindQuery): Promise<string[]> {
	return new Promise((resolve, reject) => {
		const child = spawn(fd, args, { cwd: query.root, stdio: ["ignore", "pipe", "pipe"] });
		const chunks: Buffer[] = [];
		let stderr = "";
		const onAbort = () => child.kill("SIGKILL");
		if (query.signal?.aborted) onAbort();
		else query.signal?.addEventListener("abort", onAbort, { once: true });
		child.stdout.on("data", (d: Buffer) => chunks.push(d));
		child.stderr.on("data", (d: Buffer) => {
			if (stderr.length < 8192) stderr += d.toString("utf8");
		});
		child.on("error", (error) => {
			query.signal?.removeEventListener("abort", onAbort);
			reject(new Error(`Failed to run fd: ${error.message}`));
		});
		child.on("close", (code) => {
			query.signal?.removeEventListener("abort", onAbort);
			if (query.signal?.aborted) return reject(new Error("Operation aborted"));
			if (code !== 0 && code !== 1) return reject(new Error(stderr.trim() || `fd exited with code ${code}`));
			const lines = Buffer.concat(chunks)
				.toString("utf8")
				.split("\n")
				.filter((l) => l.length > 0)
				.map((l) => (l.startsWith("./") ? l.slice(2) : l));
			resolve(sortEntries(lines));
		});
	});
}
