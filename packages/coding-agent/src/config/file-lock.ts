// Cross-process lock around read-modify-write of a config file. proper-lockfile
// uses an atomic mkdir of `<file>.lock`, which works for files that do not
// exist yet (realpath: false) and recovers locks left by crashed processes.
// It is loaded on the first lock, not with this module: it and graceful-fs
// (which it patches `fs` through) are CommonJS that every start would compile,
// while most runs never write a config file.
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";

export interface LockOptions {
	/** Directory mode when the parent has to be created. */
	dirMode?: number;
	/** Give up after roughly this long (ms). */
	timeoutMs?: number;
}

/** Runs `fn` while holding the lock for `file`; the lock is released on every path. */
export async function withFileLock<T>(file: string, fn: () => Promise<T> | T, options: LockOptions = {}): Promise<T> {
	mkdirSync(dirname(file), { recursive: true, mode: options.dirMode ?? 0o755 });
	const timeoutMs = options.timeoutMs ?? 15_000;
	const { default: lockfile } = await import("proper-lockfile");
	const release = await lockfile.lock(file, {
		realpath: false,
		stale: 10_000,
		retries: { retries: Math.ceil(timeoutMs / 100), factor: 1.3, minTimeout: 10, maxTimeout: 200, randomize: true },
	});
	try {
		return await fn();
	} finally {
		await release().catch(() => {
			// A compromised/removed lock dir is not worth failing the write for.
		});
	}
}
