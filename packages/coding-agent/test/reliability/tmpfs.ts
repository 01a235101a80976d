// Real tmpfs mounts for the tests of full and read-only file systems: only a
// root process with `mount` (CAP_SYS_ADMIN) can make them; elsewhere those
// tests are skipped (`describe.skipIf(!canMount)`), with the reason in the name.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const mounts: string[] = [];

/** Probed once per test file: can this process mount (and unmount) a tmpfs? */
export const canMount = (() => {
	if (process.getuid?.() !== 0) return false;
	const probe = mkdtempSync(join(tmpdir(), "pi-rel-mount-probe-"));
	try {
		return spawnSync("mount", ["-t", "tmpfs", "-o", "size=16k", "tmpfs", probe]).status === 0
			? spawnSync("umount", [probe]).status === 0
			: false;
	} catch {
		return false;
	} finally {
		rmSync(probe, { recursive: true, force: true });
	}
})();

/** Mounts a tmpfs at `dir` (size in KB, optionally read-only) until `unmountAll`; throws with mount's message when it fails. */
export function mountTmpfs(dir: string, sizeKb: number, readOnly = false): void {
	mkdirSync(dir, { recursive: true });
	const opts = `size=${sizeKb}k${readOnly ? ",ro" : ""}`;
	const r = spawnSync("mount", ["-t", "tmpfs", "-o", opts, "tmpfs", dir], { encoding: "utf8" });
	if (r.status !== 0) throw new Error(`mount failed: ${r.stderr}`);
	mounts.push(dir);
}

/** Unmounts (lazily) every tmpfs mounted since the last call; call it in afterEach before the sandbox goes. */
export function unmountAll(): void {
	for (const m of mounts.splice(0)) spawnSync("umount", ["-l", m]);
}
