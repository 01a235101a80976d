/**
 * Crash-safe file replacement: the new content goes to a temp file in the
 * same directory, is fsync'ed, then renamed over the target, so a reader (or
 * a crash) sees the old or the new file, never a truncated one. The target's
 * permission bits are kept; a symlink is followed so the link itself stays.
 */
import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import { basename, dirname, join } from "node:path";

async function resolveTarget(path: string): Promise<string> {
	try {
		return await fs.realpath(path);
	} catch {
		return path;
	}
}

export async function atomicWriteFile(path: string, data: string | Uint8Array): Promise<void> {
	const target = await resolveTarget(path);
	let mode: number | undefined;
	try {
		const st = await fs.stat(target);
		if (st.isDirectory()) throw Object.assign(new Error(`EISDIR: ${target} is a directory`), { code: "EISDIR" });
		mode = st.mode & 0o7777;
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
	}
	const temp = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString("hex")}.tmp`);
	let handle: fs.FileHandle;
	try {
		handle = await fs.open(temp, "wx", mode ?? 0o666);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		// Directory not writable but the file is: fall back to an in-place write.
		if ((code === "EACCES" || code === "EPERM" || code === "EROFS") && mode !== undefined) {
			await fs.writeFile(target, data);
			return;
		}
		throw error;
	}
	try {
		await handle.writeFile(data);
		if (mode !== undefined) await handle.chmod(mode);
		await handle.sync();
	} catch (error) {
		await handle.close().catch(() => {});
		await fs.rm(temp, { force: true });
		throw error;
	}
	await handle.close();
	try {
		await fs.rename(temp, target);
	} catch (error) {
		await fs.rm(temp, { force: true });
		throw error;
	}
}
