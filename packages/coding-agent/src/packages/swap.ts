// Putting a freshly prepared package directory in place of the installed
// one: the old directory is renamed aside, the new one renamed in, the old
// one deleted. Two renames in one directory, so an interrupt leaves either
// the old or the new package, or (between the renames) the old one aside,
// which recoverSwap puts back before the next use.
import { existsSync, readdirSync, renameSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/**
 * Replaces `target` with `fresh` (both directories next to each other). The
 * old one is renamed aside first and deleted last; `recoverSwap` puts it back
 * if the process died in between.
 */
export function swapInto(fresh: string, target: string): void {
	const old = `${target}.old-${process.pid}`;
	if (existsSync(target)) renameSync(target, old);
	renameSync(fresh, target);
	rmSync(old, { recursive: true, force: true });
}

/** After an interrupted swap (target gone, `<target>.old-<pid>` left): the old checkout goes back. */
export function recoverSwap(target: string): void {
	if (existsSync(target)) return;
	const parent = dirname(target);
	const prefix = `${basename(target)}.old-`;
	let names: string[];
	try {
		names = readdirSync(parent).filter((n) => n.startsWith(prefix));
	} catch {
		return;
	}
	if (names.length > 0) renameSync(join(parent, names[0]), target);
}
