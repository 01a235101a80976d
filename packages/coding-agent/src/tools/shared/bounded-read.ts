/**
 * Reads a whole regular file with a size cap. The path is opened with
 * O_NONBLOCK, so a FIFO without a writer cannot make the open wait forever
 * (nor leave a thread-pool thread stuck that keeps the process alive), and the
 * opened file is checked with fstat: devices, FIFOs and sockets are refused
 * before a byte is read, and a file that grows past the cap while being read
 * is refused rather than read without end.
 */
import { constants, promises as fs } from "node:fs";
import { assertRegular } from "./atomic-write.js";

export const MAX_TEXT_FILE_BYTES = 256 * 1024 * 1024;

export function tooLargeError(path: string, size: number, max: number): Error {
	const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)}MB`;
	return Object.assign(new Error(`it is too large (${mb(size)}; the limit is ${mb(max)})`), { code: "EFBIG", path });
}

export async function readRegularFile(path: string | Buffer, maxBytes = MAX_TEXT_FILE_BYTES): Promise<Buffer> {
	const shown = typeof path === "string" ? path : path.toString("utf8");
	assertRegular(await fs.stat(path), shown);
	const handle = await fs.open(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
	try {
		const st = await handle.stat();
		assertRegular(st, shown);
		if (st.size > maxBytes) throw tooLargeError(shown, st.size, maxBytes);
		// One byte more than the cap tells a file that grew past it.
		let buf = Buffer.allocUnsafe(Math.min(maxBytes + 1, Math.max(st.size + 1, 64 * 1024)));
		let len = 0;
		for (;;) {
			if (len === buf.length) {
				if (len > maxBytes) throw tooLargeError(shown, len, maxBytes);
				const bigger = Buffer.allocUnsafe(Math.min(maxBytes + 1, buf.length * 2));
				buf.copy(bigger, 0, 0, len);
				buf = bigger;
			}
			const { bytesRead } = await handle.read(buf, len, buf.length - len, len);
			if (bytesRead === 0) break;
			len += bytesRead;
		}
		if (len > maxBytes) throw tooLargeError(shown, len, maxBytes);
		return buf.subarray(0, len);
	} finally {
		await handle.close();
	}
}
