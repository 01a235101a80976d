/** Finds optional native helpers (rg, fd) on PATH. Never downloads anything. */
import { spawnSync } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";

const cache = new Map<string, string | null>();

export function findExecutable(names: readonly string[]): string | undefined {
	const key = names.join("|");
	const hit = cache.get(key);
	if (hit !== undefined) return hit ?? undefined;
	const dirs = (process.env.PATH ?? "").split(delimiter).filter(Boolean);
	for (const name of names) {
		for (const dir of dirs) {
			const candidate = join(dir, name);
			try {
				accessSync(candidate, constants.X_OK);
				cache.set(key, candidate);
				return candidate;
			} catch {
				// Not here.
			}
		}
	}
	cache.set(key, null);
	return undefined;
}

export const findRipgrep = () => findExecutable(["rg"]);
export const findFd = () => findExecutable(["fd", "fdfind"]);

const flagSupport = new Map<string, boolean>();

/** Whether a binary's --help mentions a flag (older fd lacks --no-require-git). */
export function supportsFlag(binary: string, flag: string): boolean {
	const key = `${binary} ${flag}`;
	const known = flagSupport.get(key);
	if (known !== undefined) return known;
	const r = spawnSync(binary, ["--help"], { encoding: "utf8", timeout: 5000 });
	const ok = typeof r.stdout === "string" && r.stdout.includes(flag);
	flagSupport.set(key, ok);
	return ok;
}
