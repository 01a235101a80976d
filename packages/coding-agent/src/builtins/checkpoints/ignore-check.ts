// Asks git whether paths are ignored (`.gitignore` files, the store's
// info/exclude, the user's global excludes), so the fast path decides exactly
// as `ls-files --exclude-standard` does. One long-lived `git check-ignore
// --stdin` answers each path as it is written (it flushes per path), so a
// question costs a pipe round trip instead of a process start.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { type GitTarget, gitArgv, gitEnv } from "./git.js";

interface Pending {
	count: number;
	answers: boolean[];
	resolve: (ignored: boolean[]) => void;
	reject: (error: Error) => void;
}

export class IgnoreChecker {
	private child: ChildProcessWithoutNullStreams | undefined;
	private fields: string[] = [];
	private partial = "";
	private readonly pending: Pending[] = [];
	private dead: Error | undefined;

	constructor(private readonly target: GitTarget) {}

	private start(): ChildProcessWithoutNullStreams {
		if (this.child) return this.child;
		// --no-index: the shadow index may lag behind the fast path; only the rules count.
		const child = spawn("git", gitArgv(["check-ignore", "--stdin", "-z", "-v", "-n", "--no-index"], false), {
			cwd: this.target.workTree,
			env: gitEnv(this.target),
			stdio: ["pipe", "pipe", "pipe"],
		});
		child.stdout.setEncoding("utf8");
		child.stdout.on("data", (chunk: string) => this.onData(chunk));
		child.stdin.on("error", () => {});
		child.stderr.resume();
		const fail = (error: Error) => {
			this.dead = error;
			this.child = undefined;
			for (const p of this.pending.splice(0)) p.reject(error);
		};
		child.on("error", (e) => fail(e));
		child.on("close", (code) => fail(new Error(`git check-ignore ended (${code})`)));
		this.child = child;
		this.hold(false);
		return child;
	}

	/** Idle, it must not keep pi running; awaited, it must (or Node exits with the answer pending). */
	private hold(busy: boolean): void {
		const child = this.child;
		if (!child) return;
		if (busy) child.ref();
		else child.unref();
		for (const s of [child.stdin, child.stdout, child.stderr]) {
			const handle = s as unknown as { ref?: () => void; unref?: () => void };
			if (busy) handle.ref?.();
			else handle.unref?.();
		}
	}

	private onData(chunk: string): void {
		const parts = (this.partial + chunk).split("\0");
		this.partial = parts.pop() ?? "";
		this.fields.push(...parts);
		// Four fields per path: source, line, pattern, path. A "!" pattern re-includes.
		while (this.fields.length >= 4) {
			const [, , pattern = ""] = this.fields.splice(0, 4);
			const head = this.pending[0];
			if (!head) continue;
			head.answers.push(pattern !== "" && !pattern.startsWith("!"));
			if (head.answers.length === head.count) {
				this.pending.shift();
				if (this.pending.length === 0) this.hold(false);
				head.resolve(head.answers);
			}
		}
	}

	/** For each work-tree-relative path: true when git ignores it (a folder is best given without a trailing "/"). */
	check(paths: string[]): Promise<boolean[]> {
		if (paths.length === 0) return Promise.resolve([]);
		if (this.dead) return Promise.reject(this.dead);
		const child = this.start();
		return new Promise((resolve, reject) => {
			this.pending.push({ count: paths.length, answers: [], resolve, reject });
			this.hold(true);
			child.stdin.write(`${paths.join("\0")}\0`);
		});
	}

	close(): void {
		const child = this.child;
		this.child = undefined;
		this.dead ??= new Error("closed");
		child?.stdin.end();
		child?.kill();
	}
}
