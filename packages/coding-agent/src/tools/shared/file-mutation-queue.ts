/**
 * Serialises mutations of one file across parallel tool calls. Keyed by the
 * real path, so "a.txt", "./a.txt" and a symlink to it share one queue;
 * different files proceed in parallel.
 */
import { realpathSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";

const queues = new Map<string, Promise<unknown>>();

function queueKey(filePath: string): string {
	const abs = resolve(filePath);
	try {
		return realpathSync(abs);
	} catch {
		// A file about to be created: canonicalise its directory instead.
		try {
			return join(realpathSync(dirname(abs)), basename(abs));
		} catch {
			return abs;
		}
	}
}

export function withFileMutationQueue<T>(filePath: string, fn: () => Promise<T>): Promise<T> {
	const key = queueKey(filePath);
	const previous = queues.get(key) ?? Promise.resolve();
	const run = previous.then(fn, fn);
	// The queue must survive a failed mutation, so it tracks settlement only.
	const tail = run.then(
		() => undefined,
		() => undefined,
	);
	queues.set(key, tail);
	void tail.then(() => {
		if (queues.get(key) === tail) queues.delete(key);
	});
	return run;
}
