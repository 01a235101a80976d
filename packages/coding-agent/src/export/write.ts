// Writing an export: into a temp file next to the target, then one rename,
// so a failed or interrupted export never leaves a partial page behind and
// an existing file is replaced whole or not at all. Errors name the path.
import { closeSync, existsSync, fsyncSync, openSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { SessionExportError } from "./source.js";

const FLUSH_BYTES = 1 << 20;

function describe(error: unknown): string {
	const code = (error as NodeJS.ErrnoException)?.code;
	if (code === "EACCES" || code === "EPERM") return "permission denied";
	if (code === "ENOSPC") return "no space left on the device";
	if (code === "EROFS") return "read-only file system";
	if (code === "EISDIR") return "it is a directory";
	return code ?? (error instanceof Error ? error.message : String(error));
}

/** Checks that `file` can be created: its directory exists and it is not a directory itself. */
export function assertWritableTarget(file: string): void {
	const dir = dirname(file);
	if (!existsSync(dir)) throw new SessionExportError(`Cannot write ${file}: directory ${dir} does not exist`);
	if (!statSync(dir).isDirectory()) throw new SessionExportError(`Cannot write ${file}: ${dir} is not a directory`);
	if (existsSync(file) && statSync(file).isDirectory())
		throw new SessionExportError(`Cannot write ${file}: it is a directory`);
}

/**
 * Calls `produce` with a sink whose chunks end up in `file`. Returns the
 * number of bytes written. On any error the temp file is removed and a
 * SessionExportError naming `file` is thrown.
 */
export function writeFileAtomically<T>(
	file: string,
	produce: (sink: (chunk: string) => void) => T,
): { bytes: number; result: T } {
	assertWritableTarget(file);
	const tmp = join(dirname(file), `.${basename(file)}.${process.pid}.${Date.now().toString(36)}.tmp`);
	let fd: number;
	try {
		fd = openSync(tmp, "wx", 0o644);
	} catch (error) {
		throw new SessionExportError(`Cannot write ${file}: ${describe(error)}`);
	}
	let bytes = 0;
	let pending: string[] = [];
	let pendingLength = 0;
	const flush = () => {
		if (pending.length === 0) return;
		const buf = Buffer.from(pending.join(""), "utf8");
		pending = [];
		pendingLength = 0;
		let off = 0;
		while (off < buf.length) off += writeSync(fd, buf, off);
		bytes += buf.length;
	};
	try {
		const result = produce((chunk) => {
			pending.push(chunk);
			pendingLength += chunk.length;
			if (pendingLength >= FLUSH_BYTES) flush();
		});
		flush();
		fsyncSync(fd);
		closeSync(fd);
		fd = -1;
		renameSync(tmp, file);
		return { bytes, result };
	} catch (error) {
		if (fd >= 0) {
			try {
				closeSync(fd);
			} catch {
				// already failing; the original error matters
			}
		}
		try {
			unlinkSync(tmp);
		} catch {
			// nothing to clean up
		}
		if (error instanceof SessionExportError) throw error;
		throw new SessionExportError(`Cannot write ${file}: ${describe(error)}`);
	}
}
